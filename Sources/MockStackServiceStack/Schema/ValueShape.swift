import MockStackCore

/// What a .NET type means for binding and for writing JSON: the handful of cases ServiceStack's
/// serializers distinguish. Object types are referred to by ``TypeReference`` and resolved
/// through the ``TypeCatalog``, so recursive types need no recursive values.
public indirect enum ValueShape: Sendable, Equatable {
    case string
    case char
    case bool
    case number(NumberKind)
    case dateTime
    case dateTimeOffset
    case timeSpan
    case guid
    /// `byte[]`.
    case bytes
    case enumeration(EnumShape)
    /// `Nullable<T>`: no default is written when unset.
    case nullable(ValueShape)
    case list(ValueShape)
    case map(key: ValueShape, value: ValueShape)
    case keyValuePair(key: ValueShape, value: ValueShape)
    /// ServiceStack's `ResponseStatus`, written by its own rules (docs/servicestack.md#error-responses).
    case responseStatus
    /// One entry of `ResponseStatus.errors`.
    case responseError
    /// A DTO class described by the metadata.
    case object(TypeReference)
    /// A `Stream` property: the raw request body reaches the service unbound.
    case stream
    /// `Object` or a type the metadata does not describe: passed through as JSON.
    case any

    /// The shape without a `Nullable<T>` wrapper.
    public var unwrapped: ValueShape {
        if case .nullable(let inner) = self { return inner.unwrapped }
        return self
    }

    /// Whether the .NET type is a value type, so an unset property still writes its default.
    public var isValueType: Bool {
        switch self {
        case .char, .bool, .number, .dateTime, .dateTimeOffset, .timeSpan, .guid, .enumeration, .keyValuePair: true
        default: false
        }
    }

    /// The value an unset property of this type holds in .NET, when it is not null.
    public var defaultValue: DTOValue? {
        switch self {
        case .bool: .bool(false)
        case .number: .number(JSONNumber(0))
        case .char: .string("\u{0}")
        case .dateTime: .dateTime(.minValue)
        case .dateTimeOffset: .dateTime(DateTimeValue(ticks: DateTimeValue.minValue.ticks, kind: .offset(minutes: 0)))
        case .timeSpan: .timeSpan(.zero)
        case .guid: .guid(String(repeating: "0", count: 32))
        case .enumeration(let shape): shape.defaultValue
        case .keyValuePair: .object(DTOObject())
        default: nil
        }
    }
}

/// The .NET numeric types, with their ranges.
public enum NumberKind: String, Sendable, Equatable {
    case byte = "Byte"
    case sbyte = "SByte"
    case int16 = "Int16"
    case uint16 = "UInt16"
    case int32 = "Int32"
    case uint32 = "UInt32"
    case int64 = "Int64"
    case uint64 = "UInt64"
    case single = "Single"
    case double = "Double"
    case decimal = "Decimal"

    public var isIntegral: Bool {
        switch self {
        case .single, .double, .decimal: false
        default: true
        }
    }

    /// The accepted range of the type (integral ones must also be whole).
    var range: ClosedRange<Double> {
        switch self {
        case .byte: 0...255
        case .sbyte: -128...127
        case .int16: -32_768...32_767
        case .uint16: 0...65_535
        case .int32: -2_147_483_648...2_147_483_647
        case .uint32: 0...4_294_967_295
        case .int64: -9.223372036854775808e18...9.223372036854775807e18
        case .uint64: 0...1.8446744073709551615e19
        case .single: -3.4028235e38...3.4028235e38
        // System.Decimal's ±79,228,162,514,264,337,593,543,950,335 (as near as a Double says).
        case .decimal: -7.9228162514264337593543950335e28...7.9228162514264337593543950335e28
        case .double: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
        }
    }
}

/// An enum type: its member names, and whether it is written as a number.
public struct EnumShape: Sendable, Equatable {
    public var name: String
    public var names: [String]
    /// Explicit values (`enumValues`), when the enum declares them.
    public var values: [String]
    /// `[EnumAsInt]` / flags enums: written and read as numbers.
    public var isInt: Bool

    /// The member for 0: the one whose value is "0", else the first.
    var defaultValue: DTOValue {
        if isInt { return .number(JSONNumber(0)) }
        if let index = values.firstIndex(of: "0"), index < names.count { return .enumMember(names[index]) }
        return names.first.map { .enumMember($0) } ?? .number(JSONNumber(0))
    }

    /// The number an integer-backed member stands for: its declared value, else its position.
    func number(of member: String) -> Int? {
        guard let index = names.firstIndex(of: member) else { return nil }
        return values.indices.contains(index) ? Int(values[index]) : index
    }

    /// The member a text names, ignoring case, or its name for a numeric value.
    func member(named text: some StringProtocol) -> String? {
        if let exact = names.first(where: { $0.equalsIgnoringASCIICase(text) }) { return exact }
        if let number = Int(text) {
            if let index = values.firstIndex(of: String(number)), index < names.count { return names[index] }
            if values.isEmpty, names.indices.contains(number) { return names[number] }
        }
        return nil
    }
}
