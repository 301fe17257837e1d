import MockStackCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `resolveData` (docs/feathers.md#data-resolvers): what a generated service's data resolver sets
/// on the record `create` (and `update`) store, after the data schema's check, as the chat app's
/// messages get the sender's `userId` and a `createdAt` in milliseconds.
public struct DataResolver: Sendable, Equatable {
    /// Where a property's value comes from.
    public enum Source: Sendable, Equatable {
        /// A field of the signed-in user (`user.id`).
        case user(field: String)
        /// The call's moment, in milliseconds since 1970 (`Date.now()`).
        case now
    }

    public struct Property: Sendable, Equatable {
        public var name: String
        public var source: Source

        public init(_ name: String, _ source: Source) {
            self.name = name
            self.source = source
        }
    }

    public var properties: [Property]

    public init(_ properties: [Property]) {
        self.properties = properties
    }

    /// The record as `resolve()` builds it: the data's own properties first, in their order,
    /// then the resolved ones (they settle after a turn of the promise queue), each in the
    /// order the data or else the resolver lists it. A value that resolves to nothing (a field
    /// the user lacks) is left out.
    func resolve(_ data: JSONObject, user: JSONObject?, now: Date) -> JSONObject {
        let resolvedNames = Set(properties.map(\.name))
        var record = JSONObject(data.filter { !resolvedNames.contains($0.key) })
        let inDataOrder =
            data.keys.compactMap { key in properties.first { $0.name == key } }
            + properties.filter { data[$0.name] == nil }
        for property in inDataOrder {
            switch property.source {
            case .user(let field):
                if let value = user?[field] { record[property.name] = value }
            case .now:
                record[property.name] = .number(JSONNumber(Int((now.timeIntervalSince1970 * 1000).rounded(.down))))
            }
        }
        return record
    }
}
