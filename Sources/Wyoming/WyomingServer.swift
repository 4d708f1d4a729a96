import Logging
import NIOCore
import NIOPosix
import VoiceLoop

/// A Wyoming server for one app: Home Assistant and voice satellites connect to it over TCP.
///
/// ```swift
/// let app = try await WyomingApp(AppContext(SmartHomeApp.self), configuration: configuration)
/// let server = WyomingServer(app: app, host: "0.0.0.0", port: 10700, logger: logger)
/// try await server.run()   // until its task is cancelled
/// ```
///
/// Each connection has a ``WyomingSession`` of its own (its own recognizer), and one that sends
/// what is not a Wyoming event, declares more than ``WyomingFrameReader/Limits`` allow, or stays
/// silent longer than the idle timeout is closed without touching the others.
public struct WyomingServer: Sendable {
    public let app: WyomingApp
    public let host: String
    public let port: Int
    public var limits = WyomingFrameReader.Limits()
    /// How long a connection may send nothing before it is closed.
    public var idleTimeout: Duration = .seconds(300)
    public let logger: Logger

    public init(app: WyomingApp, host: String = "127.0.0.1", port: Int = 10700, logger: Logger) {
        self.app = app
        self.host = host
        self.port = port
        self.logger = logger
    }

    /// Listens until the task is cancelled. `onListening` gets the port it listens on (the one
    /// given, or the one the system chose for port 0).
    public func run(onListening: @Sendable (Int) -> Void = { _ in }) async throws {
        let idle = TimeAmount.nanoseconds(Int64(idleTimeout.components.seconds) * 1_000_000_000)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: port) { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: idle))
                    try child.pipeline.syncOperations.addHandler(CloseWhenIdle())
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: child)
                }
            }
        let bound = server.channel.localAddress?.port ?? port
        logger.info(
            "serving Wyoming",
            metadata: ["uri": "tcp://\(host):\(bound)", "app": "\(app.app.executableName)"])
        onListening(bound)
        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { connections in
                for try await connection in connections {
                    group.addTask { await serve(connection) }
                }
            }
        }
    }

    private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        let peer = connection.channel.remoteAddress?.description ?? "?"
        var logger = self.logger
        logger[metadataKey: "peer"] = "\(peer)"
        logger.debug("connected")
        do {
            try await connection.executeThenClose { inbound, outbound in
                let session = WyomingSession(app: app, logger: logger)
                var reader = WyomingFrameReader(limits: limits)
                for try await buffer in inbound {
                    let events: [WyomingEvent]
                    do {
                        events = try reader.read(buffer.readableBytesView)
                    } catch {
                        logger.notice("closing a connection that sent \(error)")
                        try await outbound.write(
                            ByteBuffer(bytes: WyomingSession.error("\(error)").encoded()))
                        return
                    }
                    for event in events {
                        for reply in await session.handle(event) {
                            try await outbound.write(ByteBuffer(bytes: reply.encoded()))
                        }
                    }
                }
            }
        } catch {
            logger.debug("connection ended", metadata: ["error": "\(error)"])
        }
        logger.debug("disconnected")
    }
}

/// Closes a connection that has sent nothing for the idle timeout.
private final class CloseWhenIdle: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
