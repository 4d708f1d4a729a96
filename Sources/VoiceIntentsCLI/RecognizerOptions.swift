import ArgumentParser
import Speech

/// The recognizer's models and end-of-speech window, for every command that listens.
struct RecognizerOptions: ParsableArguments {
    @Option(help: "Seconds of silence that end what was said (default: the models' manifest, 0.5).")
    var silence: Double?

    @Option(
        help: ArgumentHelp(
            "A garbage path beside the app's commands: off, commands, or values.",
            discussion:
                "commands: a sound that fits no command better than a loop of any phones is heard as garbage and ignored. values: also a name the app does not know, inside a command, is heard as garbage, and the value is asked for (\"how busy is the Louvre\" → \"Which landmark?\"). Off by default: measured, it rejects some of the speech that is not a command, far from all, and a few commands heard right (Models/README.md, Rejection)."
        ))
    var garbage: GarbagePath = .off

    /// Which garbage path the command grammar gets.
    enum GarbagePath: String, ExpressibleByArgument, CaseIterable {
        case off, commands, values

        /// The grammar's garbage model: ``GarbageModel/standard``, with value loops for `values`.
        var model: GarbageModel? {
            switch self {
            case .off: nil
            case .commands: .standard
            case .values: .withValues
            }
        }
    }

    func validate() throws {
        if let silence, !(0.05...5).contains(silence) {
            throw ValidationError("--silence takes 0.05 to 5 seconds")
        }
    }

    /// The installed models (Models/<locale>/manifest.yaml), with `--silence` applied.
    func configuration() throws -> SpeechRecognizer.Configuration {
        var configuration = try SpeechRecognizer.Configuration.installed()
        if let silence { configuration.trailingSilence = silence }
        return configuration
    }
}
