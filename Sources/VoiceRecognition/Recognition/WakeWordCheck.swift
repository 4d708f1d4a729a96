import CPocketSphinx
import Foundation
import VoiceAudio

/// A second hearing of a wake word, by the recognizer, before the loop wakes: what a trained
/// wake-word model heard is heard again by PocketSphinx, and the wake is turned away when the
/// phrase's words fit the audio much worse than a loop of any phones does.
///
/// The audio around the moment the model fired (``secondsBefore`` before it, ``secondsAfter``
/// after) is aligned to a grammar of the phrase with a free loop of any phones before and after
/// it, so that whatever was said around the word costs nothing, and heard again under the loops
/// alone. The margin is how much better the phrase's path scores than the loops' alone, per
/// frame of the phrase (PocketSphinx's acoustic scores): above 0 when the words are there and
/// said as the dictionary says them, far below when the sound was only like them ("athena" for
/// "okay nabu"). An accent, a clipped microphone or a pronunciation the dictionary lacks lowers
/// it too: the wake words' names are in the models' lexicon for that reason.
///
/// ```swift
/// let check = WakeWordCheck(phrase: "hey jarvis")
/// let verdict = try recognizer.check(window, wakeWord: check)
/// if !verdict.accepted { print("not the wake word", verdict.margin) }
/// ```
///
/// The margin it asks for (``standardMargin``) and what it turns away were measured by
/// `speech-benchmark --false-wakes` (`Benchmarks/Recognition/README.md`, "False wakes").
package struct WakeWordCheck: Sendable, Hashable {
    /// The phrase's words, as the dictionary spells them ("okay", "nabu").
    package let words: [String]
    /// The margin per frame (the phrase's path less the loops' alone, PocketSphinx's log scale)
    /// below which the wake is turned away.
    package var minimumMargin: Double

    /// How much audio before the model fired is heard again: the word and some of what came
    /// before it.
    package static let secondsBefore = 1.6
    /// How much after: the model fires near the word's end, and its last sound may run on.
    package static let secondsAfter = 0.3

    /// The beams of the check's searches (PocketSphinx's `-beam`, `-wbeam` and `-pbeam`): nearly
    /// every path is kept, over a grammar of a few words and two loops.
    static let beam = 1e-200

    /// The margin for a user who has not calibrated the check: the highest that kept nearly all
    /// of one person's takes of their own phrase (chosen by `speech-benchmark --false-wakes`;
    /// `Benchmarks/Recognition/README.md`, "False wakes"). `calibrate --wake-word` chooses one for
    /// each user.
    package static let standardMargin = -30.0

    /// The check of `phrase` ("Okay Nabu", as a model's description writes it).
    package init(phrase: String, minimumMargin: Double = Self.standardMargin) {
        words = phrase.lowercased().split { !$0.isLetter && $0 != "'" }.map(String.init)
        self.minimumMargin = minimumMargin
    }

    /// What the check heard.
    package struct Verdict: Sendable, Hashable {
        /// Whether the phrase was heard well enough: the loop wakes.
        package let accepted: Bool
        /// The phrase's path against the loops' alone, per frame (``WakeWordCheck/minimumMargin``).
        package let margin: Double
        /// The phrase's own acoustic score per frame, against the best sound in each frame.
        package let scorePerFrame: Double
        /// Where the words were heard, in seconds into the audio checked.
        package let start: Double
        package let end: Double
    }

    /// The grammar: any phones, the phrase, any phones. The loops are free (a phone costs
    /// nothing), so the phrase lands where it fits best and what surrounds it says nothing.
    var grammar: SpeechGrammar { Self.grammar(words) }

    /// Any phones and nothing else: what the phrase's path is measured against.
    static let reference = grammar(nil)

    /// The phrase's grammar (`words`), or the reference (`nil`).
    private static func grammar(_ words: [String]?) -> SpeechGrammar {
        var graph = WordGraph()
        let lead = graph.addState()
        graph.connect(graph.start, lead, saying: GarbageModel.utteranceMarker)
        graph.connect(graph.start, lead)
        let said = words.map { graph.chain($0, from: lead) } ?? lead
        let tail = graph.addState()
        graph.connect(said, tail, saying: GarbageModel.utteranceMarker)
        graph.connect(said, tail)
        graph.finals = [tail]
        let name = "wake-word-check-" + (words?.joined(separator: "-") ?? "reference")
        return SpeechGrammar(
            name: name,
            jsgf:
                "#JSGF V1.0;\ngrammar check;\npublic <check> = \((words ?? ["<VOID>"]).joined(separator: " "));\n",
            words: Set(words ?? []), graph: graph, garbage: GarbageModel(utterance: 0.5, phone: 1))
    }
}

extension SpeechRecognizer {
    /// Hears `samples` (16 kHz mono: the audio around the moment a wake-word model fired) again
    /// for `check`'s phrase, through the configuration's front end and on the channel learnt so
    /// far, which it leaves as it was. The grammar in use before is in use again afterwards.
    ///
    /// - Throws: ``SpeechError`` when PocketSphinx fails.
    package func check(_ samples: [Int16], wakeWord check: WakeWordCheck) throws(SpeechError)
        -> WakeWordCheck.Verdict
    {
        let previous = (grammar: grammar, search: ps_get_search(decoder).map { String(cString: $0) })
        defer {
            grammar = previous.grammar
            if let search = previous.search { _ = ps_set_search(decoder, search) }
        }
        let cleaned = cleanedAfresh(samples)
        let channel = Self.cepstralState(of: decoder)
        defer { restoreCepstralState(channel) }
        // A channel not learnt yet is the model's, far from a microphone's: learn it from this.
        if channel.frames < Self.settledChannelFrames {
            try learnChannel(from: Array(speech(in: cleaned)), after: channel)
        }
        let start = Self.cepstralState(of: decoder)
        /// The acoustic score of each unit of `grammar`'s best path through the audio.
        func path(_ grammar: SpeechGrammar) throws(SpeechError) -> [RecognizedWord] {
            restoreCepstralState(start)
            try useCheckGrammar(grammar)
            try decode(cleaned, chunk: 2048)
            return currentSegments()
        }
        let phrase = try path(check.grammar)
        let reference = try path(WakeWordCheck.reference)
        let words = phrase.filter { !$0.isFiller && !$0.isGarbage }
        // No path reached the grammar's end (it should not happen with the check's beams).
        guard let first = words.first, let last = words.last, !reference.isEmpty else {
            return .init(accepted: false, margin: -.infinity, scorePerFrame: -.infinity, start: 0, end: 0)
        }
        let frames = Double(last.endFrame - first.startFrame + 1)
        let margin =
            Double(phrase.reduce(0) { $0 + $1.acousticScore } - reference.reduce(0) { $0 + $1.acousticScore })
            / frames
        let own = Double(words.reduce(0) { $0 + $1.acousticScore }) / frames
        return .init(
            accepted: margin >= check.minimumMargin, margin: margin, scorePerFrame: own, start: first.start,
            end: last.end)
    }

    /// Switches to a grammar of the check, which is made the first time with beams of its own:
    /// under the commands' beams the free loops outscore the phrase until it is pruned away, and
    /// no path reaches the grammar's end.
    private func useCheckGrammar(_ grammar: SpeechGrammar) throws(SpeechError) {
        guard !searches.contains(grammar.name) else { return try useGrammar(grammar) }
        let beam = WakeWordCheck.beam
        try withSettings(["-beam": beam, "-wbeam": beam, "-pbeam": beam]) { () throws(SpeechError) in
            try useGrammar(grammar)
        }
    }
}
