import MockStackCore

/// Opt-in tolerance for client bugs a real Feathers server does not forgive (manifest
/// `"compat": {"swiftSocket": true}`). Never on by default: with it, the app answers what a real
/// server would refuse, so a client's tests pass here and fail there. A test report should say
/// when it was used.
public struct FeathersCompat: Sendable, Equatable {
    /// feathers-swift-socketio 4.0.1's socket calls: its arguments nested in one array
    /// (`["find",["users",{}]]`) are unwrapped, its `removed` is taken as `remove`, and its
    /// `authenticate` and `logout` events are answered as a Feathers 4 app answers them, on a v5
    /// app too. docs/feathers-realtime.md#feathers-swift-socketio.
    public var swiftSocket = false

    public init(swiftSocket: Bool = false) {
        self.swiftSocket = swiftSocket
    }

    /// The manifest's keys under `compat`.
    static let keys = ["swiftSocket"]

    /// Reads `/compat` (absent: everything off), reporting what is wrong.
    static func read(_ manifest: ManifestReader) -> FeathersCompat {
        var compat = FeathersCompat()
        guard let value = manifest.value(at: "/compat") else { return compat }
        guard case .object(let switches) = value else {
            manifest.report(
                "expected an object of switches (\(keys.joined(separator: ", "))), found \(value.typeName)",
                at: "/compat")
            return compat
        }
        for (key, setting) in switches {
            let pointer = JSONPointer.appending(key, to: "/compat")
            guard keys.contains(key) else {
                manifest.report("unknown switch \"\(key)\" (switches: \(keys.joined(separator: ", ")))", at: pointer)
                continue
            }
            guard case .bool(let on) = setting else {
                manifest.report("expected true or false, found \(setting.typeName)", at: pointer)
                continue
            }
            compat.swiftSocket = on
        }
        return compat
    }
}
