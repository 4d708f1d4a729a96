import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import VoiceAudio
import VoiceIntents
import VoiceRecognition
import Wyoming

/// `serve`: the app as a Wyoming service, for Home Assistant and voice satellites.
struct ServeCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the app over the Wyoming protocol (Home Assistant, voice satellites).",
            discussion: """
                serve                                    tcp://127.0.0.1:10700, this machine only
                serve --uri tcp://0.0.0.0:10700          every machine that can reach this one
                serve --satellite tcp://kitchen-pi:10700 also connect to a wyoming-satellite (deprecated), as Home Assistant does
                serve --context area=Kitchen             commands that name no room are the kitchen's
                serve --room Kitchen=tcp://0.0.0.0:10701 also a kitchen's own address (one per room)
                It answers describe (info), transcribe with audio (a transcript heard under the \
                app's grammar), recognize (the intent and its values), transcript (the command \
                run), synthesize (eSpeak NG), and a satellite's run-pipeline with its microphone's \
                audio (a whole conversation, questions and replies spoken back). Listening beyond \
                this machine, it advertises itself with Zeroconf for Home Assistant to discover \
                (--no-zeroconf: not). Ctrl-C or SIGTERM stops it gracefully: no new connections, \
                idle ones closed, conversations under way finished (for up to 10 s); a second \
                one stops it at once.
                """)
    }

    @OptionGroup var selection: AppSelection<Apps>
    @OptionGroup var options: AppOptions
    @OptionGroup var phraseOptions: PhraseOptions
    @OptionGroup var contextOptions: ContextOptions

    @Option(help: "Where to listen: tcp://HOST:PORT.")
    var uri = "tcp://127.0.0.1:10700"

    @Option(
        help:
            "The lowest confidence (0 to 1) a transcript is given for; below it the transcript is empty (default: as for listen)."
    )
    var minConfidence: Double?

    @Option(
        name: .customLong("satellite"),
        help: ArgumentHelp(
            "A satellite to connect to and hold conversations with: tcp://HOST:PORT (repeat for more).",
            valueName: "uri"))
    var satellites: [String] = []

    @Flag(
        inversion: .prefixedNo,
        help:
            "Advertise the server with Zeroconf (mDNS) for Home Assistant to discover, when it listens beyond this machine."
    )
    var zeroconf = true

    @Option(
        name: .customLong("room"),
        help: ArgumentHelp(
            "Another address, a room's own: what comes in there and names no room is the room's (Home Assistant: a voice assistant per room); repeat for more.",
            valueName: "area=uri"))
    var rooms: [String] = []

    @Option(help: "Seconds a connection may send nothing before it is closed.")
    var idleTimeout = 300

    @Flag(
        help:
            "Hear each wake word a trained model hears (detect, a satellite's own conversation) again with the recognizer before it counts, as listen --wake-word-check does: most of what the model takes for its word when people say other words is turned away, and some people's own words too. A word the app was calibrated for (calibrate --wake-word MODEL --save) is heard with its calibration's cutoff and check."
    )
    var wakeWordCheck = false

    // Unconditional: margins are negative, and "-30" is no option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --wake-word-check: how well the word must fit against a loop of any phones (per 10 ms frame; default \(String(format: "%.0f", WakeWordCheck.standardMargin))).",
            valueName: "margin"))
    var wakeWordMargin: Double?

    @OptionGroup var recognizerOptions: RecognizerOptions

    func validate() throws {
        if wakeWordMargin != nil, !wakeWordCheck {
            throw ValidationError("--wake-word-margin is for --wake-word-check")
        }
        _ = try Self.hostAndPort(uri)
        for satellite in satellites { _ = try Self.hostAndPort(satellite, option: "--satellite") }
        _ = try roomAddresses()
        if let minConfidence, !(0...1).contains(minConfidence) {
            throw ValidationError("--min-confidence takes 0 to 1, not \(minConfidence)")
        }
        guard idleTimeout > 0 else {
            throw ValidationError("--idle-timeout takes a number of seconds above 0")
        }
    }

    /// The host and port of a `tcp://HOST:PORT` URI.
    static func hostAndPort(_ uri: String, option: String = "--uri") throws -> (host: String, port: Int) {
        guard let url = URL(string: uri), url.scheme == "tcp", let host = url.host, let port = url.port,
            (0...65535).contains(port)
        else {
            throw ValidationError("\(option) takes tcp://HOST:PORT (tcp://0.0.0.0:10700), not \(uri)")
        }
        return (host, port)
    }

    /// `--room area=uri`, each checked.
    func roomAddresses() throws -> [WyomingServer.Room] {
        let rooms = try self.rooms.map { pair in
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw ValidationError(
                    "--room takes area=tcp://HOST:PORT (Kitchen=tcp://0.0.0.0:10701), not \(pair)")
            }
            let (host, port) = try Self.hostAndPort(
                String(pair[pair.index(after: equals)...]), option: "--room")
            return WyomingServer.Room(area: String(pair[..<equals]), host: host, port: port)
        }
        let (host, port) = try Self.hostAndPort(uri)
        var taken: Set<String> = port == 0 ? [] : ["\(host):\(port)"]
        for room in rooms where room.port != 0 {
            guard taken.insert("\(room.host):\(room.port)").inserted else {
                throw ValidationError(
                    "--room \(room.area) listens where another address does: port \(room.port)")
            }
        }
        return rooms
    }

    func run() async throws {
        try await reportingFailures {
            let context = try selection.context()
            let logger = options.logger(for: context)
            let bar = try ConfidenceBar.resolve(
                minConfidence: minConfidence, context: context, locale: phraseOptions.locale,
                recognizerOptions: recognizerOptions)
            bar.log(to: logger)
            var configuration = VoiceLoop.Configuration(
                recognizer: try recognizerOptions.configuration(app: context.executableName),
                phrases: phraseOptions.location,
                policy: ConfidencePolicy(minimumConfidence: bar.value ?? 0))
            configuration.garbage = bar.garbage.model
            configuration.joinsCommands = recognizerOptions.joinedCommands
            configuration.freeText = try recognizerOptions.freeTextWords(locale: phraseOptions.locale)
            configuration.policy.valueMargin = recognizerOptions.valueMarginInForce
            // The room the server's satellites are in, unless a satellite names its own area.
            configuration.context = contextOptions.values
            configuration.checksWakeWord = wakeWordCheck
            if let wakeWordMargin { configuration.wakeWordMargin = wakeWordMargin }
            // Checks the app's declaration too, logging its warnings.
            var app = try await WyomingApp(
                context, configuration: configuration, locale: phraseOptions.locale, logger: logger)
            // A word the app was calibrated for is heard as listen hears it; the options still win.
            for model in app.wakeWords {
                let wake = try WakeWordSettings.resolve(
                    model: model.name, cutoff: nil, check: wakeWordCheck ? true : nil,
                    margin: wakeWordMargin, context: context, locale: phraseOptions.locale)
                guard wake.calibrated else { continue }
                logger.info("\(wake.origin)")
                app.wakeWordSettings[model.name] = .init(cutoff: wake.cutoff, checkMargin: wake.checkMargin)
            }
            let (host, port) = try Self.hostAndPort(uri)
            var server = WyomingServer(app: app, host: host, port: port, logger: logger)
            server.idleTimeout = .seconds(idleTimeout)
            if zeroconf { server.zeroconfName = context.executableName }
            server.rooms = try roomAddresses()
            server.satellites = try satellites.map { try Self.hostAndPort($0, option: "--satellite") }
            try await runServices(
                [.init(service: server)],
                stopping: "accepting no more connections, finishing the conversations under way",
                logger: logger)
        }
    }
}
