/// `url(for:)` was asked for an app the server does not serve (a typo, or an app left out by
/// `--apps`): the error names the apps it does serve.
public struct UnknownAppError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name asked for.
    public var app: String
    /// The apps the server serves, in its ready line's order.
    public var apps: [String]

    public init(app: String, apps: [String]) {
        self.app = app
        self.apps = apps
    }

    public var description: String {
        "mockstack has no app named '\(app)'; it serves: \(apps.joined(separator: ", "))"
    }
}
