import Foundation
import Logging
import PhraseMatching
import VoiceAudio
import VoiceIntents

/// The typed front end: reads commands line by line, runs them, prints the answers.
package struct TextSession: Sendable {
    package let description: AppDescription
    package let matcher: PhraseMatcher
    package let runner: IntentRunner
    package let output: TextSink
    package let readLine: @Sendable () -> String?
    package let voiceOnly: Bool
    package let logger: Logger
    /// Says the replies as well (`listen --text`); prints only when `nil`.
    package var speak: (@Sendable (String) -> Void)? = nil
    /// What the device knows without being told (`--context`).
    package var context: [String: String] = [:]

    package init(
        description: AppDescription, matcher: PhraseMatcher, runner: IntentRunner, output: TextSink,
        readLine: @escaping @Sendable () -> String?, voiceOnly: Bool, logger: Logger,
        speak: (@Sendable (String) -> Void)? = nil, context: [String: String] = [:]
    ) {
        self.description = description
        self.matcher = matcher
        self.runner = runner
        self.output = output
        self.readLine = readLine
        self.voiceOnly = voiceOnly
        self.logger = logger
        self.speak = speak
        self.context = context
    }

    /// Runs until end of input or "quit"; returns the number of commands not understood.
    package func run() async -> Int {
        var misunderstood = 0
        output.write("\(description.name) is ready. Type a command, \"help\" for phrases, or \"quit\".\n> ")
        // Waiting for a line, and speaking, block: on a thread for blocking work.
        while let line = await onThreadOfItsOwn(readLine) {
            let text = line.trimmingCharacters(in: .whitespaces)
            switch text.lowercased() {
            case "": break
            case "quit", "exit", "bye": return misunderstood
            case "help", "?": output.write(ShortcutListing.text(for: description))
            default:
                if await !handle(text) { misunderstood += 1 }
            }
            output.write("> ")
        }
        output.write("\n")
        return misunderstood
    }

    /// Runs one command; `false` when no phrase fits it.
    package func handle(_ text: String) async -> Bool {
        let started = ContinuousClock.now
        let pipeline = TurnPipeline(description: description, matcher: matcher, context: context)
        let (turn, result) = await pipeline.turn(typed: text, runner: runner)
        var metadata = turn.metadata
        metadata["transcript"] = "\(text)"
        guard !turn.outcomes.isEmpty, !turn.plan.matches.isEmpty else {
            // A typed command is always meant for the app: it is answered, never ignored.
            metadata["candidates"] = "\(result.candidates)"
            logger.debug("no match", metadata: metadata)
            for reply in turn.replies(voiceOnly: voiceOnly) {
                await say(reply)
                // On a screen, where to look for what can be said.
                let help = reply == TurnReply.notUnderstood ? " Type \"help\" to see what I can do." : ""
                output.write(reply + help + "\n")
            }
            return false
        }
        for step in turn.steps {
            output.write(render(step))
            if let spoken = step.spokenText(voiceOnly: voiceOnly) { await say(spoken) }
            if let detail = step.errorDetail { logger.error("\(step.intent) failed: \(detail)") }
        }
        if turn.leftTheRest {
            output.write(TurnReply.leftTheRest + "\n")
            await say(TurnReply.leftTheRest)
        }
        let matches = turn.plan.matches
        metadata["score"] = "\(matches.map { "\($0.score)" }.joined(separator: ", "))"
        metadata["phrase"] = "\(matches.map(\.phrase).joined(separator: ", "))"
        metadata["forgiven"] = "\(matches.flatMap(\.explanation))"
        metadata["elapsed"] = "\(ContinuousClock.now - started)"
        logger.debug("turn", metadata: metadata)
        return true
    }

    /// Speaks `text`, when the session speaks, on a thread for blocking work.
    private func say(_ text: String) async {
        guard let speak else { return }
        await onThreadOfItsOwn { speak(text) }
    }

    private func render(_ outcome: IntentOutcome) -> String {
        var text = voiceOnly ? "" : ScreenText.text(for: outcome, appName: description.name)
        if let spoken = outcome.spokenText(voiceOnly: voiceOnly) { text += spoken + "\n" }
        return text
    }
}

/// The shortcuts and their phrases, for `help` and the `shortcuts` command.
package enum ShortcutListing {
    package static func text(for description: AppDescription) -> String {
        var lines: [String] = []
        for shortcut in description.shortcuts {
            let definition = IntentDefinition(shortcut.intentType)
            lines.append("\(shortcut.shortTitle) (\(definition.identifier))")
            for phrase in shortcut.phrases {
                lines.append("  \"\(PhraseText.example(of: phrase, appName: description.name))\"")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
