import Foundation

/// One Wyoming event: a type, data (a JSON object) and an optional binary payload (audio).
///
/// On the wire an event is a JSON header on one line (`type`, and `data_length` and
/// `payload_length` when data or a payload follow), then that many bytes of JSON data, then the
/// payload. Data given in the header itself is merged with the data that follows it.
public struct WyomingEvent: Sendable, Hashable {
    public var type: String
    public var data: [String: JSONValue]
    public var payload: [UInt8]
    /// The protocol version in the event's header: the one the peer wrote, when the event was
    /// read from one ("1.10.2"); the one to write, else ``protocolVersion``. It says what the
    /// peer takes, not what the event says: events that differ in it alone are equal.
    public var version: String?

    public init(_ type: String, data: [String: JSONValue] = [:], payload: [UInt8] = []) {
        self.type = type
        self.data = data
        self.payload = payload
    }

    public static func == (lhs: WyomingEvent, rhs: WyomingEvent) -> Bool {
        lhs.type == rhs.type && lhs.data == rhs.data && lhs.payload == rhs.payload
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(data)
        hasher.combine(payload)
    }

    /// Whether a peer that writes `version` takes a series of intents (`intents-start`, `intent`s,
    /// `intents-stop`, protocol 1.9 and later).
    static func takesSeveralIntents(_ version: String?) -> Bool {
        let parts = (version ?? "").split(separator: ".").compactMap { Int($0) }
        guard parts.count >= 2 else { return false }
        return parts[0] > 1 || (parts[0] == 1 && parts[1] >= 9)
    }

    /// The version of the protocol written in a header that names none (``version``).
    public static let protocolVersion = "1.7.2"

    /// The event as it goes on the wire.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var header: [String: JSONValue] = [
            "type": .string(type), "version": .string(version ?? Self.protocolVersion),
        ]
        var dataBytes: [UInt8] = []
        if !data.isEmpty {
            dataBytes = Array((try? encoder.encode(data)) ?? Data("{}".utf8))
            header["data_length"] = .number(Double(dataBytes.count))
        }
        if !payload.isEmpty { header["payload_length"] = .number(Double(payload.count)) }
        var bytes = Array((try? encoder.encode(header)) ?? Data())
        bytes.append(0x0A)
        bytes += dataBytes
        bytes += payload
        return bytes
    }
}

/// What a peer sent that is not a Wyoming event, or is larger than the server takes.
public struct WyomingFrameError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

/// Reads events from bytes as they arrive, within limits: a header line, its data and its
/// payload may each be no longer than the limit, so a peer cannot make the server hold more.
public struct WyomingFrameReader: Sendable {
    public struct Limits: Sendable, Hashable {
        /// The longest header line, in bytes.
        public var header: Int
        /// The most data bytes an event may declare.
        public var data: Int
        /// The most payload bytes an event may declare (an audio chunk).
        public var payload: Int

        public init(header: Int = 16 * 1024, data: Int = 1024 * 1024, payload: Int = 1024 * 1024) {
            self.header = header
            self.data = data
            self.payload = payload
        }
    }

    public let limits: Limits
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the header line's end goes on: the bytes before it hold none.
    private var searched = 0
    /// The header read, while its data and payload are still arriving.
    private var pending:
        (type: String, data: [String: JSONValue], dataLength: Int, payloadLength: Int, version: String?)?

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// How many bytes are held, waiting for the rest of an event.
    public var bufferedCount: Int { buffer.count - start }

    /// Takes `bytes` and returns the events they complete. Throws on a header that is not a JSON
    /// object with a `type`, on lengths that are negative or over the limits, and on data that is
    /// not a JSON object; the connection should then be closed, as nothing after it can be read.
    public mutating func read(_ bytes: some Sequence<UInt8>) throws(WyomingFrameError) -> [WyomingEvent] {
        buffer.append(contentsOf: bytes)
        var events: [WyomingEvent] = []
        while let event = try next() { events.append(event) }
        if start > 64 * 1024 || start == buffer.count {
            buffer.removeFirst(start)
            searched = max(0, searched - start)
            start = 0
        }
        return events
    }

    private mutating func next() throws(WyomingFrameError) -> WyomingEvent? {
        // Blank lines between events are skipped, in a loop: any number may arrive at once.
        while pending == nil {
            // A line that arrives a byte at a time is searched once, not once a byte.
            guard let newline = buffer[max(start, searched)...].firstIndex(of: 0x0A) else {
                searched = buffer.count
                if buffer.count - start > limits.header {
                    throw WyomingFrameError("a header line longer than \(limits.header) bytes")
                }
                return nil
            }
            guard newline - start <= limits.header else {
                throw WyomingFrameError("a header line longer than \(limits.header) bytes")
            }
            let line = buffer[start..<newline]
            start = newline + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            pending = try Self.header(Array(line), limits: limits)
        }
        guard let header = pending else { return nil }
        let needed = header.dataLength + header.payloadLength
        guard buffer.count - start >= needed else { return nil }
        var data = header.data
        if header.dataLength > 0 {
            let bytes = Data(buffer[start..<(start + header.dataLength)])
            guard let more = try? JSONDecoder().decode([String: JSONValue].self, from: bytes) else {
                throw WyomingFrameError("the data of a \"\(header.type)\" event is not a JSON object")
            }
            data.merge(more) { _, new in new }
        }
        let payloadStart = start + header.dataLength
        let payload = Array(buffer[payloadStart..<(payloadStart + header.payloadLength)])
        start += needed
        pending = nil
        var event = WyomingEvent(header.type, data: data, payload: payload)
        event.version = header.version
        return event
    }

    private static func header(_ line: [UInt8], limits: Limits) throws(WyomingFrameError) -> (
        type: String, data: [String: JSONValue], dataLength: Int, payloadLength: Int, version: String?
    ) {
        guard let header = try? JSONDecoder().decode([String: JSONValue].self, from: Data(line)) else {
            throw WyomingFrameError("a header that is not a JSON object")
        }
        guard let type = header["type"]?.string, !type.isEmpty else {
            throw WyomingFrameError("a header without a \"type\"")
        }
        func length(_ key: String, limit: Int) throws(WyomingFrameError) -> Int {
            guard let value = header[key], value != .null else { return 0 }
            guard let length = value.int, length >= 0 else {
                throw WyomingFrameError("\"\(key)\" of a \"\(type)\" event is not a length")
            }
            guard length <= limit else {
                throw WyomingFrameError(
                    "a \"\(type)\" event declares \(length) bytes of \(key.dropLast(7)), over \(limit)")
            }
            return length
        }
        var data: [String: JSONValue] = [:]
        if case .object(let inline) = header["data"] { data = inline }
        return (
            type, data, try length("data_length", limit: limits.data),
            try length("payload_length", limit: limits.payload), header["version"]?.string
        )
    }
}
