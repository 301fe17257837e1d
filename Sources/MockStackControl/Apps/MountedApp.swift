package import MockStackCore

/// What the registry serves at one mount: an app, or the app to build at its first use.
package enum MountedApp: Sendable {
    case built(any MockApp)
    case unbuilt(UnbuiltApp)

    package var name: String {
        switch self {
        case .built(let app): app.name
        case .unbuilt(let app): app.name
        }
    }

    package var mount: String {
        switch self {
        case .built(let app): app.mount
        case .unbuilt(let app): app.mount
        }
    }

    /// Back to the fixture state; one not built yet is in it already.
    package func reset() {
        if case .built(let app) = self { app.reset() }
    }

    package var kind: String {
        switch self {
        case .built(let app): app.kind
        case .unbuilt(let app): app.kind
        }
    }
}
