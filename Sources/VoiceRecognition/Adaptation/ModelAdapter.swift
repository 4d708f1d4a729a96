import Foundation
import VoiceAudio

/// Adapts an acoustic model to transcribed speech with Debian's `sphinxtrain`: features by
/// `sphinx_fe` with the model's own `feat.params`, statistics by `bw`, then MAP (`map_adapt`) of
/// the means, mixture weights and transition matrices, or an MLLR transform of the means
/// (`mllr_solve`); the mixture weights are written back as PocketSphinx's quantized `sendump`
/// (`mk_s2sendump`). The result is an ``AcousticAdaptation`` folder.
///
/// The clips must be heard as the recognizer will hear them: 16 kHz, through the same audio
/// front end. `voice-intents adapt` makes them so.
///
/// ```swift
/// let adapter = try ModelAdapter(base: .installed(), work: scratch)
/// let report = try adapter.adapt(clips, settings: .init(), output: folder) { print($0) }
/// ```
package struct ModelAdapter {
    /// One transcribed utterance.
    package struct Clip: Sendable {
        /// A name unique among the clips (letters, digits, `-` and `_`).
        package var name: String
        /// 16 kHz mono samples, already through the recognizer's front end.
        package var samples: [Int16]
        /// What was said, in the dictionary's words (lower case).
        package var words: [String]

        package init(name: String, samples: [Int16], words: [String]) {
            self.name = name
            self.samples = samples
            self.words = words
        }
    }

    /// What is adapted.
    package enum Method: String, Sendable, CaseIterable {
        /// Maximum a posteriori re-estimation of means, mixture weights and transition matrices:
        /// each parameter moves towards what the clips say of it as far as the clips hold enough
        /// of it (τ). Wants an hour or more of speech to help.
        case map
        /// One linear transform of every mean (maximum likelihood linear regression): a few
        /// minutes of speech are enough to estimate it, and it moves every sound alike.
        case mllr
    }

    /// How to adapt.
    package struct Settings: Sendable {
        package var method: Method
        /// MAP's prior weight τ, the same for every parameter; `nil` lets `map_adapt` estimate it
        /// from the model's variances and the clips.
        package var tau: Double?
        /// Rounds of statistics and re-estimation, each starting from the last.
        package var passes: Int
        /// Whether MAP also re-estimates the variances (it made things worse on AN4).
        package var adaptsVariances: Bool

        package init(
            method: Method = .map, tau: Double? = nil, passes: Int = 1, adaptsVariances: Bool = false
        ) {
            self.method = method
            self.tau = tau
            self.passes = passes
            self.adaptsVariances = adaptsVariances
        }
    }

    /// What an adaptation heard.
    package struct Report: Sendable {
        /// Clips given, clips whose statistics `bw` kept, and their length in hours.
        package var clips: Int
        package var aligned: Int
        package var hours: Double
        /// Words no dictionary has, with how many clips were left out for them.
        package var unknownWords: [String: Int]
        /// The seconds each step took.
        package var seconds: [(step: String, seconds: Double)]
    }

    let base: SpeechRecognizer.Configuration
    let work: URL
    let tools: [String: String]

    /// The programs it runs: name, where it is looked for, and the Debian package that has it.
    static let programs: [(name: String, path: String?, package: String)] = [
        ("sphinx_fe", nil, "sphinxbase-utils"),
        ("pocketsphinx_mdef_convert", nil, "pocketsphinx"),
        ("bw", "/usr/lib/sphinxtrain/bw", "sphinxtrain"),
        ("map_adapt", "/usr/lib/sphinxtrain/map_adapt", "sphinxtrain"),
        ("mllr_solve", "/usr/lib/sphinxtrain/mllr_solve", "sphinxtrain"),
        ("mk_s2sendump", "/usr/lib/sphinxtrain/mk_s2sendump", "sphinxtrain"),
    ]

    /// - Parameters:
    ///   - base: The models to adapt: its acoustic model, and its ``SpeechRecognizer/Configuration/adaptation``
    ///     as the starting point when it has one; its lexicon and dictionary say the words.
    ///   - work: A folder for the features and statistics (made when missing; left for the
    ///     caller to remove).
    /// - Throws: ``SpeechError`` naming a program that is not installed and its Debian package.
    package init(base: SpeechRecognizer.Configuration, work: URL) throws(SpeechError) {
        var tools: [String: String] = [:]
        for program in Self.programs {
            let found =
                program.path.flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
                ?? ChildProcess.program(program.name)
            guard let found else {
                throw SpeechError(
                    .missingModel,
                    "\(program.name) is not installed: adapting a model needs Debian's \(program.package) (apt-get install \(program.package); Scripts/bootstrap.sh installs it)"
                )
            }
            tools[program.name] = found
        }
        self.tools = tools
        self.base = base
        self.work = work
    }

    /// Adapts the base model to `clips` and writes the files that changed to `output`
    /// (replacing what was there), with `adaptation.json` saying how they were made.
    ///
    /// - Parameters:
    ///   - sources: What the clips were, for `adaptation.json`.
    ///   - progress: Told each step as it starts.
    /// - Throws: ``SpeechError`` when a step fails (with what the program said), when no clip
    ///   can be aligned, or when a file cannot be written.
    package func adapt(
        _ clips: [Clip], settings: Settings, sources: [String] = [], output: URL,
        progress: (String) -> Void = { _ in }
    ) throws(SpeechError) -> Report {
        var timings: [(String, Double)] = []
        func timed<T>(_ step: String, _ body: () throws(SpeechError) -> T) throws(SpeechError) -> T {
            progress(step)
            let start = Date()
            let value = try body()
            timings.append((step, Date().timeIntervalSince(start)))
            return value
        }
        let model = URL(fileURLWithPath: base.acousticModel)
        let start = work.appendingPathComponent("start")
        let features = work.appendingPathComponent("features")
        for folder in [start, features] { try Self.makeFolder(folder, empty: true) }

        // The starting model: the base model's files, or the adaptation's where it has them;
        // bw and map_adapt read the mixture weights unquantized and the model definition as text.
        let startFrom = base.adaptation
        func startingFile(_ name: String) -> URL {
            if let folder = startFrom?.folder,
                FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(name).path)
            {
                return folder.appendingPathComponent(name)
            }
            return model.appendingPathComponent(name)
        }
        if startFrom?.present.contains("mllr_matrix") == true {
            throw SpeechError(
                .invalidInput,
                "\(startFrom!.folder.path) is an MLLR transform: adapt from a model with adapted files (MAP) or from the base model"
            )
        }
        let definition = start.appendingPathComponent("mdef.txt")
        try timed("reading the model \(model.path)") { () throws(SpeechError) in
            try run(
                "pocketsphinx_mdef_convert",
                ["-text", model.appendingPathComponent("mdef").path, definition.path])
            for name in ["means", "variances", "transition_matrices"] {
                try Self.copy(startingFile(name), to: start.appendingPathComponent(name))
            }
            let mixtureWeights = start.appendingPathComponent("mixture_weights")
            if FileManager.default.fileExists(atPath: startingFile("mixture_weights").path) {
                try Self.copy(startingFile("mixture_weights"), to: mixtureWeights)
            } else {
                try SendumpFile.mixtureWeights(fromSendump: startingFile("sendump"), to: mixtureWeights)
            }
        }

        // The clips, their words' pronunciations, and their features.
        let (listed, unknown) = try timed("writing \(clips.count) clips and their features") {
            () throws(SpeechError) in try writeClips(clips, into: features)
        }
        guard !listed.isEmpty else {
            throw SpeechError(.invalidInput, "no clip to adapt on: every clip has a word no dictionary has")
        }
        let hours =
            Double(clips.reduce(0) { $0 + $1.samples.count }) / Double(AudioFormat.recognizerSampleRate)
            / 3600

        var current = start
        var aligned = 0
        let passes = max(1, settings.passes)
        for pass in 1...passes {
            let accumulated = work.appendingPathComponent("statistics-\(pass)")
            try Self.makeFolder(accumulated, empty: true)
            let said = try timed("pass \(pass) of \(passes): statistics of the clips (bw)") {
                () throws(SpeechError) in
                try statistics(model: current, definition: definition, features: features, into: accumulated)
            }
            aligned = said
            guard aligned > 0 else {
                throw SpeechError(
                    .engineFailure, "bw aligned none of the \(listed.count) clips to their words")
            }
            let next = work.appendingPathComponent("pass-\(pass)")
            try Self.makeFolder(next, empty: true)
            try timed("pass \(pass) of \(passes): \(settings.method.rawValue) re-estimation") {
                () throws(SpeechError) in
                switch settings.method {
                case .map:
                    var arguments =
                        [
                            "-moddeffn", definition.path, "-ts2cbfn", ".ptm.",
                        ] + Self.modelArguments(current) + [
                            "-accumdir", accumulated.path,
                            "-mapmeanfn", next.appendingPathComponent("means").path,
                            "-mapvarfn", next.appendingPathComponent("variances-adapted").path,
                            "-mapmixwfn", next.appendingPathComponent("mixture_weights").path,
                            "-maptmatfn", next.appendingPathComponent("transition_matrices").path,
                        ]
                    if let tau = settings.tau { arguments += ["-fixedtau", "yes", "-tau", String(tau)] }
                    try run("map_adapt", arguments)
                    // map_adapt always writes variances; they are kept only when asked for.
                    try Self.copy(
                        settings.adaptsVariances
                            ? next.appendingPathComponent("variances-adapted")
                            : current.appendingPathComponent("variances"),
                        to: next.appendingPathComponent("variances"))
                case .mllr:
                    try run(
                        "mllr_solve",
                        [
                            "-meanfn", start.appendingPathComponent("means").path,
                            "-varfn", start.appendingPathComponent("variances").path,
                            "-outmllrfn", next.appendingPathComponent("mllr_matrix").path,
                            "-accumdir", accumulated.path,
                        ])
                    for name in ["means", "variances", "mixture_weights", "transition_matrices"] {
                        try Self.copy(
                            start.appendingPathComponent(name), to: next.appendingPathComponent(name))
                    }
                }
            }
            current = next
        }

        try timed("writing the adapted model to \(output.path)") { () throws(SpeechError) in
            try Self.makeFolder(output, empty: true)
            switch settings.method {
            case .map:
                try run(
                    "mk_s2sendump",
                    [
                        "-pocketsphinx", "yes", "-moddeffn", definition.path,
                        "-mixwfn", current.appendingPathComponent("mixture_weights").path,
                        "-sendumpfn", output.appendingPathComponent("sendump").path,
                    ])
                var names = ["means", "transition_matrices"]
                if settings.adaptsVariances { names.append("variances") }
                for name in names {
                    try Self.copy(
                        current.appendingPathComponent(name), to: output.appendingPathComponent(name))
                }
            case .mllr:
                // The transform applies to the starting model's means: carry them when they
                // were adapted before.
                try Self.copy(
                    current.appendingPathComponent("mllr_matrix"),
                    to: output.appendingPathComponent("mllr_matrix"))
                for name in ["means", "transition_matrices", "sendump"] {
                    if let folder = startFrom?.folder,
                        FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
                    {
                        try Self.copy(
                            folder.appendingPathComponent(name), to: output.appendingPathComponent(name))
                    }
                }
            }
            let provenance = AcousticAdaptation.Provenance(
                base: self.base.acousticModel, startedFrom: startFrom?.folder.path,
                method: settings.method.rawValue,
                tau: settings.tau, passes: passes, clips: aligned, hours: (hours * 1000).rounded() / 1000,
                sources: sources, made: ISO8601DateFormatter().string(from: Date()))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do {
                try encoder.encode(provenance).write(
                    to: output.appendingPathComponent(AcousticAdaptation.Provenance.fileName))
            } catch {
                throw SpeechError(.invalidInput, "cannot write \(output.path): \(error.localizedDescription)")
            }
        }
        return Report(
            clips: clips.count, aligned: aligned, hours: hours, unknownWords: unknown, seconds: timings)
    }

    /// Writes the clips as WAV files, their list and transcripts, a dictionary of their words and
    /// the model's fillers, and their features: the clips listed and the words no dictionary has.
    private func writeClips(_ clips: [Clip], into folder: URL) throws(SpeechError) -> (
        listed: [String], unknown: [String: Int]
    ) {
        let words = Set(clips.flatMap(\.words))
        var pronunciations = try PronunciationDictionary.entries(
            for: words, in: URL(fileURLWithPath: base.dictionary))
        if let lexicon = base.lexicon {
            pronunciations.merge(
                try PronunciationDictionary.entries(for: words, in: URL(fileURLWithPath: lexicon)),
                uniquingKeysWith: { _, lexicon in lexicon })
        }
        var unknown: [String: Int] = [:]
        var listed: [String] = []
        var transcripts: [String] = []
        var names = Set<String>()
        for clip in clips {
            let missing = clip.words.filter { pronunciations[$0] == nil }
            guard missing.isEmpty, !clip.words.isEmpty, !clip.samples.isEmpty else {
                for word in Set(missing) { unknown[word, default: 0] += 1 }
                continue
            }
            guard names.insert(clip.name).inserted else {
                throw SpeechError(.invalidInput, "two clips are named \(clip.name)")
            }
            do {
                try WAVFile.write(
                    AudioBuffer(int16: clip.samples, sampleRate: AudioFormat.recognizerSampleRate),
                    to: folder.appendingPathComponent("\(clip.name).wav"))
            } catch {
                throw SpeechError(.invalidInput, "cannot write \(clip.name).wav in \(folder.path): \(error)")
            }
            listed.append(clip.name)
            transcripts.append("\(clip.words.joined(separator: " ")) (\(clip.name))")
        }
        let dictionary = pronunciations.sorted { $0.key < $1.key }.flatMap { word, variants in
            variants.enumerated().map { index, phones in
                index == 0 ? "\(word) \(phones)" : "\(word)(\(index + 1)) \(phones)"
            }
        }
        try Self.write(
            listed.joined(separator: "\n") + "\n", to: folder.appendingPathComponent("clips.fileids"))
        try Self.write(
            transcripts.joined(separator: "\n") + "\n",
            to: folder.appendingPathComponent("clips.transcription"))
        try Self.write(
            dictionary.joined(separator: "\n") + "\n", to: folder.appendingPathComponent("words.dict"))
        let model = URL(fileURLWithPath: base.acousticModel)
        try Self.copy(
            model.appendingPathComponent("noisedict"), to: folder.appendingPathComponent("fillers.dict"))
        guard !listed.isEmpty else { return (listed, unknown) }
        try run(
            "sphinx_fe",
            [
                "-argfile", model.appendingPathComponent("feat.params").path, "-samprate",
                String(AudioFormat.recognizerSampleRate), "-c",
                folder.appendingPathComponent("clips.fileids").path,
                "-di", folder.path, "-do", folder.path, "-ei", "wav", "-eo", "mfc", "-mswav", "yes",
            ])
        return (listed, unknown)
    }

    /// Runs `bw` over the clips with `model`, into `folder`: how many clips it aligned.
    private func statistics(model: URL, definition: URL, features: URL, into folder: URL) throws(SpeechError)
        -> Int
    {
        let log = work.appendingPathComponent("bw.log")
        try run(
            "bw",
            [
                "-moddeffn", definition.path, "-ts2cbfn", ".ptm.", "-feat", "1s_c_d_dd",
                "-svspec", "0-12/13-25/26-38", "-cmn", "current", "-agc", "none",
                "-dictfn", features.appendingPathComponent("words.dict").path,
                "-fdictfn", features.appendingPathComponent("fillers.dict").path,
                "-ctlfn", features.appendingPathComponent("clips.fileids").path,
                "-lsnfn", features.appendingPathComponent("clips.transcription").path,
                "-cepdir", features.path, "-cepext", "mfc", "-accumdir", folder.path,
            ]
                + Self.modelArguments(model)
                + (FileManager.default.fileExists(atPath: model.appendingPathComponent("mllr_matrix").path)
                    ? ["-mllrmat", model.appendingPathComponent("mllr_matrix").path] : []),
            log: log)
        // Each clip bw reads has an "utt>" line; one it cannot align to its words is then
        // "ignored".
        let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
        return lines.count { $0.hasPrefix("utt>") }
            - lines.count { $0.hasPrefix("ERROR") && $0.hasSuffix(" ignored") }
    }

    /// sphinxtrain's arguments naming the model files of `folder`.
    private static func modelArguments(_ folder: URL) -> [String] {
        [
            "-meanfn", folder.appendingPathComponent("means").path,
            "-varfn", folder.appendingPathComponent("variances").path,
            "-mixwfn", folder.appendingPathComponent("mixture_weights").path,
            "-tmatfn", folder.appendingPathComponent("transition_matrices").path,
        ]
    }

    /// Runs one of ``programs``; with `log`, its standard error and output go there.
    private func run(_ name: String, _ arguments: [String], log: URL? = nil) throws(SpeechError) {
        let log = log ?? work.appendingPathComponent("\(name).log")
        let status = ChildProcess.run([tools[name]!] + arguments, writingTo: log.path)
        guard status == 0 else {
            let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let errors = said.split(separator: "\n").filter { $0.contains("ERROR") || $0.contains("FATAL") }
            throw SpeechError(
                .engineFailure,
                "\(name) failed (exit \(status)): \(errors.suffix(3).joined(separator: "; ")) (all it said: \(log.path))"
            )
        }
    }

    private static func makeFolder(_ folder: URL, empty: Bool) throws(SpeechError) {
        do {
            if empty, FileManager.default.fileExists(atPath: folder.path) {
                try FileManager.default.removeItem(at: folder)
            }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw SpeechError(
                .invalidInput, "cannot make the folder \(folder.path): \(error.localizedDescription)")
        }
    }

    private static func copy(_ source: URL, to destination: URL) throws(SpeechError) {
        do {
            if FileManager.default.fileExists(atPath: destination.path) {
                try FileManager.default.removeItem(at: destination)
            }
            try FileManager.default.copyItem(at: source, to: destination)
        } catch {
            throw SpeechError(
                .missingModel,
                "cannot copy \(source.path) to \(destination.path): \(error.localizedDescription)")
        }
    }

    private static func write(_ text: String, to url: URL) throws(SpeechError) {
        do {
            try text.write(to: url, atomically: true, encoding: .utf8)
        } catch {
            throw SpeechError(.invalidInput, "cannot write \(url.path): \(error.localizedDescription)")
        }
    }
}
