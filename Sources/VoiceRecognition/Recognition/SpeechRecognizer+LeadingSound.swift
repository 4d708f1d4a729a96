import Foundation
import VoiceAudio

/// A short sound, then a pause, then the command: a satellite's awake chime streamed ahead of the
/// person's words, a click or a cough before them. The grammar has to begin a command on that
/// sound, and it does by stretching the first word over the sound, the pause and the first words
/// said ("activate" for the chime and "set a timer", so "set a timer for 5 minutes" was heard as
/// "activate mood lighting"). No word a person says runs across a pause that quiet, so that is
/// the sign: the utterance is heard again from the end of the pause.
struct LeadingSound: Sendable, Hashable {
    /// Where the pause after the sound is, in 10 ms frames of the utterance.
    let pause: Range<Int>

    /// How far above the utterance's quiet (its 10th percentile of frame levels) a frame must be
    /// to count as sound, in dB.
    static let soundMargin = 12.0
    /// The shortest pause, in frames: longer than a stop's closure inside a word.
    static let shortestPause = 15
    /// The pause must begin this many frames after the first sound at most: a sound before a
    /// command is short, and a person's first words before a pause are not what this is about.
    static let latestPause = 70
    /// Frames of sound after the pause, at least: a command's worth.
    static let soundAfter = 30
    /// Frames before the pause's end from which the utterance is heard again, so that a word's
    /// quiet onset is not cut.
    static let margin = 5

    /// The first pause in `samples` (16 kHz, from the start of an utterance) that follows a short
    /// sound and comes before more sound; `nil` when there is none.
    init?(in samples: [Int16]) {
        let frame = AudioFormat.recognizerSampleRate / 100
        let frames = samples.count / frame
        guard frames > Self.shortestPause + Self.soundAfter else { return nil }
        let levels = (0..<frames).map { index -> Double in
            let energy = ContinuousCapture.energy(samples[(index * frame)..<((index + 1) * frame)])
            return 10 * log10(energy / Double(frame) + 1)
        }
        let quiet = levels.sorted()[frames / 10]
        let sound = levels.map { $0 > quiet + Self.soundMargin }
        guard let first = sound.firstIndex(of: true) else { return nil }
        var index = first
        while index < frames && index <= first + Self.latestPause {
            guard !sound[index] else {
                index += 1
                continue
            }
            let end = sound[index...].firstIndex(of: true) ?? frames
            if end - index >= Self.shortestPause && sound[end...].count(where: { $0 }) >= Self.soundAfter {
                pause = index..<end
                return
            }
            index = end
        }
        return nil
    }

    /// Whether `result`'s first word began on the sound and ended after the pause: the grammar
    /// made a word of the sound and the words after it.
    func isBridged(by result: RecognitionResult) -> Bool {
        guard let first = result.words.first(where: { !$0.isFiller }) else { return false }
        return first.startFrame < pause.lowerBound && first.endFrame >= pause.upperBound
    }

    /// The sample from which the utterance is heard again.
    var resumeSample: Int {
        max(pause.upperBound - Self.margin, pause.lowerBound) * (AudioFormat.recognizerSampleRate / 100)
    }
}

extension SpeechRecognizer {
    /// `result`, heard from `samples` (which begin where its frames begin), heard again from the
    /// end of a pause after a leading sound when its first word ran across that pause
    /// (``LeadingSound``), and that hearing kept when it heard words; `result` otherwise.
    func withoutLeadingSound(_ result: RecognitionResult, samples: [Int16]) throws(SpeechError)
        -> (result: RecognitionResult, samples: [Int16])
    {
        guard settings.hearsAgainAfterLeadingSound, grammar?.isCommands == true,
            !result.spokenWords.isEmpty, let leading = LeadingSound(in: samples),
            leading.isBridged(by: result)
        else { return (result, samples) }
        let rest = Array(samples[leading.resumeSample...])
        let again = try heardAgain(rest)
        guard !again.spokenWords.isEmpty else { return (result, samples) }
        return (again, rest)
    }
}
