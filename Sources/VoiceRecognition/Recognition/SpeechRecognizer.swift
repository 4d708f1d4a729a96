// The recognizer over PocketSphinx's decoder: models, words, grammars and decoding. The calls
// that own the decoder pointer stay in this one file, so that its lifetime can be read in one
// place; that is why it runs past 400 lines. Listening to a stream is in
// SpeechRecognizer+Listening.swift, confidence in SpeechRecognizer+Confidence.swift.

import CPocketSphinx
import CSignalKernels
import Foundation
import VoiceAudio

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
        package var acousticModel: String
        /// Files that replace the acoustic model's one by one (an adapted model); `nil`: the
        /// model as it is. The manifest's `adaptation`, or an app's own (`voice-intents adapt`).
        package var adaptation: AcousticAdaptation?
        /// The pronunciation dictionary (CMU format).
        package var dictionary: String
        /// The language model for dictation.
        package var languageModel: String
        /// Decoder arguments beyond the model files ("-beam", "1e-80", …).
        package var arguments: [String]
        /// The Debian package that installs the model files, named when one is missing.
        package var package = "pocketsphinx-en-us"
        /// Pronunciations checked by hand (CMU format), used before the dictionary's and before
        /// guessing: `Models/<locale>/lexicon.dict`.
        package var lexicon: String?
        /// Seconds of silence that end an utterance when listening to a stream (PocketSphinx's
        /// `-vad_postspeech`, in 10 ms frames). Shorter answers sooner; too short cuts people off
        /// at a pause.
        package var trailingSilence: Double = 0.5
        /// The longest silence an utterance may hold while what was heard so far cannot yet be a
        /// whole sentence of the grammar ("set a timer for …"): the end of speech waits, up to
        /// this many seconds of silence, for the rest. `nil` or no more than
        /// ``trailingSilence``: every pause of ``trailingSilence`` ends the utterance. The
        /// manifest's `maximumSilence`.
        package var maximumSilence: Double? = 1.0
        /// Whether the end of speech also waits, up to ``maximumSilence``, after words that are
        /// a whole command the grammar lets go on with words that could change it (not an answer
        /// to a question) ("make me a double shot drip coffee" … "with a bit of sweetener"; not
        /// "switch to the world map" … "in travel tracking"); otherwise only words that are no
        /// whole sentence yet wait. The manifest's `waitForContinuation`.
        package var waitsForContinuation = true
        /// The longest utterance a stream is heard in, in seconds: speech that goes on longer (a
        /// television, a room that never falls quiet, someone reading aloud) is ended there and
        /// heard as it is, and the listening starts again after it. No command is that long; a
        /// search over minutes of sound costs more with every second. `nil`: no limit.
        package var longestUtterance: Double? = 30
        /// What cleans the audio before the decoder hears it (``AudioFrontEnd``): by default
        /// ``AudioFrontEnd/Settings/standard``; `nil` for nothing. The manifest's `frontEnd`
        /// (``AudioFrontEnd/Settings/learned`` for English, or the standard one on a machine
        /// without RNNoise, with a word in ``notices``).
        package var frontEnd: AudioFrontEnd.Settings? = .standard
        /// What of the manifest this machine cannot give, and what is used instead, for a
        /// program to show as warnings (a learned noise suppressor that is not installed).
        package var notices: [String] = []
        /// What ends an utterance when listening to a stream: WebRTC's voice activity detector
        /// (``VoiceActivityDetector``), with every frame of the utterance decoded (by default
        /// ``VoiceActivityDetector/Settings/standard``); `nil`: PocketSphinx's own detector, which
        /// also drops the frames it calls silence before the search hears them. The manifest's
        /// `voiceActivity`.
        package var voiceActivity: VoiceActivityDetector.Settings? = .standard
        /// The confidence below which `listen` ignores a command, for an app that has no
        /// calibration of its own: chosen on people's recordings across apps
        /// (`Benchmarks/Calibration/people/`), so a new app ignores much of the talk around it
        /// out of the box. The manifest's `minimumConfidence`.
        package var minimumConfidence = 0.75
        /// The garbage path beside the commands of an app with no calibration of its own, which
        /// ``minimumConfidence`` was chosen with. The manifest's `garbage`.
        package var garbagePath = GarbagePath.off
        /// The phone language model of ``SpeechRecognizer/hearPhones(_:loop:chunk:)``; `nil` takes
        /// `en-us-phone.lm.bin` beside ``languageModel``.
        package var phoneLanguageModel: String?
        /// A second hearing of each command heard under an app's grammar, with decoys beside
        /// its first word and names (``DecoyCheck``); `nil`: none (the default).
        package var decoyCheck: DecoyCheck?
        /// Whether ``SpeechRecognizer/listen(timeout:read:)`` hears an utterance a second time,
        /// with the channel estimate learnt from it, while that estimate is still young (under
        /// five seconds of speech: a new stream, or every clip of an evaluation). On by default;
        /// off only to measure what the second hearing brings.
        package var hearsTwiceWhileLearning = true
        /// How ``hearsTwiceWhileLearning`` is done when a detector of its own
        /// (``voiceActivity``) says where speech is: the channel is learnt from the utterance's
        /// sound without decoding it, and the utterance is decoded once with it, for half the
        /// cost and the same words (people's recordings, `speech-benchmark --learning`). Off: it
        /// is decoded as it arrives and again at its end. On by default; off only to measure.
        package var learnsChannelBeforeHearing = true
        /// Whether a command whose first word ran across a pause after a short sound at its start
        /// (a satellite's awake chime, a click) is heard again from the end of that pause
        /// (`LeadingSound`). On by default; off only to measure.
        package var hearsAgainAfterLeadingSound = true
        /// The decoy list the locale's manifest names (`Models/<locale>/decoys.txt`), for
        /// ``decoyCheck``.
        package var decoys: String?

        /// Debian's `pocketsphinx-en-us` model, with the grammar-mode settings chosen for this
        /// project (see `Benchmarks/Recognition/README.md`), heard through
        /// ``AudioFrontEnd/Settings/learned`` where RNNoise is installed.
        package static let englishUS = {
            var configuration = Configuration(
                acousticModel: "/usr/share/pocketsphinx/model/en-us/en-us",
                dictionary: "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict",
                languageModel: "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin",
                arguments: [
                    "-beam", "1e-80", "-wbeam", "1e-60", "-pbeam", "1e-80", "-vad_threshold", "3.0",
                ])
            let (frontEnd, notice) = AudioFrontEnd.Settings.learned.runnableHere()
            configuration.frontEnd = frontEnd
            configuration.notices = notice.map { [$0] } ?? []
            return configuration
        }()

        package init(acousticModel: String, dictionary: String, languageModel: String, arguments: [String]) {
            self.acousticModel = acousticModel
            self.dictionary = dictionary
            self.languageModel = languageModel
            self.arguments = arguments
        }
    }

    let configuration: OpaquePointer
    let decoder: OpaquePointer
    /// Whether this decoder's Gaussians are scored by the project's AVX2 code (the library's
    /// results bit for bit, in a fraction of its time) when ``scoresGaussiansOwnWay`` is on.
    let scoresOwnGaussians: Bool
    var searches = Set<String>()
    /// The FSG text of each grammar set, so switching back to one is only a switch.
    private var grammars: [String: String] = [:]
    /// The grammar in use, when it is one of ``SpeechGrammar``'s (not dictation).
    var grammar: SpeechGrammar?
    let settings: Configuration
    /// The words the decoder's dictionary holds, with their pronunciations. Grammar mode loads
    /// only the words its grammars use (the whole dictionary takes 22 MB in the decoder);
    /// dictation loads the whole dictionary.
    private var vocabulary: [String: [String]] = [:]
    private var hasWholeDictionary = false
    /// Words added to the dictionary with a guessed pronunciation, and the phones guessed.
    package private(set) var guessedWords: [String: String] = [:]

    /// Loads the acoustic model and dictionary.
    ///
    /// - Throws: ``SpeechError`` naming the missing file and the package that provides it.
    package init(_ settings: Configuration = .englishUS) throws(SpeechError) {
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
            + (settings.adaptation?.decoderArguments ?? [])
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
        // Faster scoring of the model's Gaussians where the processor has it, checked against
        // the library's own on the first frames.
        scoresOwnGaussians =
            ProcessInfo.processInfo.environment["VOICE_INTENTS_GMM_KERNELS"] != "library"
            && vi_gmm_use_own_kernels(
                UnsafeMutableRawPointer(decoder), UnsafeRawPointer(ps_get_config(decoder)),
                UnsafeRawPointer(ps_get_feat(decoder)), UnsafeRawPointer(ps_get_fe(decoder)),
                Int32(cmd_ln_int_r(configuration, "-topn")), Int32(cmd_ln_int_r(configuration, "-ds"))) == 1
        self.configuration = configuration
        self.decoder = decoder
        self.settings = settings
        self.languageModel = settings.languageModel
        self.initialCepstralState = Self.cepstralState(of: decoder)
        self.frontEnd = try settings.frontEnd.map { settings throws(SpeechError) in
            try AudioFrontEnd(settings)
        }
        self.voiceActivity = settings.voiceActivity.map {
            VoiceActivityDetector($0, trailingSilence: settings.trailingSilence)
        }
        self.voiceActivityFrontEnd =
            settings.voiceActivity != nil && settings.frontEnd == nil ? try AudioFrontEnd(.standard) : nil
    }

    /// Ends utterances in a stream when the configuration has its own detector
    /// (``Configuration/voiceActivity``).
    let voiceActivity: VoiceActivityDetector?
    /// What the detector hears through when the decoder hears the audio as it is: its noise
    /// floor needs the noise suppressed (`Benchmarks/Recognition/README.md`, "An end of speech of
    /// its own").
    let voiceActivityFrontEnd: AudioFrontEnd?

    /// Cleans the audio of the stream being heard (``Configuration/frontEnd``).
    let frontEnd: AudioFrontEnd?

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
    package func forgetChannel() {
        restoreCepstralState(initialCepstralState)
        frontEnd?.reset()
        voiceActivity?.reset()
        voiceActivityFrontEnd?.reset()
        _ = ps_start_stream(decoder)
    }

    /// Whether decoders scored by the project's code (``scoresOwnGaussians``) use it now: in an
    /// optimised build (`-c release`) by default; unoptimised, the library's own is quicker.
    /// `VOICE_INTENTS_GMM_KERNELS=library` keeps every decoder on the library's own.
    package static var scoresGaussiansOwnWay: Bool { vi_gmm_own_kernels() != 0 }

    /// Scores every decoder of the process that can with the project's code (`true`) or with the
    /// library's own: a measurement's baseline, or a check that both agree.
    package static func scoreGaussiansOwnWay(_ own: Bool) {
        _ = vi_gmm_set_own_kernels(own ? 1 : 0)
    }

    /// How many decoders went back to the library's scoring because the project's differed on
    /// one of the frames both scored (none, unless the library is not the one the code knows).
    package static var gaussianDisagreements: Int { Int(vi_gmm_disagreements()) }

    deinit {
        ps_free(decoder)
        cmd_ln_free_r(configuration)
    }

    /// The pronunciations the decoder holds for its grammars, in CMU format: the grammars' words
    /// from the lexicon, the dictionary, or guessed (what `voice-intents grammar` writes as
    /// `<app>.dict`).
    package var loadedPronunciations: String {
        PronunciationDictionary.text(vocabulary.filter { !CompoundWord.isCompound($0.key) })
    }

    /// Whether the lexicon or the dictionary has `word` (without guessing).
    package func knows(_ word: String) -> Bool {
        vocabulary[word] != nil && guessedWords[word] == nil
            || (try? lookUp([word]))?[word] != nil
    }

    /// The phones of `word`'s first pronunciation as the decoder has it ("M AE P"), or `nil` when
    /// no grammar or dictation has loaded the word.
    package func pronunciation(of word: String) -> String? {
        guard let phones = ps_lookup_word(decoder, word) else { return nil }
        defer { free(phones) }
        return String(cString: phones)
    }

    /// Adds `word` with `phones` (CMU phones, space-separated: "M AE CH UW").
    package func addWord(_ word: String, phones: String) throws(SpeechError) {
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
    package enum GrammarForm: Sendable {
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
    package var garbageUsesViterbiPath = true

    /// Listens under `grammar` from now on; words the dictionary lacks are added first, with
    /// pronunciations guessed from eSpeak NG (see ``guessedWords``).
    package func useGrammar(_ grammar: SpeechGrammar, form: GrammarForm = .minimalGraph) throws(SpeechError) {
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
    package func useDictation() throws(SpeechError) {
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
    /// feed them (which decodes better than one call with everything). While the recognizer is
    /// still learning the channel (its first five seconds of speech), the utterance is heard
    /// with the channel learnt from its own sound, as ``listen(timeout:read:)`` hears it
    /// (``Configuration/hearsTwiceWhileLearning``).
    ///
    /// - Parameters:
    ///   - samples: The audio.
    ///   - chunk: Samples per call to the decoder.
    package func recognize(_ samples: [Int16], chunk: Int = 2048) throws(SpeechError) -> RecognitionResult {
        let samples = cleanedAfresh(samples)
        // A fresh decoder's channel is the acoustic model's, far from a microphone's: a person's
        // clean command could reach no sentence of the grammar at all through it.
        let channel = Self.cepstralState(of: decoder)
        guard settings.hearsTwiceWhileLearning, channel.frames < Self.settledChannelFrames else {
            try decode(samples, chunk: chunk)
            return try checked(currentResult(), samples: samples)
        }
        try learnChannel(from: Array(speech(in: samples)), after: channel)
        // The hearing adds the same frames again: keep the estimate as learning it left it.
        let learnt = Self.cepstralState(of: decoder)
        defer { restoreCepstralState(learnt) }
        try decode(samples, chunk: chunk)
        return try checked(currentResult(), samples: samples)
    }

    /// The stretch of `samples` a detector of the configuration's own calls an utterance, with
    /// its lead-in, as `listen` would have kept it: the channel is learnt from that, not from the
    /// silence a recording has around it (which, learnt too, took "go forward ten meters" heard
    /// by dictation to "ten years" in 13 of 15 paddings). All of it without such a detector, or
    /// when it hears no speech.
    func speech(in samples: [Int16]) -> ArraySlice<Int16> {
        guard let detection = settings.voiceActivity else { return samples[...] }
        let detector = VoiceActivityDetector(detection, trailingSilence: settings.trailingSilence)
        let chunk = AudioFormat.recognizerSampleRate / 10
        var start: Int?
        var end = 0
        for offset in stride(from: 0, to: samples.count, by: chunk) {
            let upTo = min(offset + chunk, samples.count)
            detector.process(Array(samples[offset..<upTo]))
            if detector.inSpeech {
                if start == nil { start = max(0, detector.speechStart - detector.leadIn) }
                end = upTo
            }
        }
        guard let start, end > start else { return samples[...] }
        return samples[start..<end]
    }

    /// `result`, heard from `samples`, after the configuration's ``DecoyCheck``, if any.
    /// A command whose first word ran across a pause after a leading sound is heard again from
    /// the pause's end first (``Configuration/hearsAgainAfterLeadingSound``), when `samples` begin
    /// where the result's frames do; one where a louder voice began part way, from there too
    /// (`foreground`, ``fromForeground(_:samples:heard:)``).
    func checked(
        _ result: RecognitionResult, samples: [Int16], startsWithFrames: Bool = true,
        foreground: [Int16]? = nil
    )
        throws(SpeechError) -> RecognitionResult
    {
        var (result, samples) =
            startsWithFrames ? try withoutLeadingSound(result, samples: samples) : (result, samples)
        if let foreground {
            (result, samples) = try fromForeground(result, samples: samples, heard: foreground)
        }
        guard let check = settings.decoyCheck, let grammar, !result.spokenWords.isEmpty else { return result }
        return try checkWithDecoys(samples, heard: result, grammar: grammar, check: check)
    }

    /// `result`, or the utterance heard again from where a voice far louder than what came
    /// before began (``VoiceActivityDetector/foregroundStart``; `heard` is the audio as read from
    /// there), whichever is the surer: people talking across the room start an utterance that a
    /// command said nearer joins, and the whole is then heard as no command, or as a wrong one,
    /// unsure. A person who says the end of a command louder than its start is heard surer whole.
    /// The front end hears it afresh: a learned suppressor that has heard the talk for seconds
    /// takes the nearer voice for more of it (it ends as it would have, having heard that audio last).
    /// Listening marks a louder voice only under a grammar of commands.
    func fromForeground(_ result: RecognitionResult, samples: [Int16], heard: [Int16]) throws(SpeechError)
        -> (result: RecognitionResult, samples: [Int16])
    {
        let rest = cleanedAfresh(heard)
        let again = try heardAgain(rest)
        guard !again.spokenWords.isEmpty else { return (result, samples) }
        let whole = result.spokenWords.isEmpty ? 0 : result.confidence?.value ?? 0
        return (again.confidence?.value ?? 0) > whole ? (again, rest) : (result, samples)
    }

    /// What a hearing of `samples` alone hears, on the channel learnt so far, which it leaves as
    /// it was.
    func heardAgain(_ samples: [Int16]) throws(SpeechError) -> RecognitionResult {
        let channel = Self.cepstralState(of: decoder)
        defer { restoreCepstralState(channel) }
        try decode(samples, chunk: 2048)
        return currentResult()
    }

    /// `samples` through the front end, started afresh for them; as they are without one.
    func cleanedAfresh(_ samples: [Int16]) -> [Int16] {
        guard let frontEnd else { return samples }
        frontEnd.reset()
        return frontEnd.process(samples)
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
    func process(_ samples: ArraySlice<Int16>) throws(SpeechError) {
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
    package func alternatives(_ count: Int) -> [(text: String, score: Int)] {
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
    package func writeLattice(to path: String) throws(SpeechError) {
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
