import MockStackCore

/// Writes a DTO in JSV, ServiceStack's compact text format, as debug stack traces show a
/// request (`{type:NotFound,message:not here}`): keys camelCase in declaration order, nulls
/// left out, strings quoted only when they hold JSV's structural characters.
struct JSVWriter {
    let catalog: TypeCatalog

    func text(_ value: DTOValue, as shape: ValueShape) -> String {
        var out = ""
        write(value, as: shape, into: &out)
        return out
    }

    private func write(_ value: DTOValue, as shape: ValueShape, into out: inout String) {
        switch value {
        case .null: break
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let number): out += number.literal
        case .string(let text), .enumMember(let text), .guid(let text): out += Self.quotedIfNeeded(text)
        case .timeSpan(let span): out += span.xsdText
        case .dateTime(let date): out += date.isoText
        case .bytes(let bytes, _): out += "[" + bytes.map(String.init).joined(separator: ",") + "]"
        case .json(let json): out += Self.quotedIfNeeded(json.stringValue ?? json.jsonText)
        case .list(let elements):
            let element: ValueShape = if case .list(let inner) = shape.unwrapped { inner } else { .any }
            out += "["
            for (index, item) in elements.enumerated() {
                if index > 0 { out += "," }
                write(item, as: element, into: &out)
            }
            out += "]"
        case .map(let entries):
            let valueShape: ValueShape = if case .map(_, let inner) = shape.unwrapped { inner } else { .any }
            out += "{" + entries.filter { !$0.value.isNull }.map { entry in
                var item = Self.quotedIfNeeded(entry.key) + ":"
                write(entry.value, as: valueShape, into: &item)
                return item
            }.joined(separator: ",") + "}"
        case .object(let object):
            var members: [(name: String, key: String, shape: ValueShape)]
            if case .object(let reference) = shape.unwrapped, let type = catalog.object(reference) {
                members = type.properties.map { ($0.name, $0.camelCaseName, $0.shape) }
            } else {
                members = object.members.map { ($0.name, PropertyShape.camelCase($0.name), .any) }
            }
            out += "{"
            var first = true
            for member in members {
                var value = object[member.name]
                if value.isNull, member.shape.isValueType { value = member.shape.defaultValue ?? .null }
                guard !value.isNull else { continue }
                if !first { out += "," }
                first = false
                out += member.key
                out += ":"
                write(value, as: member.shape, into: &out)
            }
            out += "}"
        }
    }

    static func quotedIfNeeded(_ text: String) -> String {
        let utf8 = text.utf8
        let needsQuotes = utf8.first == UInt8(ascii: " ") || utf8.last == UInt8(ascii: " ") || utf8.contains { byte in
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), 0x0D, 0x0A, 0x09: true
            default: false
            }
        }
        guard needsQuotes else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}
