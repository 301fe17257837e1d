import MockStackWire

/// `url(for:)` was asked for an app the server does not serve: a typo, or an app its fixtures
/// hold that the server was started without (`apps:` / `--apps` left it out). The error says
/// which, with the names near a typo and the apps served.
public struct UnknownAppError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name asked for.
    public var app: String
    /// The apps the server serves, in its ready line's order.
    public var apps: [String]
    /// The apps its fixtures hold that it was started without (``ReadyEvent/notLoaded``).
    public var notLoaded: [String]

    /// The error for `app`, asked of a server that serves `apps` and left out `notLoaded`.
    public init(app: String, apps: [String], notLoaded: [String] = []) {
        self.app = app
        self.apps = apps
        self.notLoaded = notLoaded
    }

    /// `mockstack was started without the app 'ai', which its fixtures hold: add "ai" to …`, or
    /// `mockstack has no app named 'tset' (did you mean 'test'?); it serves: test, feathers`.
    public var description: String {
        let served = "it serves: \(apps.isEmpty ? "no apps" : apps.joined(separator: ", "))"
        if notLoaded.contains(app) {
            return """
                mockstack was started without the app '\(app)', which its fixtures hold: add "\(app)" to the \
                apps: it is started with (or to --apps / MOCKSTACK_APPS); \(served)
                """
        }
        let hint = DidYouMean.hint(for: app, among: apps + notLoaded, plural: "apps")
        var text = "mockstack has no app named '\(app)'"
        if hint.hasPrefix("did you mean") { text += " (\(hint))" }
        text += "; " + served
        if !notLoaded.isEmpty {
            text += "; its fixtures also hold \(notLoaded.joined(separator: ", ")), which it was started without"
        }
        return text
    }
}
