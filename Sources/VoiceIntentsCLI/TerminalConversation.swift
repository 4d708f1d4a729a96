import Foundation
import VoiceAudio
import VoiceIntents

/// Asks questions on standard output and reads the answers from standard input.
///
/// End of input answers ``ConversationReply/cancel``, so a script that stops early cancels
/// cleanly instead of hanging.
package struct TerminalConversation: Conversation {
    /// Where questions are written (standard output, or a test's buffer).
    package let output: TextSink
    /// Reads one line, `nil` at end of input.
    package let readLine: @Sendable () -> String?
    /// Says the question's dialog as well (`listen --text`); prints only when `nil`.
    package var speak: (@Sendable (String) -> Void)? = nil

    package init(
        output: TextSink, readLine: @escaping @Sendable () -> String?,
        speak: (@Sendable (String) -> Void)? = nil
    ) {
        self.output = output
        self.readLine = readLine
        self.speak = speak
    }

    package func ask(_ question: ConversationQuestion) async throws -> ConversationReply {
        var lines = [question.dialog.full.defaultValue]
        if let snippet = question.snippet { lines.insert(snippet, at: 0) }
        switch question.kind {
        case .disambiguation, .choice:
            lines += question.options.enumerated().map { "  \($0.offset + 1). \($0.element)" }
        case .value where !question.options.isEmpty && question.options.count <= 12:
            lines.append("  (\(question.options.joined(separator: ", ")))")
        case .confirmation:
            lines[lines.count - 1] += " (yes/no)"
        default:
            break
        }
        output.write(lines.joined(separator: "\n") + "\n? ")
        // Speaking and waiting for a line block: on a thread for blocking work.
        if let speak { await onThreadOfItsOwn { [question] in speak(question.dialog.full.defaultValue) } }
        guard let answer = await onThreadOfItsOwn(readLine)?.trimmingCharacters(in: .whitespaces) else {
            output.write("\n")
            return .cancel
        }
        if answer.isEmpty { return .silence }
        if question.kind != .value, let number = Int(answer) { return .option(number - 1) }
        return .text(answer)
    }
}
