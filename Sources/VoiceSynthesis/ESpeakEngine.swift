import CESpeakNG
import Foundation
import Synchronization
import VoiceAudio

/// The one eSpeak NG instance of the process. eSpeak keeps global state, so every use goes
/// through this type, one at a time.
package final class ESpeakEngine: @unchecked Sendable {  // its state is only touched inside `exclusively`
    /// The engine, initialised on first use.
    package static func shared() throws(SpeechError) -> ESpeakEngine {
        try instance.withLock { engine throws(SpeechError) -> ESpeakEngine in
            if let engine { return engine }
            let made = try ESpeakEngine()
            engine = made
            return made
        }
    }

    private static let instance = Mutex<ESpeakEngine?>(nil)

    /// The rate eSpeak synthesises at (22,050 Hz).
    let sampleRate: Int
    private let lock = Mutex(())

    private init() throws(SpeechError) {
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0)
        guard rate > 0 else {
            throw SpeechError(
                .missingModel,
                "eSpeak NG could not start: its voice data is missing. Install espeak-ng-data (apt-get install espeak-ng-data)."
            )
        }
        sampleRate = Int(rate)
        espeak_SetSynthCallback { samples, count, events in
            guard let samples, count > 0, let collector = events?.pointee.user_data else { return 0 }
            Unmanaged<SampleCollector>.fromOpaque(collector).takeUnretainedValue()
                .append(UnsafeBufferPointer(start: samples, count: Int(count)))
            return 0
        }
    }

    /// Runs `body` with the engine to itself.
    package func exclusively<T>(_ body: () throws(SpeechError) -> T) throws(SpeechError) -> T {
        try lock.withLock { _ throws(SpeechError) -> T in try body() }
    }

    /// The names eSpeak NG knows voices by: their names, file identifiers and languages.
    private(set) lazy var voiceNames: Set<String> = {
        var names = Set<String>()
        guard var entry = espeak_ListVoices(nil) else { return names }
        while let voice = entry.pointee {
            if let name = voice.pointee.name { names.insert(String(cString: name).lowercased()) }
            if let identifier = voice.pointee.identifier {
                let path = String(cString: identifier).lowercased()
                names.insert(path)
                names.insert(String(path.split(separator: "/").last ?? ""))
            }
            // Languages: (priority byte, name, NUL) pairs, ending with a zero byte.
            if var cursor = voice.pointee.languages {
                while cursor.pointee != 0 {
                    let language = String(cString: cursor + 1)
                    names.insert(language.lowercased())
                    cursor += language.utf8.count + 2
                }
            }
            entry += 1
        }
        return names
    }()

    /// Selects a voice ("en-us", "en-us+f2"). eSpeak NG would fall back to another voice without
    /// a word for a name it does not know, so the name (before any "+variant") is checked first.
    package func selectVoice(_ name: String) throws(SpeechError) {
        let base = String(name.split(separator: "+").first ?? "").lowercased()
        guard voiceNames.contains(base) else {
            throw SpeechError(
                .invalidInput, "eSpeak NG has no voice \"\(name)\"; `espeak-ng --voices` lists them.")
        }
        let result = espeak_SetVoiceByName(name)
        guard result == EE_OK else {
            throw SpeechError(
                .invalidInput,
                "eSpeak NG has no voice \"\(name)\" (error \(result.rawValue)); `espeak-ng --voices` lists them."
            )
        }
    }

    /// Synthesises `text` with the current voice: 16-bit samples at ``sampleRate``. With `ssml`,
    /// elements within `<` `>` are SSML (`<break time="1s"/>`, `<prosody>`, `<say-as>`), and
    /// those eSpeak NG does not know are left out, not read.
    func synthesize(_ text: String, rate: Int, pitch: Int, ssml: Bool = false) throws(SpeechError) -> [Int16]
    {
        espeak_SetParameter(espeakRATE, Int32(rate), 0)
        espeak_SetParameter(espeakPITCH, Int32(pitch), 0)
        let collector = SampleCollector()
        let context = Unmanaged.passRetained(collector)
        defer { context.release() }
        let result = text.withCString { pointer in
            espeak_Synth(
                pointer, strlen(pointer) + 1, 0, POS_CHARACTER, 0,
                UInt32(espeakCHARS_UTF8) | (ssml ? UInt32(espeakSSML) : 0), nil,
                context.toOpaque())
        }
        guard result == EE_OK else {
            throw SpeechError(
                .engineFailure, "eSpeak NG failed to speak (error \(result.rawValue))",
                code: Int(result.rawValue))
        }
        espeak_Synchronize()
        return collector.samples
    }

    /// eSpeak's phonemes for `word`, as its ASCII phoneme names separated by "_" with stress marks.
    package func phonemes(of word: String) -> String {
        word.withCString { pointer in
            var text: UnsafeRawPointer? = UnsafeRawPointer(pointer)
            var parts: [String] = []
            while let current = text {
                var cursor: UnsafeRawPointer? = current
                guard
                    let result = espeak_TextToPhonemes(
                        &cursor, Int32(espeakCHARS_UTF8), Int32(Character("_").asciiValue!) << 8)
                else { break }
                parts.append(String(cString: result))
                if cursor == current { break }
                text = cursor
            }
            return parts.joined(separator: "_")
        }
    }
}

/// Collects what eSpeak's callback hands over.
final class SampleCollector: @unchecked Sendable {
    // Only touched by eSpeak's callback, which runs on the calling thread inside espeak_Synth.
    private(set) var samples: [Int16] = []

    func append(_ buffer: UnsafeBufferPointer<Int16>) {
        samples.append(contentsOf: buffer)
    }
}
