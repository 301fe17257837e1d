public import MockStackCore
import MockStackServiceStack

extension AppLoader {
    /// Every app kind mockstack ships: `static` and `servicestack`.
    public static var standard: AppLoader {
        AppLoader(kinds: [StaticAppKind(), ServiceStackAppKind()])
    }
}
