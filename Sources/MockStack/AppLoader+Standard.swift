public import MockStackCore
import MockStackFeathers
import MockStackServiceStack

extension AppLoader {
    /// Every app kind mockstack ships: `static`, `servicestack` and `feathers`.
    public static var standard: AppLoader { standard(typesDate: nil) }

    /// Every app kind, with generated DTO files dated `typesDate` when given (`--fixed-date`).
    static func standard(typesDate: String?) -> AppLoader {
        AppLoader(kinds: [StaticAppKind(), ServiceStackAppKind(typesDate: typesDate.flatMap { DateTimeValue(parsing: $0) }), FeathersAppKind()])
    }
}
