/// The error `throw $param.requestValue(…)` throws: the runner asks for the value and runs
/// `perform()` again.
struct NeedsValueError: Error, @unchecked Sendable {
    let parameter: any _AnyIntentParameter
    let dialog: IntentDialog?
}

extension IntentParameter {
    /// An error that, thrown from `perform()`, makes the runner ask for this parameter's value
    /// and run `perform()` again with it.
    ///
    /// ```swift
    /// if books.count > 1 && authorName == nil {
    ///     throw $authorName.requestValue("Who wrote the book?")
    /// }
    /// ```
    ///
    /// - Parameter dialog: The question; the parameter's `requestValueDialog` when `nil`.
    public func requestValue(_ dialog: IntentDialog? = nil) -> any Error {
        NeedsValueError(parameter: self, dialog: dialog)
    }

    /// Asks for this parameter's value now, stores it, and returns it.
    ///
    /// ```swift
    /// let author = try await $authorName.requestValue("Who wrote the book?")
    /// ```
    ///
    /// - Parameter dialog: The question; the parameter's `requestValueDialog` when `nil`.
    /// - Throws: ``AppIntentError/userCancelled`` when the person cancels.
    public func requestValue(_ dialog: IntentDialog? = nil) async throws -> Value.UnwrappedValue {
        let execution = try IntentExecution.required()
        try await execution.askForValue(self, dialog: dialog)
        guard let value = wrappedValue as? Value.UnwrappedValue else {
            throw AppIntentError.missingValue(parameter: title.defaultValue.lowercased())
        }
        return value
    }

    /// Asks which of `values` was meant, reading them out by name; returns the chosen one.
    ///
    /// ```swift
    /// let author = try await $authorName.requestDisambiguation(
    ///     among: books.map(\.authorName), dialog: "Which author?")
    /// ```
    ///
    /// - Parameters:
    ///   - values: The candidates, in the order they are read out.
    ///   - dialog: The question; "Which <title>?" when `nil`.
    /// - Throws: ``AppIntentError/userCancelled`` when the person cancels or no answer fits.
    public func requestDisambiguation(
        among values: [Value.UnwrappedValue], dialog: IntentDialog? = nil
    ) async throws -> Value.UnwrappedValue {
        let execution = try IntentExecution.required()
        let index = try await execution.disambiguate(
            _describe(), among: values.map { spokenText(of: $0) }, dialog: dialog)
        return values[index]
    }

    /// Asks whether `value` is the right one; returns the answer.
    ///
    /// ```swift
    /// guard try await $book.requestConfirmation(for: book, dialog: "Open \(book)?") else { … }
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to confirm.
    ///   - dialog: The question; "Did you mean <value>?" when `nil`.
    /// - Throws: ``AppIntentError/userCancelled`` on "cancel" or when no answer is clear.
    public func requestConfirmation(
        for value: Value.UnwrappedValue, dialog: IntentDialog? = nil
    ) async throws -> Bool {
        let execution = try IntentExecution.required()
        let question =
            dialog ?? IntentDialog(LocalizedStringResource("Did you mean \(spokenText(of: value))?"))
        return try await execution.yesOrNo(question, parameter: _describe(), destructive: false)
    }
}

extension IntentExecution {
    static func required() throws -> IntentExecution {
        guard let current else { throw AppIntentError.noConversation }
        return current
    }
}
