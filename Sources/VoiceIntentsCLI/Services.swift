import Logging
import ServiceLifecycle
import UnixSignals

/// Runs `services` in a `ServiceGroup` until they end or a signal stops them: the first SIGINT
/// or SIGTERM shuts the group down gracefully (logged with `stopping`, what graceful shutdown
/// means for them), a second one cancels it, which stops them at once. The group also shuts
/// down when a service whose termination behaviour says so ends by itself.
func runServices(
    _ services: [ServiceGroupConfiguration.ServiceConfiguration], stopping: String, logger: Logger
) async throws {
    let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger))
    let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
    let stopped: UnixSignal? = try await withThrowingTaskGroup(of: UnixSignal?.self) { tasks in
        tasks.addTask {
            do {
                try await group.run()
            } catch is CancellationError {}  // a second signal: a service ended by it
            return nil
        }
        tasks.addTask {
            var first: UnixSignal?
            for await signal in signals {
                guard let first else {
                    first = signal
                    logger.info("\(signal): \(stopping)")
                    await group.triggerGracefulShutdown()
                    continue
                }
                logger.info("\(signal) after \(first): stopping now")
                return signal
            }
            return first
        }
        // The group ended, or a second signal came: whatever still runs is cancelled.
        let ended = try await tasks.next() ?? nil
        tasks.cancelAll()
        var signal = ended
        while let next = try await tasks.next() { signal = signal ?? next }
        return signal
    }
    if let stopped { logger.info("stopped by \(stopped)") }
}
