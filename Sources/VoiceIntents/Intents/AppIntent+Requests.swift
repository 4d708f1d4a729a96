/// The verb of a confirmation ("Do you want to buy…?").
public struct ConfirmationActionName: Sendable, Hashable {
    /// The verb as spoken, lower case.
    public let verb: String

    public init(verb: String) {
        self.verb = verb
    }

    public static let generic = ConfirmationActionName(verb: "continue")
    public static let add = ConfirmationActionName(verb: "add")
    public static let buy = ConfirmationActionName(verb: "buy")
    public static let order = ConfirmationActionName(verb: "order")
    public static let search = ConfirmationActionName(verb: "search")
    public static let send = ConfirmationActionName(verb: "send")
    public static let set = ConfirmationActionName(verb: "set")
    public static let start = ConfirmationActionName(verb: "start")
    public static let toggle = ConfirmationActionName(verb: "toggle")
    public static let turnOn = ConfirmationActionName(verb: "turn on")
    public static let turnOff = ConfirmationActionName(verb: "turn off")
    public static let book = ConfirmationActionName(verb: "book")
    public static let open = ConfirmationActionName(verb: "open")
    public static let run = ConfirmationActionName(verb: "run")
    public static let delete = ConfirmationActionName(verb: "delete")
}

extension AppIntent {
    /// Asks the person to confirm before going on; returns only on yes.
    ///
    /// ```swift
    /// try await requestConfirmation(actionName: .buy, dialog: "Buy two tickets for Kyoto?")
    /// ```
    ///
    /// - Parameters:
    ///   - actionName: The verb, used when `dialog` is `nil`.
    ///   - dialog: The question.
    /// - Throws: ``AppIntentError/userCancelled`` on no, cancel, or an answer that stays unclear.
    public func requestConfirmation(
        actionName: ConfirmationActionName = .generic, dialog: IntentDialog? = nil
    ) async throws {
        let execution = try IntentExecution.required()
        try await execution.confirm(
            dialog ?? defaultConfirmation(actionName), destructive: actionName == .delete)
    }

    /// Shows (or says) what would happen and asks the person to confirm it.
    ///
    /// ```swift
    /// try await requestConfirmation(output: .result(value: order, dialog: "Ready to order?") {
    ///     OrderPreview(order: order)
    /// })
    /// ```
    ///
    /// - Parameter output: A result whose dialog is the question and whose snippet is the preview.
    /// - Throws: ``AppIntentError/userCancelled`` on no, cancel, or an answer that stays unclear.
    public func requestConfirmation<Output: IntentResult>(output: Output) async throws {
        try await requestConfirmation(result: output)
    }

    /// Shows (or says) what would happen and asks the person to confirm it.
    ///
    /// - Parameters:
    ///   - result: A result whose dialog is the question and whose snippet is the preview.
    ///   - confirmationActionName: The verb, used when the result has no dialog.
    ///   - showPrompt: Kept for source compatibility.
    public func requestConfirmation<Output: IntentResult>(
        result: Output, confirmationActionName: ConfirmationActionName = .generic,
        showPrompt: Bool = true
    ) async throws {
        let execution = try IntentExecution.required()
        let parts = result as? any _IntentResultParts
        try await execution.confirm(
            parts?._dialog ?? defaultConfirmation(confirmationActionName),
            snippet: parts?._snippet?.text, destructive: confirmationActionName == .delete)
    }

    /// Asks for confirmation with a snippet rendered by `snippetIntent`.
    public func requestConfirmation<Snippet: SnippetIntent>(
        actionName: ConfirmationActionName = .generic, dialog: IntentDialog? = nil,
        snippetIntent: Snippet
    ) async throws {
        let execution = try IntentExecution.required()
        let snippet = try await (snippetIntent.perform() as? any _IntentResultParts)?._snippet?.text
        try await execution.confirm(
            dialog ?? defaultConfirmation(actionName), snippet: snippet,
            destructive: actionName == .delete)
    }

    /// Asks the person to pick one of `options`; returns the one picked.
    ///
    /// ```swift
    /// let choice = try await requestChoice(between: [.cancel, archive, delete], dialog: "Archive or delete?")
    /// switch choice { case archive: … case delete: … default: break }
    /// ```
    ///
    /// - Parameters:
    ///   - options: The options; their titles are what a person says.
    ///   - dialog: The question.
    /// - Throws: ``AppIntentError/userCancelled`` when ``IntentChoiceOption/cancel`` is picked, on
    ///   "cancel", or when no answer fits.
    public func requestChoice(
        between options: [IntentChoiceOption], dialog: IntentDialog
    ) async throws -> IntentChoiceOption {
        try await IntentExecution.required().choose(options, dialog: dialog, snippet: nil)
    }

    /// Asks the person to pick one of `options`, with a snippet that shows what it is about.
    public func requestChoice<Content: SnippetView>(
        between options: [IntentChoiceOption], dialog: IntentDialog, view: Content
    ) async throws -> IntentChoiceOption {
        try await IntentExecution.required().choose(options, dialog: dialog, snippet: view.text)
    }

    private func defaultConfirmation(_ action: ConfirmationActionName) -> IntentDialog {
        let what = summaryText ?? Self.title.defaultValue.lowercased()
        return action == .generic
            ? IntentDialog(LocalizedStringResource("Are you sure you want to \(what)?"))
            : IntentDialog(LocalizedStringResource("Do you want to \(action.verb): \(what)?"))
    }
}
