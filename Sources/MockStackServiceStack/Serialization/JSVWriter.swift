import MockStackCore

/// Writes a DTO in JSV, ServiceStack's compact text format, as debug stack traces show a
/// request (`{type:NotFound,message:not here}`): keys camelCase in declaration order, nulls
/// left out, strings quoted only when they hold JSV's structural characters.
struct JSVWriter {
    let catalog: TypeCatalog

    func text(_ value: DTOValue, as shape: ValueShape) -> String {
        var out: [UInt8] = []
        write(value, as: shape, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func write(_ value: DTOValue, as shape: ValueShape, into out: inout [UInt8]) {
        switch value {
        case .null: break
        case .bool(let flag): out += (flag ? "true" : "false").utf8
        case .number(let number): out += number.literal.utf8
        case .string(let text), .enumMember(let text), .guid(let text): Self.writeQuotedIfNeeded(text, into: &out)
        case .timeSpan(let span): out += span.xsdText.utf8
        case .dateTime(let date): out += date.isoText.utf8
        case .bytes(let bytes, _): out += ("[" + bytes.map(String.init).joined(separator: ",") + "]").utf8
        case .json(let json): out += Self.quotedIfNeeded(json.stringValue ?? json.jsonText).utf8
        case .list(let elements):
            let element: ValueShape = if case .list(let inner) = shape.unwrapped { inner } else { .any }
            out.append(UInt8(ascii: "["))
            for (index, item) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(item, as: element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .map(let entries):
            let valueShape: ValueShape = if case .map(_, let inner) = shape.unwrapped { inner } else { .any }
            out.append(UInt8(ascii: "{"))
            for (index, entry) in entries.filter({ !$0.value.isNull }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out += Self.quotedIfNeeded(entry.key).utf8
                out.append(UInt8(ascii: ":"))
                write(entry.value, as: valueShape, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .object(let object):
            if case .object(let reference) = shape.unwrapped, let type = catalog.object(reference) {
                write(object, of: type, into: &out)
                return
            }
            out.append(UInt8(ascii: "{"))
            var first = true
            for member in object.members where !member.value.isNull {
                writeMember(PropertyShape.camelCase(member.name), member.value, as: .any, first: &first, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// An object of a declared type: its properties in order, value types at their defaults.
    func write(_ object: DTOObject, of type: ObjectShape, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        // By index, each property read in place (see DTOWriter's objects).
        let properties = type.properties
        for index in properties.indices {
            var value = object[properties[index].name]
            if value.isNull, properties[index].shape.isValueType {
                value = properties[index].shape.defaultValue ?? .null
            }
            guard !value.isNull else { continue }
            writeMember(properties[index].camelCaseName, value, as: properties[index].shape, first: &first, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private func writeMember(
        _ key: String, _ value: DTOValue, as shape: ValueShape, first: inout Bool, into out: inout [UInt8]
    ) {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        out += key.utf8
        out.append(UInt8(ascii: ":"))
        write(value, as: shape, into: &out)
    }

    static func quotedIfNeeded(_ text: String) -> String {
        // Over the string's own UTF-8 in place: a closure over `String.UTF8View` costs several
        // times as much per byte.
        guard UTF8Bytes.withSpan(text, needsQuotes) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }

    /// ``quotedIfNeeded(_:)`` appended as UTF-8, without making a new `String` when the text
    /// needs no quotes (nearly always).
    static func writeQuotedIfNeeded(_ text: String, into out: inout [UInt8]) {
        let written = UTF8Bytes.withSpan(text) { bytes -> Bool in
            guard !needsQuotes(bytes) else { return false }
            UTF8Bytes.append(bytes, to: &out)
            return true
        }
        if written { return }
        out += quotedIfNeeded(text).utf8
    }

    /// Whether JSV must quote this text: a space at either end, or one of its structural characters.
    private static func needsQuotes(_ bytes: Span<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        if bytes[0] == UInt8(ascii: " ") { return true }
        var last = bytes[0]
        for index in bytes.indices {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["),
                UInt8(ascii: "]"), 0x0D, 0x0A, 0x09:
                return true
            default: last = byte
            }
        }
        return last == UInt8(ascii: " ")
    }
}
