public import MockStackCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns what a client sent into typed ``DTOValue``s: query and form text (JSV, or the compact
/// JSON Python sends), JSON body values, and template output. Lenient where ServiceStack is
/// (numbers in strings, `1`/`0` for booleans, base64 or number arrays for `byte[]`); `nil`
/// means the value cannot be read as the type, which binding reports as a field error.
public struct ValueCoercion: Sendable {
    public let catalog: TypeCatalog

    public init(catalog: TypeCatalog) { self.catalog = catalog }

    // MARK: Text (query strings, forms, multipart fields, path variables)

    /// A query or form value as `shape`; empty text is null.
    public func fromText(_ text: String, as shape: ValueShape) -> DTOValue? {
        if text.isEmpty { return .null }
        switch shape.unwrapped {
        case .list, .map, .keyValuePair, .object, .responseStatus, .responseError, .any:
            let trimmed = text.trimmingASCIISpace()
            if let first = trimmed.first, first == "[" || first == "{",
                let json = try? JSONParser.forRequestBodies(maximumDepth: 64).parse(String(trimmed)).root
            {
                return fromJSON(json, as: shape)
            }
            if case .list(let element) = shape.unwrapped {
                guard let nodes = JSVReader.readList(text) else { return nil }
                return collect(nodes) { fromJSV($0, as: element) }.map { .list($0) }
            }
            guard let node = JSVReader.read(text) else { return shape.unwrapped == .any ? .json(.string(text)) : nil }
            return fromJSV(node, as: shape)
        default:
            return scalar(Self.unquoted(text), as: shape.unwrapped)
        }
    }

    /// JSV strings may arrive quoted: `"a,b"` with `""` or `\"` for an inner quote.
    static func unquoted(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.count >= 2, utf8.first == UInt8(ascii: "\""), utf8.last == UInt8(ascii: "\""),
            case .text(let inner)? = JSVReader.read(text)
        else { return text }
        return inner
    }

    func fromJSV(_ node: JSVNode, as shape: ValueShape) -> DTOValue? {
        switch (node, shape.unwrapped) {
        case (.text(let text), _) where text.isEmpty: return .null
        case (.text(let text), .list), (.text(let text), .bytes): return fromText(text, as: shape)
        case (.text(let text), .any): return .json(.string(text))
        case (.text(let text), let scalarShape): return scalar(text, as: scalarShape)
        case (.list(let nodes), .list(let element)):
            return collect(nodes) { fromJSV($0, as: element) }.map { .list($0) }
        case (.list(let nodes), .bytes):
            return collect(nodes) { node -> UInt8? in
                guard case .text(let text) = node else { return nil }
                return UInt8(text)
            }.map { .bytes($0, .array) }
        case (.list(let nodes), .any): return collect(nodes) { fromJSV($0, as: .any) }.map { .list($0) }
        case (.map(let members), .map(let keyShape, let valueShape)):
            return map(members.map { ($0.key, $0.value) }, keyShape: keyShape, valueShape: valueShape) {
                fromJSV($0, as: $1)
            }
        case (.map(let members), .any):
            return map(members.map { ($0.key, $0.value) }, keyShape: .string, valueShape: .any) { fromJSV($0, as: $1) }
        case (.map(let members), .keyValuePair(let keyShape, let valueShape)):
            return keyValuePair(members.map { ($0.key, $0.value) }, keyShape: keyShape, valueShape: valueShape) {
                fromJSV($0, as: $1)
            }
        case (.map(let members), .object(let reference)):
            return object(reference, members: members) { fromJSV($0, as: $1) }
        case (.map(let members), .responseStatus), (.map(let members), .responseError):
            return object(nil, members: members) { fromJSV($0, as: $1) }
        default: return nil
        }
    }

    // MARK: JSON (request bodies, templates)

    /// A JSON value as `shape`.
    public func fromJSON(_ json: JSONValue, as shape: ValueShape) -> DTOValue? {
        if case .null = json { return .null }
        switch (json, shape.unwrapped) {
        case (_, .any): return .json(json)
        case (_, .stream): return .null
        case (.string(let text), .string), (.string(let text), .char): return .string(text)
        case (.number(let number), .string): return .string(number.literal)
        case (.bool(let flag), .string): return .string(flag ? "true" : "false")
        case (.string(let text), .bytes):
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else { return nil }
            return .bytes(Array(data), .base64)
        case (.array(let elements), .bytes):
            return collect(elements) { element -> UInt8? in element.intValue.flatMap { UInt8(exactly: $0) } }.map {
                .bytes($0, .array)
            }
        case (.string(let text), .list): return fromText(text, as: shape)
        case (.array(let elements), .list(let element)):
            return collect(elements) { fromJSON($0, as: element) }.map { .list($0) }
        case (.object(let object), .map(let keyShape, let valueShape)):
            return map(object.map { ($0.key, $0.value) }, keyShape: keyShape, valueShape: valueShape) {
                fromJSON($0, as: $1)
            }
        case (.object(let object), .keyValuePair(let keyShape, let valueShape)):
            return keyValuePair(object.map { ($0.key, $0.value) }, keyShape: keyShape, valueShape: valueShape) {
                fromJSON($0, as: $1)
            }
        case (.object(let object), .object(let reference)):
            return self.object(reference, members: object.members) { fromJSON($0, as: $1) }
        case (.object(let object), .responseStatus), (.object(let object), .responseError):
            return self.object(nil, members: object.members) { fromJSON($0, as: $1) }
        case (.number(let number), .enumeration(let enumShape)):
            if enumShape.isInt { return .number(number) }
            return enumShape.member(named: number.literal).map { .enumMember($0) }
        case (.number(let number), .number(let kind)) where kind.isIntegral:
            // A data set's ids and counts: a plain integer literal in range is its own normal form.
            if let value = Self.plainInteger(number.literal), kind.range.contains(Double(value)) {
                return .number(number)
            }
            return scalar(number.literal, as: shape.unwrapped)
        case (.number(let number), _): return scalar(number.literal, as: shape.unwrapped)
        case (.bool(let flag), .bool): return .bool(flag)
        case (.string(let text), _): return scalar(text, as: shape.unwrapped)
        default: return nil
        }
    }

    // MARK: Typed values (template output, echoes between types)

    /// A value already typed for one shape, made to fit another: `.json` leaves and strings
    /// are read as the target type, objects are re-keyed onto the target class.
    public func conform(_ value: DTOValue, to shape: ValueShape) -> DTOValue? {
        switch (value, shape.unwrapped) {
        case (.null, _): return .null
        case (.json(let json), _): return fromJSON(json, as: shape)
        case (_, .any): return value
        case (.string(let text), .string), (.string(let text), .char): return .string(text)
        case (.string(let text), _): return fromText(text, as: shape)
        case (.number(let number), .string): return .string(number.literal)
        case (.number(let number), _): return fromJSON(.number(number), as: shape)
        case (.enumMember(let name), .string): return .string(name)
        case (.guid(let hex), .string): return .string(hex)
        case (.list(let elements), .list(let element)):
            return collect(elements) { conform($0, to: element) }.map { .list($0) }
        case (.map(let entries), .map(_, let valueShape)):
            return collect(entries) { entry in
                conform(entry.value, to: valueShape).map { DTOMapEntry(key: entry.key, value: $0) }
            }.map { .map($0) }
        case (.object(let object), .object(let reference)):
            return self.object(reference, members: object.members.map { (key: $0.name, value: $0.value) }) {
                conform($0, to: $1)
            }
        default: return value
        }
    }

    /// A dictionary whose keys must read as `keyShape` (they keep their text).
    private func map<Source>(
        _ members: [(String, Source)], keyShape: ValueShape, valueShape: ValueShape,
        convert: (Source, ValueShape) -> DTOValue?
    ) -> DTOValue? {
        collect(members) { member -> DTOMapEntry? in
            guard scalar(member.0, as: keyShape.unwrapped) != nil, let value = convert(member.1, valueShape) else {
                return nil
            }
            return DTOMapEntry(key: member.0, value: value)
        }.map { .map($0) }
    }

    /// A `KeyValuePair<K,V>` from an object with `key` and `value` members.
    private func keyValuePair<Source>(
        _ members: [(String, Source)], keyShape: ValueShape, valueShape: ValueShape,
        convert: (Source, ValueShape) -> DTOValue?
    ) -> DTOValue? {
        var pair = DTOObject()
        for (name, source) in members {
            if name.equalsIgnoringASCIICase("key") { pair["Key"] = convert(source, keyShape) ?? .null }
            if name.equalsIgnoringASCIICase("value") { pair["Value"] = convert(source, valueShape) ?? .null }
        }
        return .object(pair)
    }

    /// Builds an object of `reference` (or a ResponseStatus when nil) from named members,
    /// matching names case-insensitively and ignoring unknown ones, as ServiceStack does.
    private func object<Source>(
        _ reference: TypeReference?, members: [(key: String, value: Source)], convert: (Source, ValueShape) -> DTOValue?
    ) -> DTOValue? {
        var result = DTOObject()
        // At most one member per source member: no growth (and no spare capacity kept).
        result.reserveCapacity(members.count)
        if let reference, let shape = catalog.object(reference) {
            // The properties set so far, by position (the first 64): a property met for the
            // first time is appended without searching the members for it.
            var seen: UInt64 = 0
            var expected = 0
            for (name, source) in members {
                guard let position = shape.position(ofPropertyNamed: name, expected: expected) else { continue }
                expected = position + 1
                let property = shape.properties[position]
                guard let value = convert(source, property.shape) else { return nil }
                if position < 64, seen & (1 << position) == 0 {
                    seen |= 1 << position
                    result.append(property.name, value)
                } else {
                    result[property.name] = value
                }
            }
        } else {
            for (name, source) in members {
                guard let canonical = ResponseStatusFields.canonicalName(name) else { continue }
                result[canonical] = convert(source, ResponseStatusFields.shape(of: canonical)) ?? .null
            }
        }
        return .object(result)
    }

    private func collect<Element, Output>(_ elements: [Element], _ convert: (Element) -> Output?) -> [Output]? {
        var output: [Output] = []
        output.reserveCapacity(elements.count)
        for element in elements {
            guard let converted = convert(element) else { return nil }
            output.append(converted)
        }
        return output
    }

    // MARK: Scalars

    /// A scalar from its text form.
    func scalar(_ text: String, as shape: ValueShape) -> DTOValue? {
        switch shape {
        case .string: return .string(text)
        case .char: return text.isEmpty ? nil : .string(String(text.prefix(1)))
        case .bool:
            switch text.lowercased() {
            case "true", "1", "on", "yes": return .bool(true)
            case "false", "0", "off", "no": return .bool(false)
            default: return nil
            }
        case .number(let kind): return Self.number(text, kind).map { .number($0) }
        case .dateTime, .dateTimeOffset: return DateTimeValue(parsing: text).map { .dateTime($0) }
        case .timeSpan: return TimeSpanValue(parsing: text).map { .timeSpan($0) }
        case .guid: return Self.guid(text).map { .guid($0) }
        case .enumeration(let enumShape):
            if enumShape.isInt {
                // Integer-backed enums are numbers everywhere, even when a client names the member.
                if let number = Int(text) { return .number(JSONNumber(number)) }
                return enumShape.member(named: text.trimmingASCIISpace()).flatMap(enumShape.number(of:)).map {
                    .number(JSONNumber($0))
                }
            }
            return enumShape.member(named: text.trimmingASCIISpace()).map { .enumMember($0) }
        case .bytes:
            return Data(base64Encoded: text, options: .ignoreUnknownCharacters).map { .bytes(Array($0), .base64) }
        case .any: return .json(.string(text))
        default: return nil
        }
    }

    /// A number normalised for its .NET type: integral types must be whole and in range;
    /// floating types are written the way .NET's shortest round-trip formatting does.
    static func number(_ raw: String, _ kind: NumberKind) -> JSONNumber? {
        let text = raw.trimmingASCIISpace()
        // The usual case first, a plain integer (an id, a count), without parsing a Double.
        if kind.isIntegral, let exact = Int64(text), kind.range.contains(Double(exact)) {
            return JSONNumber(literal: String(exact))
        }
        guard !text.isEmpty, text.utf8.allSatisfy(Self.isNumberByte), let value = Double(text), value.isFinite else {
            return nil
        }
        if kind.isIntegral {
            if kind == .uint64, let exact = UInt64(text) { return JSONNumber(literal: String(exact)) }
            guard value == value.rounded(), kind.range.contains(value), abs(value) < 9e15 else { return nil }
            return JSONNumber(literal: String(Int64(value)))
        }
        guard kind.range.contains(value) else { return nil }
        switch kind {
        case .decimal:
            // Decimal keeps its scale (`3.0` stays `3.0`); only the JSON spelling is tidied.
            return JSONNumber(literal: Self.isJSONNumber(String(text)) ? String(text) : Self.shortest(value))
        case .single:
            let single = Float(value)
            return JSONNumber(
                literal: single == single.rounded() && abs(single) < 1e7
                    ? String(Int64(single)) : single.description.replacingExponent())
        default:
            return JSONNumber(literal: Self.shortest(value))
        }
    }

    /// The value of a literal that is an integer in the spelling `String(Int64)` gives it (an
    /// optional `-`, 1 to 18 digits, no leading zero, not `-0`), else nil.
    static func plainInteger(_ literal: String) -> Int64? {
        var utf8 = literal.utf8.makeIterator()
        guard var byte = utf8.next() else { return nil }
        let negative = byte == UInt8(ascii: "-")
        if negative {
            guard let next = utf8.next() else { return nil }
            byte = next
        }
        var value: Int64 = 0
        var digits = 0
        while true {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 18 else { return nil }
            if digits == 1, value == 0 { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            digits += 1
            guard let next = utf8.next() else { break }
            byte = next
        }
        if negative, value == 0 { return nil }
        return negative ? -value : value
    }

    private static func shortest(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : value.description.replacingExponent()
    }

    private static func isJSONNumber(_ text: String) -> Bool {
        if case .number? = try? JSONParser.forRequestBodies().parse(text).root { return true }
        return false
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }

    /// A Guid in any of .NET's text forms, as 32 lowercase hex digits.
    static func guid(_ text: String) -> String? {
        let hex = text.trimmingASCIISpace().utf8.filter {
            $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "{") && $0 != UInt8(ascii: "}")
        }
        guard hex.count == 32, hex.allSatisfy({ Self.hexDigits.contains($0) }) else { return nil }
        return String(decoding: hex, as: UTF8.self).lowercased()
    }

    private static let hexDigits: Set<UInt8> = Set("0123456789abcdefABCDEF".utf8)
}

extension String {
    /// Swift writes `1e-05`; .NET and JSON readers are happy with `1E-05`.
    fileprivate func replacingExponent() -> String { replacing("e", with: "E") }
}

/// The members of ServiceStack's `ResponseStatus` and `ResponseError`, which every app has
/// whether or not its metadata declares them.
enum ResponseStatusFields {
    static let names = ["ErrorCode", "Message", "StackTrace", "Errors", "Meta", "FieldName"]

    static func canonicalName(_ name: String) -> String? {
        names.first { $0.equalsIgnoringASCIICase(name) }
    }

    static func shape(of name: String) -> ValueShape {
        switch name {
        case "Errors": .list(.responseError)
        case "Meta": .map(key: .string, value: .string)
        default: .string
        }
    }
}
