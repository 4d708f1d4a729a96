import Foundation
import VoiceAudio
import VoiceSynthesis

/// Speaking on a connection: text as audio events, sentence by sentence.
extension WyomingSession {
    /// `text` spoken by eSpeak NG, sent as audio events sentence by sentence: the first
    /// sentence's audio leaves while the rest is still being spoken, so a long reply starts as
    /// soon as a short one. Synthesis waits its turn for eSpeak NG's one engine, and it and
    /// cutting the audio into events take a while: off the cooperative threads, which every
    /// other connection needs. Returns an `error` when nothing could be spoken.
    func synthesize(_ text: String, voice: String) async -> [WyomingEvent] {
        var format: WyomingAudioFormat?
        var sent = 0
        for sentence in Self.sentences(of: text) {
            let speech: SynthesizedSpeech
            do {
                speech = try await onThreadOfItsOwn { try SpeechSynthesizer(voice: voice).speak(sentence) }
            } catch {
                // Audio already under way ends where it is; the error follows it.
                guard let format else { return [WyomingEvent.error("\(error)")] }
                send(.audioStop(milliseconds: sent * 1000 / max(format.rate, 1)))
                return [WyomingEvent.error("\(error)")]
            }
            if format == nil {
                format = WyomingAudioFormat(rate: speech.sampleRate, width: 2, channels: 1)
                send(.audioStart(format!))
            }
            for event in Self.audioChunks(speech.samples, format: format!, from: sent) { send(event) }
            sent += speech.samples.count
        }
        // Nothing to say: no audio, as the stream's events say it.
        guard let format else {
            return Self.audioEvents([], sampleRate: (try? SpeechSynthesizer.sampleRate()) ?? 22_050)
        }
        return [.audioStop(milliseconds: sent * 1000 / max(format.rate, 1))]
    }

    /// An SSML document (`text_format: ssml`) spoken by eSpeak NG, whole: its elements may
    /// span sentences, so it is not cut into them. The audio events go out as for plain text.
    func synthesize(ssml document: String, voice: String) async -> [WyomingEvent] {
        let speech: SynthesizedSpeech
        do {
            speech = try await onThreadOfItsOwn {
                try SpeechSynthesizer(voice: voice).speak(document, ssml: true)
            }
        } catch {
            return [WyomingEvent.error("\(error)")]
        }
        let format = WyomingAudioFormat(rate: speech.sampleRate, width: 2, channels: 1)
        send(.audioStart(format))
        for event in Self.audioChunks(speech.samples, format: format, from: 0) { send(event) }
        return [.audioStop(milliseconds: speech.samples.count * 1000 / max(format.rate, 1))]
    }

    /// Each of `sentences` spoken as audio of its own (`audio-start` … `audio-stop`), as text
    /// sent in pieces is answered; an `error` ends them.
    func speak(_ sentences: [String], voice: String) async -> [WyomingEvent] {
        for sentence in sentences {
            let events = await synthesize(sentence, voice: voice)
            if events.contains(where: { $0.type == "error" }) { return events }
            for event in events { send(event) }
        }
        return []
    }

    /// The whole sentences at the start of `text` (each ended by `.`, `!` or `?` and a space),
    /// and what follows them, which may still go on.
    static func wholeSentences(of text: String) -> (sentences: [String], rest: String) {
        var sentences: [String] = []
        var rest = Substring(text)
        while let end = rest.indices.first(where: { index in
            ".!?".contains(rest[index]) && rest.index(after: index) < rest.endIndex
                && rest[rest.index(after: index)].isWhitespace
        }) {
            let sentence = rest[...end].trimmingCharacters(in: .whitespacesAndNewlines)
            if !sentence.isEmpty { sentences.append(sentence) }
            rest = rest[rest.index(after: end)...]
        }
        return (sentences, String(rest))
    }

    /// `text` cut after each sentence's end (`.`, `!` or `?` before a space), for speaking one
    /// at a time; text with no such end is one sentence.
    static func sentences(of text: String) -> [String] {
        let (sentences, rest) = wholeSentences(of: text)
        let last = rest.trimmingCharacters(in: .whitespacesAndNewlines)
        return last.isEmpty ? sentences : sentences + [last]
    }

    /// `samples` (16-bit mono) as `audio-chunk`s of 1024 samples in `format`, timed from `offset`
    /// samples into the stream.
    static func audioChunks(_ samples: [Int16], format: WyomingAudioFormat, from offset: Int = 0)
        -> [WyomingEvent]
    {
        var events: [WyomingEvent] = []
        let chunk = 1024
        var start = 0
        while start < samples.count {
            let end = min(start + chunk, samples.count)
            let milliseconds = (offset + start) * 1000 / max(format.rate, 1)
            events.append(
                .audioChunk(WAVFile.pcm16(samples[start..<end]), format: format, milliseconds: milliseconds))
            start = end
        }
        return events
    }

    /// `samples` (16-bit mono at `sampleRate`) as Wyoming sends audio: `audio-start`,
    /// `audio-chunk`s of 1024 samples, `audio-stop`, with the timestamps Home Assistant gives them.
    static func audioEvents(_ samples: [Int16], sampleRate: Int) -> [WyomingEvent] {
        let format = WyomingAudioFormat(rate: sampleRate, width: 2, channels: 1)
        return [WyomingEvent.audioStart(format)] + audioChunks(samples, format: format)
            + [.audioStop(milliseconds: samples.count * 1000 / max(sampleRate, 1))]
    }
}
