import MockStackCore

/// The verb a ServiceStack host routes and dispatches a request by: the request's own, unless
/// `X-Http-Method-Override` names another — from a header, else a query parameter, else a form
/// field, as ServiceStack's request wrappers read it (docs/servicestack.md#routing).
enum RequestVerb {
    static let overrideName = "X-Http-Method-Override"

    /// The verb, upper-cased (the methods' own names are upper-case already).
    static func of(_ request: HTTPRequest, input: RequestInput) -> String {
        (request.headers[overrideName] ?? input.parameter(overrideName))?.uppercased() ?? request.method.rawValue
    }
}
