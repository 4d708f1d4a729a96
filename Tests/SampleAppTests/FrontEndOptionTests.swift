import ArgumentParser
import Testing
import VoiceAudio

@testable import VoiceIntentsCLI

/// `--front-end` as people write it.
@Suite("The --front-end option")
struct FrontEndOptionTests {
    func settings(_ value: String) throws -> AudioFrontEnd.Settings? {
        try RecognizerOptions.parse(["--front-end", value]).frontEndSettings(default: .standard)
    }

    /// RNNoise named without a floor takes the floor chosen on people, as the manifest's
    /// `neural: rnnoise` does; a floor named is kept, in either order.
    @Test func rnnoiseWithoutAFloorTakesTheDefaultFloor() throws {
        #expect(try settings("rnnoise")?.neuralFloor == AudioFrontEnd.Settings.neuralFloorDefault)
        #expect(try settings("rnnoise,highpass=80")?.neuralFloor == AudioFrontEnd.Settings.neuralFloorDefault)
        #expect(try settings("rnnoise=-20")?.neuralFloor == -20)
        #expect(try settings("rnnoise=-20,highpass=80")?.neuralFloor == -20)
        #expect(try settings("webrtc")?.neural == nil)
        #expect(try settings("webrtc")?.neuralFloor == nil)
    }

    /// DeepFilterNet is named as RNNoise is: alone (with the high-pass filter), with a floor, or
    /// stacked before other parts.
    @Test func deepFilterNetIsNamedAsRNNoiseIs() throws {
        let alone = try settings("deepfilternet")
        #expect(alone?.neural == .deepFilterNet)
        #expect(alone?.neuralFloor == AudioFrontEnd.Settings.neuralFloorDefault)
        #expect(alone?.highPass == 80 && alone?.noiseSuppression == nil)
        let floored = try settings("deepfilternet=-20,highpass=80,denoise=-6")
        #expect(floored?.neural == .deepFilterNet && floored?.neuralFloor == -20)
        #expect(floored?.noiseSuppression == -6)
        #expect(throws: (any Error).self) { try settings("deepfilternet=5") }
    }

    /// `standard` is the standard front end whatever the manifest says (RNNoise, by default);
    /// a library named alone is the standard front end denoised by it.
    @Test func standardNamesTheStandardFrontEnd() throws {
        let learned = try RecognizerOptions.parse(["--front-end", "standard"]).frontEndSettings(
            default: .learned)
        #expect(learned == .standard)
        let webRTC = try RecognizerOptions.parse(["--front-end", "webrtc"]).frontEndSettings(
            default: .learned)
        #expect(webRTC?.neural == nil && webRTC?.engine == .webRTC && webRTC?.noiseSuppression == -6)
        #expect(
            try RecognizerOptions.parse(["--front-end", "on"]).frontEndSettings(default: .learned) == .learned
        )
    }

    /// A front end written as `--front-end` names it reads back as the same settings.
    @Test(arguments: [
        "rnnoise=-10,highpass=80", "deepfilternet=-20,highpass=80", "highpass=80,denoise=-6",
        "webrtc,highpass=80,denoise=-18,gain", "off",
    ])
    func aFrontEndIsWrittenAsTheOptionNamesIt(_ argument: String) throws {
        let settings = try settings(argument)
        #expect(AudioFrontEnd.Settings.argument(settings) == argument)
    }
}
