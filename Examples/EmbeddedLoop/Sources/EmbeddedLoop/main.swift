import Logging
import VoiceLoop

// Hears the commands in a WAV file, runs them, prints each turn and writes the replies to a WAV:
//     swift run EmbeddedLoop commands.wav replies.wav
let app = AppContext(LampApp.self)
let logger = Logger(label: app.executableName)
let loop = VoiceLoop(
    app: app, input: try VoiceInput(recording: CommandLine.arguments[1]),
    mouth: try Mouth(output: CommandLine.arguments[2], applicationName: app.executableName, logger: logger),
    configuration: try VoiceLoop.Configuration(for: app), logger: logger
) { turn in
    print("\(turn.heard) → \(turn.outcome?.intent ?? "nothing (\(turn.rejection ?? ""))") \(turn.replies)")
}
let listening = Task { try await loop.run() }
// A microphone never ends: cancelling stops the loop at once. (In a ServiceGroup, graceful
// shutdown lets the turn under way finish first.)
Task {
    try await Task.sleep(for: .seconds(60)); listening.cancel()
}
_ = try await listening.value
