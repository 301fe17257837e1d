import FuzzSupport
import MockStackCore

/// The Feathers query engine behind find: qs parsing, the query schema, `$limit`/`$skip`/
/// `$sort`/`$select`, operators and `$or`, over the people services (one with a schema and
/// pagination). Any query is a page or a 4xx in Feathers' format, never a 5xx.
let app = Fuzz.app("feathers")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeathersQuery(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let query = Fuzz.text(start, count).filter { $0 != "#" && $0 != " " && !$0.isNewline }
    for service in ["/people", "/people-paginated"] {
        let response = Fuzz.ask(app, .get, service + "?" + query)
        Fuzz.requireNoServerError(response, "GET \(service)?\(query)")
        Fuzz.require((try? JSONParser().parse(response.body)) != nil, "GET \(service)?\(query) answered with a body that is not JSON")
    }
    // Multi patch and remove take the same query; the store is reset so records stay few.
    Fuzz.requireNoServerError(Fuzz.ask(app, .delete, "/people-paginated?" + query), "DELETE /people-paginated?\(query)")
    app.reset()
    return 0
}
