import Dispatch
import Synchronization
import VoiceAudio
import VoiceRecognition

extension SpeechRecognizer {
    /// Runs `body` for every index below `count` on `workers` threads, each with a recognizer of
    /// its own set to `grammar` (a recognizer is not shared between threads), and returns the
    /// results in index order. Stops at the first error and throws it.
    ///
    /// - Parameter progress: Called after each index with the number done and `count`.
    static func inParallel<Result: Sendable>(
        _ count: Int, workers: Int, configuration: Configuration, grammar: SpeechGrammar,
        progress: @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in },
        _ body: @Sendable (SpeechRecognizer, Int) throws(SpeechError) -> Result
    ) throws(SpeechError) -> [Result] {
        let results = Mutex<[Int: Result]>([:])
        let failure = Mutex<SpeechError?>(nil)
        let workers = min(max(workers, 1), max(count, 1))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            do throws(SpeechError) {
                let recognizer = try SpeechRecognizer(configuration)
                try recognizer.useGrammar(grammar)
                for index in stride(from: worker, to: count, by: workers) {
                    if failure.withLock({ $0 != nil }) { return }
                    let result = try body(recognizer, index)
                    let done = results.withLock { soFar in
                        soFar[index] = result
                        return soFar.count
                    }
                    progress(done, count)
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return results.withLock { results in (0..<count).compactMap { results[$0] } }
    }
}
