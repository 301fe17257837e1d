import FuzzSupport
import MockStackCore
import MockStackServiceStack

/// AutoQuery's convention matcher and query builder over techstacks' FindTechnologies: any
/// query string is a page of results or a 4xx (an unknown value, a bad list), never a 5xx.
/// Each parameter name is also resolved against Technology's fields on its own.
let app = Fuzz.app("techstacks")
let resolver = QueryParameterResolver(fields: ["Id", "Name", "VendorName", "VendorUrl", "ProductUrl", "LogoUrl", "Description",
                                               "Created", "CreatedBy", "LastModified", "LastModifiedBy", "IsLocked", "Tier",
                                               "ViewCount", "FavCount", "Slug"])

nonisolated(unsafe) var sample = 0

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAutoQuery(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let query = Fuzz.text(start, count).filter { $0 != "#" && $0 != " " && !$0.isNewline }
    for pair in query.split(separator: "&").prefix(32) {
        let name = String(pair.prefix { $0 != "=" })
        if let term = resolver.resolve(name) {
            Fuzz.require(resolver.field(named: term.field) != nil, "\(name) resolved to the unknown field \(term.field)")
        }
    }
    // A parameter no DTO reads, new each time, keeps each answer out of FindTechnologies'
    // response cache (which is keyed by the whole target).
    sample += 1
    let response = Fuzz.ask(app, .get, "/api/FindTechnologies?" + query + "&FuzzSample=\(sample)")
    Fuzz.requireNoServerError(response, "FindTechnologies?\(query)")
    return 0
}
