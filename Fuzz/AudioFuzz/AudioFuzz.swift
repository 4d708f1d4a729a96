// Coverage-guided fuzzing of what reads audio people hand the program: WAV files, raw 16-bit PCM
// (standard input, `arecord`'s output), and the resampler every input at another rate goes
// through. Every input must be read, or refused with an error that names the file and says why;
// a crash, a hang, or samples that are not numbers is a finding.
//
//     Scripts/fuzz.sh wav 10000000
//
// Built only with VOICE_INTENTS_FUZZ set, and with -sanitize=fuzzer, which links libFuzzer; its
// entry point hands over to libFuzzer's driver. AUDIO_FUZZ_TARGET chooses what is read: wav,
// pcm, resampler or recognizer.

import Foundation
import FuzzDriver
import VoiceAudio

/// What this run reads.
let fuzzTarget = ProcessInfo.processInfo.environment["AUDIO_FUZZ_TARGET"] ?? "wav"

/// The rates people's files and devices come at, from the lowest a WAV may have (the first bytes
/// of a resampler input choose from them).
let rates = [8_000, 11_025, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 96_000, 4_000, 192_000]

@_cdecl("LLVMFuzzerTestOneInput")
public func audioFuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    switch fuzzTarget {
    case "wav": readWAV(Data(bytes))
    case "pcm": readPCM(Data(bytes))
    case "resampler": resample(Array(bytes))
    case "recognizer": toRecognizer(Array(bytes))
    default: fatalError("AUDIO_FUZZ_TARGET is \(fuzzTarget); expected wav, pcm, resampler or recognizer")
    }
    return 0
}

/// A WAV file in memory: read whole, or refused with a reason that names it; what is read is
/// numbers at a rate the reader takes, and no more samples than bytes. (Turning it into the
/// recognizer's 16 kHz is the `recognizer` target's: a filter for each new rate costs a hundred
/// times more than reading the file.)
func readWAV(_ data: Data) {
    do {
        let audio = try WAVFile.read(data: data, name: "fuzz.wav")
        guard WAVFile.sampleRates.contains(audio.sampleRate), audio.samples.allSatisfy(\.isFinite) else {
            fatalError("a WAV read with a rate of \(audio.sampleRate) or samples that are not numbers")
        }
        // No sample is made from nothing: at most one per byte of the file.
        guard audio.samples.count <= data.count else {
            fatalError("\(audio.samples.count) samples from \(data.count) bytes")
        }
    } catch {
        guard error.file == "fuzz.wav", !error.reason.isEmpty else {
            fatalError("an error that does not say which file or why: \(error)")
        }
    }
}

/// Raw PCM through a pipe, in chunks of any size: every whole sample comes out, in order, and an
/// odd byte at the end is dropped and said so.
func readPCM(_ data: Data) {
    let chunk = 1 + Int(data.first ?? 0) % 64
    let pipe = Pipe()
    let writer = pipe.fileHandleForWriting
    // The pipe's buffer (64 KiB) holds any input libFuzzer makes (-max_len 4096).
    writer.write(data)
    try? writer.close()
    var reader = RawPCMReader(fileHandle: pipe.fileHandleForReading, name: "-", samplesPerChunk: chunk)
    var samples: [Int16] = []
    do {
        while let next = try reader.next() {
            guard !next.isEmpty, next.count <= chunk else { fatalError("a chunk of \(next.count), not 1…\(chunk)") }
            samples += next
        }
    } catch {
        fatalError("a pipe that was read whole failed: \(error)")
    }
    let expected = stride(from: 0, to: data.count - 1, by: 2).map {
        Int16(bitPattern: UInt16(data[data.startIndex + $0]) | UInt16(data[data.startIndex + $0 + 1]) << 8)
    }
    guard samples == expected, reader.droppedTrailingByte == !data.count.isMultiple(of: 2) else {
        fatalError("read \(samples.count) samples of \(expected.count), odd byte \(reader.droppedTrailingByte)")
    }
}

/// Samples at one rate resampled to another, whole and as a stream in chunks: as many as the
/// resampler says, numbers all, and the stream exactly the whole. The first two bytes choose the
/// rates from ``rates``, the third the chunk size.
func resample(_ bytes: [UInt8]) {
    guard bytes.count >= 3 else { return }
    let from = rates[Int(bytes[0]) % rates.count]
    let to = rates[Int(bytes[1]) % rates.count]
    let chunk = 1 + Int(bytes[2])
    let samples = sixteenBitSamples(bytes.dropFirst(3))
    let resampler = Resampler(from: from, to: to)
    let whole = resampler.resample(samples)
    guard whole.count == resampler.outputCount(forInputCount: samples.count), whole.allSatisfy(\.isFinite)
    else {
        fatalError("\(from) → \(to) Hz: \(whole.count) samples of \(samples.count), or not numbers")
    }
    var stream = StreamingResampler(from: from, to: to)
    var streamed: [Float] = []
    var start = 0
    while start < samples.count {
        let end = min(start + chunk, samples.count)
        streamed += stream.resample(Array(samples[start..<end]))
        start = end
    }
    streamed += stream.finish()
    // In pieces of any size, exactly what the whole gives.
    guard streamed == whole else {
        fatalError("\(from) → \(to) Hz in chunks of \(chunk): \(streamed.count) samples differ from the whole's \(whole.count)")
    }
}

/// Samples at any rate a WAV file may have (the first three bytes), as the recognizer hears them:
/// at 16 kHz, the band a telephone lacks filled in, as many samples as 16 kHz holds, numbers all.
/// Slow, because most rates need a filter of their own.
func toRecognizer(_ bytes: [UInt8]) {
    guard bytes.count >= 3 else { return }
    let value = bytes.prefix(3).reduce(0) { $0 << 8 | Int($1) }
    let rate = WAVFile.sampleRates.lowerBound + value % WAVFile.sampleRates.count
    let samples = sixteenBitSamples(bytes.dropFirst(3))
    let heard = AudioBuffer(samples: samples, sampleRate: rate).atRecognizerRate
    let expected =
        rate == 16_000 ? samples.count : Resampler(from: rate, to: 16_000).outputCount(forInputCount: samples.count)
    guard heard.sampleRate == 16_000, heard.samples.count == expected, heard.samples.allSatisfy(\.isFinite) else {
        fatalError("\(rate) Hz for the recognizer: \(heard.samples.count) samples of \(expected), or not numbers")
    }
}

/// Little-endian 16-bit samples, scaled to -1…1; an odd last byte is left out.
func sixteenBitSamples(_ bytes: ArraySlice<UInt8>) -> [Float] {
    stride(from: bytes.startIndex, to: bytes.endIndex - 1, by: 2).map {
        Float(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) / 32_768
    }
}

/// The program's entry point as SwiftPM links an executable target (`<module>_main`): runs
/// libFuzzer on ``audioFuzz(_:_:)``.
@_cdecl("AudioFuzz_main")
public func audioFuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    runFuzzer(argc, argv) { audioFuzz($0, $1) }
}
