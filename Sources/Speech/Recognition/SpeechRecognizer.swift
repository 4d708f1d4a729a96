import CPocketSphinx
import Foundation

/// Recognises speech with PocketSphinx: under a grammar of what the app can hear, or as
/// dictation with the general English language model.
///
/// ```swift
/// let recognizer = try SpeechRecognizer()
/// try recognizer.useGrammar(try SpeechGrammar(matcher: matcher))
/// let result = try recognizer.recognize(samples)   // 16 kHz, 16-bit, mono
/// print(result.text)                               // "navigate to map in travel tracking"
/// ```
///
/// The decoder is not thread-safe: use a recognizer from one task at a time. It owns its C
/// decoder and configuration and frees them when it goes.
public final class SpeechRecognizer {
    /// Where the model files are and how the search is set.
    public struct Configuration: Sendable {
        /// The acoustic model folder.
        public var acousticModel: String
        /// The pronunciation dictionary (CMU format).
        public var dictionary: String
        /// The language model for dictation.
        public var languageModel: String
        /// Decoder arguments beyond the model files ("-beam", "1e-80", …).
        public var arguments: [String]
        /// The Debian package that installs the model files, named when one is missing.
        public var package = "pocketsphinx-en-us"
        /// Pronunciations checked by hand (CMU format), used before the dictionary's and before
        /// guessing: `Models/<locale>/lexicon.dict`.
        public var lexicon: String?
        /// Seconds of silence that end an utterance when listening to a stream (PocketSphinx's
        /// `-vad_postspeech`, in 10 ms frames). Shorter answers sooner; too short cuts people off
        /// at a pause.
        public var trailingSilence: Double = 0.5
        /// The longest silence an utterance may hold while what was heard so far cannot yet be a
        /// whole sentence of the grammar ("set a timer for …"): the end of speech waits, up to
        /// this many seconds of silence, for the rest. `nil` or no more than
        /// ``trailingSilence``: every pause of ``trailingSilence`` ends the utterance. The
        /// manifest's `maximumSilence`.
        public var maximumSilence: Double? = 1.0
        /// What cleans the audio before the decoder hears it (``AudioFrontEnd``): by default
        /// ``AudioFrontEnd/Settings/standard``; `nil` for nothing. The manifest's `frontEnd`.
        public var frontEnd: AudioFrontEnd.Settings? = .standard
        /// What ends an utterance when listening to a stream: WebRTC's voice activity detector
        /// (``VoiceActivityDetector``), with every frame of the utterance decoded (by default
        /// ``VoiceActivityDetector/Settings/standard``); `nil`: PocketSphinx's own detector, which
        /// also drops the frames it calls silence before the search hears them. The manifest's
        /// `voiceActivity`.
        public var voiceActivity: VoiceActivityDetector.Settings? = .standard
        /// The confidence below which `listen` ignores a command, for an app that has no
        /// calibration of its own: chosen on people's recordings across apps
        /// (`Benchmarks/Calibration/people/`), so a new app ignores much of the talk around it
        /// out of the box. The manifest's `minimumConfidence`.
        public var minimumConfidence = 0.75
        /// The garbage path beside the commands of an app with no calibration of its own, which
        /// ``minimumConfidence`` was chosen with. The manifest's `garbage`.
        public var garbagePath = GarbagePath.off
        /// The phone language model of ``SpeechRecognizer/hearPhones(_:loop:chunk:)``; `nil` takes
        /// `en-us-phone.lm.bin` beside ``languageModel``.
        public var phoneLanguageModel: String?
        /// A second hearing of each command heard under an app's grammar, with decoys beside
        /// its first word and names (``DecoyCheck``); `nil`: none (the default).
        public var decoyCheck: DecoyCheck?
        /// Whether ``SpeechRecognizer/listen(timeout:read:)`` hears an utterance a second time,
        /// with the channel estimate learnt from it, while that estimate is still young (under
        /// five seconds of speech: a new stream, or every clip of an evaluation). On by default;
        /// off only to measure what the second hearing brings.
        public var hearsTwiceWhileLearning = true
        /// The decoy list the locale's manifest names (`Models/<locale>/decoys.txt`), for
        /// ``decoyCheck``.
        public var decoys: String?

        /// Debian's `pocketsphinx-en-us` model, with the grammar-mode settings chosen for this
        /// project (see `Benchmarks/Recognition/README.md`).
        public static let englishUS = Configuration(
            acousticModel: "/usr/share/pocketsphinx/model/en-us/en-us",
            dictionary: "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict",
            languageModel: "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin",
            arguments: [
                "-beam", "1e-80", "-wbeam", "1e-60", "-pbeam", "1e-80", "-vad_threshold", "3.0",
            ])

        public init(acousticModel: String, dictionary: String, languageModel: String, arguments: [String]) {
            self.acousticModel = acousticModel
            self.dictionary = dictionary
            self.languageModel = languageModel
            self.arguments = arguments
        }
    }

    let configuration: OpaquePointer
    let decoder: OpaquePointer
    var searches = Set<String>()
    /// The FSG text of each grammar set, so switching back to one is only a switch.
    private var grammars: [String: String] = [:]
    /// The grammar in use, when it is one of ``SpeechGrammar``'s (not dictation).
    private var grammar: SpeechGrammar?
    let settings: Configuration
    /// The words the decoder's dictionary holds, with their pronunciations. Grammar mode loads
    /// only the words its grammars use (the whole dictionary takes 22 MB in the decoder);
    /// dictation loads the whole dictionary.
    private var vocabulary: [String: [String]] = [:]
    private var hasWholeDictionary = false
    /// Words added to the dictionary with a guessed pronunciation, and the phones guessed.
    public private(set) var guessedWords: [String: String] = [:]

    /// Loads the acoustic model and dictionary.
    ///
    /// - Throws: ``SpeechError`` naming the missing file and the package that provides it.
    public init(_ settings: Configuration = .englishUS) throws(SpeechError) {
        for (path, what) in [
            (settings.acousticModel, "acoustic model"), (settings.dictionary, "dictionary"),
            (settings.languageModel, "language model"),
        ] where !FileManager.default.fileExists(atPath: path) {
            throw SpeechError(
                .missingModel,
                "no \(what) at \(path); install \(settings.package) (apt-get install \(settings.package))")
        }
        vi_set_log_file(nil)
        let arguments =
            [
                "voice-intents", "-hmm", settings.acousticModel, "-dict", "/dev/null",
            ]
            + ["-vad_postspeech", String(max(1, Int((settings.trailingSilence * 100).rounded())))]
            + settings.arguments
            // With a detector of its own, the search hears every frame the detector lets through.
            + (settings.voiceActivity == nil ? [] : ["-remove_silence", "no"])
        var pointers = arguments.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        guard let configuration = vi_config_from_arguments(Int32(pointers.count), &pointers) else {
            throw SpeechError(
                .invalidInput, "PocketSphinx rejected the decoder arguments \(settings.arguments)")
        }
        guard let decoder = ps_init(configuration) else {
            cmd_ln_free_r(configuration)
            throw SpeechError(
                .engineFailure, "PocketSphinx could not load the model at \(settings.acousticModel)")
        }
        self.configuration = configuration
        self.decoder = decoder
        self.settings = settings
        self.languageModel = settings.languageModel
        self.initialCepstralState = Self.cepstralState(of: decoder)
        self.frontEnd = settings.frontEnd.map { AudioFrontEnd($0) }
        self.voiceActivity = settings.voiceActivity.map {
            VoiceActivityDetector($0, trailingSilence: settings.trailingSilence)
        }
        self.voiceActivityFrontEnd =
            settings.voiceActivity != nil && settings.frontEnd == nil ? AudioFrontEnd(.standard) : nil
    }

    /// Ends utterances in a stream when the configuration has its own detector
    /// (``Configuration/voiceActivity``).
    private let voiceActivity: VoiceActivityDetector?
    /// What the detector hears through when the decoder hears the audio as it is: its noise
    /// floor needs the noise suppressed (`Benchmarks/Recognition/README.md`, "An end of speech of
    /// its own").
    private let voiceActivityFrontEnd: AudioFrontEnd?

    /// Cleans the audio of the stream being heard (``Configuration/frontEnd``).
    private let frontEnd: AudioFrontEnd?

    private let languageModel: String
    /// The channel estimate the model starts with (its `-cmninit`), with the sum and count of
    /// frames behind it: none, so the first speech heard replaces it.
    private let initialCepstralState: CepstralState

    /// What the decoder has learnt of the channel: the live cepstral mean, and the sum and count
    /// of the frames it came from.
    struct CepstralState {
        var mean: [mfcc_t]
        var sum: [mfcc_t]
        var frames: Int32
    }

    /// The live cepstral state of `decoder`.
    static func cepstralState(of decoder: OpaquePointer) -> CepstralState {
        let length = Int(vi_cepstral_mean_length(decoder))
        var state = CepstralState(
            mean: [mfcc_t](repeating: 0, count: length), sum: [mfcc_t](repeating: 0, count: length), frames: 0
        )
        vi_cepstral_state(decoder, &state.mean, &state.sum, &state.frames, 0)
        return state
    }

    /// Puts back a state read with ``cepstralState(of:)``.
    func restoreCepstralState(_ saved: CepstralState) {
        var state = saved
        guard !state.mean.isEmpty else { return }
        vi_cepstral_state(decoder, &state.mean, &state.sum, &state.frames, 1)
    }

    /// Forgets what earlier audio taught the decoder about the channel: the live cepstral mean
    /// goes back to the state a fresh decoder has (the model's starting value, learnt from no
    /// frames yet), the audio front end forgets its noise, and the stream starts anew (its noise
    /// level too), so the next clip is heard as a new `listen --input` would hear it. A live
    /// stream should keep what it learnt; an evaluation that hears unrelated clips in any order
    /// calls this before each, so a clip is heard the same whatever came before it.
    public func forgetChannel() {
        restoreCepstralState(initialCepstralState)
        frontEnd?.reset()
        voiceActivity?.reset()
        voiceActivityFrontEnd?.reset()
        _ = ps_start_stream(decoder)
    }

    deinit {
        ps_free(decoder)
        cmd_ln_free_r(configuration)
    }

    /// The pronunciations the decoder holds for its grammars, in CMU format: the grammars' words
    /// from the lexicon, the dictionary, or guessed (what `voice-intents grammar` writes as
    /// `<app>.dict`).
    public var loadedPronunciations: String {
        PronunciationDictionary.text(vocabulary.filter { !CompoundWord.isCompound($0.key) })
    }

    /// Whether the lexicon or the dictionary has `word` (without guessing).
    public func knows(_ word: String) -> Bool {
        vocabulary[word] != nil && guessedWords[word] == nil
            || (try? lookUp([word]))?[word] != nil
    }

    /// The phones of `word`'s first pronunciation as the decoder has it ("M AE P"), or `nil` when
    /// no grammar or dictation has loaded the word.
    public func pronunciation(of word: String) -> String? {
        guard let phones = ps_lookup_word(decoder, word) else { return nil }
        defer { free(phones) }
        return String(cString: phones)
    }

    /// Adds `word` with `phones` (CMU phones, space-separated: "M AE CH UW").
    public func addWord(_ word: String, phones: String) throws(SpeechError) {
        guard ps_add_word(decoder, word, phones, 1) >= 0 else {
            throw SpeechError(
                .invalidInput, "PocketSphinx rejected the pronunciation \"\(phones)\" for \"\(word)\"")
        }
        vocabulary[word] = [phones]
    }

    /// The pronunciations of `words` in the lexicon, and of the rest in the dictionary.
    private func lookUp(_ words: Set<String>) throws(SpeechError) -> [String: [String]] {
        // Garbage pseudo-words ("~aa") are their one phone.
        var found: [String: [String]] = [:]
        for word in words { if let phone = GarbageModel.phone(of: word) { found[word] = [phone] } }
        // Decoys ("~~sell") are said as the words they stand for.
        let decoys = Dictionary(
            grouping: words.filter { found[$0] == nil }.compactMap { word in
                GarbageModel.decoyWord(of: word).map { (decoy: word, plain: $0) }
            }, by: \.plain)
        if !decoys.isEmpty {
            let plain = try PronunciationDictionary.entries(
                for: Set(decoys.keys), in: URL(fileURLWithPath: settings.dictionary))
            for (word, pronunciations) in plain {
                for decoy in decoys[word] ?? [] { found[decoy.decoy] = pronunciations }
            }
        }
        let words = words.subtracting(found.keys)
        if let lexicon = settings.lexicon {
            found.merge(
                try PronunciationDictionary.entries(for: words, in: URL(fileURLWithPath: lexicon)),
                uniquingKeysWith: { garbage, _ in garbage })
        }
        let rest = words.subtracting(found.keys)
        if !rest.isEmpty {
            found.merge(
                try PronunciationDictionary.entries(for: rest, in: URL(fileURLWithPath: settings.dictionary)),
                uniquingKeysWith: { lexicon, _ in lexicon })
        }
        return found
    }

    /// Makes sure the decoder can say every one of `words`: from the lexicon, the dictionary, or
    /// guessed; and every one of `compounds`, whose words must be among `words`, as its words
    /// run together (``CompoundWord``).
    func load(_ words: Set<String>, compounds: Set<String> = []) throws(SpeechError) {
        let missing = words.subtracting(vocabulary.keys)
        let missingCompounds = compounds.subtracting(vocabulary.keys)
        guard !missing.isEmpty || !missingCompounds.isEmpty else { return }
        var found = try lookUp(missing)
        for word in missing.sorted() where found[word] == nil {
            let phones = try PronunciationGuesser.phones(for: word)
            guessedWords[word] = phones
            found[word] = [phones]
        }
        for compound in missingCompounds {
            let parts = CompoundWord.parts(of: compound).map { found[$0] ?? vocabulary[$0] ?? [] }
            found[compound] = CompoundWord.pronunciations(of: parts)
        }
        if hasWholeDictionary {
            for (word, pronunciations) in found.sorted(by: { $0.key < $1.key }) {
                for (index, phones) in pronunciations.enumerated() {
                    let name = index == 0 ? word : "\(word)(\(index + 1))"
                    guard ps_add_word(decoder, name, phones, 0) >= 0 else {
                        throw SpeechError(
                            .invalidInput,
                            "PocketSphinx rejected the pronunciation \"\(phones)\" for \"\(word)\"")
                    }
                }
            }
            vocabulary.merge(found) { old, _ in old }
        } else {
            vocabulary.merge(found) { old, _ in old }
            try loadDictionary(Data(PronunciationDictionary.text(vocabulary).utf8))
        }
    }

    /// Replaces the decoder's dictionary with `contents` (CMU format); searches already set are
    /// kept, so `contents` must hold their words.
    private func loadDictionary(_ contents: Data) throws(SpeechError) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "voice-intents-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).dict")
        do {
            try contents.write(to: file)
        } catch {
            throw SpeechError(
                .engineFailure, "cannot write a dictionary to \(file.path): \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        guard ps_load_dict(decoder, file.path, nil, nil) == 0 else {
            throw SpeechError(
                .engineFailure, "PocketSphinx could not load the dictionary of the grammar's words")
        }
    }

    /// How a grammar is handed to PocketSphinx.
    public enum GrammarForm: Sendable {
        /// As the minimal word graph of ``SpeechGrammar/fsg`` (the default: smaller and faster).
        case minimalGraph
        /// As the JSGF text, compiled by PocketSphinx itself; the baseline the speech benchmark
        /// compares with.
        case jsgf
    }

    /// Whether a grammar with a garbage model (``SpeechGrammar/garbage``) is searched for its
    /// Viterbi path (`-bestpath no`, the default here) rather than the lattice's best path; set it
    /// before the grammar is first used. The lattice's best path is how PocketSphinx decodes
    /// grammars otherwise; `rejection-benchmark` compares the two.
    public var garbageUsesViterbiPath = true

    /// Listens under `grammar` from now on; words the dictionary lacks are added first, with
    /// pronunciations guessed from eSpeak NG (see ``guessedWords``).
    public func useGrammar(_ grammar: SpeechGrammar, form: GrammarForm = .minimalGraph) throws(SpeechError) {
        let name = grammar.name
        let fsg = form == .minimalGraph ? grammar.fsg : nil
        self.grammar = grammar
        if let fsg, grammars[name] == fsg {
            guard ps_set_search(decoder, name) == 0 else {
                throw SpeechError(.engineFailure, "PocketSphinx could not switch to the grammar \"\(name)\"")
            }
            return
        }
        try load(grammar.words, compounds: fsg == nil ? [] : grammar.compounds)
        if let fsg {
            let weight = Float(cmd_ln_float_r(configuration, "-lw"))
            let model = fsg.withCString { text -> UnsafeMutablePointer<fsg_model_t>? in
                guard let file = fmemopen(UnsafeMutableRawPointer(mutating: text), strlen(text), "r") else {
                    return nil
                }
                defer { fclose(file) }
                return fsg_model_read(file, ps_get_logmath(decoder), weight)
            }
            defer { if let model { fsg_model_free(model) } }
            // The search reads `-bestpath` when it is made: a garbage grammar's is made with the
            // Viterbi path, whose score holds the garbage weights, and the setting is put back.
            let viterbi = grammar.garbage != nil && garbageUsesViterbiPath
            let bestPath = cmd_ln_int_r(configuration, "-bestpath")
            if viterbi { cmd_ln_set_int_r(configuration, "-bestpath", 0) }
            defer { if viterbi { cmd_ln_set_int_r(configuration, "-bestpath", bestPath) } }
            guard let model, ps_set_fsg(decoder, name, model) == 0 else {
                throw SpeechError(
                    .invalidInput,
                    "PocketSphinx rejected the grammar \"\(name)\"; check it with `voice-intents grammar`")
            }
        } else {
            guard ps_set_jsgf_string(decoder, name, grammar.jsgf) == 0 else {
                throw SpeechError(
                    .invalidInput,
                    "PocketSphinx rejected the grammar \"\(name)\"; check it with `voice-intents grammar`")
            }
        }
        searches.insert(name)
        grammars[name] = fsg
        guard ps_set_search(decoder, name) == 0 else {
            throw SpeechError(.engineFailure, "PocketSphinx could not switch to the grammar \"\(name)\"")
        }
    }

    /// Listens for any English from now on (free text), with the general language model.
    public func useDictation() throws(SpeechError) {
        let name = "dictation"
        grammar = nil
        if !hasWholeDictionary {
            // The whole dictionary, and the lexicon's and guessed words the grammars use first
            // (PocketSphinx keeps the first entry of a word).
            let own = PronunciationDictionary.text(vocabulary)
            let whole: Data
            do {
                whole = try Data(contentsOf: URL(fileURLWithPath: settings.dictionary))
            } catch {
                throw SpeechError(
                    .missingModel,
                    "cannot read the dictionary \(settings.dictionary): \(error.localizedDescription)")
            }
            try loadDictionary(Data(own.utf8) + whole)
            hasWholeDictionary = true
        }
        if !searches.contains(name) {
            guard ps_set_lm_file(decoder, name, languageModel) == 0 else {
                throw SpeechError(
                    .missingModel, "PocketSphinx could not load the language model \(languageModel)")
            }
            searches.insert(name)
        }
        guard ps_set_search(decoder, name) == 0 else {
            throw SpeechError(.engineFailure, "PocketSphinx could not switch to dictation")
        }
    }

    /// Recognises one utterance of 16 kHz, 16-bit mono samples, fed in chunks as a stream would
    /// feed them (which decodes better than one call with everything).
    ///
    /// - Parameters:
    ///   - samples: The audio.
    ///   - chunk: Samples per call to the decoder.
    public func recognize(_ samples: [Int16], chunk: Int = 2048) throws(SpeechError) -> RecognitionResult {
        let samples =
            frontEnd.map { frontEnd in
                frontEnd.reset()
                return frontEnd.process(samples)
            } ?? samples
        try decode(samples, chunk: chunk)
        return try checked(currentResult(), samples: samples)
    }

    /// `result`, heard from `samples`, after the configuration's ``DecoyCheck``, if any.
    private func checked(_ result: RecognitionResult, samples: [Int16]) throws(SpeechError)
        -> RecognitionResult
    {
        guard let check = settings.decoyCheck, let grammar, !result.spokenWords.isEmpty else { return result }
        return try checkWithDecoys(samples, heard: result, grammar: grammar, check: check)
    }

    /// Decodes `samples` as one utterance under the search in use, fed `chunk` samples at a time.
    func decode(_ samples: [Int16], chunk: Int) throws(SpeechError) {
        guard ps_start_utt(decoder) == 0 else {
            throw SpeechError(.engineFailure, "PocketSphinx could not start an utterance")
        }
        var offset = 0
        while offset < samples.count {
            let count = min(chunk, samples.count - offset)
            try process(samples[offset..<offset + count])
            offset += count
        }
        guard ps_end_utt(decoder) == 0 else {
            throw SpeechError(.engineFailure, "PocketSphinx could not end the utterance")
        }
    }

    /// Feeds `samples` to the utterance in progress; on failure, ends it and throws.
    private func process(_ samples: ArraySlice<Int16>) throws(SpeechError) {
        let processed = samples.withUnsafeBufferPointer { buffer in
            ps_process_raw(decoder, buffer.baseAddress, buffer.count, 0, 0)
        }
        guard processed >= 0 else {
            _ = ps_end_utt(decoder)
            throw SpeechError(.engineFailure, "PocketSphinx failed to process audio", code: Int(processed))
        }
    }

    /// The best `count` different word sequences for the utterance just ended, best first, with
    /// their path scores: what a second opinion (the matcher, or a rejection test) can weigh.
    /// Alternatives that differ only in pronunciation or silences are one.
    public func alternatives(_ count: Int) -> [(text: String, score: Int)] {
        var result: [(text: String, score: Int)] = []
        var seen = Set<String>()
        var entry = ps_nbest(decoder)
        // The A* search also yields paths that differ only in fillers; look a little further.
        var steps = 0
        while let current = entry, result.count < count, steps < count * 20 {
            steps += 1
            var score: Int32 = 0
            if let hypothesis = ps_nbest_hyp(current, &score) {
                let text = Self.spoken(String(cString: hypothesis))
                if seen.insert(text).inserted { result.append((text, Int(score))) }
            }
            entry = ps_nbest_next(current)
        }
        if let entry { ps_nbest_free(entry) }
        return result
    }

    /// Writes the word lattice of the utterance just ended (PocketSphinx's format) to `path`.
    public func writeLattice(to path: String) throws(SpeechError) {
        guard let lattice = ps_get_lattice(decoder), ps_lattice_write(lattice, path) == 0 else {
            throw SpeechError(.engineFailure, "PocketSphinx has no lattice to write to \(path)")
        }
    }

    /// The hypothesis of the utterance just ended, with its segments.
    func currentResult() -> RecognitionResult {
        var score: Int32 = 0
        let hypothesis = ps_get_hyp(decoder, &score).map { String(cString: $0) } ?? ""
        let text = Self.spoken(hypothesis)
        let words = currentSegments()
        // Garbage throughout: nothing fitted a command.
        let isGarbage = words.contains(where: \.isGarbage) && words.allSatisfy { $0.isGarbage || $0.isFiller }
        var result = RecognitionResult(
            text: isGarbage ? "" : text, score: Int(score), frames: Int(ps_get_n_frames(decoder)),
            words: words, confidence: RecognitionConfidence(words: words))
        result.searchWords = hypothesis.split(separator: " ").map(String.init)
        return result
    }

    /// The best path of the utterance just ended, unit by unit (words, or phones in a phone
    /// loop), with their frames and scores. Frames count from the start of the utterance.
    ///
    /// PocketSphinx numbers a segment's frames from the start of the *stream*, so the same audio
    /// heard twice (a grammar, then a phone loop) comes out with frames that do not overlap. The
    /// best path covers the utterance from its first frame, so its first segment's start is
    /// the utterance's offset in the stream.
    func currentSegments() -> [RecognizedWord] {
        var words: [RecognizedWord] = []
        var offset: Int32?
        var segment = ps_seg_iter(decoder)
        while let current = segment {
            var start: Int32 = 0
            var end: Int32 = 0
            ps_seg_frames(current, &start, &end)
            if offset == nil { offset = start }
            start -= offset ?? 0
            end -= offset ?? 0
            var acoustic: Int32 = 0
            var language: Int32 = 0
            var backoff: Int32 = 0
            let posterior = ps_seg_prob(current, &acoustic, &language, &backoff)
            let word = String(cString: ps_seg_word(current))
            // The Viterbi path (`-bestpath no`) lists the grammar's jumps too: they say nothing.
            if word == "(NULL)" {
                segment = ps_seg_next(current)
                continue
            }
            let heard = RecognizedWord(
                word: word, startFrame: Int(start), endFrame: Int(end), acousticScore: Int(acoustic),
                languageScore: Int(language), posterior: Int(posterior))
            words += CompoundWord.isCompound(word) ? split(heard) : [heard]
            segment = ps_seg_next(current)
        }
        return words
    }

    /// A hypothesis with its names of several words (``CompoundWord``) said word by word.
    static func spoken(_ hypothesis: String) -> String {
        String(hypothesis.map { $0 == CompoundWord.separator ? " " : $0 })
    }

    /// The words of a name heard as one (``CompoundWord``), each with a share of its frames and
    /// acoustic score as large as its share of the name's phones (the search does not say where
    /// one ends and the next begins).
    private func split(_ compound: RecognizedWord) -> [RecognizedWord] {
        let parts = CompoundWord.parts(of: compound.word)
        let phones = parts.map { max(1, vocabulary[$0]?.first?.split(separator: " ").count ?? 1) }
        let total = phones.reduce(0, +)
        let frames = compound.endFrame - compound.startFrame + 1
        var result: [RecognizedWord] = []
        var start = compound.startFrame
        var scored = 0
        var before = 0
        for (index, part) in parts.enumerated() {
            before += phones[index]
            let last = index == parts.count - 1
            // Frames and score up to the end of this part, in proportion; the last takes the rest.
            let end = last ? compound.endFrame : max(start, compound.startFrame + frames * before / total - 1)
            let score = last ? compound.acousticScore : compound.acousticScore * before / total
            result.append(
                RecognizedWord(
                    word: part, startFrame: start, endFrame: end, acousticScore: score - scored,
                    languageScore: index == 0 ? compound.languageScore : 0, posterior: compound.posterior))
            scored = score
            start = end + 1
        }
        return result
    }
}

extension SpeechRecognizer {
    /// Seconds the voice loop waits for speech to start before it listens anew
    /// (``listen(timeout:read:)``'s `timeout`); `evaluate` hears recordings with the same, so
    /// that both hear a recording alike.
    public static let utteranceTimeout = 10.0

    /// Listens to a stream until someone has spoken and stopped: the end of speech comes from
    /// ``Configuration/voiceActivity`` (WebRTC's detector by default, PocketSphinx's when `nil`)
    /// after ``Configuration/trailingSilence`` (half a second by default). Sounds with no words
    /// in them (a click, a breath) do not end it. Returns `nil` when nobody spoke before
    /// `timeout`. While the recognizer is still learning the channel
    /// (the first five seconds of speech of a stream), each utterance is heard a second time with
    /// what the first hearing taught it (``Configuration/hearsTwiceWhileLearning``).
    ///
    /// ```swift
    /// let microphone = try PulseAudioSource()
    /// let result = try recognizer.listen(timeout: 10) { try microphone.read(1_600) }
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: Seconds to wait for speech to start.
    ///   - read: Gives the next samples (16 kHz mono), or `nil` at the end of the stream.
    public func listen(
        timeout: Double, read: () throws(SpeechError) -> [Int16]?
    ) throws(SpeechError) -> RecognitionResult? {
        try listen(timeout: timeout, read: read, speechStarted: { _ in })
    }

    /// ``listen(timeout:read:)``, also telling `speechStarted` how many samples had been read
    /// when the detector heard speech begin (again after a false start). With `wordlessSpeech`,
    /// speech that lasted at least that many seconds ends the listening even when the grammar
    /// found no words in it: a recording wants what was said, whatever it was.
    func listen(
        timeout: Double, read: () throws(SpeechError) -> [Int16]?, speechStarted: (Int) -> Void,
        wordlessSpeech: Double? = nil
    ) throws(SpeechError) -> RecognitionResult? {
        guard ps_start_utt(decoder) == 0 else {
            throw SpeechError(.engineFailure, "PocketSphinx could not start an utterance")
        }
        var heardSpeech = false
        var samplesRead = 0
        var speechStart = 0
        // Where the detector last heard the speech end while the words so far could not be a
        // whole sentence; `nil` while speaking.
        var pauseStart: Int?
        // The utterance's audio, for a second hearing and the decoy check: what the decoder heard
        // of it with a detector of its own; otherwise from a second before speech began.
        var utterance: [Int16] = []
        let hearsTwice =
            settings.hearsTwiceWhileLearning
            && Self.cepstralState(of: decoder).frames < Self.settledChannelFrames
        let keepsAudio = hearsTwice || settings.decoyCheck != nil && grammar?.isCommands == true
        // With a detector of its own: the audio not yet heard by the decoder while waiting for
        // speech: its last ``VoiceActivityDetector/leadIn`` samples.
        var waiting: [Int16] = []
        /// Whether the speech just ended is long enough to count without words.
        func isLongEnough() -> Bool {
            guard let wordlessSpeech else { return false }
            // The detector reports the end `trailingSilence` after the speech (the first time it
            // did, when the end of speech waited for the rest of a command).
            let seconds =
                Double((pauseStart ?? samplesRead) - speechStart) / Double(AudioFormat.recognizerSampleRate)
            return seconds - settings.trailingSilence >= wordlessSpeech
        }
        while let raw = try read() {
            let chunk = frontEnd?.process(raw) ?? raw
            guard !chunk.isEmpty else { continue }
            samplesRead += chunk.count
            if keepsAudio && voiceActivity == nil {
                utterance += chunk
                let second = AudioFormat.recognizerSampleRate
                if !heardSpeech && utterance.count > second {
                    utterance.removeFirst(utterance.count - second)
                }
            }
            let inSpeech: Bool
            if let detector = voiceActivity {
                // The detector decides; the decoder hears the utterance from a little before
                // the detector heard it start, and nothing of the quiet before.
                detector.process(voiceActivityFrontEnd?.process(raw) ?? chunk)
                inSpeech = detector.inSpeech
                if heardSpeech || inSpeech {
                    // A second hearing hears what the first heard, and nothing before it.
                    let fed = heardSpeech ? chunk : waiting + chunk
                    try process(fed[...])
                    if keepsAudio { utterance = heardSpeech ? utterance + fed : fed }
                    waiting = []
                } else {
                    waiting += chunk
                    if waiting.count > detector.leadIn {
                        waiting.removeFirst(waiting.count - detector.leadIn)
                    }
                }
            } else {
                try process(chunk[...])
                inSpeech = ps_get_in_speech(decoder) != 0
            }
            if inSpeech && !heardSpeech {
                heardSpeech = true
                speechStart = samplesRead
                speechStarted(samplesRead)
            }
            if inSpeech { pauseStart = nil }
            if heardSpeech && !inSpeech && waitsForTheRest(pausedSince: &pauseStart, samplesRead: samplesRead)
            {
                continue
            }
            if heardSpeech && !inSpeech && !hasPartialWords() && !isLongEnough() {
                // A click, a breath, or the detector starting before it has learnt the noise
                // floor: no words so far, so the utterance goes on. Ending it here and starting
                // another lost the next command (measured on a live microphone).
                heardSpeech = false
                if voiceActivity != nil {
                    // This detector keeps what it learnt across utterances; the decoder forgets
                    // the noise it heard, which would otherwise lead the next command.
                    _ = ps_end_utt(decoder)
                    guard ps_start_utt(decoder) == 0 else {
                        throw SpeechError(.engineFailure, "PocketSphinx could not start an utterance")
                    }
                }
            }
            if heardSpeech && !inSpeech {
                guard ps_end_utt(decoder) == 0 else {
                    throw SpeechError(.engineFailure, "PocketSphinx could not end the utterance")
                }
                let result = try learnChannel(heard: currentResult(), audio: hearsTwice ? utterance : nil)
                if !result.spokenWords.isEmpty || isLongEnough() {
                    return try checked(result, samples: utterance)
                }
                // A click or a breath, or the detector starting before it has learnt the noise
                // floor: no words, so keep listening.
                heardSpeech = false
                guard ps_start_utt(decoder) == 0 else {
                    throw SpeechError(.engineFailure, "PocketSphinx could not start an utterance")
                }
            }
            if !heardSpeech && Double(samplesRead) / Double(AudioFormat.recognizerSampleRate) > timeout {
                _ = ps_end_utt(decoder)
                return nil
            }
        }
        guard ps_end_utt(decoder) == 0 else {
            throw SpeechError(.engineFailure, "PocketSphinx could not end the utterance")
        }
        guard heardSpeech else { return nil }
        let result = try learnChannel(heard: currentResult(), audio: hearsTwice ? utterance : nil)
        // The stream ended while waiting for the rest of a command that never came: nothing.
        if pauseStart != nil && result.spokenWords.isEmpty { return nil }
        return try checked(result, samples: utterance)
    }

    /// How many frames of speech (10 ms each) the cepstral mean must rest on before one hearing
    /// is enough: PocketSphinx's own window (`CMN_WIN`), five seconds of speech.
    static let settledChannelFrames: Int32 = 500

    /// Brings the channel estimate up to date with the utterance just heard and, when `audio` is
    /// given, hears that audio again with it, and returns what the second hearing heard.
    ///
    /// The decoder hears an utterance with the cepstral mean it had when the utterance began.
    /// A fresh decoder has only the acoustic model's mean, far from any microphone's (people's
    /// recordings here sit 10 to 25 units above it in c0), so the first seconds of a stream,
    /// and every clip of an evaluation, were heard through the wrong channel: measured on
    /// people's recordings, a second hearing with the mean learnt from the utterance itself
    /// took `speech-to-phrase-en` from 23 to 25 of 31 commands and people's spoken digits from
    /// 38% to 64% (Benchmarks/Recognition/README.md, "Hearing twice").
    private func learnChannel(heard first: RecognitionResult, audio: [Int16]?) throws(SpeechError)
        -> RecognitionResult
    {
        vi_update_cepstral_mean(decoder)
        guard let audio else { return first }
        // The second hearing adds the same frames again: keep the estimate as one hearing left it.
        let learnt = Self.cepstralState(of: decoder)
        defer { restoreCepstralState(learnt) }
        try decode(audio, chunk: 2048)
        return currentResult()
    }

    /// Whether the end of speech just reported should wait for more: the words so far are not a
    /// whole sentence of the grammar, and the silence since the detector first reported the end
    /// of them is still under ``Configuration/maximumSilence``.
    private func waitsForTheRest(pausedSince pauseStart: inout Int?, samplesRead: Int) -> Bool {
        guard let grammar, let maximum = settings.maximumSilence, maximum > settings.trailingSilence,
            hasPartialWords()
        else { return false }
        let start = pauseStart ?? samplesRead
        let silence =
            settings.trailingSilence + Double(samplesRead - start) / Double(AudioFormat.recognizerSampleRate)
        guard silence < maximum else { return false }
        // Asked once a pause; the words heard before it do not change while it lasts.
        if pauseStart == nil {
            guard !grammar.canSay(currentResult().text) else { return false }
            pauseStart = samplesRead
        }
        return true
    }

    /// Whether the utterance so far has a hypothesis with words in it.
    private func hasPartialWords() -> Bool {
        var score: Int32 = 0
        guard let hypothesis = ps_get_hyp(decoder, &score) else { return false }
        return hypothesis.pointee != 0
    }
}

/// What the recognizer heard in one utterance.
public struct RecognitionResult: Sendable, Hashable {
    /// The words, space-separated; empty when nothing fitted (or only a garbage path did: see
    /// ``garbage``). A value heard on a garbage path (``GarbageKind/value``) is written as its
    /// phone-words: "find six tickets for ~l ~uw ~v".
    public let text: String
    /// PocketSphinx's path score (log scale; higher is better).
    public let score: Int
    /// How many 10 ms frames were decoded.
    public let frames: Int
    /// Every segment of the best path, silences and fillers included.
    public let words: [RecognizedWord]

    /// How sure the recognizer is that the utterance was what it heard; `nil` only for a result
    /// made by hand without one.
    public internal(set) var confidence: RecognitionConfidence?

    /// The words as the search has them: a name of several words as one (``CompoundWord``).
    var searchWords: [String] = []

    public init(
        text: String, score: Int, frames: Int, words: [RecognizedWord],
        confidence: RecognitionConfidence? = nil
    ) {
        self.text = text
        self.score = score
        self.frames = frames
        self.words = words
        self.confidence = confidence
    }

    /// The segments that are words (no silence, no fillers such as `<sil>` or `[NOISE]`, no
    /// garbage phone-words).
    public var spokenWords: [RecognizedWord] {
        words.filter { !$0.isFiller && !$0.isGarbage }
    }

    /// Seconds of the utterance outside its ``spokenWords``: the silences and noises before,
    /// between and after them, the trailing silence that ended the utterance included. Speech
    /// the grammar could not fit lands here too: a news sentence heard under a yes-or-no grammar
    /// as "please do" has two seconds of "silence" between the two words. So an answer of a word
    /// or two with much more than the trailing silence around it was likely not an answer
    /// (`Benchmarks/Recognition/README.md`, "Answers to a confirmation").
    public var secondsOutsideWords: Double {
        let wordFrames = spokenWords.reduce(0) { $0 + $1.endFrame - $1.startFrame + 1 }
        return Double(max(0, frames - wordFrames)) / 100
    }

    /// ``text`` without garbage phone-words: what a matcher is given. A value heard on a garbage
    /// path is left out ("how busy is in travel tracking"), so the runner asks for it rather than
    /// guessing.
    public var commandText: String {
        guard garbage != .commandWord else { return "" }
        return text.split(separator: " ").filter { !GarbageModel.isGarbage(String($0)) }.joined(
            separator: " ")
    }

    /// ``text`` with each run of garbage phone-words written as "…", for people to read: "how
    /// busy is … in travel tracking".
    public var readableText: String {
        var words: [String] = []
        for word in text.split(separator: " ").map(String.init) {
            if GarbageModel.isGarbage(word) {
                if words.last != "…" { words.append("…") }
            } else {
                words.append(word)
            }
        }
        return words.joined(separator: " ")
    }

    /// The share of the frames of words (garbage included, silences and fillers not) that the
    /// best path spent in garbage loops: 0 without garbage, 1 for a whole-utterance loop.
    public var garbageShare: Double {
        let segments = words.filter { !$0.isFiller }
        let frames = segments.reduce(0) { $0 + $1.endFrame - $1.startFrame + 1 }
        let garbage = segments.filter(\.isGarbage).reduce(0) { $0 + $1.endFrame - $1.startFrame + 1 }
        return frames > 0 ? Double(garbage) / Double(frames) : 0
    }

    /// Whether the best path went through a garbage loop of the grammar (``GarbageModel``), and
    /// where: through the whole utterance (not a command), or in place of values of a command
    /// (a near miss); `nil` when it kept to the commands, or the grammar has no garbage path.
    public var garbage: GarbageKind? {
        guard words.contains(where: \.isGarbage) else { return nil }
        if words.contains(where: { GarbageModel.isCommandDecoy($0.word) }) { return .commandWord }
        return spokenWords.isEmpty ? .utterance : .value
    }
}

/// One segment of a recognition.
public struct RecognizedWord: Sendable, Hashable {
    /// The word ("travel"), or a filler ("<sil>").
    public let word: String
    /// First and last 10 ms frame.
    public let startFrame: Int
    public let endFrame: Int
    /// PocketSphinx's acoustic and language scores, and posterior, for rejection work.
    public let acousticScore: Int
    public let languageScore: Int
    public let posterior: Int

    /// Whether the segment is a phone-word of a garbage loop ("~aa"; ``GarbageModel``).
    public var isGarbage: Bool { GarbageModel.isGarbage(word) }
    /// Whether the segment is silence or a filler (`<sil>`, `[NOISE]`, `++…`).
    public var isFiller: Bool { word.hasPrefix("<") || word.hasPrefix("[") || word.hasPrefix("++") }

    /// When the word starts and ends, in seconds from the start of the utterance.
    public var start: Double { Double(startFrame) / 100 }
    public var end: Double { Double(endFrame + 1) / 100 }
}
