/// A route variable that no property of its request binds (`/hellotypes/{Name}` on a
/// `HelloTypes` without `Name`). It refuses the app unless the manifest names it in
/// `operations.{Op}.unboundRouteVariables`, for a route the real host publishes as it is; a
/// request by such a route is then refused as the host refuses it (``RequestBinder``).
struct UnboundRouteVariable: Sendable {
    let operation: String
    let variable: String
    /// The refusal, at the route's path in the metadata document.
    let problem: MetadataError
}
