public import MockStackJSON

/// The readiness announcement (docs/architecture.md#readiness): the first line on stdout, and the contents of
/// `--ready-file`, written only once fixtures are loaded and the sockets accept.
///
/// `{"event":"listening","host":"127.0.0.1","port":54321,"url":"http://127.0.0.1:54321",
///   "apps":{"example":"/example"},"exposed":{},"pid":4242,"version":"0.1.0","adminTokenRequired":false}`
///
/// With `--https-port`, `"httpsPort"` and `"httpsUrl"` follow `"url"`.
public struct ReadyEvent: Sendable, Equatable {
    /// The address the main port is bound to, as given (`127.0.0.1`, `0.0.0.0`).
    public var host: String
    /// The main port the server got (a free one when asked for 0).
    public var port: Int
    /// The HTTPS port (`--https-port`), which serves what the main port does over TLS; nil
    /// without one.
    public var httpsPort: Int?
    /// App name → mount path, in load order.
    public var apps: [(name: String, mount: String)]
    /// The apps the fixtures hold that the server was started without (`--apps` left them out):
    /// a test asking for one is told to add it, not that it does not exist. Sorted.
    public var notLoaded: [String]
    /// App name → the port it is also served at the root of.
    public var exposed: [(name: String, port: Int)]
    /// The server's process id.
    public var pid: Int32
    /// The server's version (`MockStackVersion`).
    public var version: String
    /// Whether the control plane answers only requests carrying the admin token (``AdminAccess``).
    public var adminTokenRequired: Bool

    /// An announcement with these fields; `url` is made from `host` and `port`.
    public init(
        host: String, port: Int, httpsPort: Int? = nil, apps: [(name: String, mount: String)],
        notLoaded: [String] = [], exposed: [(name: String, port: Int)] = [], pid: Int32, version: String,
        adminTokenRequired: Bool = false
    ) {
        self.host = host
        self.port = port
        self.httpsPort = httpsPort
        self.apps = apps
        self.notLoaded = notLoaded
        self.exposed = exposed
        self.pid = pid
        self.version = version
        self.adminTokenRequired = adminTokenRequired
    }

    /// The base URL of the main port (wildcard binds are reported as loopback, which is where
    /// a local client reaches them).
    public var url: String { Self.url(host: host, port: port) }

    /// The base URL of the HTTPS port, when there is one: the host as in ``url``, which the
    /// certificate names when it is loopback.
    public var httpsURL: String? { httpsPort.map { Self.url(host: host, port: $0, scheme: "https") } }

    /// The base URL of an app: the main URL plus its mount.
    public func url(for app: String) -> String? {
        if let mount = apps.first(where: { $0.name == app })?.mount { return url + mount }
        return nil
    }

    static func url(host: String, port: Int, scheme: String = "http") -> String {
        let reachable =
            switch host {
            case "0.0.0.0", "": "127.0.0.1"
            case "::": "::1"
            default: host
            }
        return scheme + "://" + (reachable.contains(":") ? "[\(reachable)]" : reachable) + ":\(port)"
    }

    /// The announcement as JSON, keys in the order the ready line writes them; `httpsPort` and
    /// `httpsUrl` only with an HTTPS port, `notLoaded` only when `--apps` left some out.
    public var json: JSONValue {
        var object: JSONObject = [
            "event": "listening",
            "host": .string(host),
            "port": .number(JSONNumber(port)),
            "url": .string(url),
        ]
        if let httpsPort, let httpsURL {
            object["httpsPort"] = .number(JSONNumber(httpsPort))
            object["httpsUrl"] = .string(httpsURL)
        }
        object["apps"] = .object(JSONObject(apps.map { (key: $0.name, value: .string($0.mount)) }))
        if !notLoaded.isEmpty { object["notLoaded"] = .array(notLoaded.map(JSONValue.string)) }
        let rest: JSONObject = [
            "exposed": .object(
                JSONObject(
                    exposed.map {
                        (
                            key: $0.name,
                            value: [
                                "port": .number(JSONNumber($0.port)),
                                "url": .string(Self.url(host: host, port: $0.port)),
                            ]
                        )
                    })),
            "pid": .number(JSONNumber(Int(pid))),
            "version": .string(version),
            "adminTokenRequired": .bool(adminTokenRequired),
        ]
        object.merge(rest)
        return .object(object)
    }

    /// The single line written to stdout, newline included.
    public var line: String { json.jsonText + "\n" }

    /// Equal when their JSON is.
    public static func == (lhs: ReadyEvent, rhs: ReadyEvent) -> Bool { lhs.json == rhs.json }
}

extension ReadyEvent {
    /// Parses a ready line (as a spawning test helper reads it from the child's stdout).
    public init?(line: String) {
        guard let json = try? JSONParser().parse(line).root, json["event"]?.stringValue == "listening",
            let host = json["host"]?.stringValue, let port = json["port"]?.intValue,
            let apps = json["apps"]?.objectValue
        else { return nil }
        self.host = host
        self.port = port
        self.httpsPort = json["httpsPort"]?.intValue
        self.apps = apps.compactMap { member in member.value.stringValue.map { (name: member.key, mount: $0) } }
        self.notLoaded = json["notLoaded"]?.arrayValue?.compactMap(\.stringValue) ?? []
        self.exposed = (json["exposed"]?.objectValue ?? [:]).compactMap { member in
            member.value["port"]?.intValue.map { (name: member.key, port: $0) }
        }
        self.pid = Int32(json["pid"]?.intValue ?? 0)
        self.version = json["version"]?.stringValue ?? ""
        self.adminTokenRequired = json["adminTokenRequired"]?.boolValue ?? false
    }
}
