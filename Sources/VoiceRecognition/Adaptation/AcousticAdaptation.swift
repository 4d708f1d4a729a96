import Foundation
import VoiceAudio

/// An adapted acoustic model: a folder of the model files that replace the base model's
/// (``SpeechRecognizer/Configuration/acousticModel``) one by one, as ``ModelAdapter`` writes them.
///
/// The base model's other files (its model definition, its `feat.params`, its `noisedict`) are
/// still read from the base folder, so an adaptation of Debian's `pocketsphinx-en-us` holds only
/// what changed: `means`, `transition_matrices` and `sendump` (the mixture weights), and
/// `variances` or an MLLR transform (`mllr_matrix`) where those were adapted.
///
/// ```swift
/// var configuration = try SpeechRecognizer.Configuration.installed()
/// configuration.adaptation = try AcousticAdaptation(folder: URL(fileURLWithPath: "Models/en/en-us-rooms"))
/// let recognizer = try SpeechRecognizer(configuration)
/// ```
package struct AcousticAdaptation: Sendable, Hashable {
    /// The folder of the files.
    package let folder: URL

    /// The files an adaptation may hold, each with the decoder argument that loads it in place
    /// of the base model's.
    package static let files: [(name: String, argument: String)] = [
        ("means", "-mean"), ("variances", "-var"), ("transition_matrices", "-tmat"),
        ("sendump", "-sendump"), ("mixture_weights", "-mixw"), ("mllr_matrix", "-mllr"),
    ]

    /// The files of `folder` that replace the base model's.
    ///
    /// - Throws: ``SpeechError`` when the folder is missing or holds none of ``files``.
    package init(folder: URL) throws(SpeechError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue
        else {
            throw SpeechError(
                .missingModel,
                "no adapted acoustic model at \(folder.path): give the folder voice-intents adapt wrote, or none for the base model"
            )
        }
        self.folder = folder.standardizedFileURL
        guard !present.isEmpty else {
            throw SpeechError(
                .missingModel,
                "\(folder.path) holds no model files (\(Self.files.map(\.name).joined(separator: ", "))): it is not an adapted acoustic model"
            )
        }
    }

    /// The files of ``files`` that the folder has.
    package var present: [String] {
        Self.files.map(\.name).filter {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
        }
    }

    /// The decoder arguments that load the folder's files in place of the base model's. The
    /// quantized `sendump` wins over `mixture_weights` when both are there, as it does in a
    /// model folder.
    package var decoderArguments: [String] {
        let present = Set(present)
        return Self.files.flatMap { file -> [String] in
            guard present.contains(file.name) else { return [] }
            if file.name == "mixture_weights" && present.contains("sendump") { return [] }
            return [file.argument, folder.appendingPathComponent(file.name).path]
        }
    }

    /// Where `app`'s own adaptation is kept for the installed models of `locale`
    /// (`Models/<locale>/<app>.adaptation`, beside its calibration); `nil` when no models are
    /// installed.
    package static func installedURL(app: String, locale: String = "en") -> URL? {
        SpeechRecognizer.Configuration.installedManifest(locale: locale)?.deletingLastPathComponent()
            .appendingPathComponent("\(app).adaptation")
    }

    /// `app`'s own adaptation for the installed models of `locale`; `nil` when it has none.
    ///
    /// - Throws: ``SpeechError`` when the folder is there but holds no model files.
    package static func installed(app: String, locale: String = "en") throws(SpeechError)
        -> AcousticAdaptation?
    {
        guard let url = installedURL(app: app, locale: locale),
            FileManager.default.fileExists(atPath: url.path)
        else { return nil }
        return try AcousticAdaptation(folder: url)
    }

    /// What the folder says of how it was made (`adaptation.json`), when it says it.
    package var provenance: Provenance? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(Provenance.fileName)) else {
            return nil
        }
        return try? JSONDecoder().decode(Provenance.self, from: data)
    }

    /// How an adaptation was made: written beside its files as `adaptation.json`.
    package struct Provenance: Codable, Sendable, Hashable {
        static let fileName = "adaptation.json"

        /// The base model folder it was adapted from, and the adaptation it started from, if any.
        package var base: String
        package var startedFrom: String?
        /// ``ModelAdapter/Method``'s name, MAP's τ (`nil`: estimated by `map_adapt`), and the
        /// passes of re-estimation.
        package var method: String
        package var tau: Double?
        package var passes: Int
        /// Clips heard, and their length in hours.
        package var clips: Int
        package var hours: Double
        /// What the clips were, in the adapting program's words.
        package var sources: [String]
        /// When it was made (ISO 8601).
        package var made: String
    }
}
