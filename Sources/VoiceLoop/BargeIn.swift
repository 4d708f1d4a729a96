import Foundation
import Logging

/// What the voice loop decides while it listens over its own reply (barge-in), from each chunk's
/// energy as the microphone recorded it, as the echo canceller let it through, and as it was
/// played: whether someone speaks over the reply (and it is turned down), whether what was heard
/// was a person or what is left of the echo, and from where an utterance is heard again. Pure
/// functions of those figures, so that each is tested without sound; ``ReplyListener`` applies
/// them. Why each setting, and what it costs: `Benchmarks/Recognition/echo-cancellation.md`.
package enum BargeIn {
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

    /// How much of the energy the chunks recorded the echo canceller let through, in dB.
    static func passed(_ chunks: ArraySlice<(recorded: Double, heard: Double)>) -> Double {
        passed(recorded: chunks.reduce(0) { $0 + $1.recorded }, heard: chunks.reduce(0) { $0 + $1.heard })
    }
}
