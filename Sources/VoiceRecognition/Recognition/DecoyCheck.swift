import CPocketSphinx
import Foundation
import VoiceAudio

/// A second hearing of a command, in which ordinary words the app does not know may take the
/// place of its first word or of a name: "sell four tickets for the colosseum" (when the app
/// can find tickets but not sell them) or "how busy is the louvre" (when it knows no Louvre).
///
/// Under a grammar, every sound becomes some command: the wrong verb comes out as the nearest
/// verb the app has ("get one tickets to the colosseum"), the unknown name as the nearest name,
/// and the confidence over the whole utterance scores them like commands, since apart from one
/// word they are. The check hears the utterance again under a chain of the words just heard,
/// where the first word and each name may also be one of ``words`` (the language model's most
/// frequent words, `Models/<locale>/decoys.txt`). When a decoy fits better there, the first
/// word was not the app's (``GarbageKind/commandWord``: not a command), or the name was not
/// one it knows (``GarbageKind/value``: the runner asks for it).
///
/// The decoys sit in a second pass, not in the grammar: in the grammar they were active
/// through the whole search and cost three to five times its time; on a chain of a dozen words, with
/// narrower beams, they cost about as much again as the first pass (`Benchmarks/Recognition/README.md`,
/// "Decoys").
///
/// ```swift
/// var configuration = try SpeechRecognizer.Configuration.installed()
/// configuration.decoyCheck = try DecoyCheck(contentsOf: URL(fileURLWithPath: "Models/en/decoys.txt"))
/// let recognizer = try SpeechRecognizer(configuration)
/// ```
package struct DecoyCheck: Sendable, Hashable {
    /// The decoy words (each in the pronunciation dictionary). A grammar's own words are left
    /// out of its check.
    package var words: [String]
    /// The probability of a decoy in place of the first word, shared with it.
    package var firstWord = 1e-2
    /// The probability of a decoy (or decoys, one after another) in place of a name.
    package var value = 5e-2
    /// The probability of each decoy word once a decoy is taken: a penalty per word.
    package var word = 1e-3
    /// Hesitations a person may say before any word of a command ("uh find two tickets"): in the
    /// chain, each may come before each word, so that a decoy has to fit better than the word
    /// with an "uh" in front of it.
    package var hesitations = ["uh", "um", "er", "ah"]
    /// The probability of each hesitation before the first word: that of a decoy there
    /// (``firstWord`` times ``word``), so a hesitation is no cheaper a way to cover a sound
    /// than a decoy.
    package var hesitation = 1e-5
    /// The second pass's beams (`-beam`, `-wbeam`, `-pbeam`): its chain is small.
    package var beams: [String: Double] = ["-beam": 1e-40, "-wbeam": 1e-30, "-pbeam": 1e-40]

    package init(words: [String]) {
        self.words = words
    }

    /// The words of a decoy list: one a line, `#` comments and blank lines skipped.
    ///
    /// - Throws: ``SpeechError`` when the file cannot be read or holds no words.
    package init(contentsOf url: URL) throws(SpeechError) {
        let text = try readModelText(at: url, describing: "decoy list")
        let words = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard !words.isEmpty else { throw SpeechError(.invalidInput, "\(url.path) holds no decoy words") }
        self.init(words: words)
    }

    /// The FSG of the check for the words `heard` (as the search has them) under `grammar`:
    /// a chain of them, with a choice of one decoy beside the command's first word (after the
    /// wake phrase, if it was said) and of decoys beside each of the grammar's names. Before
    /// each word a ``hesitations`` word may come. `nil` when there is nothing to check: no words, or a grammar of answers.
    /// `words` are the words of the chain the decoder must know.
    func fsg(_ heard: [String], grammar: SpeechGrammar) -> (fsg: String, words: Set<String>)? {
        guard !heard.isEmpty, grammar.isCommands else { return nil }
        let decoys = words.filter { !grammar.words.contains($0) }
        // After a wake phrase, the command begins when it ends. A hesitation the grammar heard
        // before it is left to the chain's own.
        let wake = grammar.wakePhrase.map { heard.starts(with: $0) ? $0.count : 0 } ?? 0
        var heard = heard
        if heard.count > wake + 1, grammar.hesitationWords.contains(heard[wake]) {
            heard.remove(at: wake)
        }
        var lines: [String] = []
        let final = heard.count
        var states = final + 1
        var said = Set<String>()
        /// A choice beside the arc from `state` to `state + 1`: an entry, and a decoy (or decoys
        /// in a loop, for a name) from it.
        func decoyChoice(from state: Int, probability: Double, loop: Bool) {
            let entry = states
            let exit = loop ? states + 1 : state + 1
            states += loop ? 2 : 1
            lines.append("TRANSITION \(state) \(entry) \(probability)")
            for decoy in decoys {
                let name = loop ? GarbageModel.valueDecoy(decoy) : GarbageModel.commandDecoy(decoy)
                said.insert(name)
                lines.append("TRANSITION \(entry) \(exit) \(word) \(name)")
            }
            if loop {
                lines.append("TRANSITION \(exit) \(entry) 1.0")
                lines.append("TRANSITION \(exit) \(state + 1) 1.0")
            }
        }
        for (state, heardWord) in heard.enumerated() {
            var taken = 0.0
            if state == wake {
                decoyChoice(from: state, probability: firstWord, loop: false)
                taken += firstWord + hesitation * Double(hesitations.count)
            }
            if grammar.nameWords.contains(heardWord) {
                decoyChoice(from: state, probability: value, loop: true)
                taken += value
            }
            lines.append("TRANSITION \(state) \(state + 1) \(max(1 - taken, 1e-6)) \(heardWord)")
            // A hesitation leads to the first word only, not to the decoys again: a loop back
            // would enter every decoy anew at each frame, which costs time and, measured, let
            // the histogram pruning drop the decoy that fitted.
            if state == wake && !hesitations.isEmpty {
                let hesitated = states
                states += 1
                for word in hesitations {
                    said.insert(word)
                    lines.append("TRANSITION \(state) \(hesitated) \(hesitation) \(word)")
                }
                lines.append("TRANSITION \(hesitated) \(state + 1) 1.0 \(heardWord)")
            }
        }
        let header = [
            "FSG_BEGIN decoy_check", "NUM_STATES \(states)", "START_STATE 0", "FINAL_STATE \(final)",
        ]
        return ((header + lines + ["FSG_END"]).joined(separator: "\n") + "\n", said)
    }
}

extension SpeechRecognizer {
    /// Hears `samples`, which the search under `grammar` heard as `heard`, again under
    /// `check`'s chain (``DecoyCheck``): `heard` itself when no decoy fitted better, otherwise
    /// the chain's result (decoys in its words, `heard`'s confidence). The decoder's channel
    /// estimate is put back afterwards, so the next utterance is heard as if this had not been.
    func checkWithDecoys(
        _ samples: [Int16], heard: RecognitionResult, grammar: SpeechGrammar, check: DecoyCheck
    ) throws(SpeechError) -> RecognitionResult {
        let words = heard.searchWords.filter { word in
            !(word.hasPrefix("<") || word.hasPrefix("[") || word.hasPrefix("+")
                || GarbageModel.isGarbage(word))
        }
        guard let (fsg, chainWords) = check.fsg(words, grammar: grammar) else { return heard }
        try load(chainWords)
        let model = fsg.withCString { text -> UnsafeMutablePointer<fsg_model_t>? in
            guard let file = fmemopen(UnsafeMutableRawPointer(mutating: text), strlen(text), "r") else {
                return nil
            }
            defer { fclose(file) }
            return fsg_model_read(file, ps_get_logmath(decoder), Float(cmd_ln_float_r(configuration, "-lw")))
        }
        defer { if let model { fsg_model_free(model) } }
        // The search reads its beams and `-bestpath` when it is made: the Viterbi path, whose
        // score holds the decoys' penalties, and narrower beams for a chain.
        let saved = check.beams.keys.map { ($0, cmd_ln_float_r(configuration, $0)) }
        let bestPath = cmd_ln_int_r(configuration, "-bestpath")
        for (name, beam) in check.beams { cmd_ln_set_float_r(configuration, name, beam) }
        cmd_ln_set_int_r(configuration, "-bestpath", 0)
        defer {
            for (name, beam) in saved { cmd_ln_set_float_r(configuration, name, beam) }
            cmd_ln_set_int_r(configuration, "-bestpath", bestPath)
        }
        let channel = Self.cepstralState(of: decoder)
        defer { restoreCepstralState(channel) }
        guard let model, ps_set_fsg(decoder, "decoy_check", model) == 0,
            ps_set_search(decoder, "decoy_check") == 0
        else {
            _ = ps_set_search(decoder, grammar.name)
            throw SpeechError(.engineFailure, "PocketSphinx rejected the decoy check's grammar")
        }
        defer { _ = ps_set_search(decoder, grammar.name) }
        try decode(samples, chunk: 2048)
        var checked = currentResult()
        guard checked.words.contains(where: { GarbageModel.decoyWord(of: $0.word) != nil }) else {
            return heard
        }
        checked.confidence = heard.confidence
        return checked
    }
}

extension DecoyCheck {
    /// The `count` most frequent words of a language model (its unigram probabilities) that the
    /// dictionary says with three phones or more, most frequent first: what `voice-intents
    /// decoys` writes to `Models/<locale>/decoys.txt`. Shorter words fit any fragment of sound
    /// and would take the place of words that were said.
    ///
    /// - Throws: ``SpeechError`` when the language model or the dictionary cannot be read.
    package static func frequentWords(count: Int, languageModel: String, dictionary: String)
        throws(SpeechError)
        -> [String]
    {
        vi_set_log_file(nil)
        guard let logMath = logmath_init(1.0001, 0, 0) else {
            throw SpeechError(.engineFailure, "sphinxbase could not set up its log tables")
        }
        defer { logmath_free(logMath) }
        guard let model = ngram_model_read(nil, languageModel, NGRAM_AUTO, logMath) else {
            throw SpeechError(.missingModel, "cannot read the language model \(languageModel)")
        }
        defer { ngram_model_free(model) }
        var scored: [(word: String, score: Int32)] = []
        let unigrams = Int(ngram_model_get_counts(model)[0])
        for id in 0..<Int32(unigrams) {
            guard let word = ngram_word(model, id).map({ String(cString: $0) }),
                word.allSatisfy({ $0.isLetter || $0 == "'" }), word.first?.isLetter == true
            else { continue }
            var used: Int32 = 0
            scored.append((word, ngram_ng_score(model, id, nil, 0, &used)))
        }
        scored.sort { $0.score != $1.score ? $0.score > $1.score : $0.word < $1.word }
        // Pronunciations for the most frequent few thousand are plenty to find `count`.
        let candidates = scored.prefix(max(count * 4, 1_000)).map(\.word)
        let pronunciations = try PronunciationDictionary.entries(
            for: Set(candidates), in: URL(fileURLWithPath: dictionary))
        let long = candidates.filter { word in
            (pronunciations[word]?.first?.split(separator: " ").count ?? 0) >= 3
        }
        return Array(long.prefix(count))
    }
}
