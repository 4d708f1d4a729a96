import VoiceAudio
import VoiceRecognition

/// The wake words one `detect` listens for, and where in its audio they were heard.
///
/// Each word is heard with its own cutoff and check (``WyomingApp/wakeWordSetting(for:)``). With a
/// check (`serve --wake-word-check`, or a calibration's), a wake word the model hears is not
/// detected at once:
/// the audio around it (``WakeWordCheck/secondsBefore`` before, ``WakeWordCheck/secondsAfter``
/// after) is handed back to be heard again by the recognizer (``SpeechRecognizer/check(_:wakeWord:)``),
/// and only a wake it lets through is sent as `detection`.
final class WakeListening {
    /// Each word's detector, and the margin its check asks for (`nil`: no check).
    private let detectors: [(detector: WakeWordDetector, checkMargin: Double?)]
    /// Whether any word is checked, so the audio around its wakes is kept.
    private let checks: Bool
    /// 16 kHz samples heard since `audio-start`.
    private var samples = 0
    /// The last of them, for the check: `recent[0]` is sample `samples - recent.count`.
    private var recent: [Int16] = []
    /// Wakes waiting for the audio after them before they are checked: the model, the margin its
    /// check asks for, and the sample it fired at.
    private var waiting: [(model: WakeWordDetector.Model, margin: Double, at: Int)] = []
    private(set) var detected = false

    /// A wake the model heard, for the recognizer to hear again: its model, the margin its check
    /// asks for, the audio around it, and where in the stream it was (ms).
    struct ToCheck: Sendable {
        let model: WakeWordDetector.Model
        let margin: Double
        let audio: [Int16]
        let milliseconds: Int
    }

    /// Detectors for `names` (installed models' names, as `info` lists them), or for every one
    /// of `installed` when `names` is `nil` or empty, each heard with `setting(name)`.
    init(
        names: [String]?, installed: [WakeWordDetector.Model],
        setting: (String) -> WyomingApp.WakeWordSetting = { _ in .init() }
    ) throws(SpeechError) {
        let models: [WakeWordDetector.Model]
        if let names, !names.isEmpty {
            models = try names.map { name throws(SpeechError) in
                try WakeWordDetector.model(named: name, among: installed)
            }
        } else {
            guard !installed.isEmpty else { throw WakeWordDetector.noneInstalled }
            models = installed
        }
        detectors = try models.map { model throws(SpeechError) in
            var model = model
            let chosen = setting(model.name)
            if let cutoff = chosen.cutoff { model.probabilityCutoff = cutoff }
            return (try WakeWordDetector(model: model), chosen.checkMargin)
        }
        checks = detectors.contains { $0.checkMargin != nil }
    }

    /// A new stream of audio.
    func restart() {
        for (detector, _) in detectors { detector.reset() }
        samples = 0
        recent = []
        waiting = []
        detected = false
    }

    private static let rate = AudioFormat.recognizerSampleRate
    private static let before = Int(WakeWordCheck.secondsBefore * Double(rate))
    private static let after = Int(WakeWordCheck.secondsAfter * Double(rate))

    /// `detection` for each wake word heard in `chunk`, and, with a check, the wakes to check
    /// now that the audio after them has come (all that wait, when `ending`).
    func hear(_ chunk: [Int16], ending: Bool = false) -> (events: [WyomingEvent], toCheck: [ToCheck]) {
        var events: [WyomingEvent] = []
        for (detector, margin) in detectors {
            guard let at = detector.process(chunk) else { continue }
            if let margin {
                waiting.append((detector.model, margin, samples + at))
            } else {
                detected = true
                events.append(
                    .detection(detector.model.name, milliseconds: (samples + at) * 1000 / Self.rate))
            }
        }
        samples += chunk.count
        guard checks else { return (events, []) }
        recent += chunk
        if recent.count > Self.before + Self.after + chunk.count {
            recent.removeFirst(recent.count - Self.before - Self.after - chunk.count)
        }
        let first = samples - recent.count
        var toCheck: [ToCheck] = []
        waiting.removeAll { wake in
            guard ending || samples >= wake.at + Self.after else { return false }
            let from = max(first, wake.at - Self.before) - first
            let to = min(samples, wake.at + Self.after) - first
            toCheck.append(
                ToCheck(
                    model: wake.model, margin: wake.margin, audio: Array(recent[from..<to]),
                    milliseconds: wake.at * 1000 / Self.rate))
            return true
        }
        return (events, toCheck)
    }

    /// `detection` for a wake the check let through.
    func letThrough(_ wake: ToCheck) -> WyomingEvent {
        detected = true
        return .detection(wake.model.name, milliseconds: wake.milliseconds)
    }
}

/// The connection's wake-word detectors, handed to a thread for blocking work while the
/// connection waits for it (one use at a time).
struct WakeBox: @unchecked Sendable {
    let wake: WakeListening
}
