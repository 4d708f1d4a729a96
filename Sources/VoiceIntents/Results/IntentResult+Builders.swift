// The `.result(…)` family. Each function fixes the container's type arguments to what it was
// given (`Never` for the rest), so a `perform()` that declares `ReturnsValue<Book>` but returns
// `.result(dialog:)` does not compile, as on Apple platforms.

/// A result type carrying the given parts; `Never` marks a part that is absent.
public typealias _Result<V: Sendable, O: Sendable, C: Sendable, S: Sendable, D: Sendable> =
    IntentResultContainer<V, O, C, S, D>

extension IntentResult {
    /// A result with nothing to return or say.
    public static func result() -> Self where Self == _Result<Never, Never, Never, Never, Never> {
        .init()
    }

    /// A result that returns a value.
    public static func result<V: _IntentValue>(value: V) -> Self
    where Self == _Result<V, Never, Never, Never, Never> {
        .init(value: value)
    }

    /// A result that says something.
    public static func result(dialog: IntentDialog) -> Self
    where Self == _Result<Never, Never, Never, Never, IntentDialog> {
        .init(dialog: dialog)
    }

    /// A result that returns a value and says something.
    public static func result<V: _IntentValue>(value: V, dialog: IntentDialog) -> Self
    where Self == _Result<V, Never, Never, Never, IntentDialog> {
        .init(value: value, dialog: dialog)
    }
}

// MARK: Snippets

extension IntentResult {
    /// A result that shows a snippet.
    public static func result<C: SnippetView>(view: C) -> Self
    where Self == _Result<Never, Never, C, Never, Never> {
        .init(content: view)
    }

    /// A result that shows the snippet built by `content`.
    public static func result<C: SnippetView>(@SnippetViewBuilder content: () -> C) -> Self
    where Self == _Result<Never, Never, C, Never, Never> {
        .init(content: content())
    }

    /// A result that says something and shows a snippet.
    public static func result<C: SnippetView>(dialog: IntentDialog, view: C) -> Self
    where Self == _Result<Never, Never, C, Never, IntentDialog> {
        .init(dialog: dialog, content: view)
    }

    /// A result that says something and shows the snippet built by `content`.
    public static func result<C: SnippetView>(
        dialog: IntentDialog, @SnippetViewBuilder content: () -> C
    ) -> Self where Self == _Result<Never, Never, C, Never, IntentDialog> {
        .init(dialog: dialog, content: content())
    }

    /// A result that returns a value and shows a snippet.
    public static func result<V: _IntentValue, C: SnippetView>(value: V, view: C) -> Self
    where Self == _Result<V, Never, C, Never, Never> {
        .init(value: value, content: view)
    }

    /// A result that returns a value and shows the snippet built by `content`.
    public static func result<V: _IntentValue, C: SnippetView>(
        value: V, @SnippetViewBuilder content: () -> C
    ) -> Self where Self == _Result<V, Never, C, Never, Never> {
        .init(value: value, content: content())
    }

    /// A result that returns a value, says something and shows a snippet.
    public static func result<V: _IntentValue, C: SnippetView>(
        value: V, dialog: IntentDialog, view: C
    ) -> Self where Self == _Result<V, Never, C, Never, IntentDialog> {
        .init(value: value, dialog: dialog, content: view)
    }

    /// A result that returns a value, says something and shows the snippet built by `content`.
    public static func result<V: _IntentValue, C: SnippetView>(
        value: V, dialog: IntentDialog, @SnippetViewBuilder content: () -> C
    ) -> Self where Self == _Result<V, Never, C, Never, IntentDialog> {
        .init(value: value, dialog: dialog, content: content())
    }
}

// MARK: Opening another intent

extension IntentResult {
    /// A result that runs `opensIntent` next.
    public static func result<O: AppIntent>(opensIntent: O) -> Self
    where Self == _Result<Never, O, Never, Never, Never> {
        .init(opensIntent: opensIntent)
    }

    /// A result that returns a value and runs `opensIntent` next.
    public static func result<V: _IntentValue, O: AppIntent>(value: V, opensIntent: O) -> Self
    where Self == _Result<V, O, Never, Never, Never> {
        .init(value: value, opensIntent: opensIntent)
    }

    /// A result that says something and runs `opensIntent` next.
    public static func result<O: AppIntent>(opensIntent: O, dialog: IntentDialog) -> Self
    where Self == _Result<Never, O, Never, Never, IntentDialog> {
        .init(dialog: dialog, opensIntent: opensIntent)
    }

    /// A result that returns a value, says something and runs `opensIntent` next.
    public static func result<V: _IntentValue, O: AppIntent>(
        value: V, opensIntent: O, dialog: IntentDialog
    ) -> Self where Self == _Result<V, O, Never, Never, IntentDialog> {
        .init(value: value, dialog: dialog, opensIntent: opensIntent)
    }

    /// A result that returns a value, says something, shows a snippet and runs `opensIntent` next.
    public static func result<V: _IntentValue, O: AppIntent, C: SnippetView>(
        value: V, opensIntent: O, dialog: IntentDialog, view: C
    ) -> Self where Self == _Result<V, O, C, Never, IntentDialog> {
        .init(value: value, dialog: dialog, content: view, opensIntent: opensIntent)
    }

    /// A result that returns a value, says something, shows the snippet built by `content` and
    /// runs `opensIntent` next.
    public static func result<V: _IntentValue, O: AppIntent, C: SnippetView>(
        value: V, opensIntent: O, dialog: IntentDialog, @SnippetViewBuilder content: () -> C
    ) -> Self where Self == _Result<V, O, C, Never, IntentDialog> {
        .init(value: value, dialog: dialog, content: content(), opensIntent: opensIntent)
    }

    /// A result that says something, shows the snippet built by `content` and runs
    /// `opensIntent` next.
    public static func result<O: AppIntent, C: SnippetView>(
        opensIntent: O, dialog: IntentDialog, @SnippetViewBuilder content: () -> C
    ) -> Self where Self == _Result<Never, O, C, Never, IntentDialog> {
        .init(dialog: dialog, content: content(), opensIntent: opensIntent)
    }

    /// ``result(opensIntent:dialog:)`` with the dialog first, as this package had it before it
    /// followed Apple's order.
    @available(*, deprecated, renamed: "result(opensIntent:dialog:)")
    public static func result<O: AppIntent>(dialog: IntentDialog, opensIntent: O) -> Self
    where Self == _Result<Never, O, Never, Never, IntentDialog> {
        .init(dialog: dialog, opensIntent: opensIntent)
    }

    /// ``result(value:opensIntent:dialog:)`` with the dialog before the intent, as this package
    /// had it before it followed Apple's order.
    @available(*, deprecated, renamed: "result(value:opensIntent:dialog:)")
    public static func result<V: _IntentValue, O: AppIntent>(
        value: V, dialog: IntentDialog, opensIntent: O
    ) -> Self where Self == _Result<V, O, Never, Never, IntentDialog> {
        .init(value: value, dialog: dialog, opensIntent: opensIntent)
    }

    /// The 2022 spelling of ``result(value:opensIntent:)``.
    public static func result<V: _IntentValue, O: AppIntent>(value: V, openIntent: O) -> Self
    where Self == _Result<V, O, Never, Never, Never> {
        .init(value: value, opensIntent: openIntent)
    }
}

// MARK: Snippet intents

extension IntentResult {
    /// A result whose snippet is rendered by running `snippetIntent`.
    public static func result<S: SnippetIntent>(snippetIntent: S) -> Self
    where Self == _Result<Never, Never, Never, S, Never> {
        .init(snippetIntent: snippetIntent)
    }

    /// A result that says something, with a snippet rendered by `snippetIntent`.
    public static func result<S: SnippetIntent>(dialog: IntentDialog, snippetIntent: S) -> Self
    where Self == _Result<Never, Never, Never, S, IntentDialog> {
        .init(dialog: dialog, snippetIntent: snippetIntent)
    }

    /// A result that returns a value, with a snippet rendered by `snippetIntent`.
    public static func result<V: _IntentValue, S: SnippetIntent>(value: V, snippetIntent: S)
        -> Self
    where Self == _Result<V, Never, Never, S, Never> {
        .init(value: value, snippetIntent: snippetIntent)
    }

    /// A result that returns a value and says something, with a snippet rendered by
    /// `snippetIntent`.
    public static func result<V: _IntentValue, S: SnippetIntent>(
        value: V, dialog: IntentDialog, snippetIntent: S
    ) -> Self where Self == _Result<V, Never, Never, S, IntentDialog> {
        .init(value: value, dialog: dialog, snippetIntent: snippetIntent)
    }
}
