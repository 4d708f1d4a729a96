// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "VoiceIntents",
    platforms: [.macOS(.v15)],
    // What an app or a tool depends on. The modules between them (audio, recognition,
    // synthesis, understanding, evaluation) come with VoiceLoop and VoiceIntentsCLI; their
    // declarations are the package's own but for the few VoiceLoop's and Wyoming's API names.
    products: [
        .library(name: "VoiceIntents", targets: ["VoiceIntents"]),  // the App Intents API
        .library(name: "VoiceIntentsCLI", targets: ["VoiceIntentsCLI"]),  // an app's @main command line
        .library(name: "VoiceIntentsTesting", targets: ["VoiceIntentsTesting"]),  // apps' tests
        .library(name: "PhraseMatching", targets: ["PhraseMatching"]),  // text in, intent out
        .library(name: "VoiceLoop", targets: ["VoiceLoop"]),  // the loop in a program of your own
        .library(name: "Wyoming", targets: ["Wyoming"]),  // the Wyoming server in a program of your own
        .executable(name: "travel-tracking", targets: ["TravelTrackingCommand"]),
        .executable(name: "library", targets: ["LibraryCommand"]),
        .executable(name: "voice-intents", targets: ["VoiceIntentsTool"]),
    ],
    traits: [
        // An app that depends on the package with `traits: []` leaves it out of its binary.
        .trait(
            name: "Evaluation",
            description:
                "The evaluate and calibrate commands in every app's command line (VoiceEvaluation: spoken evaluation, noise, plots, the calibration sweep)."
        ),
        .default(enabledTraits: ["Evaluation"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The loop, the Wyoming server and its advert are services: graceful shutdown, cancellation.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `swift package generate-documentation --target VoiceLoop`: the DocC catalogs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: The App Intents–style API (Foundation only)
        .target(name: "VoiceIntents"),

        // MARK: Phrases: catalogs, normalisation, matching, phrase tests and lint
        .target(
            name: "PhraseMatching",
            dependencies: ["VoiceIntents", .product(name: "Yams", package: "Yams")]
        ),

        // MARK: Audio, recognition and synthesis: the C libraries, and the Swift modules that own them
        .systemLibrary(
            name: "CPocketSphinx", pkgConfig: "pocketsphinx",
            providers: [.apt(["libpocketsphinx-dev", "libsphinxbase-dev", "pocketsphinx-en-us"])]
        ),
        .systemLibrary(name: "CESpeakNG", pkgConfig: "espeak-ng", providers: [.apt(["libespeak-ng-dev"])]),
        // No pkg-config: its flags for libpulse (-pthread, -D_REENTRANT) are ones SwiftPM refuses.
        .systemLibrary(name: "CPulseAudio", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CSpeexDSP", pkgConfig: "speexdsp", providers: [.apt(["libspeexdsp-dev"])]),
        // WebRTC's voice activity detector, from the library of WebRTC's audio processing.
        .systemLibrary(name: "CWebRTCVAD", providers: [.apt(["libwebrtc-audio-processing-dev"])]),
        // WebRTC's audio processing (C++) behind a C interface. Its headers are found through
        // system-headers, a link to the Debian package's include folder, with the defines of the
        // package's pkg-config file (SwiftPM passes on no defines from pkg-config, and warns).
        .target(
            name: "CWebRTCAudioProcessing",
            cxxSettings: [
                .headerSearchPath("system-headers"), .define("WEBRTC_POSIX"),
                .define("WEBRTC_AUDIO_PROCESSING_ONLY_BUILD"),
            ],
            linkerSettings: [.linkedLibrary("webrtc_audio_processing")]),
        // The audio stages' inner loops, fast in a debug build too.
        .target(name: "CSignalKernels"),
        // A trained wake word: TensorFlow Lite's C library and TensorFlow Lite Micro's audio front
        // end, loaded when asked for from the wheels Scripts/bootstrap.sh installs.
        .target(name: "CWakeWord", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("m")]),
        // Audio in and out: WAV and raw PCM, resampling, the front end (noise suppression, gain),
        // voice activity, and the sound server's and ALSA's devices.
        .target(
            name: "VoiceAudio",
            dependencies: [
                "CPulseAudio", "CALSA", "CSpeexDSP", "CWebRTCVAD", "CWebRTCAudioProcessing", "CSignalKernels",
                "CWakeWord",
            ]),
        // Speech from text with eSpeak NG, and its letter-to-sound rules.
        .target(name: "VoiceSynthesis", dependencies: ["CESpeakNG", "VoiceAudio"]),
        // The models the package ships (Models/: manifest, lexicon, grammars, calibrations), as a
        // resource bundle that SwiftPM copies beside every executable, so an app needs no step.
        .target(name: "VoiceModels", path: "Models", exclude: ["README.md"], resources: [.copy("en")]),
        // Recognition with PocketSphinx: the recognizer, its grammar as a word graph, pronunciations,
        // confidence, the models' manifest and an app's calibration. Nothing here knows phrases.
        .target(
            name: "VoiceRecognition",
            dependencies: [
                "CPocketSphinx", "CSignalKernels", "VoiceAudio", "VoiceSynthesis", "VoiceModels",
                .product(name: "Yams", package: "Yams"),
            ]),
        // Recognition joined to phrases: grammars written from an app's phrases and answers, what
        // was heard joined to what was matched, the value check, what sounds alike.
        .target(
            name: "VoiceUnderstanding",
            dependencies: ["VoiceRecognition", "VoiceAudio", "PhraseMatching", "VoiceIntents"]),
        // Offline tooling nothing at runtime uses: spoken evaluation, noise, plots, speech made
        // with eSpeak NG for tests, the calibration sweep.
        .target(
            name: "VoiceEvaluation",
            dependencies: [
                "VoiceRecognition", "VoiceUnderstanding", "VoiceAudio", "VoiceSynthesis", "PhraseMatching",
                "VoiceIntents",
            ]),

        // MARK: Test helpers for apps built on VoiceIntents
        .target(name: "VoiceIntentsTesting", dependencies: ["VoiceIntents"]),

        // MARK: The voice loop, to embed: hears, matches, runs and answers
        .target(
            name: "VoiceLoop",
            dependencies: [
                "VoiceIntents",
                "PhraseMatching",
                "VoiceRecognition", "VoiceUnderstanding", "VoiceAudio", "VoiceSynthesis",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // MARK: The Wyoming protocol server, for Home Assistant and voice satellites
        .target(
            name: "Wyoming",
            dependencies: [
                "VoiceIntents", "PhraseMatching", "VoiceRecognition", "VoiceUnderstanding", "VoiceAudio",
                "VoiceSynthesis", "VoiceLoop",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // MARK: Command-line front end every app executable embeds
        .target(
            name: "VoiceIntentsCLI",
            dependencies: [
                "VoiceIntents",
                "PhraseMatching",
                "VoiceRecognition", "VoiceUnderstanding", "VoiceAudio", "VoiceSynthesis",
                .target(name: "VoiceEvaluation", condition: .when(traits: ["Evaluation"])),
                "VoiceLoop",
                "Wyoming",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),

        // MARK: The voice-intents tool, hosting the sample apps
        .executableTarget(
            name: "VoiceIntentsTool",
            dependencies: ["VoiceIntentsCLI", "TravelTracking", "Library", "SmartHome", "HomeLights"],
            path: "Sources/VoiceIntentsTool"
        ),

        // MARK: Sample apps (from the WWDC examples) and their thin executables
        .target(
            name: "TravelTracking", dependencies: ["VoiceIntents"], path: "Sources/Examples/TravelTracking"),
        .executableTarget(
            name: "TravelTrackingCommand",
            dependencies: ["TravelTracking", "VoiceIntentsCLI"],
            path: "Sources/Examples/TravelTrackingCommand"
        ),
        .target(name: "Library", dependencies: ["VoiceIntents"], path: "Sources/Examples/Library"),
        .target(name: "SmartHome", dependencies: ["VoiceIntents"], path: "Sources/Examples/SmartHome"),
        .target(name: "HomeLights", dependencies: ["VoiceIntents"], path: "Sources/Examples/HomeLights"),
        // The phrase matcher's stress app: a smart home whose commands share most of their words.
        .target(
            name: "House", dependencies: ["VoiceIntents"], path: "Benchmarks/House",
            exclude: ["Phrases", "README.md"]),
        .executableTarget(
            name: "LibraryCommand",
            dependencies: ["Library", "VoiceIntentsCLI"],
            path: "Sources/Examples/LibraryCommand"
        ),

        // MARK: Tests
        .testTarget(
            name: "VoiceIntentsTests",
            dependencies: ["VoiceIntents", "VoiceIntentsTesting"]
        ),
        .testTarget(
            name: "PhraseMatchingTests",
            dependencies: ["PhraseMatching", "VoiceIntents", "TravelTracking", "Library"]
        ),
        // Helpers the speech tests share: running the package's executables, a private sound
        // server, the repository's models, speech made with eSpeak NG, people's recordings.
        .target(
            name: "VoiceTestSupport",
            dependencies: [
                "VoiceUnderstanding", "VoiceEvaluation", "VoiceLoop", "TravelTracking", "Library",
                "SmartHome",
                "HomeLights",
            ],
            path: "Tests/VoiceTestSupport"
        ),
        // One target per module along the data path. SoundServerTests start PulseAudio, and
        // WyomingTests start Python peers and Home Assistant: the costly ones.
        .testTarget(
            name: "VoiceAudioTests",
            dependencies: ["VoiceTestSupport", "VoiceAudio", "VoiceRecognition", "HomeLights"]),
        .testTarget(name: "VoiceRecognitionTests", dependencies: ["VoiceTestSupport", "VoiceRecognition"]),
        .testTarget(
            name: "VoiceUnderstandingTests",
            dependencies: ["VoiceTestSupport", "VoiceUnderstanding", "VoiceLoop"]),
        .testTarget(
            name: "VoiceLoopTests",
            dependencies: [
                "VoiceTestSupport", "VoiceLoop", "SmartHome", "VoiceIntentsTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .testTarget(name: "SoundServerTests", dependencies: ["VoiceTestSupport", "VoiceIntentsCLI"]),
        .testTarget(
            name: "WyomingTests",
            dependencies: [
                "VoiceTestSupport", "Wyoming", "VoiceRecognition", "PhraseMatching",
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            // The Python peers the tests run.
            exclude: ["Wyoming"]),
        .testTarget(
            name: "VoiceEvaluationTests",
            dependencies: [
                "VoiceTestSupport", "VoiceEvaluation", "VoiceIntentsCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(
            name: "SampleAppTests",
            dependencies: [
                "TravelTracking", "Library", "SmartHome", "HomeLights", "House", "VoiceIntents",
                "VoiceIntentsTesting", "VoiceIntentsCLI", "VoiceTestSupport", "PhraseMatching",
                "VoiceRecognition",
                "VoiceUnderstanding", "VoiceAudio",
                "VoiceSynthesis", "VoiceEvaluation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["Golden"]
        ),
        // The WWDC session code, compiled with only the import changed. It predates Swift 6
        // (`static var title = …`), so this one target stays in the Swift 5 language mode.
        .testTarget(
            name: "WWDCExamplesTests",
            dependencies: ["VoiceIntents", "VoiceIntentsTesting"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)

// The benchmarks (run with -c release; they print figures and assert nothing) are declared only
// when VOICE_INTENTS_BENCHMARKS is set, so that a package depending on this one does not see
// them: `VOICE_INTENTS_BENCHMARKS=1 swift run -c release phrase-benchmark`. Scripts/test.sh
// sets it, so they keep building.
if Context.environment["VOICE_INTENTS_BENCHMARKS"] != nil {
    package.products += [
        .executable(name: "phrase-benchmark", targets: ["PhraseMatchingBenchmark"]),
        .executable(name: "speech-benchmark", targets: ["SpeechBenchmark"]),
        .executable(name: "real-speech-benchmark", targets: ["RealSpeechBenchmark"]),
        .executable(name: "voice-loop-benchmark", targets: ["VoiceLoopBenchmark"]),
        .executable(name: "rejection-benchmark", targets: ["RejectionBenchmark"]),
        .executable(name: "answer-benchmark", targets: ["AnswerBenchmark"]),
        .executable(name: "wyoming-benchmark", targets: ["WyomingBenchmark"]),
    ]
    package.targets += [
        .executableTarget(
            name: "PhraseMatchingBenchmark",
            dependencies: [
                "PhraseMatching", "VoiceIntents", "TravelTracking", "Library", "SmartHome", "HomeLights",
                "House", "BenchmarkCommand",
            ],
            path: "Benchmarks/PhraseMatchingBenchmark",
            exclude: ["README.md"]
        ),

        .executableTarget(
            name: "SpeechBenchmark",
            dependencies: [
                "VoiceRecognition", "VoiceUnderstanding", "VoiceAudio", "VoiceSynthesis", "VoiceEvaluation",
                "PhraseMatching", "VoiceLoop",
                "VoiceIntents", "TravelTracking", "Library",
                "SmartHome", "HomeLights", "BenchmarkSupport", "BenchmarkCommand",
            ],
            path: "Benchmarks/SpeechBenchmark"
        ),

        // What every benchmark's command line shares, and figures that need no speech library
        // (a process's memory, quantiles).
        .target(
            name: "BenchmarkCommand",
            dependencies: [
                "VoiceIntents", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/BenchmarkCommand"),

        // What the speech benchmarks share: Debian's recordings (PocketSphinx's test data,
        // Asterisk's prompts) and the sample apps loaded with their catalogs.
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                "VoiceRecognition", "VoiceUnderstanding", "VoiceAudio", "VoiceSynthesis", "VoiceEvaluation",
                "PhraseMatching",
                "VoiceIntents", "TravelTracking", "Library",
                "BenchmarkCommand",
            ],
            path: "Benchmarks/BenchmarkSupport"),

        .executableTarget(
            name: "RealSpeechBenchmark",
            dependencies: [
                "VoiceRecognition", "VoiceUnderstanding", "VoiceAudio", "VoiceSynthesis", "VoiceEvaluation",
                "PhraseMatching",
                "BenchmarkSupport", "BenchmarkCommand",
            ],
            path: "Benchmarks/RealSpeechBenchmark"
        ),

        .executableTarget(
            name: "RejectionBenchmark",
            dependencies: [
                "VoiceRecognition", "VoiceUnderstanding", "VoiceAudio", "VoiceSynthesis", "VoiceEvaluation",
                "PhraseMatching",
                "VoiceIntents", "TravelTracking", "Library",
                "BenchmarkSupport", "BenchmarkCommand",
            ],
            path: "Benchmarks/RejectionBenchmark"
        ),

        .executableTarget(
            name: "AnswerBenchmark",
            dependencies: [
                "VoiceRecognition", "VoiceUnderstanding", "VoiceAudio", "VoiceSynthesis", "VoiceEvaluation",
                "PhraseMatching",
                "VoiceIntents", "BenchmarkSupport",
                "BenchmarkCommand",
            ],
            path: "Benchmarks/AnswerBenchmark"
        ),

        .executableTarget(
            name: "WyomingBenchmark",
            dependencies: [
                "Wyoming", "VoiceLoop", "VoiceRecognition", "VoiceUnderstanding", "VoiceAudio",
                "VoiceSynthesis", "PhraseMatching",
                "VoiceIntents", "HomeLights",
                "BenchmarkSupport", "BenchmarkCommand", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/WyomingBenchmark",
            exclude: ["README.md"]
        ),

        // Runs the travel-tracking and library executables from the same build folder.
        .executableTarget(
            name: "VoiceLoopBenchmark",
            dependencies: [
                "VoiceRecognition", "VoiceUnderstanding", "VoiceAudio", "VoiceSynthesis", "VoiceEvaluation",
                "PhraseMatching",
                "VoiceIntents", "TravelTracking", "Library",
                "BenchmarkSupport", "BenchmarkCommand",
            ],
            path: "Benchmarks/VoiceLoopBenchmark"
        ),
    ]
}

// The fuzz targets of the phrase files, audio input and Wyoming events (Scripts/fuzz.sh builds
// them with -sanitize=fuzzer, which links libFuzzer), declared only when VOICE_INTENTS_FUZZ is set.
if Context.environment["VOICE_INTENTS_FUZZ"] != nil {
    package.products += [
        .executable(name: "phrase-fuzz", targets: ["PhraseFuzz"]),
        .executable(name: "audio-fuzz", targets: ["AudioFuzz"]),
        .executable(name: "wyoming-fuzz", targets: ["WyomingFuzz"]),
    ]
    package.targets += [
        .target(name: "FuzzDriver", path: "Fuzz/FuzzDriver"),
        .executableTarget(
            name: "PhraseFuzz", dependencies: ["PhraseMatching", "FuzzDriver"], path: "Fuzz/PhraseFuzz"),
        .executableTarget(
            name: "AudioFuzz", dependencies: ["VoiceAudio", "FuzzDriver"], path: "Fuzz/AudioFuzz"),
        .executableTarget(
            name: "WyomingFuzz", dependencies: ["Wyoming", "FuzzDriver"], path: "Fuzz/WyomingFuzz"),
    ]
}

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ])
    target.swiftSettings = settings
}
