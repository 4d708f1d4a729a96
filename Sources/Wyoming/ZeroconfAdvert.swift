import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Says on the local network, with multicast DNS, that a Wyoming service is here, the way Home
/// Assistant discovers one: the service `<name>._wyoming._tcp.local` at this machine's addresses
/// and the server's port. Home Assistant then offers it under Settings → Devices & services,
/// "Discovered".
///
/// It answers the questions other machines ask on 224.0.0.251, port 5353 (sharing the port with
/// Avahi or any other responder on the machine), says so once unasked when it starts, and says
/// goodbye when its task is cancelled.
public struct ZeroconfAdvert: Sendable, Service {
    /// The service's instance name ("home-lights").
    public let name: String
    public let port: Int
    /// The IPv4 addresses to give; this machine's, but for the loopback, when empty.
    public var addresses: [String] = []
    public let logger: Logger

    public init(name: String, port: Int, logger: Logger) {
        self.name = name
        self.port = port
        self.logger = logger
    }

    static let group = try! SocketAddress(ipAddress: "224.0.0.251", port: 5353)

    /// Advertises until graceful shutdown or until the task is cancelled, and says goodbye
    /// either way.
    public func run() async throws {
        try await cancelWhenGracefulShutdown { try await advertise() }
    }

    private func advertise() async throws {
        let addresses = try self.addresses.isEmpty ? Self.machineAddresses() : self.addresses
        let host =
            (ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "voice-intents")
        let records = MulticastDNS.ServiceRecords(
            instance: name, service: "_wyoming._tcp", host: "\(host).local", port: port,
            addresses: addresses.compactMap(MulticastDNS.ipv4))
        let reusePort = ChannelOptions.Types.SocketOption(
            level: .socket, name: NIOBSDSocket.Option(rawValue: SO_REUSEPORT))
        let channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelOption(reusePort, value: 1)
            .bind(host: "0.0.0.0", port: 5353) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<AddressedEnvelope<ByteBuffer>, AddressedEnvelope<ByteBuffer>>(
                        wrappingChannelSynchronously: channel)
                }
            }
        try await channel.channel.setOption(.ipOption(.ip_multicast_ttl), value: 255)
        guard let multicast = channel.channel as? any MulticastChannel else {
            throw WyomingFrameError("the system gave no multicast socket")
        }
        try await multicast.joinGroup(Self.group).get()
        logger.info(
            "advertising over Zeroconf",
            metadata: ["service": "\(name)._wyoming._tcp.local", "addresses": "\(addresses)"])
        try await channel.executeThenClose { inbound, outbound in
            func send(_ message: [UInt8], to address: SocketAddress = Self.group) async {
                try? await outbound.write(
                    AddressedEnvelope(remoteAddress: address, data: ByteBuffer(bytes: message)))
            }
            await send(records.announcement(ttl: true))
            // Reading ends when the task is cancelled.
            do {
                for try await datagram in inbound {
                    guard let query = MulticastDNS.Query(Array(datagram.data.readableBytesView)),
                        records.answers(query)
                    else { continue }
                    await send(records.announcement(ttl: true))
                    // A querier not on port 5353 (a plain resolver) is answered directly.
                    if datagram.remoteAddress.port != 5353 {
                        await send(records.announcement(ttl: true, id: query.id), to: datagram.remoteAddress)
                    }
                }
            } catch {}
            // Goodbye: the same records with no time to live, written past the task's cancellation.
            let goodbye = AddressedEnvelope(
                remoteAddress: Self.group, data: ByteBuffer(bytes: records.announcement(ttl: false)))
            try? await channel.channel.writeAndFlush(goodbye).get()
        }
    }

    /// This machine's IPv4 addresses, the loopback aside.
    static func machineAddresses() throws -> [String] {
        try System.enumerateDevices().compactMap { device in
            guard case .v4 = device.address, let ip = device.address?.ipAddress, !ip.hasPrefix("127.") else {
                return nil
            }
            return ip
        }
    }
}

/// The little of multicast DNS (RFC 6762) and DNS service discovery (RFC 6763) an advert needs.
enum MulticastDNS {
    /// A query's questions: each name in lower case, with its type.
    struct Query {
        let id: UInt16
        let questions: [(name: String, type: UInt16)]

        init?(_ bytes: [UInt8]) {
            guard bytes.count >= 12, bytes[2] & 0x80 == 0 else { return nil }  // a question, not an answer
            id = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
            let count = Int(bytes[4]) << 8 | Int(bytes[5])
            var offset = 12
            var questions: [(String, UInt16)] = []
            for _ in 0..<count {
                guard let (name, end) = MulticastDNS.name(in: bytes, at: offset), end + 4 <= bytes.count
                else {
                    return nil
                }
                questions.append((name.lowercased(), UInt16(bytes[end]) << 8 | UInt16(bytes[end + 1])))
                offset = end + 4
            }
            self.questions = questions
        }
    }

    /// The records of one service instance.
    struct ServiceRecords {
        let instance: String
        let service: String
        let host: String
        let port: Int
        let addresses: [[UInt8]]

        static let ptr: UInt16 = 12, srv: UInt16 = 33, txt: UInt16 = 16, a: UInt16 = 1, any: UInt16 = 255

        var serviceName: String { "\(service).local" }
        var instanceName: String { "\(instance).\(service).local" }

        /// Whether `query` asks for any of them (or for the services on the network).
        func answers(_ query: Query) -> Bool {
            query.questions.contains { name, type in
                switch name {
                case serviceName.lowercased(): [Self.ptr, Self.any].contains(type)
                case instanceName.lowercased(): [Self.srv, Self.txt, Self.any].contains(type)
                case host.lowercased(): [Self.a, Self.any].contains(type)
                case "_services._dns-sd._udp.local": [Self.ptr, Self.any].contains(type)
                default: false
                }
            }
        }

        /// A response holding every record; with `ttl` false, a goodbye.
        func announcement(ttl: Bool, id: UInt16 = 0) -> [UInt8] {
            var records: [[UInt8]] = []
            let flush: UInt16 = 0x8001  // class IN, with the cache-flush bit: this machine owns the name
            records.append(
                record(
                    serviceName, Self.ptr, class: 1, ttl: ttl ? 4500 : 0,
                    data: MulticastDNS.encode(instanceName)))
            var srv: [UInt8] = [0, 0, 0, 0, UInt8(port >> 8), UInt8(port & 0xFF)]
            srv += MulticastDNS.encode(host)
            records.append(record(instanceName, Self.srv, class: flush, ttl: ttl ? 120 : 0, data: srv))
            records.append(record(instanceName, Self.txt, class: flush, ttl: ttl ? 4500 : 0, data: [0]))
            for address in addresses {
                records.append(record(host, Self.a, class: flush, ttl: ttl ? 120 : 0, data: address))
            }
            records.append(
                record(
                    "_services._dns-sd._udp.local", Self.ptr, class: 1, ttl: ttl ? 4500 : 0,
                    data: MulticastDNS.encode(serviceName)))
            var message: [UInt8] = [UInt8(id >> 8), UInt8(id & 0xFF), 0x84, 0x00, 0, 0]
            message += [UInt8(records.count >> 8), UInt8(records.count & 0xFF), 0, 0, 0, 0]
            for record in records { message += record }
            return message
        }

        private func record(_ name: String, _ type: UInt16, class kind: UInt16, ttl: UInt32, data: [UInt8])
            -> [UInt8]
        {
            var bytes = MulticastDNS.encode(name)
            bytes += [UInt8(type >> 8), UInt8(type & 0xFF), UInt8(kind >> 8), UInt8(kind & 0xFF)]
            bytes += [UInt8(ttl >> 24), UInt8(ttl >> 16 & 0xFF), UInt8(ttl >> 8 & 0xFF), UInt8(ttl & 0xFF)]
            bytes += [UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data
            return bytes
        }
    }

    /// A name as DNS writes it: each label after its length, then a zero.
    static func encode(_ name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for label in name.split(separator: ".") {
            let utf8 = Array(label.utf8.prefix(63))
            bytes.append(UInt8(utf8.count))
            bytes += utf8
        }
        bytes.append(0)
        return bytes
    }

    /// The name at `offset` (following compression pointers), and where what follows it starts.
    static func name(in bytes: [UInt8], at offset: Int) -> (String, Int)? {
        var labels: [String] = []
        var position = offset
        var end: Int?
        var jumps = 0
        while position < bytes.count {
            let length = Int(bytes[position])
            if length == 0 {
                return (labels.joined(separator: "."), end ?? position + 1)
            }
            if length & 0xC0 == 0xC0 {
                guard position + 1 < bytes.count, jumps < 16 else { return nil }
                if end == nil { end = position + 2 }
                position = (length & 0x3F) << 8 | Int(bytes[position + 1])
                jumps += 1
                continue
            }
            guard position + 1 + length <= bytes.count else { return nil }
            labels.append(String(decoding: bytes[(position + 1)..<(position + 1 + length)], as: UTF8.self))
            position += 1 + length
        }
        return nil
    }

    /// The four bytes of a dotted IPv4 address.
    static func ipv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".").compactMap { UInt8($0) }
        return parts.count == 4 ? parts : nil
    }
}

extension ZeroconfAdvert: CustomStringConvertible {
    /// The advertised name and port, for a service group's logs.
    public var description: String { "ZeroconfAdvert(\(name) on port \(port))" }
}
