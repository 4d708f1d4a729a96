// Coverage-guided fuzzing of what reads audio people hand the program: WAV files, raw 16-bit PCM
// (standard input, `arecord`'s output), and the resampler every input at another rate goes
// through. Every input must be read, or refused with an error that names the file and says why;
// a crash, a hang, or samples that are not numbers is a finding.
//
//     Scripts/fuzz.sh wav 10000000
//
// Built only with VOICE_INTENTS_FUZZ set, and with -sanitize=fuzzer, which links libFuzzer; its
// entry point hands over to libFuzzer's driver. AUDIO_FUZZ_TARGET chooses what is read: wav,
// pcm or resampler.

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
    default: fatalError("AUDIO_FUZZ_TARGET is \(fuzzTarget); expected wav, pcm or resampler")
    }
    return 0
}

/// A WAV file in memory: read whole, or refused with a reason that names it; what is read is
/// numbers at a positive rate, and turns into the recognizer's 16 kHz.
func readWAV(_ data: Data) {
    do {
        let audio = try WAVFile.read(data: data, name: "fuzz.wav")
        guard audio.sampleRate > 0, audio.samples.allSatisfy(\.isFinite) else {
            fatalError("a WAV read with a rate of \(audio.sampleRate) or samples that are not numbers")
        }
        _ = audio.forRecognizer
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
/// resampler says, numbers all, and the stream exactly the whole.
func resample(_ bytes: [UInt8]) {
    guard bytes.count >= 3 else { return }
    let from = rates[Int(bytes[0]) % rates.count]
    let to = rates[Int(bytes[1]) % rates.count]
    let chunk = 1 + Int(bytes[2])
    let samples = stride(from: 3, to: bytes.count - 1, by: 2).map {
        Float(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) / 32_768
    }
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

/// The program's entry point as SwiftPM links an executable target (`<module>_main`): runs
/// libFuzzer on ``audioFuzz(_:_:)``.
@_cdecl("AudioFuzz_main")
public func audioFuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    runFuzzer(argc, argv) { audioFuzz($0, $1) }
}
