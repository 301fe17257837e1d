public import MockStackCore

/// The options of a `/types/swift` request (docs/servicestack.md#generated-dtos): what the query string gave, over the
/// host's defaults (its `/types/metadata` `config`), over the language's own.
///
/// Option names compare ignoring case; lists are comma-separated and trimmed, and a repeated
/// parameter adds to its list. Whether the query gave an option decides whether the header
/// comments it out, so that is kept apart from its value.
public struct NativeTypesOptions: Sendable {
    /// The options the query gave, by lower-cased name, values as received.
    private let given: [String: [String]]
    /// The host's `config`, by lower-cased key.
    private let defaults: [String: JSONValue]

    /// Swift's own defaults where the host's config says nothing: the imports the client
    /// package needs.
    static let swiftDefaults: [String: JSONValue] = [
        "defaultimports": .array([.string("Foundation"), .string("ServiceStack")])
    ]

    /// The options of `/types/swift`: the host's config, but for `MakePropertiesOptional`, which
    /// Swift forces whatever the config says (docs/servicestack.md#generated-dtos), and the
    /// imports the client package needs where the config names none.
    public init(query: [(name: String, value: String)], config: JSONObject) {
        self.init(
            query: query, config: config, forced: ["makepropertiesoptional": .bool(true)],
            fallbacks: Self.swiftDefaults)
    }

    /// The options of a script generator (Python, TypeScript, PHP): the host's config, but
    /// collections initialised only when the query says so, and properties optional only then
    /// unless the file `makesPropertiesOptional` when not told (TypeScript declarations).
    static func forScripts(
        query: [(name: String, value: String)], config: JSONObject, makesPropertiesOptional: Bool = false
    ) -> NativeTypesOptions {
        NativeTypesOptions(
            query: query, config: config,
            forced: ["makepropertiesoptional": .bool(makesPropertiesOptional), "initializecollections": false],
            fallbacks: [:])
    }

    /// The options of a generator that takes the host's config as it is (Java).
    static func asConfigured(query: [(name: String, value: String)], config: JSONObject) -> NativeTypesOptions {
        NativeTypesOptions(query: query, config: config, forced: [:], fallbacks: [:])
    }

    /// The options of a .NET generator (C#): the host's config, over ServiceStack's own defaults
    /// for what the config does not say (partial, virtual members, return markers, collections
    /// started empty, the data contract namespace and the `using` namespaces).
    static func forDotNet(query: [(name: String, value: String)], config: JSONObject) -> NativeTypesOptions {
        NativeTypesOptions(query: query, config: config, forced: [:], fallbacks: dotNetDefaults)
    }

    /// ServiceStack's `MetadataTypesConfig` defaults that a .NET file's header shows.
    static let dotNetDefaults: [String: JSONValue] = [
        "makepartial": true, "makevirtual": true, "addreturnmarker": true, "adddescriptionascomments": true,
        "initializecollections": true, "adddefaultxmlnamespace": "http://schemas.servicestack.net/types",
        "defaultnamespaces": [
            "System", "System.Collections", "System.Collections.Generic", "System.Runtime.Serialization",
            "ServiceStack", "ServiceStack.DataAnnotations",
        ],
    ]

    /// The query's options over the host's `config`, `forced` replacing the config's values and
    /// `fallbacks` filling what neither gives.
    private init(
        query: [(name: String, value: String)], config: JSONObject, forced: [String: JSONValue],
        fallbacks: [String: JSONValue]
    ) {
        var given: [String: [String]] = [:]
        for (name, value) in query { given[name.lowercased(), default: []].append(value) }
        self.given = given
        var defaults: [String: JSONValue] = [:]
        for member in config.members { defaults[member.key.lowercased()] = member.value }
        for (key, value) in forced { defaults[key] = value }
        for (key, value) in fallbacks where defaults[key] == nil { defaults[key] = value }
        self.defaults = defaults
    }

    /// Whether the query string set `name` to something: what uncomments a script header's line.
    func hasValue(_ name: String) -> Bool { given[name.lowercased()]?.contains { !$0.isEmpty } ?? false }

    /// Whether the query string set `name`.
    public func isGiven(_ name: String) -> Bool { given[name.lowercased()] != nil }

    /// A yes/no option: the query's `true`/`false` (any case) or `1`/`0`, else the default.
    public func flag(_ name: String) -> Bool {
        if let values = given[name.lowercased()], let last = values.last {
            return ["true", "1"].contains(last.lowercased())
        }
        return defaults[name.lowercased()]?.boolValue ?? false
    }

    /// A list option, every given value split at commas and trimmed, empty items dropped.
    public func list(_ name: String) -> [String] {
        if let values = given[name.lowercased()] {
            return values.flatMap { $0.split(separator: ",").map { String($0.trimmingASCIISpace()) } }.filter {
                !$0.isEmpty
            }
        }
        switch defaults[name.lowercased()] {
        case .array(let items)?: return items.compactMap(\.stringValue)
        case .string(let text)?:
            return text.split(separator: ",").map { String($0.trimmingASCIISpace()) }.filter { !$0.isEmpty }
        default: return []
        }
    }

    /// A text option (`BaseClass`, `AddImplicitVersion`), nil when neither the query nor the
    /// host sets it.
    public func text(_ name: String) -> String? {
        if let values = given[name.lowercased()] { return values.joined(separator: ",") }
        switch defaults[name.lowercased()] {
        case .string(let text)?: return text
        case .number(let number)?: return number.literal
        default: return nil
        }
    }

    /// `WithoutOptions`, with any value: no header at all.
    public var withoutOptions: Bool { isGiven("WithoutOptions") }
}
