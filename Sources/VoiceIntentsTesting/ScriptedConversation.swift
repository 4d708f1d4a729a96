import Synchronization
import VoiceIntents

/// A ``Conversation`` that answers from a list, for testing an app's conversation logic.
///
/// ```swift
/// let conversation = ScriptedConversation([.text("Kyoto"), .yes])
/// let outcome = await IntentRunner(conversation: conversation).run(FindTicketsIntent.self)
/// #expect(conversation.questions.map(\.kind) == [.value, .confirmation])
/// ```
///
/// Each question takes the next reply. When the replies run out the question is answered with
/// ``ConversationReply/cancel`` and recorded in ``unansweredQuestions``, so a test sees both the
/// cancelled outcome and the question nobody expected. It tests conversation logic only: it is
/// never evidence that speech works.
public final class ScriptedConversation: Conversation {
    private struct State {
        var replies: [ConversationReply]
        var questions: [ConversationQuestion] = []
        var unanswered: [ConversationQuestion] = []
    }

    private let state: Mutex<State>

    /// Creates a conversation that gives `replies` in order.
    public init(_ replies: [ConversationReply] = []) {
        self.state = Mutex(State(replies: replies))
    }

    public func ask(_ question: ConversationQuestion) async throws -> ConversationReply {
        state.withLock { state in
            state.questions.append(question)
            guard !state.replies.isEmpty else {
                state.unanswered.append(question)
                return .cancel
            }
            return state.replies.removeFirst()
        }
    }

    /// Every question asked, in order.
    public var questions: [ConversationQuestion] { state.withLock { $0.questions } }

    /// What each question said (its full dialog), in order.
    public var prompts: [String] { questions.map(\.dialog.full.defaultValue) }

    /// Questions asked after the replies ran out.
    public var unansweredQuestions: [ConversationQuestion] { state.withLock { $0.unanswered } }

    /// Replies that were never used.
    public var remainingReplies: [ConversationReply] { state.withLock { $0.replies } }
}
