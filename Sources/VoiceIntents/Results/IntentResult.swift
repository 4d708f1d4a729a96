/// What `perform()` returns: declared by protocols, built by the `.result(…)` functions.
///
/// The protocols a `perform()` declares say what its result carries, and the compiler checks
/// that the result it builds matches:
///
/// ```swift
/// func perform() async throws -> some IntentResult & ReturnsValue<BookEntity> & ProvidesDialog {
///     .result(value: book, dialog: "Added \(book) to Library!")
/// }
/// ```
public protocol IntentResult: Sendable {}

/// A result that returns a value of type `Value`.
public protocol ReturnsValue<Value>: IntentResult {
    associatedtype Value: _IntentValue
}

/// A result that says something.
public protocol ProvidesDialog: IntentResult {}

/// A result that shows a snippet (printed on a terminal).
public protocol ShowsSnippetView: IntentResult {}

/// A result whose snippet comes from running a ``SnippetIntent``.
public protocol ShowsSnippetIntent: IntentResult {}

/// A result that runs another intent next ("add a book, then open it").
public protocol OpensIntent: IntentResult {}

/// An intent whose only job is to render a snippet for another intent's result.
public protocol SnippetIntent: AppIntent where PerformResult: ShowsSnippetView {}

/// The one concrete result type. Its generic arguments record what it carries; `Never` marks an
/// absent part, so it conforms only to the protocols for the parts it has.
public struct IntentResultContainer<
    Value: Sendable, OpenedIntent: Sendable, Content: Sendable, Snippet: Sendable, Dialog: Sendable
>: IntentResult {
    public let value: Value?
    public let dialog: IntentDialog?
    public let content: Content?
    public let opensIntent: OpenedIntent?
    public let snippetIntent: Snippet?

    init(
        value: Value? = nil, dialog: IntentDialog? = nil, content: Content? = nil,
        opensIntent: OpenedIntent? = nil, snippetIntent: Snippet? = nil
    ) {
        self.value = value
        self.dialog = dialog
        self.content = content
        self.opensIntent = opensIntent
        self.snippetIntent = snippetIntent
    }
}

extension IntentResultContainer: ReturnsValue where Value: _IntentValue {}
extension IntentResultContainer: ShowsSnippetView where Content: SnippetView {}
extension IntentResultContainer: OpensIntent where OpenedIntent: AppIntent {}
extension IntentResultContainer: ShowsSnippetIntent where Snippet: SnippetIntent {}

extension IntentResultContainer: ProvidesDialog where Dialog == IntentDialog {}

/// The parts of a result, read by the runtime without knowing its type.
protocol _IntentResultParts {
    var _value: (any Sendable)? { get }
    var _hasValue: Bool { get }
    var _dialog: IntentDialog? { get }
    var _snippet: (any SnippetView)? { get }
    var _opensIntent: (any AppIntent)? { get }
    var _snippetIntent: (any AppIntent)? { get }
}

extension IntentResultContainer: _IntentResultParts {
    var _value: (any Sendable)? { value }
    var _hasValue: Bool { Value.self != Never.self }
    var _dialog: IntentDialog? { dialog }
    var _snippet: (any SnippetView)? { content as? any SnippetView }
    var _opensIntent: (any AppIntent)? { opensIntent as? any AppIntent }
    var _snippetIntent: (any AppIntent)? { snippetIntent as? any AppIntent }
}
