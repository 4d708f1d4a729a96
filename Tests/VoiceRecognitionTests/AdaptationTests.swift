import Foundation
import Testing
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceRecognition

/// Adapted acoustic models: the files that replace Debian's, the mixture weights read back from
/// its `sendump`, and `voice-intents adapt` run as a user runs it, with Debian's sphinxtrain.
@Suite("Acoustic adaptation")
struct AdaptationTests {
    static let debianModel = URL(fileURLWithPath: "/usr/share/pocketsphinx/model/en-us/en-us")

    /// Debian's quantized weights, read back, quantize again to the bytes they came from.
    @Test func theMixtureWeightsReadBackFromTheSendumpAreTheOnesItHolds() throws {
        let folder = try temporaryFolder("sendump")
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = folder.appendingPathComponent("mixture_weights")
        try SendumpFile.mixtureWeights(
            fromSendump: Self.debianModel.appendingPathComponent("sendump"), to: written)
        let file = [UInt8](try Data(contentsOf: written))
        let header = Array("s3\nversion 1.0\nendhdr\n".utf8)
        #expect(Array(file.prefix(header.count)) == header)
        func int32(_ offset: Int) -> Int {
            Int(file[offset..<(offset + 4)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        let dimensions = (4..<8).map { int32(header.count + 4 * $0 - 12) }
        #expect(int32(header.count) == 0x1122_3344)
        // 5126 senones, three streams, 128 codewords: the model's mdef and means.
        #expect(dimensions == [5126, 3, 128, 5126 * 3 * 128])
        let weights: [Float] = (0..<dimensions[3]).map { index in
            Float(bitPattern: UInt32(int32(header.count + 20 + 4 * index)))
        }
        let sendump = [UInt8](try Data(contentsOf: Self.debianModel.appendingPathComponent("sendump")))
        // The sendump's data: for each stream and codeword, one byte per senone.
        let data = sendump.count - 3 * 128 * 5126
        let step = log(1.0001) * 1024
        for senone in stride(from: 0, to: 5126, by: 97) {
            for stream in 0..<3 {
                let row = weights[((senone * 3 + stream) * 128)..<((senone * 3 + stream + 1) * 128)]
                #expect(abs(row.reduce(0, +) - 1) < 1e-4)
                // Normalised, the weights keep their ratios: their logs differ as the bytes do.
                let first = Double(sendump[data + stream * 128 * 5126 + senone])
                for codeword in stride(from: 1, to: 128, by: 13) {
                    let byte = Double(sendump[data + (stream * 128 + codeword) * 5126 + senone])
                    let difference = -log(
                        Double(row[row.startIndex + codeword]) / Double(row[row.startIndex]))
                    #expect(abs(difference - (byte - first) * step) < 1e-3)
                }
            }
        }
    }

    @Test func aFolderOfTheModelsOwnFilesHearsAsTheModelDoes() throws {
        let folder = try temporaryFolder("adaptation")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["means", "transition_matrices", "sendump"] {
            try FileManager.default.copyItem(
                at: Self.debianModel.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let adaptation = try AcousticAdaptation(folder: folder)
        #expect(adaptation.present == ["means", "transition_matrices", "sendump"])
        #expect(
            adaptation.decoderArguments == [
                "-mean", folder.appendingPathComponent("means").standardizedFileURL.path,
                "-tmat", folder.appendingPathComponent("transition_matrices").standardizedFileURL.path,
                "-sendump", folder.appendingPathComponent("sendump").standardizedFileURL.path,
            ])
        var configuration = try TestModels.configuration()
        configuration.adaptation = nil
        let samples = try Data(contentsOf: URL(fileURLWithPath: goForwardPath)).withUnsafeBytes {
            Array($0.bindMemory(to: Int16.self))
        }
        let base = try SpeechRecognizer(configuration)
        try base.useDictation()
        configuration.adaptation = adaptation
        let adapted = try SpeechRecognizer(configuration)
        try adapted.useDictation()
        let heard = try adapted.recognize(samples)
        #expect(heard.text == (try base.recognize(samples)).text)
        #expect(heard.text.contains("forward"))
    }

    @Test func aFolderThatIsNoModelIsNamed() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/voice-intents-model")
        #expect(throws: SpeechError.self) { try AcousticAdaptation(folder: missing) }
        do {
            _ = try AcousticAdaptation(folder: missing)
        } catch {
            #expect(error.description.contains("/nonexistent/voice-intents-model"))
        }
        let empty = try temporaryFolder("empty-adaptation")
        defer { try? FileManager.default.removeItem(at: empty) }
        do {
            _ = try AcousticAdaptation(folder: empty)
            Issue.record("an empty folder was taken for a model")
        } catch {
            #expect(error.description.contains("holds no model files"))
        }
    }

    /// `adapt` on eight of one person's recordings, as a user runs it after `record`, then
    /// `transcribe` with what it wrote, on a recording it did not adapt on.
    @Test(arguments: ["mllr", "map"])
    func adaptWritesAModelThatHearsThePerson(method: String) async throws {
        let folder = try temporaryFolder("adapt-\(method)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let said = [
            "turn on the garage light", "turn off the garage light", "turn on the living room lamp",
            "turn off the living room lamp", "make bedroom light blue", "make bedroom light green",
            "how hot is it", "is the garage door open",
        ]
        var tests = "tests:\n"
        for sentence in said {
            let audio = try PeoplesRecordings.file(
                "rhasspy-test-en", sentence.replacingOccurrences(of: " ", with: "_") + ".wav")
            tests += "  - { say: \"\(sentence)\", intent: Any, values: {}, audio: \"\(audio.path)\" }\n"
        }
        let testsFile = folder.appendingPathComponent("tests.yaml")
        try tests.write(to: testsFile, atomically: true, encoding: .utf8)
        let model = folder.appendingPathComponent("model")
        let adapted = try await offThePool {
            try Executables.run(
                "voice-intents",
                [
                    "adapt", "--app", "home-lights", "--tests", testsFile.path, "--method", method,
                    "--adaptation", "none", "-o", model.path,
                ])
        }
        #expect(adapted.status == 0, "\(adapted.output)\(adapted.errors)")
        #expect(adapted.output.contains("adapted on 8 of 8 clips"), "\(adapted.output)")
        let files = try FileManager.default.contentsOfDirectory(atPath: model.path).sorted()
        #expect(
            files
                == (method == "mllr"
                    ? ["adaptation.json", "mllr_matrix"]
                    : ["adaptation.json", "means", "sendump", "transition_matrices"]))
        let provenance = try #require(try AcousticAdaptation(folder: model).provenance)
        #expect(provenance.method == method && provenance.clips == 8)

        let other = try PeoplesRecordings.file("rhasspy-test-en", "turn_on_the_bedroom_light.wav")
        let heard = try await offThePool {
            try Executables.run(
                "voice-intents",
                ["transcribe", "--app", "home-lights", "--adaptation", model.path, other.path])
        }
        #expect(heard.status == 0, "\(heard.errors)")
        #expect(heard.output.contains("turn on the bedroom light"), "\(heard.output)")
    }

    @Test func adaptSaysWhatIsMissing() async throws {
        let noFile = try await offThePool {
            try Executables.run(
                "voice-intents",
                ["adapt", "--app", "home-lights", "--corpus", "/nonexistent/corpus.tsv", "-o", "/tmp/unused"])
        }
        #expect(noFile.status != 0)
        #expect(noFile.errors.contains("cannot read the corpus /nonexistent/corpus.tsv"), "\(noFile.errors)")
        let recording = try PeoplesRecordings.file("rhasspy-test-en", "how_hot_is_it.wav")
        let noModel = try await offThePool {
            try Executables.run(
                "voice-intents",
                ["transcribe", "--app", "home-lights", "--adaptation", "/nonexistent/model", recording.path])
        }
        #expect(noModel.status != 0)
        #expect(
            noModel.errors.contains("no adapted acoustic model at /nonexistent/model"), "\(noModel.errors)")
    }
}
