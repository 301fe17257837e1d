import MockStackCore

/// How a response is written: the host's serializer (docs/servicestack.md#the-hosts,
/// docs/servicestack.md#serialization) and any `?jsconfig=` scope.
public struct SerializerSettings: Sendable, Equatable {
    /// Which .NET serializer the emulated host uses for this response.
    public enum Dialect: Sendable, Equatable {
        /// ServiceStack.Text: WCF dates, minimal escaping, 32-digit Guids.
        case serviceStackText
        /// System.Text.Json: ISO dates, HTML-safe ASCII escaping, dashed Guids.
        case systemTextJson
    }

    public enum Casing: Sendable, Equatable {
        case camelCase
        case pascalCase
    }

    public enum DateFormat: Sendable, Equatable {
        /// `"\/Date(ms)\/"`.
        case wcf
        case iso8601
    }

    public var dialect: Dialect
    public var casing: Casing
    public var dates: DateFormat
    /// Unset collections are written as `[]` / `{}`. On for success bodies, because the Swift
    /// client's synthesized `Codable` requires those keys
    /// (docs/servicestack.md#what-the-clients-need); off for error wrappers, where the real server
    /// writes only value-type defaults and `responseStatus`.
    public var emitEmptyCollections: Bool
    /// `jsconfig=ExcludeDefaultValues`: value-type defaults are left out too.
    public var excludeDefaultValues: Bool
    /// `jsconfig=IncludeNullValues`: unset reference properties are written as `null`.
    public var includeNullValues: Bool

    public init(
        dialect: Dialect, casing: Casing = .camelCase, dates: DateFormat? = nil, emitEmptyCollections: Bool = true,
        excludeDefaultValues: Bool = false, includeNullValues: Bool = false
    ) {
        self.dialect = dialect
        self.casing = casing
        self.dates = dates ?? (dialect == .serviceStackText ? .wcf : .iso8601)
        self.emitEmptyCollections = emitEmptyCollections
        self.excludeDefaultValues = excludeDefaultValues
        self.includeNullValues = includeNullValues
    }

    /// The settings with a `?jsconfig=` value applied (docs/servicestack.md#request-binding):
    /// `EmitCamelCaseNames:false` keeps the host's casing, `EmitPascalCaseNames:true` switches to
    /// PascalCase. Short aliases (`eccn`, `epcn`, `edv`, `inv`, `dh`) are accepted as ServiceStack
    /// accepts them; unknown keys are ignored.
    public func applying(jsconfig: String) -> SerializerSettings {
        var settings = self
        for entry in jsconfig.split(separator: ",") {
            let parts = entry.split(separator: ":", maxSplits: 1)
            guard let name = parts.first else { continue }
            let key = name.trimmingASCIISpace().lowercased()
            let value = parts.count > 1 ? parts[1].trimmingASCIISpace().lowercased() : "true"
            let isOn = value != "false" && value != "0"
            switch key {
            case "emitcamelcasenames", "eccn":
                // `false` does not switch to PascalCase (ServiceStack.Text's JsConfig.CreateScope).
                if isOn { settings.casing = .camelCase }
            case "emitpascalcasenames", "epcn":
                settings.casing = isOn ? .pascalCase : (settings.casing == .pascalCase ? .camelCase : settings.casing)
            case "excludedefaultvalues", "edv": settings.excludeDefaultValues = isOn
            case "includenullvalues", "inv": settings.includeNullValues = isOn
            case "datehandler", "dh":
                switch value {
                case "iso8601", "iso8601dateonly", "iso8601datetime", "rfc1123": settings.dates = .iso8601
                case "timestampoffset", "dcjsc", "dcjscompatible", "timestamp": settings.dates = .wcf
                default: break
                }
            default: break
            }
        }
        return settings
    }

    var escaping: JSONEscaping { dialect == .systemTextJson ? .htmlSafeASCII : .minimal }
}
