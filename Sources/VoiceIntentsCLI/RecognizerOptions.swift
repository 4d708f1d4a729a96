import ArgumentParser
import Speech

/// The recognizer's models and end-of-speech window, for every command that listens.
struct RecognizerOptions: ParsableArguments {
    @Option(help: "Seconds of silence that end what was said (default: the models' manifest, 0.5).")
    var silence: Double?

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
