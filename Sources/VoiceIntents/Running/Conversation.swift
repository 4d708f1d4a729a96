/// Whoever answers the questions an intent asks: a person by voice, by keyboard, or a script.
///
/// ``IntentRunner`` calls these methods when a required parameter is missing, when `perform()`
/// asks for a value, a disambiguation, a confirmation or a choice. An implementation says the
/// request's dialog, listens or reads, and returns what it heard. The runner interprets the
/// reply (a name, an ordinal such as "the second one", yes/no words, "cancel") and asks again
/// once when it cannot.
///
/// ```swift
/// struct TerminalConversation: Conversation {
///     func ask(_ question: ConversationQuestion) async throws -> ConversationReply {
///         print(question.dialog.full)
///         return readLine().map { .text($0) } ?? .cancel
///     }
/// }
/// ```
public protocol Conversation: Sendable {
    /// Asks `question` and returns the answer.
    func ask(_ question: ConversationQuestion) async throws -> ConversationReply
}

/// A question the runtime asks while running an intent.
public struct ConversationQuestion: Sendable, CustomStringConvertible {
    /// What kind of answer is wanted.
    public enum Kind: Sendable, Hashable {
        /// A value for a parameter.
        case value
        /// One of several values of a parameter.
        case disambiguation
        /// Yes or no.
        case confirmation
        /// One of the ``ConversationQuestion/choices``.
        case choice
    }

    public let kind: Kind
    /// What to say.
    public let dialog: IntentDialog
    /// The title of the intent that asks ("Find Tickets").
    public let intentTitle: String
    /// The parameter the question is about, if any.
    public let parameter: IntentParameterDescription?
    /// The spoken names of the options, in order, for disambiguation and choice; for a value
    /// question, every name a valid answer may have when the set is closed (enum cases,
    /// suggested entities), the values a ``DynamicOptionsProvider`` suggests, and empty when
    /// any words will do.
    public let options: [String]
    /// The choice options themselves, for ``Kind/choice``.
    public let choices: [IntentChoiceOption]
    /// A snippet that goes with the question, such as an order preview.
    public let snippet: String?
    /// Whether saying yes (or picking an option) does something that cannot be undone: a
    /// conversation may demand a clearer answer.
    public let isDestructive: Bool
    /// 1 for the first time this question is asked, 2 when it is asked again.
    public let attempt: Int

    public var description: String {
        var text = "\(kind) \"\(dialog.full.defaultValue)\""
        if !options.isEmpty && kind != .value { text += " options \(options)" }
        return text
    }
}

/// An answer to a ``ConversationQuestion``.
public enum ConversationReply: Sendable, Hashable {
    /// The words the person said or typed: a value, a name, an ordinal, "yes", "cancel".
    case text(String)
    /// The position (from 0) of the chosen option.
    case option(Int)
    /// Yes, to a confirmation.
    case yes
    /// No, to a confirmation.
    case no
    /// The person wants to stop the whole intent.
    case cancel
    /// Nothing was heard.
    case silence
}
