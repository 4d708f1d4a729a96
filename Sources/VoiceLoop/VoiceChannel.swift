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
    package var commandsOverReply: CommandsOverReply?

    /// The grammar of the app's commands with the cancel words, and how the loop reads a command
    /// heard over a reply (``commandsOverReply``).
    package typealias CommandsOverReply = (
        grammar: @Sendable () -> SpeechGrammar, read: @Sendable (RecognitionResult) async -> HeardCommand?
    )

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

    /// Plays `text` on a thread of its own while this one listens over it (``ReplyListener``),
    /// and keeps what was said over it: a command to run next, or the wake word, whose command
    /// is heard next. What the microphone recorded of the reply's last moments is dropped,
    /// unless someone's words were given back; what it recorded after them is kept.
    private func sayListening(_ text: String, asking: Bool, capture: ContinuousCapture, cancelled: CancelFlag)
        throws -> Interruption?
    {
        let playback = ReplyPlayback(text, mouth: mouth, cancelled: cancelled)
        var listener = ReplyListener(
            text, asking: asking, capture: capture, mouth: mouth, recognizer: recognizer, playback: playback,
            commands: commandsOverReply, wakeWord: wakeWord, logger: logger)
        do {
            try listener.listen()
        } catch {
            playback.stop()
            _ = try? playback.waitForTheEnd()
            throw error
        }
        let (started, ended) = try playback.waitForTheEnd()
        if let command = listener.command { commandOverReply.withLock { $0 = command } }
        if listener.interruption == .wakeWord { wokenOverReply.store(true, ordering: .relaxed) }
        // Up to the reply's end and its echo tail, not up to now: on a busy machine this thread
        // gets here late, and a prompt answer has begun meanwhile.
        if !listener.handedBack { capture.dropRecorded(before: ended + capture.echoTailDuration) }
        if let started { firstReply = firstReply ?? started }
        return listener.interruption
    }

    /// Starts timing a turn: ``firstReply`` is the next reply's.
    package func startTurn() {
        firstReply = nil
    }
}
