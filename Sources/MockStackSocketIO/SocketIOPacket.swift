public import MockStackJSON

/// The Socket.IO protocol revisions: 4 (socket.io 2.x, Feathers 4) and 5 (socket.io 3/4, Feathers 5).
/// Both share the encoding; they differ in what a packet may carry (revision 5 checks payloads) and
/// in how a namespace is joined. docs/feathers-realtime.md#socketio-protocol.
public enum SocketIOProtocol: Int, Sendable, Equatable {
    case v4 = 4
    case v5 = 5
}

/// A Socket.IO packet's type: its first character inside an Engine.IO `message`.
public enum SocketIOPacketType: UInt8, Sendable, Equatable, CaseIterable {
    case connect = 0
    case disconnect = 1
    case event = 2
    case ack = 3
    /// `CONNECT_ERROR` in revision 5, `ERROR` in revision 4.
    case connectError = 4
    case binaryEvent = 5
    case binaryAck = 6

    /// Whether binary attachments follow the packet (never accepted by mockstack).
    public var isBinary: Bool { self == .binaryEvent || self == .binaryAck }
}

/// One Socket.IO packet: `<type>[<attachments>-][<namespace>,][<ack id>][<JSON>]`.
public struct SocketIOPacket: Sendable, Equatable {
    public var type: SocketIOPacketType
    /// `/` unless the packet names another namespace; in revision 4 a CONNECT's namespace may carry
    /// a query (`/admin?token=x`).
    public var namespace: String
    /// The acknowledgement id a client chose for an EVENT it wants answered, or the id an ACK answers.
    public var ackID: Int?
    public var data: JSONValue?

    public init(_ type: SocketIOPacketType, namespace: String = "/", ackID: Int? = nil, data: JSONValue? = nil) {
        self.type = type
        self.namespace = namespace
        self.ackID = ackID
        self.data = data
    }

    /// An EVENT: the name, then the arguments.
    public static func event(_ name: String, _ arguments: [JSONValue], ackID: Int? = nil) -> SocketIOPacket {
        SocketIOPacket(.event, ackID: ackID, data: .array([.string(name)] + arguments))
    }

    /// The ACK answering `ackID` with the callback's arguments.
    public static func ack(_ ackID: Int, _ arguments: [JSONValue]) -> SocketIOPacket {
        SocketIOPacket(.ack, ackID: ackID, data: .array(arguments))
    }

    /// The packet as the text of an Engine.IO `message`.
    public var encoded: String {
        var text = String(type.rawValue)
        if namespace != "/" { text += namespace + "," }
        if let ackID { text += String(ackID) }
        if let data { text += data.jsonText }
        return text
    }

    /// Event names a client may not send in revision 5: socket.io keeps them for itself.
    public static let reservedEventNames: Set<String> = [
        "connect", "connect_error", "disconnect", "disconnecting", "newListener", "removeListener",
    ]

    /// The longest acknowledgement id read, in digits: more is no id a client library makes.
    static let maximumAckIDDigits = 15

    /// Reads a packet from an Engine.IO `message`'s text, checking it as socket.io's parser does;
    /// socket.io closes the connection on any packet it cannot read.
    public static func decode(
        _ text: String, protocol revision: SocketIOProtocol
    ) throws(SocketIODecodingError) -> SocketIOPacket {
        var bytes = Substring(text).utf8[...]
        guard let first = bytes.popFirst(), first >= 0x30, let type = SocketIOPacketType(rawValue: first - 0x30) else {
            throw .unknownType
        }
        // Attachments are counted before the namespace; binary packets are refused either way.
        if type.isBinary { throw .binaryPacket }
        var packet = SocketIOPacket(type)
        if bytes.first == UInt8(ascii: "/") {
            let end = bytes.firstIndex(of: UInt8(ascii: ",")) ?? bytes.endIndex
            packet.namespace = String(Substring(bytes[..<end]))
            bytes = end < bytes.endIndex ? bytes[bytes.index(after: end)...] : bytes[end...]
        }
        let digits = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }
        if !digits.isEmpty {
            guard digits.count <= maximumAckIDDigits else { throw .invalidAckID }
            packet.ackID = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            bytes = bytes[digits.endIndex...]
        }
        if !bytes.isEmpty {
            do {
                packet.data = try JSONParser.forRequestBodies().parse(Array(bytes)).root
            } catch {
                throw .invalidPayload
            }
        }
        if revision == .v5, let data = packet.data, !isValidPayload(data, for: type) { throw .invalidPayload }
        if revision == .v5, type == .disconnect, packet.data != nil { throw .invalidPayload }
        return packet
    }

    /// Revision 5's payload rules: CONNECT an object, CONNECT_ERROR an object or a string, EVENT a
    /// non-empty array whose first element is a number or a name not reserved, ACK an array.
    static func isValidPayload(_ data: JSONValue, for type: SocketIOPacketType) -> Bool {
        switch (type, data) {
        case (.connect, .object): return true
        case (.connectError, .object), (.connectError, .string): return true
        case (.event, .array(let elements)):
            switch elements.first {
            case .number?: return true
            case .string(let name)?: return !reservedEventNames.contains(name)
            default: return false
            }
        case (.ack, .array): return true
        default: return false
        }
    }
}

/// Why a Socket.IO packet could not be read; socket.io closes the connection on each.
public enum SocketIODecodingError: Error, Sendable, Equatable {
    /// An empty text or a first character that is no packet type.
    case unknownType
    /// BINARY_EVENT or BINARY_ACK: Feathers never needs one, so mockstack refuses them.
    case binaryPacket
    /// An acknowledgement id too long to be one.
    case invalidAckID
    /// Data that is not JSON, or (revision 5) not what the packet type allows.
    case invalidPayload
}
