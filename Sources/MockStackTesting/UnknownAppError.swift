/// `url(for:)` was asked for an app the server does not serve (a typo, or an app left out by
/// `--apps`): the error names the apps it does serve.
public struct UnknownAppError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name asked for.
    public var app: String
    /// The apps the server serves, in its ready line's order.
    public var apps: [String]

    /// The error for `app`, asked of a server that serves `apps`.
    public init(app: String, apps: [String]) {
        self.app = app
        self.apps = apps
    }

    /// Names the app asked for and the apps served.
    public var description: String {
        "mockstack has no app named '\(app)'; it serves: \(apps.joined(separator: ", "))"
    }
}
