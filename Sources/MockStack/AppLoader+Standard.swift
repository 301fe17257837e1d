public import MockStackCore
import MockStackFeathers
import MockStackServiceStack

extension AppLoader {
    /// Every app kind mockstack ships: `static`, `servicestack` and `feathers`.
    public static var standard: AppLoader { standard(typesDate: nil) }

    /// Every app kind (a ServiceStack app with the answers `mockstack record` kept), with generated
    /// DTO files dated `typesDate` when given (`--fixed-date`).
    static func standard(typesDate: String?) -> AppLoader {
        AppLoader(kinds: [
            StaticAppKind(),
            RecordedServiceStackKind(
                emulation: ServiceStackAppKind(typesDate: typesDate.flatMap { DateTimeValue(parsing: $0) })),
            FeathersAppKind(),
        ])
    }

    /// What a load cache hit's app of a standard kind answers when its build after the ready
    /// line fails: a 500 in its own server's format (plain for a static app).
    @Sendable static func unavailable(kind: String, message: String) -> HTTPResponse {
        switch kind {
        case ServiceStackAppKind.kindName: ServiceStackAppKind.unavailable(message)
        case FeathersAppKind.kindName: FeathersAppKind.unavailable(message)
        default: PlainError.response(500, message)
        }
    }
}
