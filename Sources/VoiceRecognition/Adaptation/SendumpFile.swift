import Foundation
import VoiceAudio

/// PocketSphinx's quantized mixture weights (`sendump`, as `mk_s2sendump -pocketsphinx yes`
/// writes them) read back into sphinxtrain's `mixture_weights`, which `bw` and `map_adapt` need
/// and Debian's model does not ship.
///
/// A `sendump` is a header of length-prefixed strings ended by a zero length, the number of
/// codewords and of senones, then for each feature stream and codeword one byte per senone: the
/// weight's negative log in base 1.0001, shifted right by 10 bits.
enum SendumpFile {
    /// The feature streams of a PTM model (cepstra, their deltas and double deltas).
    static let streams = 3

    /// Writes the weights of `sendump` to `destination` as sphinxtrain's `mixture_weights`
    /// (each senone's weights in each stream summing to 1).
    ///
    /// - Throws: ``SpeechError`` when the file cannot be read or is not a sendump.
    static func mixtureWeights(fromSendump sendump: URL, to destination: URL) throws(SpeechError) {
        let data: [UInt8]
        do {
            data = Array(try Data(contentsOf: sendump))
        } catch {
            throw SpeechError(.missingModel, "cannot read \(sendump.path): \(error.localizedDescription)")
        }
        func int32(at offset: Int) -> Int? {
            guard offset + 4 <= data.count else { return nil }
            return Int(
                Int32(
                    bitPattern: UInt32(data[offset]) | UInt32(data[offset + 1]) << 8 | UInt32(
                        data[offset + 2]) << 16
                        | UInt32(data[offset + 3]) << 24))
        }
        let malformed = SpeechError(.invalidInput, "\(sendump.path) is not a PocketSphinx sendump")
        var offset = 0
        while true {
            guard let length = int32(at: offset), length >= 0 else { throw malformed }
            offset += 4 + length
            if length == 0 { break }
        }
        guard let codewords = int32(at: offset), let senones = int32(at: offset + 4), codewords > 0,
            senones > 0,
            data.count >= offset + 8 + streams * codewords * senones
        else { throw malformed }
        offset += 8
        // The quantized negative log of each weight back to the weight.
        let step = Foundation.log(1.0001) * 1024
        let table = (0..<256).map { Float(exp(-Double($0) * step)) }
        var weights = [Float](repeating: 0, count: senones * streams * codewords)
        for stream in 0..<streams {
            for codeword in 0..<codewords {
                let row = offset + (stream * codewords + codeword) * senones
                for senone in 0..<senones {
                    weights[(senone * streams + stream) * codewords + codeword] =
                        table[Int(data[row + senone])]
                }
            }
        }
        for start in stride(from: 0, to: weights.count, by: codewords) {
            let sum = weights[start..<(start + codewords)].reduce(0, +)
            if sum > 0 { for index in start..<(start + codewords) { weights[index] /= sum } }
        }
        // sphinxtrain's s3 file: a text header with no checksum line, the byte-order mark, the
        // three dimensions, the count, then the weights.
        var file = Data("s3\nversion 1.0\nendhdr\n".utf8)
        func append(_ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { file.append(contentsOf: $0) }
        }
        append(0x1122_3344)
        for dimension in [senones, streams, codewords, weights.count] { append(UInt32(dimension)) }
        for weight in weights { append(weight.bitPattern) }
        do {
            try file.write(to: destination)
        } catch {
            throw SpeechError(
                .invalidInput, "cannot write \(destination.path): \(error.localizedDescription)")
        }
    }
}
