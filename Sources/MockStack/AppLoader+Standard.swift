public import MockStackCore
import MockStackFeathers
import MockStackServiceStack

extension AppLoader {
    /// Every app kind mockstack ships: `static`, `servicestack` and `feathers`.
    public static var standard: AppLoader { standard(typesDate: nil) }

    /// Every app kind (a ServiceStack app with the answers `mockstack record` kept), with generated DTO files dated `typesDate` when given (`--fixed-date`).
    static func standard(typesDate: String?) -> AppLoader {
        AppLoader(kinds: [StaticAppKind(), RecordedServiceStackKind(emulation: ServiceStackAppKind(typesDate: typesDate.flatMap { DateTimeValue(parsing: $0) })),
                          FeathersAppKind()])
    }
}
