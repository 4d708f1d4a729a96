import ArgumentParser
import VoiceIntents

extension VoiceApp {
    /// The app's command line: with `@main` on a ``VoiceApp``, the executable offers `run` (the
    /// default), `perform`, `shortcuts` and `validate`.
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
