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
///
/// Satellites that are servers themselves (`wyoming-satellite`, which Home Assistant connects to)
/// are connected to, as Home Assistant would: list them in ``satellites``. Each is told to run
/// (`run-satellite`) and holds its conversations on that connection (``SatellitePipeline``);
/// one that goes away is connected to again every ``reconnectDelay``.
public struct WyomingServer: Sendable {
    public let app: WyomingApp
    public let host: String
    public let port: Int
    public var limits = WyomingFrameReader.Limits()
    /// How long a connection may send nothing before it is closed.
    public var idleTimeout: Duration = .seconds(300)
    public let logger: Logger
    /// Satellites to connect to: host and port of each.
    public var satellites: [(host: String, port: Int)] = []
    /// How long to wait before connecting again to a satellite that went away or did not answer.
    public var reconnectDelay: Duration = .seconds(10)
    /// The name to advertise the server under with Zeroconf (``ZeroconfAdvert``), `nil` for no
    /// advert. A server that listens on the loopback only is not advertised.
    public var zeroconfName: String?

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
            for satellite in satellites {
                group.addTask { await keepConnected(to: satellite.host, port: satellite.port) }
            }
            if let zeroconfName, !Self.isLoopback(host) {
                var advert = ZeroconfAdvert(name: zeroconfName, port: bound, logger: logger)
                if host != "0.0.0.0", MulticastDNS.ipv4(host) != nil { advert.addresses = [host] }
                group.addTask {
                    do {
                        try await advert.run()
                    } catch {
                        logger.warning(
                            "could not advertise over Zeroconf; Home Assistant can still be given the host and port",
                            metadata: ["error": "\(error)"])
                    }
                }
            }
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
                try await Self.converse(
                    inbound: inbound, outbound: outbound, app: app, limits: limits, logger: logger)
            }
        } catch {
            logger.debug("connection ended", metadata: ["error": "\(error)"])
        }
        logger.debug("disconnected")
    }

    static func tcpOption(_ name: Int32) -> ChannelOptions.Types.SocketOption {
        ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: name))
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1"
    }

    /// Holds a connection to the satellite at `host`:`port` until the task is cancelled.
    private func keepConnected(to host: String, port: Int) async {
        var logger = self.logger
        logger[metadataKey: "satellite"] = "tcp://\(host):\(port)"
        var lastFailure = ""
        while !Task.isCancelled {
            do {
                let connection = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connectTimeout(.seconds(10))
                    // A satellite that listens for its wake word sends nothing for hours, and
                    // older ones answer no ping: TCP's own keepalive finds one that is gone
                    // (unplugged, off the network) within half a minute, to connect again.
                    .channelOption(.socketOption(.so_keepalive), value: 1)
                    .channelOption(Self.tcpOption(TCP_KEEPIDLE), value: 10)
                    .channelOption(Self.tcpOption(TCP_KEEPINTVL), value: 5)
                    .channelOption(Self.tcpOption(TCP_KEEPCNT), value: 3)
                    .connect(host: host, port: port) { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                        }
                    }
                logger.info("connected to the satellite")
                lastFailure = ""
                try await connection.executeThenClose { inbound, outbound in
                    try await Self.converse(
                        inbound: inbound, outbound: outbound, app: app, limits: limits,
                        opening: [WyomingEvent("run-satellite")], logger: logger)
                }
                logger.notice("the satellite closed the connection")
            } catch {
                // Said once, not every attempt, while the satellite stays away.
                if "\(error)" != lastFailure {
                    logger.warning(
                        "could not reach the satellite; trying again every \(reconnectDelay)",
                        metadata: ["error": "\(error)"])
                    lastFailure = "\(error)"
                }
            }
            try? await Task.sleep(for: reconnectDelay)
        }
    }

    /// One connection's events, read in order and answered, until the peer closes it or sends
    /// what is not an event. What the session sends by itself (a satellite's conversation) goes
    /// out in order with the answers, through one writer.
    static func converse(
        inbound: NIOAsyncChannelInboundStream<ByteBuffer>,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        app: WyomingApp, limits: WyomingFrameReader.Limits, opening: [WyomingEvent] = [], logger: Logger
    ) async throws {
        let (outgoing, sender) = AsyncStream.makeStream(of: WyomingEvent.self)
        let session = WyomingSession(app: app, logger: logger) { sender.yield($0) }
        try await withThrowingTaskGroup { group in
            group.addTask {
                for await event in outgoing { try await outbound.write(ByteBuffer(bytes: event.encoded())) }
            }
            for event in opening { sender.yield(event) }
            do {
                var reader = WyomingFrameReader(limits: limits)
                reading: for try await buffer in inbound {
                    let events: [WyomingEvent]
                    do {
                        events = try reader.read(buffer.readableBytesView)
                    } catch {
                        logger.notice("closing a connection that sent \(error)")
                        sender.yield(WyomingSession.error("\(error)"))
                        break reading
                    }
                    for event in events {
                        for reply in await session.handle(event) { sender.yield(reply) }
                    }
                }
            } catch {
                logger.debug("connection ended", metadata: ["error": "\(error)"])
            }
            await session.close()
            sender.finish()
            try await group.waitForAll()
        }
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
