import NIOCore

/// Frames a connection's bytes into ``WyomingEvent``s in the channel, within
/// ``WyomingFrameReader/Limits``: what is not an event reaches the reader as a
/// ``WyomingFrameError``, after which the connection reads nothing more.
struct WyomingFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = WyomingEvent

    private var reader: WyomingFrameReader

    init(limits: WyomingFrameReader.Limits) {
        reader = WyomingFrameReader(limits: limits)
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        // The reader holds a part event itself, so every byte is taken.
        let events = try reader.read(buffer.readableBytesView)
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        for event in events { context.fireChannelRead(wrapInboundOut(event)) }
        return .needMoreData
    }

    mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        try decode(context: context, buffer: &buffer)
    }
}

/// Writes ``WyomingEvent``s as they go on the wire.
struct WyomingFrameEncoder: MessageToByteEncoder {
    typealias OutboundIn = WyomingEvent

    func encode(data event: WyomingEvent, out: inout ByteBuffer) {
        out.writeBytes(event.encoded())
    }
}

extension ChannelPipeline.SynchronousOperations {
    /// The Wyoming framing: bytes to events on the way in, events to bytes on the way out.
    func addWyomingFraming(limits: WyomingFrameReader.Limits) throws {
        try addHandler(ByteToMessageHandler(WyomingFrameDecoder(limits: limits)))
        try addHandler(MessageToByteHandler(WyomingFrameEncoder()))
    }
}
