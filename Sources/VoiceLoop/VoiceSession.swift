import Foundation
import Logging
import PhraseMatching
import Synchronization
import VoiceAudio
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// Sound in and out for the voice loop: hears one utterance at a time under a grammar, and says
/// text, not listening to the microphone while it speaks. Used by one task at a time (the loop,
/// and the conversation the loop's runner calls). Each is a wait of seconds or minutes, on a
/// thread of its own (`onThreadOfItsOwn`), not one of Swift's cooperative threads.
// Unchecked: its state is touched on the thread that hears or speaks, while the one task that
// awaits it waits.
package final class VoiceChannel: @unchecked Sendable {
    private let recognizer: SpeechRecognizer
    private let input: VoiceInput
    private let mouth: Mouth
    /// The microphone's recorder, `nil` for a recording.
    private var capture: ContinuousCapture? { input.capture }
    /// Whether "stop" or "cancel" said over a reply cuts it short (barge-in).
    private let bargeIn: Bool
    /// The trained wake word heard before each command, `nil` for none.
    package let wakeWord: WakeWordDetector?
    /// The recognizer's second hearing of the wake word before the loop wakes, `nil` for none.
    package let wakeWordCheck: WakeWordCheck?
    /// Seconds to wait for someone to start speaking.
    package let timeout: Double
    /// Whether the input has ended (a file or stream read to the end, or the loop stopped).
    var ended: Bool { input.hasEnded }
    /// When the first reply since ``startTurn()`` started to sound, for the turn's timings.
    private(set) var firstReply: ContinuousClock.Instant?
    /// What is to be said between turns (a timer that ran out), oldest first.
    private let announcements = Mutex<[String]>([])
    /// Where what is heard over a reply is logged (at debug).
    private let logger: Logger?
    /// With barge-in and the echo cancelled, what may be said over a reply besides the cancel
    /// words: the grammar of the app's commands and the cancel words together, and the command
    /// heard, with the bar it clears (the reply is cut short only for one the loop would run).
    /// Set by the loop; `nil` for the cancel words alone.
    package var commandsOverReply:
        (grammar: @Sendable () -> SpeechGrammar, read: @Sendable (RecognitionResult) async -> HeardCommand?)?

    /// A command heard over a reply (``commandsOverReply``): what it asks for, and which of the
    /// loop's bars it clears.
    package struct HeardCommand: Sendable {
        package enum Clears: Sendable {
            /// The bar over a reply (the confirmation bar): the loop runs it.
            case barOverReply
            /// Only the app's own bar: the loop runs it when heard the same again from where the
            /// reply was turned down (``heardAgainFrom(turnDown:start:speechEnd:)``).
            case appBar
            /// Neither.
            case neither
        }

        package var match: PhraseMatch
        package var clears: Clears

        package init(match: PhraseMatch, clears: Clears) {
            self.match = match
            self.clears = clears
        }

        /// Whether the loop runs a person's command heard over its reply as `first`, and heard
        /// again from the turn-down as `again` (`nil`: not heard again, or no command there):
        /// at the bar over a reply, or at the app's bar when both hearings ask the same.
        package static func runs(_ first: HeardCommand?, again: HeardCommand?) -> Bool {
            guard let first else { return false }
            return switch first.clears {
            case .barOverReply: true
            case .appBar: again.map { first.match.asksTheSame(as: $0.match) } ?? false
            case .neither: false
            }
        }
    }
    /// A command said over a reply, to be run next (``takeCommandSaidOverAReply()``).
    private let commandOverReply = Mutex<RecognitionResult?>(nil)
    /// Whether the wake word was said over the last reply: the next hearing after the wake word
    /// hears the command said after it, without waiting for the word again.
    private let wokenOverReply = Atomic(false)

    /// What cut a reply short.
    package enum Interruption: Sendable, Equatable {
        /// A cancel word, as heard: the conversation ends.
        case cancel(String)
        /// A command said over the reply: the conversation under way ends, and the loop runs the
        /// command next (``takeCommandSaidOverAReply()``).
        case command(String)
        /// The wake word said over the reply: the conversation under way ends, and the loop hears
        /// the command said after it next (``hearAfterWakeWord(under:woke:stale:)``).
        case wakeWord
    }

    /// - Parameters:
    ///   - input: What is heard; its microphone's recorder, if it has one, is muted while the
    ///     channel speaks (a recording's timeline does not move while the app speaks).
    ///   - mouth: Plays or records what is said.
    ///   - bargeIn: Whether to listen for "stop" while speaking instead of muting the microphone.
    package init(
        recognizer: SpeechRecognizer, timeout: Double, input: VoiceInput, mouth: Mouth, bargeIn: Bool = false,
        wakeWord: WakeWordDetector? = nil, wakeWordCheck: WakeWordCheck? = nil, logger: Logger? = nil
    ) {
        self.logger = logger
        self.bargeIn = bargeIn
        self.wakeWord = wakeWord
        self.wakeWordCheck = wakeWordCheck
        self.recognizer = recognizer
        self.timeout = timeout
        self.input = input
        self.mouth = mouth
    }

    /// The next utterance under `grammar` (dictation when `nil`); `nil` when nobody spoke before
    /// the timeout or the input ended.
    package func hear(under grammar: SpeechGrammar?) async throws -> RecognitionResult? {
        try await onThreadOfItsOwn { try self.hearNow(under: grammar) }
    }

    private func hearNow(under grammar: SpeechGrammar?) throws -> RecognitionResult? {
        if let grammar { try recognizer.useGrammar(grammar) } else { try recognizer.useDictation() }
        return try recognizer.listen(timeout: timeout, read: input.read)
    }

    /// Says `text` before the next command is listened for: at once when nobody is speaking,
    /// else after the command being said.
    package func announce(_ text: String) {
        announcements.withLock { $0.append(text) }
    }

    /// What is to be said between turns, taken.
    package func takeAnnouncements() -> [String] {
        announcements.withLock { pending in
            defer { pending = [] }
            return pending
        }
    }

    private var hasAnnouncements: Bool { announcements.withLock { !$0.isEmpty } }

    /// The input's next chunk; `nil`, as at its end, once something is to be announced or
    /// `stale` says the grammar heard with is no longer the app's.
    private func readUnlessAnnouncing(_ stale: () -> Bool) throws(SpeechError) -> [Int16]? {
        hasAnnouncements || stale() ? nil : try input.read()
    }

    /// The next command under `grammar`, as ``hear(under:)``, but given up (`nil`) when, before
    /// anyone has started speaking, something is to be announced or `stale` says the grammar is
    /// no longer the app's.
    private func hearCommandNow(under grammar: SpeechGrammar, stale: () -> Bool) throws -> RecognitionResult?
    {
        try recognizer.useGrammar(grammar)
        var speaking = false
        return try recognizer.listen(
            timeout: timeout,
            read: { () throws(SpeechError) -> [Int16]? in
                speaking ? try self.input.read() : try self.readUnlessAnnouncing(stale)
            }, speechStarted: { _ in speaking = true })
    }

    /// The next command under `grammar` after the wake word: the input is heard by the wake-word
    /// detector alone until it hears the word, then by the recognizer from just after it (what
    /// was said in the same breath included). `nil` when the input ended, nobody spoke within the
    /// timeout after the wake word, or, before anybody started speaking, something is to be
    /// announced (``announce(_:)``) or `stale` says `grammar` is no longer the app's. Without a
    /// wake word, the next command as ``hear(under:)``.
    package func hearAfterWakeWord(
        under grammar: SpeechGrammar, woke: @escaping @Sendable (WakeWordDetector.Model) -> Void = { _ in },
        stale: @escaping @Sendable () -> Bool = { false }
    ) async throws -> RecognitionResult? {
        guard wakeWord != nil else {
            return try await onThreadOfItsOwn { try self.hearCommandNow(under: grammar, stale: stale) }
        }
        return try await onThreadOfItsOwn { () throws -> RecognitionResult? in
            guard let wakeWord = self.wakeWord else { return nil }
            // What was said after the word in the chunk it was heard in. Woken over the last
            // reply, the word has been heard, and what followed it waits in the recorder.
            var rest: [Int16]?
            if !self.wokenOverReply.exchange(false, ordering: .relaxed) {
                // The last audio before the chunk being heard, for the check; none is kept
                // without one.
                var before: [Int16] = []
                let kept =
                    self.wakeWordCheck == nil
                    ? 0 : Int(WakeWordCheck.secondsBefore * Double(AudioFormat.recognizerSampleRate))
                while rest == nil, let chunk = try self.readUnlessAnnouncing(stale) {
                    guard let heard = wakeWord.process(chunk) else {
                        if kept > 0 { before = Array((before + chunk).suffix(kept)) }
                        continue
                    }
                    let lead = (before + chunk[..<heard]).suffix(kept)
                    let verdict = try self.checked(Array(chunk[heard...]), before: lead)
                    rest = verdict.rest
                    before = Array((lead + verdict.read).suffix(kept))
                }
                guard rest != nil else { return nil }
            }
            woke(wakeWord.model)
            try self.recognizer.useGrammar(grammar)
            return try self.recognizer.listen(timeout: self.timeout) { () throws(SpeechError) -> [Int16]? in
                if let first = rest {
                    rest = nil
                    return first
                }
                return try self.input.read()
            }
        }
    }

    /// What follows the wake word (`after`: the rest of the chunk it was heard in), when the
    /// check hears the word again in the audio around it (`before`: what came before, up to
    /// ``WakeWordCheck/secondsBefore``); `nil` when it turns the wake away, and the detector goes
    /// on from the audio read for the check (`read`: `after` and what was read for the check).
    /// Without a check, `after`.
    private func checked(_ after: [Int16], before: ArraySlice<Int16>) throws -> (
        rest: [Int16]?, read: [Int16]
    ) {
        guard let check = wakeWordCheck, let wakeWord else { return (after, after) }
        // The word's last sound may run on past where the model fired.
        var after = after
        let wanted = Int(WakeWordCheck.secondsAfter * Double(AudioFormat.recognizerSampleRate))
        while after.count < wanted, let more = try input.read() { after += more }
        let verdict = try recognizer.check(Array(before) + after.prefix(wanted), wakeWord: check)
        let metadata: Logger.Metadata = [
            "model": "\(wakeWord.model.name)", "margin": "\(String(format: "%.1f", verdict.margin))",
        ]
        guard verdict.accepted else {
            logger?.debug("the check turned the wake word away", metadata: metadata)
            _ = wakeWord.process(after)
            return (nil, after)
        }
        logger?.debug("the check heard the wake word", metadata: metadata)
        return (after, after)
    }

    /// Says `text`. The microphone is muted until it has been heard, or, with barge-in, listened
    /// to for "stop", "cancel" or "never mind", which cut the reply short, and, with the echo
    /// cancelled, for the app's commands too (``commandsOverReply``). A reply being played stops
    /// within about 100 ms when the task is cancelled (the loop told to stop at once).
    ///
    /// - Parameter asking: Whether `text` asks a question. What someone is still saying when a
    ///   question ends is not given back for the answer: the question's own last words (the
    ///   options it reads out) are the likeliest answers, and an echo canceller out of step (on a
    ///   busy machine) lets them through as if someone said them.
    /// - Returns: What the person said to interrupt, `nil` when the reply was said out.
    @discardableResult
    package func say(_ text: String, asking: Bool = false) async throws -> Interruption? {
        let cancelled = CancelFlag()
        return try await withTaskCancellationHandler {
            try await onThreadOfItsOwn { try self.sayNow(text, asking: asking, cancelled: cancelled) }
        } onCancel: {
            cancelled.set()
        }
    }

    /// Whether a command said over the last reply waits to be run, or the wake word said over
    /// it waits for its command to be heard.
    package var hasCommandSaidOverAReply: Bool {
        commandOverReply.withLock { $0 != nil } || wokenOverReply.load(ordering: .relaxed)
    }

    /// The command said over the last reply, if one was, taken: the loop runs it next.
    package func takeCommandSaidOverAReply() -> RecognitionResult? {
        commandOverReply.withLock { command in
            defer { command = nil }
            return command
        }
    }

    private func sayNow(_ text: String, asking: Bool, cancelled: CancelFlag) throws -> Interruption? {
        let started: () -> Void = { self.firstReply = self.firstReply ?? .now }
        guard let capture, !mouth.isMute else {
            try mouth.say(text, started: started, interrupted: cancelled.isSet)
            return nil
        }
        guard bargeIn, mouth.playsAloud else {
            capture.muted = true
            defer { capture.muted = false }
            try mouth.say(text, started: started, interrupted: cancelled.isSet)
            return nil
        }
        return try sayListening(text, asking: asking, capture: capture, cancelled: cancelled)
    }

    /// How loud a reply goes on while someone speaks over it, when the mouth cancels its echo:
    /// 40 dB down, chosen by `speech-benchmark --echo` over 20 dB
    /// (`Benchmarks/Recognition/echo-cancellation.md`, "The reply turned down 40 dB, told by its
    /// fall"). Once it is down, what the microphone records is the person and the room: whether
    /// it was a person is told by whether it fell with the reply
    /// (``isPerson(_:window:speechEnd:turnDown:)``), not by how much of it the canceller let
    /// through, which is all of the room's noise.
    package static let duckedVolume: Float = 0.01

    /// Below how many dB of what was recorded the echo canceller let through an utterance heard
    /// over a reply is taken for what is left of the reply's echo, not a person.
    package static let echoOnly = -6.0

    /// How much of `recorded` energy the echo canceller let through as `heard`, in dB (0 for
    /// silence).
    package static func passed(recorded: Double, heard: Double) -> Double {
        recorded > 0 ? 10 * log10(max(heard, 1e-9) / recorded) : 0
    }

    /// Above how many dB of what was recorded the echo canceller let through a chunk of an
    /// utterance over a reply (or the chunk before it) is taken for someone speaking, and the
    /// reply turned down. What is left of a reply's echo can start an utterance too (it passed
    /// 16 to 24 dB down on the loudspeaker test's room); a person speaking over an echo 6 dB
    /// louder than them would pass about 7 dB down, if the canceller kept all of their voice.
    static let speakingOverEcho = -12.0

    /// Chunks kept from before speech starts over a reply, to give back with the words (300 ms).
    static let keptBeforeSpeech = 3

    /// Seconds of the silence that ended an utterance heard over a reply, which the gate counts
    /// with it.
    package static let endingSilence = 0.5

    /// Chunks from the moment the loop turns its reply down to the first the microphone records
    /// of it turned down (beyond those recorded and not yet read then), where what was played
    /// does not show it (``turnDownHeard(played:decided:)``): the next 100 ms piece, what the
    /// device holds, and the room. On the loudspeaker test's rig, before the mouth dropped what
    /// its device held, the reply's echo went down 0.3 to 0.4 s after a person started, at least
    /// 0.2 s of which was the decision.
    package static let turnDownDelay = 4

    /// Chunks of speech at least after the reply was heard turned down for an utterance over it
    /// that was not acted on to be heard again from there, for a cancel word (300 ms).
    static let heardAgainAfterTurnDown = 3

    /// The chunk from which an utterance over a reply, read from chunk `start` with speech until
    /// `speechEnd`, is heard again for a cancel word: the one before the reply was heard turned
    /// down (`turnDown`), where at least ``heardAgainAfterTurnDown`` chunks of speech follow it
    /// and it is past the utterance's start; `nil` otherwise.
    package static func heardAgainFrom(turnDown: TurnDown, start: Int, speechEnd: Int) -> Int? {
        let first = turnDown.heardFrom - 1
        return speechEnd - first >= heardAgainAfterTurnDown && first > start ? first : nil
    }

    /// How far under the loudest of an utterance's words after the turn-down (in dB) what the
    /// canceller let through before it stays when the words came after it
    /// (``wordsCameAfter(turnDown:_:start:speechEnd:)``): a person's first syllables said over
    /// the reply come through within a few dB of the rest.
    static let wordsAfterTurnDownMargin = 10.0

    /// Whether a person's words over a reply came after the reply was heard turned down: in
    /// `energies` (each chunk's as recorded and as the canceller let it through), the utterance
    /// from chunk `start` with speech until `speechEnd`, what came through before the chunk it is
    /// heard again from (``heardAgainFrom(turnDown:start:speechEnd:)``) stayed
    /// ``wordsAfterTurnDownMargin`` under the loudest chunk from there on. What was heard before
    /// was then what is left of the echo and whatever set the turn-down off (a satellite's
    /// chime on the loudspeaker rig), not the words.
    package static func wordsCameAfter(
        turnDown: TurnDown, _ energies: [(recorded: Double, heard: Double)], start: Int, speechEnd: Int
    ) -> Bool {
        let end = min(speechEnd, energies.count)
        guard let first = heardAgainFrom(turnDown: turnDown, start: start, speechEnd: end) else {
            return false
        }
        return wordsCameAfter(first, energies, start: start, end: end)
    }

    /// Whether what came through before chunk `first` of an utterance (chunks `start` to `end`
    /// of `energies`) stayed ``wordsAfterTurnDownMargin`` under the loudest chunk from there on.
    private static func wordsCameAfter(
        _ first: Int, _ energies: [(recorded: Double, heard: Double)], start: Int, end: Int
    ) -> Bool {
        guard start >= 0, start < first, first < end, end <= energies.count else { return false }
        let before = energies[start..<first].map(\.heard).max() ?? 0
        let after = energies[first..<end].map(\.heard).max() ?? 0
        return before * pow(10, wordsAfterTurnDownMargin / 10) <= after
    }

    /// Chunks of a person's voice at most before the reply is turned down for it: the gate
    /// decides on the last two (``speakingOverEcho``).
    static let voiceBeforeDecision = 2

    /// Chunks into an utterance over a reply from which a turn-down is late: the person's voice
    /// came through half a second after what started the utterance.
    static let lateTurnDown = 5

    /// The chunks from which a command heard over a question (an utterance from chunk `start`,
    /// speech until `speechEnd`) is heard again without what came before the words, in turn:
    /// from the turn-down where the words came after it
    /// (``wordsCameAfter(turnDown:_:start:speechEnd:)``); else, where the reply was turned down
    /// late (``lateTurnDown``) and the words came after ``voiceBeforeDecision`` chunks before
    /// the decision, from there, then from the turn-down (the words before it were said over the
    /// reply at its full level); none otherwise, nor where less than ``heardAgainAfterTurnDown``
    /// chunks of speech would be heard.
    package static func heardAgainOverAQuestionFrom(
        turnDown: TurnDown, _ energies: [(recorded: Double, heard: Double)], start: Int, speechEnd: Int
    ) -> [Int] {
        let end = min(speechEnd, energies.count)
        let fromTurnDown = heardAgainFrom(turnDown: turnDown, start: start, speechEnd: end)
        if let fromTurnDown, wordsCameAfter(fromTurnDown, energies, start: start, end: end) {
            return [fromTurnDown]
        }
        let first = turnDown.decided - voiceBeforeDecision
        guard turnDown.decided - start >= lateTurnDown, end - first >= heardAgainAfterTurnDown,
            wordsCameAfter(first, energies, start: start, end: end)
        else { return [] }
        return [first] + (fromTurnDown.map { $0 > first ? [$0] : [] } ?? [])
    }

    /// By how many dB at most the microphone's recording may fall once the reply is turned down
    /// for the speech to be a person's rather than the reply's echo: a person's voice goes on
    /// as loud (people's commands over an echo 6 dB louder than them fell 7.6 dB at the median,
    /// 16.1 at most; over one as loud, 3.1 and 14.8), an echo falls by the turn-down (40 dB),
    /// down to the room's noise.
    package static let fallOfAnEcho = -18.0

    /// Where the microphone first recorded a reply turned down at chunk `decided` (or stopped),
    /// by what was played as each chunk was recorded (`played`, its energy, as the echo canceller
    /// lined it up with the recording): two chunks past the first from which what was played
    /// stays over 25 dB under its loudest up to the decision (the turn-down takes 40 dB off; the
    /// echo sounds about 110 ms after what it was lined up with). Past the chunks there are where
    /// it has not gone down yet; `nil` where nothing was played up to the decision. Measured
    /// rather than counted from the decision (``turnDownDelay``): a busy machine plays the
    /// turned-down reply late.
    package static func turnDownHeard(played: [Double], decided: Int) -> Int? {
        guard decided < played.count, let loudest = played[...decided].max(), loudest > 0 else { return nil }
        let quiet = loudest * pow(10, -2.5)
        var first = played.count
        while first > decided + 1, played[first - 1] <= quiet { first -= 1 }
        return first + 2
    }

    /// Where a reply was turned down for speech over it, counted in the chunks read over it:
    /// the chunk read when it was (it and the four before it are what was recorded before),
    /// and the first one recorded after it went down.
    package struct TurnDown: Sendable, Equatable {
        package var decided: Int
        package var heardFrom: Int

        package init(decided: Int, heardFrom: Int) {
            self.decided = decided
            self.heardFrom = heardFrom
        }
    }

    /// How an utterance over a reply was told from the reply's echo
    /// (``isPerson(_:window:speechEnd:turnDown:)``).
    package struct Verdict: Sendable, Equatable {
        /// Whether it was a person's.
        package var isPerson: Bool
        /// How much of what was recorded the canceller let through over all of it, in dB.
        package var passed: Double
        /// Once the reply was turned down: by how many dB what was recorded fell, and how much
        /// of it the canceller let through (`nil` where the speech ended before).
        package var fell: Double?
        package var passedAfterTurnDown: Double?

        /// For the log.
        package var metadata: Logger.Metadata {
            var metadata: Logger.Metadata = ["passed": "\(Self.rounded(passed)) dB"]
            if let fell, let passedAfterTurnDown {
                metadata["turned_down"] =
                    "fell \(Self.rounded(fell)) dB, passed \(Self.rounded(passedAfterTurnDown)) dB"
            }
            return metadata
        }

        static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    }

    /// Whether what was heard over a reply in `window` of `energies` (each chunk's energy as
    /// recorded and as the canceller let it through), speech until `speechEnd`, is a person's
    /// rather than what is left of the reply's echo. When the reply was turned down
    /// (`turnDown`) at least two chunks before the speech ended: where what was recorded after
    /// that did not fall with the reply (``fallOfAnEcho``) and the canceller let more than
    /// ``echoOnly`` of it through (before, the echo of a reply louder than the person took much
    /// of their voice with it; after, the room's noise comes through whole). Otherwise, where
    /// the canceller let more than ``echoOnly`` of what was recorded through.
    package static func isPerson(
        _ energies: [(recorded: Double, heard: Double)], window: Range<Int>, speechEnd: Int,
        turnDown: TurnDown?
    ) -> Verdict {
        let passed = passed(energies[window])
        var verdict = Verdict(isPerson: passed > echoOnly, passed: passed)
        guard let turnDown else { return verdict }
        let first = max(turnDown.heardFrom, window.lowerBound)
        let end = min(speechEnd, window.upperBound)
        // The half second up to the decision: the reply's echo (and the speech's start) at full
        // level.
        let beforeFirst = max(0, turnDown.decided - 4)
        let beforeEnd = min(energies.count, turnDown.decided + 1)
        guard end - first >= 2, beforeEnd > beforeFirst else { return verdict }
        let after = first..<end
        let before = beforeFirst..<beforeEnd
        let recordedAfter = energies[after].reduce(0) { $0 + $1.recorded }
        let recordedBefore = energies[before].reduce(0) { $0 + $1.recorded }
        let fell = Self.passed(
            recorded: recordedBefore / Double(before.count), heard: recordedAfter / Double(after.count))
        let passedAfter = Self.passed(
            recorded: recordedAfter, heard: energies[after].reduce(0) { $0 + $1.heard })
        verdict.fell = fell
        verdict.passedAfterTurnDown = passedAfter
        verdict.isPerson = fell > fallOfAnEcho && passedAfter > echoOnly
        return verdict
    }

    /// Whether the wake word heard over a reply in `window` of `energies` was a person's rather
    /// than the reply's own voice saying it. The detector has already told the words apart from
    /// any other talk, so the gate only has to keep out the reply's echo, which the canceller lets
    /// through 16 dB down or more: taken where more than ``speakingOverEcho`` of what was
    /// recorded came through before the reply was heard turned down (a person 6 dB under the
    /// echo comes through about 7 dB down, at ``echoOnly``), or where
    /// ``isPerson(_:window:speechEnd:turnDown:)`` takes it. The word is heard at its end, so on a
    /// busy machine the turn-down is often not heard before it, or only over the word's last
    /// sounds, which fall as an echo does.
    package static func wakeWordIsAPersons(
        _ energies: [(recorded: Double, heard: Double)], window: Range<Int>, turnDown: TurnDown?
    ) -> Verdict {
        var verdict = isPerson(energies, window: window, speechEnd: window.upperBound, turnDown: turnDown)
        let loud = min(window.upperBound, turnDown?.heardFrom ?? window.upperBound)
        if loud > window.lowerBound, passed(energies[window.lowerBound..<loud]) > speakingOverEcho {
            verdict.isPerson = true
        }
        return verdict
    }

    /// Plays `text` on a thread of its own while this one listens for the cancel words. When the
    /// mouth cancels its echo, the app's commands are listened for too (``commandsOverReply``),
    /// and a cancel word or a command is taken only for a person's
    /// (``isPerson(_:window:speechEnd:turnDown:)``: where the canceller let most of the sound
    /// through, or, once the reply is turned down, where it did not fall with it); the reply is
    /// turned down (``duckedVolume``) from the moment a person is heard over it
    /// (``speakingOverEcho``) until what was said turns out to be nothing to act on;
    /// what someone is still saying when the reply ends is given back to the recorder, for whoever
    /// listens next (unless `asking`: after a question); and nothing is listened to
    /// before the canceller has learnt the room (the first two seconds of the loop's replies). With
    /// a wake word, a command over the reply is taken only after it, as at any other time: the wake
    /// word heard over the reply (where the canceller let it through) cuts the reply short, and the
    /// command said after it is heard next; the cancel words need none. Without a canceller the
    /// grammar holds the reply's own words too (its echo), and a cancel word the reply says itself
    /// does not stop it.
    private func sayListening(
        _ text: String, asking: Bool, capture: ContinuousCapture, cancelled: CancelFlag
    )
        throws -> Interruption?
    {
        let replyWords = Set(SpeechGrammar.spokenWords(text))
        let stop = Atomic(false)
        let ducked = Atomic(false)
        let ducks = mouth.cancelsEcho
        let finished = Atomic(false)
        let started = Mutex<ContinuousClock.Instant?>(nil)
        let failure = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        BlockingThreads.shared.run { [mouth] in
            do {
                try mouth.say(
                    text, started: { started.withLock { $0 = .now } },
                    interrupted: { stop.load(ordering: .relaxed) || cancelled.isSet() },
                    volume: { ducked.load(ordering: .relaxed) ? Self.duckedVolume : 1 })
            } catch {
                failure.withLock { $0 = error }
            }
            finished.store(true, ordering: .relaxed)
            done.signal()
        }
        // With the echo cancelled, the cancel words (and the app's commands): what is left of
        // the echo is told from a person by how much of it the canceller let through
        // (``echoOnly``). Without, the reply's own words too, so that its echo is heard as itself.
        let commands = ducks ? commandsOverReply : nil
        // With a wake word, the commands' grammar still takes in what is said over the reply
        // (less of it is forced onto a cancel word), but only the wake word brings a command.
        let wakeWordOverReply = ducks ? wakeWord : nil
        try recognizer.useGrammar(
            ducks
                ? commands?.grammar()
                    ?? SpeechGrammar(answers: [.phrases(SpokenAnswer.cancelPhrases)], name: "barge_in_cancel")
                : SpeechGrammar(answers: [.echo(of: [text])], name: "barge_in"))
        var interruption: Interruption?
        // Whether the words of someone still speaking at the reply's end were given back.
        var handedBack = false
        while !finished.load(ordering: .relaxed) {
            var cut = false
            // What follows the wake word in the chunk it was heard in, with the chunk's energy.
            var afterWakeWord: ContinuousCapture.MeasuredChunk?
            // The chunks read since a little before speech started (all, until it has).
            var read: [ContinuousCapture.MeasuredChunk] = []
            var speaking = false
            // Each chunk heard: its energy as recorded and as the canceller let it through...
            var energies: [(recorded: Double, heard: Double)] = []
            // ...and what was played as it was recorded.
            var played: [Double] = []
            // Where the reply was turned down, in `energies`; where it was heard turned down is
            // counted from the decision until what was played shows it (``turnDownHeard``).
            var turnDown: TurnDown?
            let turnedDown = {
                turnDown.map {
                    TurnDown(
                        decided: $0.decided,
                        heardFrom: Self.turnDownHeard(played: played, decided: $0.decided) ?? $0.heardFrom)
                }
            }
            // Turns the reply down once speech has started and a person's voice, not only what is
            // left of the echo, has come through the canceller.
            let duckIfSpeaking = { [logger] in
                guard ducks, speaking, !ducked.load(ordering: .relaxed),
                    Self.passed(energies.suffix(2)) > Self.speakingOverEcho
                else { return }
                ducked.store(true, ordering: .relaxed)
                let decided = energies.count - 1
                turnDown = TurnDown(
                    decided: decided, heardFrom: decided + capture.backlog + Self.turnDownDelay + 1)
                logger?.debug(
                    "someone speaks over the reply: turned down", metadata: ["reply": "\(text.prefix(40))"])
            }
            let heard = try recognizer.listen(
                timeout: 600,
                read: { () -> [Int16]? in
                    while !finished.load(ordering: .relaxed), var measured = capture.readMeasured() {
                        // Until the canceller has learnt the room, its echo is not listened to.
                        guard mouth.echoCancellerHasLearnt else { continue }
                        let chunk = measured.samples
                        energies.append((measured.recordedEnergy, ContinuousCapture.energy(chunk)))
                        played.append(measured.playedEnergy)
                        if let wakeWordOverReply, let at = wakeWordOverReply.process(chunk) {
                            measured.samples = Array(chunk[at...])
                            afterWakeWord = measured
                            return nil
                        }
                        read.append(measured)
                        if !speaking, read.count > Self.keptBeforeSpeech { read.removeFirst() }
                        duckIfSpeaking()
                        return chunk
                    }
                    cut = true
                    return nil
                },
                speechStarted: { _ in
                    speaking = true
                    duckIfSpeaking()
                })
            // Someone still speaking when the reply ended: with the echo cancelled, what was read
            // of their words goes back to the recorder, and whoever listens next hears them from
            // their start (the next command). Without, or after a question, it is as likely the
            // reply's last words as someone's, and is dropped (logged all the same).
            if cut, speaking, ducks {
                // `energies` ends with the chunks `read` holds.
                let verdict = Self.isPerson(
                    energies, window: (energies.count - read.count)..<energies.count,
                    speechEnd: energies.count,
                    turnDown: turnedDown())
                logger?.debug(
                    "still speaking when the reply ended",
                    metadata: verdict.metadata.merging([
                        "seconds":
                            "\(Double(read.count * capture.chunk) / Double(AudioFormat.recognizerSampleRate))"
                    ]) { $1 })
                // Only a person's words: what is left of the echo stays behind.
                if verdict.isPerson, !asking {
                    capture.unread(read)
                    handedBack = true
                }
            }
            if let afterWakeWord, let wakeWordOverReply {
                // The wake word is about a second long: taken where it was a person's voice
                // rather than the reply's own saying it.
                let verdict = Self.wakeWordIsAPersons(
                    energies, window: max(0, energies.count - 10)..<energies.count, turnDown: turnedDown())
                logger?.debug(
                    "heard the wake word over the reply",
                    metadata: verdict.metadata.merging(["model": "\(wakeWordOverReply.model.name)"]) { $1 })
                guard verdict.isPerson else {
                    ducked.store(false, ordering: .relaxed)
                    continue
                }
                capture.unread([afterWakeWord])
                handedBack = true
                wokenOverReply.store(true, ordering: .relaxed)
                interruption = .wakeWord
                stop.store(true, ordering: .relaxed)
                break
            }
            guard let heard, !cut else { break }
            // With a canceller, a cancel word is taken when it let most of the utterance through
            // (a person), not little of it (what is left of the echo); the utterance is the last
            // chunks heard, with the silence that ended it. Without, a cancel word the reply says
            // itself ("The first, Cancel.") is its echo as likely as the person: only the others
            // cut it short.
            let seconds = Double(heard.frames) / 100 + Self.endingSilence
            let chunkSeconds = Double(capture.chunk) / Double(AudioFormat.recognizerSampleRate)
            let spoken = max(0, energies.count - Int((seconds / chunkSeconds).rounded(.up)))..<energies.count
            let speechEnd = energies.count - Int((Self.endingSilence / chunkSeconds).rounded())
            let down = turnedDown()
            let readFrom = energies.count - read.count
            let verdict = Self.isPerson(energies, window: spoken, speechEnd: speechEnd, turnDown: down)
            var metadata: Logger.Metadata = ["transcript": "\(heard.text)"]
            if let confidence = heard.confidence {
                metadata["heard"] = "\(String(format: "%.3f", confidence.value))"
            }
            if ducks {
                // How much the canceller let through, and how it stands.
                let metrics = mouth.echoMetrics
                metadata.merge(verdict.metadata) { $1 }
                metadata["held_back"] = "\(Int(((metrics?.heldBack ?? 0) * 1000).rounded())) ms"
                if let erle = metrics?.echoReturnLossEnhancement { metadata["erle"] = "\(erle) dB" }
                if let down {
                    // Where, counted from the utterance's first chunk.
                    metadata["chunks"] =
                        "\(read.count), turned down at \(down.decided - readFrom), heard down at \(down.heardFrom - readFrom), speech to \(speechEnd - readFrom)"
                }
            }
            logger?.debug("heard over the reply", metadata: metadata)
            // A cancel word, or a command the loop would run at its bar over a reply, ends the
            // reply.
            let said = SpeechGrammar.withoutHesitation(heard.text)
            let command =
                if let commands, wakeWordOverReply == nil, !said.isEmpty, verdict.isPerson,
                    !SpokenAnswer.isCancel(said)
                {
                    Self.waitFor { await commands.read(heard) }
                } else {
                    HeardCommand?.none
                }
            var acting: (Interruption, RecognitionResult)?
            if SpokenAnswer.isCancel(said), ducks ? verdict.isPerson : !replyWords.contains(said) {
                acting = (.cancel(heard.text), heard)
            } else if HeardCommand.runs(command, again: nil) {
                acting = (.command(heard.text), heard)
            }
            // Heard again from where the reply went down, when it was down for most of a person's
            // words and nothing was acted on: before that the recognizer heard the echo as much as
            // the person. A cancel word there ends the reply; a command the first hearing put
            // between the two bars runs when heard the same again; no other command (words cut at
            // the turn-down are heard as other commands). Over a question, a command is also heard
            // again without what came before the words (``heardAgainOverAQuestionFrom``), and a
            // cancel word wins. Not with a wake word, nor over other replies. Why, and what each
            // costs: Benchmarks/Recognition/echo-cancellation.md.
            let runsCommand = if case .command = acting?.0 { true } else { false }
            let heardAgainFrom: [Int] =
                if !ducks || wakeWordOverReply != nil || !verdict.isPerson {
                    []
                } else if let down, acting == nil {
                    Self.heardAgainFrom(turnDown: down, start: readFrom, speechEnd: speechEnd).map { [$0] }
                        ?? []
                } else if let down, asking, runsCommand {
                    Self.heardAgainOverAQuestionFrom(
                        turnDown: down, energies, start: readFrom, speechEnd: speechEnd)
                } else {
                    []
                }
            for first in heardAgainFrom {
                let again = try recognizer.recognize(read[(first - readFrom)...].flatMap(\.samples))
                logger?.debug(
                    "heard again",
                    metadata: [
                        "transcript": "\(again.text)", "from": "chunk \(first - readFrom)",
                        "heard": "\(again.confidence.map { String(format: "%.3f", $0.value) } ?? "-")",
                    ])
                let saidAgain = SpeechGrammar.withoutHesitation(again.text)
                if SpokenAnswer.isCancel(saidAgain) {
                    acting = (.cancel(again.text), again)
                    break
                } else if command?.clears == .appBar, let commands, !saidAgain.isEmpty,
                    HeardCommand.runs(command, again: Self.waitFor { await commands.read(again) })
                {
                    logger?.debug(
                        "heard the same command again: run", metadata: ["transcript": "\(heard.text)"])
                    acting = (.command(heard.text), heard)
                    break
                }
            }
            if let (acting, heard) = acting {
                if case .command = acting { commandOverReply.withLock { $0 = heard } }
                interruption = acting
                stop.store(true, ordering: .relaxed)
                break
            }
            ducked.store(false, ordering: .relaxed)
        }
        done.wait()
        // What the microphone recorded of the reply's last moments is dropped, unless someone's
        // words were given back.
        if !handedBack {
            capture.muted = true
            capture.muted = false
        }
        if let time = started.withLock({ $0 }) { firstReply = firstReply ?? time }
        if let error = failure.withLock({ $0 }) { throw error }
        return interruption
    }

    /// How much of the energy the chunks recorded the echo canceller let through, in dB.
    private static func passed(_ chunks: ArraySlice<(recorded: Double, heard: Double)>) -> Double {
        passed(recorded: chunks.reduce(0) { $0 + $1.recorded }, heard: chunks.reduce(0) { $0 + $1.heard })
    }

    /// What `body` gives, waited for on this thread (one of the channel's own, never one of
    /// Swift's cooperative threads).
    private static func waitFor<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    /// Starts timing a turn: ``firstReply`` is the next reply's.
    package func startTurn() {
        firstReply = nil
    }
}

/// Asks an intent's questions out loud and hears the answers under a grammar of what may be
/// answered: the options' names, ordinals, yes and no, numbers, or dictation for free text;
/// "cancel" and "never mind" always.
///
/// An answer heard with less confidence than ``ConfidencePolicy/bar(for:)`` asks, or with more
/// sound around its words than ``ConfidencePolicy/confirmationSlack`` (to a confirmation) or
/// ``ConfidencePolicy/answerSlack`` allows, is not taken: the runner hears silence, says "Sorry,
/// I didn't catch that" and asks again, and cancels when the second answer is no clearer.
/// "Cancel" is always taken.
package struct VoiceConversation: Conversation {
    package let channel: VoiceChannel
    package let transcript: TextSink
    package var policy = ConfidencePolicy.off
    package var logger: Logger?

    package func ask(_ question: ConversationQuestion) async throws -> ConversationReply {
        var spoken = question.dialog.full.defaultValue
        if question.kind == .disambiguation || question.kind == .choice {
            spoken +=
                " "
                + zip(SpeechGrammar.ordinalWords, question.options).map { "The \($0), \($1)." }
                .joined(separator: " ")
        }
        transcript.write("< \(spoken)\n")
        switch try await channel.say(spoken, asking: true) {
        case .cancel(let said):
            transcript.write("> \(said)\n")
            return .cancel
        case .command, .wakeWord:
            // Another command said over the question (or the wake word, before one): this
            // conversation ends, and the loop runs that one next.
            return .cancel
        case nil:
            break
        }
        guard let heard = try await channel.hear(under: Self.grammar(for: question)) else {
            return channel.ended ? .cancel : .silence
        }
        guard !heard.text.isEmpty else { return .silence }
        // "um three" answers three: the grammar hears the hesitation, the runner reads the rest.
        let answer = SpeechGrammar.withoutHesitation(heard.text)
        if !SpokenAnswer.isCancel(answer), let rejection = policy.rejection(ofAnswer: heard, to: question) {
            transcript.write("> \(heard.text) (not taken: \(rejection))\n")
            logger?.debug(
                "answer not taken", metadata: ["transcript": "\(heard.text)", "why": "\(rejection)"])
            return .silence
        }
        transcript.write("> \(heard.text)\n")
        return .text(answer)
    }

    /// What may be said in answer to `question`; `nil` for free text (dictation).
    package static func grammar(for question: ConversationQuestion) -> SpeechGrammar? {
        func names(_ options: [String]) -> SpokenForms.Values {
            .names(options.map { SpeechGrammar.spokenWords($0) }.filter { !$0.isEmpty })
        }
        let answers: [SpeechGrammar.Answer]
        switch question.kind {
        case .confirmation:
            answers = [.yesOrNo]
        case .disambiguation, .choice:
            answers = [.values(names(question.options)), .ordinals]
        case .value:
            if !question.options.isEmpty {
                let values = names(question.options + SpeechGrammar.shortForms(of: question.options))
                answers = [question.parameter?.valueType.isList == true ? .list(values) : .values(values)]
            } else {
                switch question.parameter?.valueType.kind {
                case .integer:
                    answers = [.values(.integer(largest: question.parameter?.inclusiveRange?.upperBound))]
                case .decimal:
                    answers = [.values(.decimal(largest: question.parameter?.inclusiveRange?.upperBound))]
                case .boolean: answers = [.yesOrNo]
                case .date: answers = [.values(.date)]
                default: return nil
                }
            }
        }
        // An answer may begin with "um", except where a sentence taken for one does harm: "um"
        // lets more of a sentence count as words, and more of them past the limit on the sound
        // around an answer (`Benchmarks/Recognition/README.md`, "Hesitations").
        let confirms = question.kind == .confirmation || question.isDestructive
        return SpeechGrammar(
            answers: answers, name: "answer_\(question.kind)",
            hesitations: confirms ? [] : SpeechGrammar.hesitations)
    }
}

/// The voice loop: hears a command, matches it, runs the intent (asking out loud when it must)
/// and says the answer, until the input ends.
package struct VoiceSession: Sendable {
    package let description: AppDescription
    /// The app's matcher and command grammar, made again when its names change.
    package let preparation: VoiceLoop.Preparation
    /// The matcher as the app's names are now.
    package var matcher: PhraseMatcher { preparation.matcher }
    /// The command grammar as the app's names are now.
    package var commands: SpeechGrammar { preparation.commands }
    package let channel: VoiceChannel
    package let transcript: TextSink
    package let voiceOnly: Bool
    package let once: Bool
    package let logger: Logger
    /// How sure it must be of a command to act on it.
    package var policy = ConfidencePolicy.off
    /// What the device knows without being told (`--context`), for phrases that take a value
    /// from it.
    package var context: [String: String] = [:]
    /// Told to stop after a turn.
    var stop: LoopStop?
    /// Shows each intent's outcome, unless `voiceOnly`.
    package var display: @Sendable (IntentOutcome) -> Void = { _ in }
    /// Told of every turn when it ends.
    package var onTurn: @Sendable (VoiceTurn) -> Void = { _ in }
    /// Told the model's name each time the wake word is heard.
    package var onWakeWord: @Sendable (String) -> Void = { _ in }

    /// Runs until the input ends, after one command with `once`, or after the turn under way
    /// when told to stop; returns how many utterances were not understood.
    package func run(_ runner: IntentRunner) async throws -> Int {
        var misunderstood = 0
        while !channel.ended, stop?.isStopping != true, !Task.isCancelled {
            for announcement in channel.takeAnnouncements() { try await say(announcement) }
            // A command said over the last reply is run now, as said: it was addressed to the
            // app that was speaking.
            if let said = channel.takeCommandSaidOverAReply() {
                stop?.beginTurn()
                if try await !turn(said, runner: runner) { misunderstood += 1 }
                if stop?.endTurn() == false || once { break }
                continue
            }
            let generation = preparation.generation
            guard
                let heard = try await channel.hearAfterWakeWord(
                    under: commands,
                    woke: { [transcript, logger, onWakeWord] model in
                        transcript.write("(\(model.phrase))\n")
                        onWakeWord(model.name)
                        logger.debug("heard the wake word", metadata: ["model": "\(model.name)"])
                    },
                    // The app's names changed: listen again with them.
                    stale: { [preparation] in preparation.generation != generation })
            else { continue }
            stop?.beginTurn()
            let command = try await addressed(heard)
            if let command, try await !turn(command, runner: runner) { misunderstood += 1 }
            if stop?.endTurn() == false || (once && command != nil) { break }
        }
        return misunderstood
    }

    /// Whether the person spoke to the app on purpose: after a wake phrase or wake word, every
    /// command is addressed; always listening, any sound may be the room talking.
    private var isAddressed: Bool { commands.wakePhrase != nil || channel.wakeWord != nil }

    /// The command in `heard`: without the wake phrase when there is one, or what is said next
    /// when the wake phrase came alone; `nil` when the app was not spoken to.
    private func addressed(_ heard: RecognitionResult) async throws -> RecognitionResult? {
        guard let wake = commands.wakePhrase else { return heard }
        guard let command = Self.command(in: heard, after: wake) else {
            logger.debug("not spoken to", metadata: ["transcript": "\(heard.text)"])
            return nil
        }
        guard command.text.isEmpty else { return command }
        // The wake phrase alone is only a sound until it is heard clearly: a television saying
        // something like it must not make the app answer.
        if let rejection = policy.rejection(of: heard) {
            transcript.write("> \(heard.text) (ignored: \(rejection))\n")
            logger.debug(
                "not spoken to", metadata: ["transcript": "\(heard.text)", "rejected": "\(rejection)"])
            return nil
        }
        transcript.write("> \(heard.text)\n")
        try await say("Yes?")
        guard let next = try await channel.hear(under: commands), !next.text.isEmpty else { return nil }
        // Saying the wake phrase again before the command is fine too.
        let followUp = Self.command(in: next, after: wake) ?? next
        return followUp.text.isEmpty ? nil : followUp
    }

    /// `heard` without the leading `wake` words (empty text when it was the wake phrase alone);
    /// `nil` when it does not start with them.
    package static func command(in heard: RecognitionResult, after wake: [String]) -> RecognitionResult? {
        let words = heard.text.split(separator: " ").map(String.init)
        guard words.starts(with: wake) else { return nil }
        return RecognitionResult(
            text: words.dropFirst(wake.count).joined(separator: " "), score: heard.score,
            frames: heard.frames, words: heard.words, confidence: heard.confidence)
    }

    /// Matches and runs one command, says the outcome, and logs the turn on one line; `false`
    /// when no phrase fits.
    ///
    /// A command heard with too little confidence, or one of the app's negative phrases, is
    /// ignored when the loop is always listening (it was most likely not meant for the app);
    /// after the wake phrase, it is answered as ``TurnPipeline`` says: "Sorry, I didn't
    /// understand that", or "Okay." to a negative phrase. A command that fits two shortcuts about
    /// equally is asked about by name, as a typed one is (``MissedCommand``).
    private func turn(_ heard: RecognitionResult, runner: IntentRunner) async throws -> Bool {
        let recognized = ContinuousClock.now
        channel.startTurn()
        let pipeline = TurnPipeline(
            description: description, matcher: matcher, policy: policy, context: context)
        var matched = recognized
        // What was heard is shown before the runner asks its first question.
        let (turn, understanding) = await pipeline.turn(heard: heard, addressed: isAddressed, runner: runner)
        {
            plan in
            matched = ContinuousClock.now
            if case .ignore(let rejection) = plan {
                transcript.write("> \(heard.readableText) (ignored: \(rejection))\n")
            } else {
                transcript.write("> \(heard.readableText)\n")
            }
        }
        let done = ContinuousClock.now
        var metadata = turn.metadata.merging([
            "transcript": "\(heard.text)", "score": "\(heard.score)",
            "match": "\(Self.milliseconds(matched - recognized))",
        ]) { $1 }
        if let confidence = heard.confidence {
            metadata["confidence"] = "\(String(format: "%.2f", understanding.confidence))"
            metadata["heard"] = "\(String(format: "%.3f", confidence.value))"
        }
        var replies: [String] = []
        var rejection: String?
        /// When the first reply began, as the log tells it.
        let firstReply = { self.channel.firstReply.map { Self.milliseconds($0 - recognized) } ?? "-" }
        switch turn.plan {
        case .ignore(let reason):
            rejection = "\(reason)"
        case .answer(let reply, let reason):
            rejection = "\(reason)"
            replies.append(reply)
            try await say(reply)
            metadata["reply"] = "\(firstReply())"
        case .run:
            var interrupted = false
            for step in turn.outcome?.chain ?? [] {
                if !voiceOnly { display(step) }
                // A question ended by a command said over it is not answered "cancelled": the
                // command runs next and answers for itself.
                if step.status == .cancelled && channel.hasCommandSaidOverAReply { interrupted = true }
                if !interrupted, let spoken = step.spokenText(voiceOnly: voiceOnly) {
                    replies.append(spoken)
                    interrupted = try await say(spoken)
                }
                if let detail = step.errorDetail { logger.error("\(step.intent) failed: \(detail)") }
            }
            metadata["done"] = "\(Self.milliseconds(done - recognized))"
            metadata["reply"] = "\(firstReply())"
        }
        logger.debug("turn", metadata: metadata)
        onTurn(
            VoiceTurn(
                heard: heard.readableText, confidence: heard.confidence.map { _ in understanding.confidence },
                outcome: turn.outcome, rejection: rejection, replies: replies))
        return turn.outcome != nil
    }

    /// Says `text`; `true` when the person cut it short (a command said over it is run next).
    @discardableResult
    private func say(_ text: String) async throws -> Bool {
        transcript.write("< \(text)\n")
        switch try await channel.say(text) {
        case .cancel(let said):
            transcript.write("> \(said)\n")
            return true
        case .command, .wakeWord:
            return true
        case nil:
            return false
        }
    }

    /// `duration` as whole milliseconds with a unit ("12 ms").
    package static func milliseconds(_ duration: Duration) -> String {
        "\(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000) ms"
    }
}

extension Understanding.Rejection {
    /// Whether the sound was most likely not meant for the app at all (rather than meant and
    /// misunderstood): an always-listening loop stays quiet about it.
    package var meansNotForTheApp: Bool {
        switch self {
        case .lowConfidence, .negativePhrase, .nothingHeard, .notACommand, .tooMuchAroundTheWords: true
        case .noMatch: false
        }
    }
}

/// Set once, from a task's cancellation handler, and read on the thread that plays a reply.
final class CancelFlag: Sendable {
    private let flag = Atomic(false)

    func set() { flag.store(true, ordering: .relaxed) }

    @Sendable func isSet() -> Bool { flag.load(ordering: .relaxed) }
}
