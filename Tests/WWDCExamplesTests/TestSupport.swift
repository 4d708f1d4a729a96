// What every test needs to run a session example in isolation: its own dependency manager (with
// ModelData and the Navigator registered), its own navigator and book database bound to the
// task, and a scripted conversation.

import VoiceIntents
import VoiceIntentsTesting

/// One test's world: a scripted conversation, a fresh `AppDependencyManager`, and the navigator
/// and database that `Navigator.shared` and `Database.shared` mean while it runs intents.
struct Harness {
    let conversation: ScriptedConversation
    let dependencies: AppDependencyManager
    let navigator = Navigator()
    let database = Database()

    /// Creates a world whose conversation answers with `replies`, in order.
    init(_ replies: [ConversationReply] = []) {
        conversation = ScriptedConversation(replies)
        dependencies = AppDependencyManager()
        dependencies.add { ModelData() }
        let navigator = navigator
        dependencies.add { navigator }
    }

    /// The model the intents of this world use (made on first use, then shared).
    var modelData: ModelData { dependencies.resolve(ModelData.self)! }

    /// Runs `intent` through an `IntentRunner` with this world's conversation and dependencies.
    func run(
        _ intent: any AppIntent, parameters: [String: any Sendable] = [:], hasScreen: Bool = false
    ) async -> IntentOutcome {
        let runner = IntentRunner(
            conversation: conversation, dependencies: dependencies, hasScreen: hasScreen)
        return await bound { await runner.run(intent, parameters: parameters) }
    }

    /// Runs `body` with this world's dependencies, navigator and database bound, as the runtime
    /// binds them while an intent runs: queries called here read this world's `@Dependency`s.
    func insideIntent<Result: Sendable>(
        _ body: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        try await AppDependencyManager.$current.withValue(dependencies) {
            try await Navigator.$current.withValue(navigator) {
                try await Database.$current.withValue(database) {
                    try await body()
                }
            }
        }
    }

    private func bound<T>(_ operation: () async -> T) async -> T {
        await Navigator.$current.withValue(navigator) {
            await Database.$current.withValue(database) {
                await operation()
            }
        }
    }
}
