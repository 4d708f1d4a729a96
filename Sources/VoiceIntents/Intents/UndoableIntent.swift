import Synchronization

/// An intent whose effect can be undone; it registers how through ``undoManager``.
///
/// ```swift
/// struct DeleteCollectionIntent: UndoableIntent {
///     func perform() async throws -> some IntentResult {
///         let removed = modelData.deleteCollection(collection.id)
///         await undoManager?.registerUndo(withTarget: modelData) { $0.restore(removed) }
///         await undoManager?.setActionName("Delete \(collection.name)")
///         return .result()
///     }
/// }
/// ```
///
/// The registered action comes back in ``IntentOutcome/undoAction``, so a front end can offer
/// "undo" after the intent ran.
public protocol UndoableIntent: AppIntent {}

extension UndoableIntent {
    /// Where this run registers its undo action; `nil` outside ``IntentRunner``.
    public var undoManager: IntentUndoManager? {
        IntentExecution.current?.undoManager
    }
}

/// Collects the undo actions an ``UndoableIntent`` registers while it runs.
public final class IntentUndoManager: Sendable {
    private let state = Mutex<(actions: [@Sendable () -> Void], name: String?)>(([], nil))

    init() {}

    /// Registers `handler` to be called with `target` when the intent is undone. Asynchronous,
    /// as Apple's main-actor `UndoManager` is to an intent.
    public func registerUndo<Target: AnyObject & Sendable>(
        withTarget target: Target, handler: @escaping @Sendable (Target) -> Void
    ) async {
        state.withLock { $0.actions.append { handler(target) } }
    }

    /// Names the action for "Undo <name>?".
    public func setActionName(_ name: String) async {
        state.withLock { $0.name = name }
    }

    /// The registered action, or `nil` when nothing was registered.
    var action: UndoAction? {
        state.withLock { state in
            state.actions.isEmpty ? nil : UndoAction(name: state.name, actions: state.actions)
        }
    }
}

/// What undoes a finished intent.
public struct UndoAction: Sendable {
    /// The name given with `setActionName`, if any.
    public let name: String?
    let actions: [@Sendable () -> Void]

    /// Undoes the intent: runs the registered handlers, last registered first.
    public func undo() {
        for action in actions.reversed() { action() }
    }
}
