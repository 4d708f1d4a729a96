import Foundation

/// The models this package ships: the locale folders beside this file (`en/`: the manifest,
/// lexicon, grammars and calibrations), which SwiftPM copies as a resource bundle beside every
/// executable that links the package.
///
/// An app that depends on the package finds them with no step of its own, from `swift run` or
/// from its build folder; a program copied elsewhere takes the bundle
/// (`<package>_VoiceModels.resources`) with it, or uses `VOICE_INTENTS_MODELS`.
public enum PackagedModels {
    /// The bundle's folder beside the running executable, which holds `<locale>/manifest.yaml`;
    /// `nil` when the executable has no bundle beside it.
    public static var folder: URL? {
        // SwiftPM names the bundle after the package that owns the target, which an app may
        // spell differently: the suffix is what is certain.
        let beside = Bundle.main.bundleURL
        let names = (try? FileManager.default.contentsOfDirectory(atPath: beside.path)) ?? []
        return names.sorted().first { $0.hasSuffix("_VoiceModels.resources") }
            .map { beside.appendingPathComponent($0) }
    }
}
