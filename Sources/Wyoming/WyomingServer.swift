import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import VoiceLoop

/// A Wyoming server for one app: Home Assistant and voice satellites connect to it over TCP.
///
/// ```swift
/// let app = try await WyomingApp(AppContext(SmartHomeApp.self), configuration: configuration)
/// let server = WyomingServer(app: app, host: "0.0.0.0", port: 10700, logger: logger)
/// let group = ServiceGroup(
///     services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
/// try await group.run()
/// ```
///
/// It is a swift-service-lifecycle `Service`. At graceful shutdown it accepts no more
/// connections, stops advertising and stops connecting to satellites; a connection closes once
/// its conversation is over (at once when it has none under way), and what is still open after
/// ``drainTimeout`` is closed. Cancellation closes everything at once.
///
/// Each connection has a ``WyomingSession`` of its own (its own recognizer), and one that sends
/// what is not a Wyoming event, declares more than ``WyomingFrameReader/Limits`` allow, or stays
/// silent longer than the idle timeout is closed without touching the others.
///
/// Satellites that are servers themselves (`wyoming-satellite`, which Home Assistant connects to)
/// are connected to, as Home Assistant would: list them in ``satellites``. Each is told to run
/// (`run-satellite`) and holds its conversations on that connection (``SatellitePipeline``);
/// one that goes away is connected to again every ``reconnectDelay``.
public struct WyomingServer: Sendable, Service {
    public let app: WyomingApp
    public let host: String
    public let port: Int
    public var limits = WyomingFrameReader.Limits()
    /// How long a connection may send nothing before it is closed.
    public var idleTimeout: Duration = .seconds(300)
    /// How long the conversations under way at graceful shutdown have to end before their
    /// connections are closed.
    public var drainTimeout: Duration = .seconds(10)
    public let logger: Logger
    /// Satellites to connect to: host and port of each.
    public var satellites: [(host: String, port: Int)] = []
    /// How long to wait before connecting again to a satellite that went away or did not answer.
    public var reconnectDelay: Duration = .seconds(10)
    /// The name to advertise the server under with Zeroconf (``ZeroconfAdvert``), `nil` for no
    /// advert. A server that listens on the loopback only is not advertised.
    public var zeroconfName: String?
    /// Rooms with an address of their own, besides `host`:`port`: a command heard through one's
    /// address that names no room is the room's. Home Assistant's streams carry no room, so each
    /// room's voice assistant is given its own Wyoming service.
    public var rooms: [Room] = []

    /// A room's own address (``rooms``).
    public struct Room: Sendable, Equatable {
        /// The room, as commands name it ("Kitchen").
        public var area: String
        public var host: String
        public var port: Int

        public init(area: String, host: String, port: Int) {
            self.area = area
            self.host = host
            self.port = port
        }

        /// The name a room's address is advertised under: the server's, then the room's
        /// ("smart-home-kitchen").
        func advertName(_ server: String) -> String {
            let room = area.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: "-")
            return room.isEmpty ? server : "\(server)-\(room)"
        }
    }

    public init(app: WyomingApp, host: String = "127.0.0.1", port: Int = 10700, logger: Logger) {
        self.app = app
        self.host = host
        self.port = port
        self.logger = logger
    }

    /// Serves until graceful shutdown (then drains) or until the task is cancelled.
    public func run() async throws {
        try await run(onListening: { _ in })
    }

    /// Serves as ``run()`` does; `onListening` gets the port it listens on (the one given, or the
    /// one the system chose for port 0).
    public func run(onListening: @Sendable (Int) -> Void) async throws {
        var listeners = [try await listen(app: app, host: host, port: port, advertName: zeroconfName)]
        do {
            for room in rooms {
                listeners.append(
                    try await listen(
                        app: app.inArea(room.area), host: room.host, port: room.port,
                        advertName: zeroconfName.map(room.advertName), area: room.area))
            }
        } catch {
            for listener in listeners { try? await listener.channel.channel.close() }
            throw error
        }
        onListening(listeners[0].port)
        // Names the app adds while it serves are heard from the next utterance on.
        let following = Task { [app] in await app.preparation.followUpdates() }
        defer { following.cancel() }
        let open = OpenConnections()
        do {
            try await serve(listeners, open: open)
        } catch let timeout as DrainTimeout {
            logger.notice("closing \(timeout.open) connections still in a conversation after \(drainTimeout)")
        }
    }

    /// A listening socket and the app its connections talk to.
    private struct Listener: Sendable {
        let channel: NIOAsyncChannel<NIOAsyncChannel<WyomingEvent, WyomingEvent>, Never>
        let app: WyomingApp
        let host: String
        /// The port bound (the system's choice for 0).
        let port: Int
        let advertName: String?
    }

    private func listen(
        app: WyomingApp, host: String, port: Int, advertName: String?, area: String? = nil
    ) async throws -> Listener {
        let idle = TimeAmount.nanoseconds(Int64(idleTimeout.components.seconds) * 1_000_000_000)
        let channel: NIOAsyncChannel<NIOAsyncChannel<WyomingEvent, WyomingEvent>, Never>
        do {
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: host, port: port) { child in
                    child.eventLoop.makeCompletedFuture {
                        try child.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: idle))
                        try child.pipeline.syncOperations.addHandler(CloseWhenIdle())
                        try child.pipeline.syncOperations.addWyomingFraming(limits: limits)
                        return try NIOAsyncChannel<WyomingEvent, WyomingEvent>(
                            wrappingChannelSynchronously: child)
                    }
                }
        } catch {
            throw CannotListen(uri: "tcp://\(host):\(port)", area: area, reason: "\(error)")
        }
        let bound = channel.channel.localAddress?.port ?? port
        var metadata: Logger.Metadata = ["uri": "tcp://\(host):\(bound)", "app": "\(app.app.executableName)"]
        if let area { metadata["area"] = "\(area)" }
        logger.info("serving Wyoming", metadata: metadata)
        return Listener(channel: channel, app: app, host: host, port: bound, advertName: advertName)
    }

    /// An address the server could not listen at (taken by another program, or not this
    /// machine's).
    public struct CannotListen: Error, CustomStringConvertible {
        public let uri: String
        public let area: String?
        public let reason: String

        public var description: String {
            "cannot listen at \(uri)\(area.map { " (the \($0)'s address)" } ?? ""): \(reason); is another server using it? (--uri or --room takes another port)"
        }
    }

    /// The conversations still under way when ``drainTimeout`` ran out.
    private struct DrainTimeout: Error { let open: Int }

    /// How many connections are open, to drain them at graceful shutdown.
    private final class OpenConnections: Sendable {
        private let count = Mutex(0)
        var now: Int { count.withLock { $0 } }
        func opened() { count.withLock { $0 += 1 } }
        func closed() { count.withLock { $0 -= 1 } }
    }

    private func serve(_ listeners: [Listener], open: OpenConnections) async throws {
        try await withThrowingDiscardingTaskGroup { group in
            for satellite in satellites {
                group.addTask { await keepConnected(to: satellite.host, port: satellite.port, open: open) }
            }
            for listener in listeners {
                guard let name = listener.advertName, !Self.isLoopback(listener.host) else { continue }
                var advert = ZeroconfAdvert(name: name, port: listener.port, logger: logger)
                if listener.host != "0.0.0.0", MulticastDNS.ipv4(listener.host) != nil {
                    advert.addresses = [listener.host]
                }
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
            // Every address's connections, each with its app, in the order they come.
            let (accepted, arrivals) = AsyncStream.makeStream(
                of: (NIOAsyncChannel<WyomingEvent, WyomingEvent>, WyomingApp).self)
            group.addTask {
                defer { arrivals.finish() }
                // Graceful shutdown closes the listening sockets, which ends the accepting.
                try await withGracefulShutdownHandler {
                    try await withThrowingDiscardingTaskGroup { accepting in
                        for listener in listeners {
                            accepting.addTask {
                                try await listener.channel.executeThenClose { connections in
                                    for try await connection in connections {
                                        arrivals.yield((connection, listener.app))
                                    }
                                }
                            }
                        }
                    }
                } onGracefulShutdown: {
                    for listener in listeners { listener.channel.channel.close(promise: nil) }
                }
            }
            for await (connection, app) in accepted {
                open.opened()
                group.addTask {
                    await serve(connection, app: app)
                    open.closed()
                }
            }
            guard Task.isShuttingDownGracefully else { return }
            logger.info("accepting no more connections", metadata: ["open": "\(open.now)"])
            // The connections end their conversations; those still open after the bound are
            // closed, by the error that cancels the group.
            group.addTask {
                let deadline = ContinuousClock.now + drainTimeout
                while open.now > 0 {
                    guard ContinuousClock.now < deadline else { throw DrainTimeout(open: open.now) }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
        }
    }

    private func serve(_ connection: NIOAsyncChannel<WyomingEvent, WyomingEvent>, app: WyomingApp) async {
        let peer = connection.channel.remoteAddress?.description ?? "?"
        var logger = self.logger
        logger[metadataKey: "peer"] = "\(peer)"
        logger.debug("connected")
        do {
            try await connection.executeThenClose { inbound, outbound in
                try await Self.converse(
                    inbound: inbound, outbound: outbound, app: app, logger: logger,
                    close: { connection.channel.close(promise: nil) })
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

    /// Holds a connection to the satellite at `host`:`port` until graceful shutdown (once its
    /// conversation is over) or until the task is cancelled.
    private func keepConnected(to host: String, port: Int, open: OpenConnections) async {
        var logger = self.logger
        logger[metadataKey: "satellite"] = "tcp://\(host):\(port)"
        var lastFailure = ""
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
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
                            try channel.pipeline.syncOperations.addWyomingFraming(limits: limits)
                            return try NIOAsyncChannel<WyomingEvent, WyomingEvent>(
                                wrappingChannelSynchronously: channel)
                        }
                    }
                logger.info("connected to the satellite")
                lastFailure = ""
                open.opened()
                defer { open.closed() }
                try await connection.executeThenClose { inbound, outbound in
                    try await Self.converse(
                        inbound: inbound, outbound: outbound, app: app,
                        // Its info first: the area it is in, for commands that name no room.
                        opening: [WyomingEvent("describe"), .runSatellite], logger: logger,
                        close: { connection.channel.close(promise: nil) })
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
            // Woken by graceful shutdown too.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: reconnectDelay) }
        }
    }

    /// One connection's events (framed in its channel, within the limits), read in order and
    /// answered, until the peer closes it, sends what is not an event, or, at graceful shutdown,
    /// has no conversation under way (`close` closes the connection when it is waiting for one). What the session sends by itself (a
    /// satellite's conversation) goes out in order with the answers, through one writer.
    static func converse(
        inbound: NIOAsyncChannelInboundStream<WyomingEvent>,
        outbound: NIOAsyncChannelOutboundWriter<WyomingEvent>,
        app: WyomingApp, opening: [WyomingEvent] = [], logger: Logger,
        close: @escaping @Sendable () -> Void = {}
    ) async throws {
        let (outgoing, sender) = AsyncStream.makeStream(of: WyomingEvent.self)
        let session = WyomingSession(app: app, logger: logger) { sender.yield($0) }
        let conversations = session.conversations
        try await withThrowingTaskGroup { group in
            group.addTask {
                for await event in outgoing { try await outbound.write(event) }
            }
            group.addTask { await conversations.run() }
            for event in opening { sender.yield(event) }
            let idle = IdleFlag()
            do {
                try await withGracefulShutdownHandler {
                    for try await event in inbound {
                        for reply in await session.handle(event) { sender.yield(reply) }
                        idle.isIdle = session.isIdle
                        if idle.isIdle, Task.isShuttingDownGracefully {
                            logger.debug("closing at shutdown: the conversation is over")
                            break
                        }
                    }
                } onGracefulShutdown: {
                    if idle.isIdle { close() }
                }
            } catch let error as WyomingFrameError {
                // Framing found what is not an event: nothing after it can be read.
                logger.notice("closing a connection that sent \(error)")
                sender.yield(WyomingEvent.error("\(error)"))
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

/// Whether a connection is between conversations, as its reader last saw it: graceful shutdown
/// closes it at once then.
private final class IdleFlag: Sendable {
    private let value = Mutex(true)
    var isIdle: Bool {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

extension WyomingServer: CustomStringConvertible {
    /// The app and the address, for a service group's logs.
    public var description: String { "WyomingServer(\(app.app.executableName) on \(host):\(port))" }
}
