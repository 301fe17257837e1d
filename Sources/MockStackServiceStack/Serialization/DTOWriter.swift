import MockStackCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes ``DTOValue``s as the emulated host's JSON (docs/servicestack.md#serialization): keys in
/// declaration order, base class first, camelCase (or PascalCase in a `jsconfig` scope); nulls left
/// out; value-type defaults written; enums by name; dates, Guids and escaping in the host's
/// dialect.
public struct DTOWriter: Sendable {
    public let catalog: TypeCatalog
    public let settings: SerializerSettings

    public init(catalog: TypeCatalog, settings: SerializerSettings) {
        self.catalog = catalog
        self.settings = settings
    }

    /// The JSON for `value` written as `shape`; `type`, when given, is the object type `shape`
    /// names, already resolved (an operation's return type), so it is not looked up again.
    public func bytes(_ value: DTOValue, as shape: ValueShape, type: ObjectShape? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        if let type, case .object(let object) = value, case .object = shape.unwrapped {
            write(object, of: type, into: &out)
        } else {
            write(value, as: shape, into: &out)
        }
        return out
    }

    public func write(_ value: DTOValue, as shape: ValueShape, into out: inout [UInt8]) {
        switch value {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let flag):
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number):
            out.append(contentsOf: number.literal.utf8)
        case .string(let text):
            writeString(text, into: &out)
        case .enumMember(let name):
            writeString(name, into: &out)
        case .guid(let hex):
            writeString(settings.dialect == .systemTextJson ? Self.dashed(hex) : hex, into: &out)
        case .timeSpan(let span):
            writeString(span.xsdText, into: &out)
        case .dateTime(let date):
            if settings.dates == .wcf {
                // The `\/` escapes are part of the WCF format, not optional JSON escaping.
                let text = date.wcfText
                out.append(contentsOf: "\"\\".utf8)
                out.append(contentsOf: text.utf8.dropLast())
                out.append(contentsOf: "\\/\"".utf8)
            } else {
                // ISO text never needs escaping.
                out.append(UInt8(ascii: "\""))
                date.appendISO(to: &out)
                out.append(UInt8(ascii: "\""))
            }
        case .bytes(let bytes, let form):
            if form == .array && settings.dialect == .serviceStackText {
                write(.list(bytes.map { .number(JSONNumber(Int($0))) }), as: .list(.number(.byte)), into: &out)
            } else {
                writeString(Data(bytes).base64EncodedString(), into: &out)
            }
        case .list(let elements):
            let elementShape: ValueShape = if case .list(let element) = shape.unwrapped { element } else { .any }
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, as: elementShape, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .map(let entries):
            let valueShape: ValueShape = if case .map(_, let value) = shape.unwrapped { value } else { .any }
            out.append(UInt8(ascii: "{"))
            var first = true
            for entry in entries where !(entry.value.isNull && !settings.includeNullValues) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                // Dictionary keys are data, never re-cased.
                writeString(entry.key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(entry.value, as: valueShape, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .object(let object):
            switch shape.unwrapped {
            case .responseStatus: writeResponseStatus(object, asFieldError: false, into: &out)
            case .responseError: writeResponseStatus(object, asFieldError: true, into: &out)
            case .keyValuePair(let keyShape, let valueShape):
                var first = true
                out.append(UInt8(ascii: "{"))
                writeMember("Key", key: key(for: "Key"), shape: keyShape, of: object, first: &first, into: &out)
                writeMember("Value", key: key(for: "Value"), shape: valueShape, of: object, first: &first, into: &out)
                out.append(UInt8(ascii: "}"))
            case .object(let reference):
                guard let type = catalog.object(reference) else { return writeUndeclared(object, into: &out) }
                write(object, of: type, into: &out)
            default:
                writeUndeclared(object, into: &out)
            }
        case .json(let json):
            json.encode(into: &out, escaping: settings.escaping)
        }
    }

    /// An object of a declared type: its properties in declaration order.
    private func write(_ object: DTOObject, of type: ObjectShape, into out: inout [UInt8]) {
        var first = true
        out.append(UInt8(ascii: "{"))
        // Objects built for a type hold its members in its order: each is looked for where the
        // previous one was found before the whole object is searched.
        var cursor = 0
        // By index, each property read in place: `for property in` copies every one (a
        // retain and a release of each of its names and its shape).
        let properties = type.properties
        for index in properties.indices {
            let value: DTOValue
            if cursor < object.members.count, object.members[cursor].name == properties[index].name {
                value = object.members[cursor].value
                cursor += 1
            } else {
                value = object[properties[index].name]
            }
            if value.isNull, object.leftOutWhenUnset.contains(properties[index].name) { continue }
            writeMember(
                value, key: key(for: properties[index]), shape: properties[index].shape, first: &first, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Writes one member, applying the null and default rules (`first` tracks the comma).
    func writeMember(
        _ name: String, key: String, shape: ValueShape, of object: DTOObject, first: inout Bool, into out: inout [UInt8]
    ) {
        writeMember(object[name], key: key, shape: shape, first: &first, into: &out)
    }

    /// Writes one member's value, applying the null and default rules.
    func writeMember(_ value: DTOValue, key: String, shape: ValueShape, first: inout Bool, into out: inout [UInt8]) {
        var value = value
        if value.isNull {
            if let fallback = fallback(for: shape) {
                value = fallback
            } else if !settings.includeNullValues {
                return
            }
        } else if settings.excludeDefaultValues, shape.isValueType, value == shape.defaultValue {
            return
        }
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        writeString(key, into: &out)
        out.append(UInt8(ascii: ":"))
        write(value, as: shape, into: &out)
    }

    /// An object of a type the metadata does not declare (the built-in `ErrorResponse`, say):
    /// members in the order they were set; a `ResponseStatus` is still one.
    private func writeUndeclared(_ object: DTOObject, into out: inout [UInt8]) {
        var first = true
        out.append(UInt8(ascii: "{"))
        for member in object.members {
            let shape: ValueShape = member.name == "ResponseStatus" ? .responseStatus : .any
            writeMember(member.name, key: key(for: member.name), shape: shape, of: object, first: &first, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// What an unset property writes instead of being left out: a value type's default, or an
    /// empty collection in success bodies.
    private func fallback(for shape: ValueShape) -> DTOValue? {
        if shape.isValueType {
            return settings.excludeDefaultValues ? nil : shape.defaultValue
        }
        guard settings.emitEmptyCollections else { return nil }
        switch shape.unwrapped {
        case .list: return .list([])
        case .map: return .map([])
        default: return nil
        }
    }

    /// `ResponseStatus` and `ResponseError` (docs/servicestack.md#error-responses): `errors` always
    /// present, `meta` only when it has entries (or as `{}` in success bodies, for the Swift
    /// client's decoder).
    private func writeResponseStatus(_ status: DTOObject, asFieldError: Bool, into out: inout [UInt8]) {
        var first = true
        out.append(UInt8(ascii: "{"))
        writeMember("ErrorCode", key: key(for: "ErrorCode"), shape: .string, of: status, first: &first, into: &out)
        if asFieldError {
            writeMember("FieldName", key: key(for: "FieldName"), shape: .string, of: status, first: &first, into: &out)
        }
        writeMember("Message", key: key(for: "Message"), shape: .string, of: status, first: &first, into: &out)
        if !asFieldError {
            writeMember(
                "StackTrace", key: key(for: "StackTrace"), shape: .string, of: status, first: &first, into: &out)
            let errors = status["Errors"]
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            writeString(key(for: "Errors"), into: &out)
            out.append(UInt8(ascii: ":"))
            write(errors.isNull ? .list([]) : errors, as: Self.errorsShape, into: &out)
        }
        // An empty `meta` is unset: left out of error bodies, `{}` in success bodies.
        var meta = status
        if case .map(let entries) = status["Meta"], entries.isEmpty { meta = DTOObject() }
        writeMember("Meta", key: key(for: "Meta"), shape: Self.metaShape, of: meta, first: &first, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Writes `"responseStatus":{…}` for a thrown error straight from its values (the hot part of
    /// every error answer): `errorCode`, `message`, `stackTrace` when given, `errors` always,
    /// each field error with its `meta` when it has one.
    func writeStatus(
        of error: ServiceError, message: String, stackTrace: [UInt8]?, key: String, first: inout Bool,
        into out: inout [UInt8]
    ) {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        writeString(key, into: &out)
        out.append(UInt8(ascii: ":"))
        out.append(UInt8(ascii: "{"))
        writeKey(.errorCode, into: &out, leadingComma: false)
        writeString(error.errorCode, into: &out)
        writeKey(.message, into: &out)
        writeString(message, into: &out)
        if let stackTrace {
            writeKey(.stackTrace, into: &out)
            JSONValue.encodeString(utf8: stackTrace, into: &out, escaping: settings.escaping)
        }
        writeKey(.errors, into: &out)
        out.append(UInt8(ascii: "["))
        for (index, field) in error.fieldErrors.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "{"))
            writeKey(.errorCode, into: &out, leadingComma: false)
            writeString(field.errorCode, into: &out)
            writeKey(.fieldName, into: &out)
            writeString(field.fieldName, into: &out)
            writeKey(.message, into: &out)
            writeString(field.message, into: &out)
            if !field.meta.isEmpty {
                writeKey(.meta, into: &out)
                out.append(UInt8(ascii: "{"))
                for (position, entry) in field.meta.enumerated() {
                    if position > 0 { out.append(UInt8(ascii: ",")) }
                    writeString(entry.key, into: &out)
                    out.append(UInt8(ascii: ":"))
                    writeString(entry.value, into: &out)
                }
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        out.append(UInt8(ascii: "}"))
    }

    private func writeKey(_ key: StatusKey, into out: inout [UInt8], leadingComma: Bool = true) {
        if leadingComma { out.append(UInt8(ascii: ",")) }
        out += settings.casing == .camelCase ? key.camelCase : key.pascalCase
    }

    /// The members of `ResponseStatus` and `ResponseError`, encoded once as `"errorCode":`.
    private enum StatusKey {
        case errorCode, fieldName, message, stackTrace, errors, meta

        private static let camel = ["errorCode", "fieldName", "message", "stackTrace", "errors", "meta"].map(encoded)
        private static let pascal = ["ErrorCode", "FieldName", "Message", "StackTrace", "Errors", "Meta"].map(encoded)

        private static func encoded(_ name: String) -> [UInt8] { Array("\"\(name)\":".utf8) }

        private var position: Int {
            switch self {
            case .errorCode: 0
            case .fieldName: 1
            case .message: 2
            case .stackTrace: 3
            case .errors: 4
            case .meta: 5
            }
        }

        var camelCase: [UInt8] { Self.camel[position] }
        var pascalCase: [UInt8] { Self.pascal[position] }
    }

    private static let errorsShape = ValueShape.list(.responseError)
    private static let metaShape = ValueShape.map(key: .string, value: .string)

    func key(for property: PropertyShape) -> String {
        if let dataMemberName = property.dataMemberName { return dataMemberName }
        return settings.casing == .camelCase ? property.camelCaseName : property.name
    }

    func key(for name: String) -> String {
        guard settings.casing == .camelCase else { return name }
        // The members every error body writes, without camel-casing them each time.
        switch name {
        case "ResponseStatus": return "responseStatus"
        case "ErrorCode": return "errorCode"
        case "FieldName": return "fieldName"
        case "Message": return "message"
        case "StackTrace": return "stackTrace"
        case "Errors": return "errors"
        case "Meta": return "meta"
        default: return PropertyShape.camelCase(name)
        }
    }

    private func writeString(_ text: String, into out: inout [UInt8]) {
        JSONValue.encodeString(text, into: &out, escaping: settings.escaping)
    }

    private static func dashed(_ hex: String) -> String {
        guard hex.utf8.count == 32 else { return hex }
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}
