import Dispatch

/// Runs `body` on a thread of its own and waits for it without holding one of Swift's few
/// cooperative threads: loading the models, decoding and synthesis block for up to seconds, and
/// every other task of the program (another voice loop, a server's connections) needs those
/// threads too. Every call into PocketSphinx or eSpeak NG from async code goes through it.
package func onThreadOfItsOwn<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws
    -> Value
{
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
