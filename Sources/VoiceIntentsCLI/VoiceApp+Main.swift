import ArgumentParser
import VoiceIntents

extension VoiceApp {
    /// The app's command line: with `@main` on a ``VoiceApp``, the executable offers
    ///
    /// - `run` (the default: typed commands), `perform`, `shortcuts` and `validate`, to run and
    ///   check the app;
    /// - `listen`, the voice loop on the microphone, a recording or typed lines, with
    ///   `transcribe` and `say` for single utterances;
    /// - `match`, `test`, `lint` and `grammar`, for its phrases;
    /// - `evaluate`, `calibrate` and `record`, for how well it hears.
    ///
    /// `<app> help <command>` says more of each. To run the voice loop in a program of your own,
    /// use `VoiceLoop`.
    ///
    /// ```swift
    /// import VoiceIntentsCLI
    ///
    /// @main
    /// struct TravelTrackingApp: VoiceApp { … }
    /// ```
    public static func main() async {
        await AppCommand<Self>.main()
    }
}
