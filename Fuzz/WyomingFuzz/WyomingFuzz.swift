// Coverage-guided fuzzing of what a Wyoming peer sends the server: its bytes framed into events
// as they arrive in pieces of any size (`WyomingFrameReader`, which the channel's decoder runs),
// each event read by protocol area (`WyomingRequest`), and audio chunks turned into the
// recognizer's 16 kHz in the format their stream started with (`ChunkConverter`). A peer's bytes
// end in events or in an error that says why, after which its connection is closed; a crash, a
// hang, more held than the limits allow, or audio that grows past what its format can hold is a
// finding.
//
//     Scripts/fuzz.sh wyoming 10000000
//
// Built only with VOICE_INTENTS_FUZZ set, and with -sanitize=fuzzer, which links libFuzzer; its
// entry point hands over to libFuzzer's driver.

import FuzzDriver
import Wyoming

/// Small limits, so that inputs reach them.
let limits = WyomingFrameReader.Limits(header: 512, data: 1024, payload: 2048)

@_cdecl("LLVMFuzzerTestOneInput")
public func wyomingFuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    guard let first = bytes.first else { return 0 }
    // The first byte chooses the size of the pieces the rest arrives in.
    let piece = 1 + Int(first) % 256
    var reader = WyomingFrameReader(limits: limits)
    var converter: ChunkConverter?
    var offset = 1
    while offset < count {
        let end = min(offset + piece, count)
        let events: [WyomingEvent]
        do {
            events = try reader.read(bytes[offset..<end])
        } catch {
            guard !error.description.isEmpty else { fatalError("an error that does not say why") }
            return 0  // the connection is closed
        }
        // What waits for the rest of an event: a header line, its data and its payload at most.
        guard reader.bufferedCount <= limits.header + 1 + limits.data + limits.payload else {
            fatalError("\(reader.bufferedCount) bytes held, over the limits")
        }
        for event in events { handle(WyomingRequest(event), converter: &converter) }
        offset = end
    }
    return 0
}

/// Audio as the server takes it: a stream's format from `audio-start` (or a chunk that names
/// one), its chunks at 16 kHz, at most four samples for each frame sent.
func handle(_ request: WyomingRequest, converter: inout ChunkConverter?) {
    switch request {
    case .audio(.start(let format)):
        converter = format.map(ChunkConverter.init)
    case .audio(.chunk(let format, let bytes)):
        guard let samples = ChunkConverter.convert(bytes, format: format, with: &converter) else { return }
        let format = converter!.format
        let frames = bytes.count / (format.width * format.channels)
        // At most four samples a frame (16 kHz from the lowest rate read, 4 kHz), with what the
        // resampler held from before: a peer cannot make the server hold much more than it sent.
        let most = (frames + 64) * 4 + 1_024
        guard samples.count <= most else {
            fatalError("\(samples.count) samples from \(frames) frames at \(format.rate) Hz")
        }
    case .audio(.stop):
        _ = converter?.finish()
        converter = nil
    default:
        break
    }
}

/// The program's entry point as SwiftPM links an executable target (`<module>_main`): runs
/// libFuzzer on ``wyomingFuzz(_:_:)``.
@_cdecl("WyomingFuzz_main")
public func wyomingFuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    runFuzzer(argc, argv) { wyomingFuzz($0, $1) }
}
