import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The host-wide settings of an emulated ServiceStack server (docs/servicestack.md#the-hosts).
public struct HostSettings: Sendable {
    /// The serializer of `/api/*` responses.
    public var dialect: SerializerSettings.Dialect
    /// ServiceStack's `DebugMode`: error bodies carry a `stackTrace`.
    public var debugMode: Bool
    /// The service class named in errors when an operation does not name its own.
    public var serviceClass: String
    /// Binding limits.
    public var limits: RequestInput.Limits
    /// The current time; replaceable so tests see fixed dates.
    public var clock: @Sendable () -> DateTimeValue
    /// `SwiftVersion:` in `/types/swift` headers (`6.0` for the test host and AI Server, `5.0` for TechStacks).
    public var swiftVersion = "6.0"
    /// The `Date:` of generated DTO files, when fixed (golden files); else the clock's time.
    public var typesDate: DateTimeValue?
    /// The cross-origin headers the host sends, as its real one is set up; none when nil.
    public var cors: CorsPolicy?

    public init(
        dialect: SerializerSettings.Dialect = .serviceStackText, debugMode: Bool = false,
        serviceClass: String = "MyServices",
        limits: RequestInput.Limits = RequestInput.Limits(),
        clock: @escaping @Sendable () -> DateTimeValue = HostSettings.systemClock
    ) {
        self.dialect = dialect
        self.debugMode = debugMode
        self.serviceClass = serviceClass
        self.limits = limits
        self.clock = clock
    }

    /// The system's wall clock, in UTC.
    public static let systemClock: @Sendable () -> DateTimeValue = {
        let seconds = Date().timeIntervalSince1970
        return DateTimeValue(ticks: Int64((seconds * 10_000_000).rounded(.down)), kind: .utc)
    }
}

/// What every operation of an app shares: its types, how values are read, its host settings.
/// A class, shared by reference for the same reason as ``ServiceOperation``.
public final class AppContext: Sendable {
    public let catalog: TypeCatalog
    public let coercion: ValueCoercion
    public let host: HostSettings
    /// Authentication, for hosts whose manifest configures it.
    public let auth: AuthService?
    /// Server Events, for hosts whose manifest turns the feature on.
    public let serverEvents: ServerEventsHub?

    public init(
        catalog: TypeCatalog, host: HostSettings, auth: AuthService? = nil, serverEvents: ServerEventsHub? = nil
    ) {
        self.catalog = catalog
        self.coercion = ValueCoercion(catalog: catalog)
        self.host = host
        self.auth = auth
        self.serverEvents = serverEvents
    }

    /// The same app with state of its own, in its fixture state (for a session): sign-ins,
    /// invalidated tokens, Server Events subscriptions.
    public func forSession() -> AppContext {
        AppContext(catalog: catalog, host: host, auth: auth?.freshCopy(), serverEvents: serverEvents?.forSession())
    }

    /// `11/21/2025 10:15:03 PM` for stack traces, formatted once per second.
    private let debugDate = Mutex<(second: Int64, text: String)>((Int64.min, ""))

    func debugDateText(_ now: DateTimeValue) -> String {
        let second = now.ticks.floorDivided(by: CivilTime.ticksPerSecond)
        if let cached = debugDate.withLock({ $0.second == second ? $0.text : nil }) { return cached }
        let text = now.dotNetDefaultText
        debugDate.withLock { $0 = (second, text) }
        return text
    }

    /// A writer for `dialect`, with a request's `?jsconfig=` scope applied.
    public func writer(
        _ dialect: SerializerSettings.Dialect, jsconfig: String?, emitEmptyCollections: Bool = true
    ) -> DTOWriter {
        var settings = SerializerSettings(dialect: dialect, emitEmptyCollections: emitEmptyCollections)
        if let jsconfig { settings = settings.applying(jsconfig: jsconfig) }
        return DTOWriter(catalog: catalog, settings: settings)
    }
}
