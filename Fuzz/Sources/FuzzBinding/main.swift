import FuzzSupport
import MockStackCore

/// The ServiceStack request binder: query strings, form bodies and JSV values coerced into the
/// test host's DTOs (Hello's string, ThrowValidation's int and strings, EchoTypes' every number,
/// date and TimeSpan type, whose limits the seeds sit on). The input is split at
/// its first NUL into a query and a body; a bad value must be a 4xx, never a 5xx.
let app = Fuzz.app("test")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinding(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(start, count)
    let cut = bytes.firstIndex(of: 0) ?? bytes.count
    let query = String(decoding: bytes[..<cut], as: UTF8.self).filter { $0 != "#" && $0 != " " && !$0.isNewline }
    let body = Array(bytes[min(bytes.count, cut + 1)...])
    let form: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
    let json: HTTPHeaders = ["Content-Type": "application/json"]
    for target in ["/api/ThrowValidation?" + query, "/api/Hello?" + query, "/json/reply/ThrowValidation?" + query, "/api/EchoTypes?" + query] {
        Fuzz.requireNoServerError(Fuzz.ask(app, .get, target), "GET \(target)")
    }
    Fuzz.requireNoServerError(Fuzz.ask(app, .post, "/api/ThrowValidation", headers: form, body: body), "a form POST")
    Fuzz.requireNoServerError(Fuzz.ask(app, .post, "/api/ThrowValidation", headers: json, body: body), "a JSON POST")
    Fuzz.requireNoServerError(Fuzz.ask(app, .post, "/api/Hello?" + query, headers: form, body: body), "a form POST with a query")
    Fuzz.requireNoServerError(Fuzz.ask(app, .post, "/api/EchoTypes", headers: form, body: body), "an EchoTypes form POST")
    Fuzz.requireNoServerError(Fuzz.ask(app, .post, "/api/EchoTypes", headers: json, body: body), "an EchoTypes JSON POST")
    Fuzz.requireNoServerError(Fuzz.ask(app, .post, "/api/EchoTypes", headers: ["Content-Type": "application/jsv"], body: body),
                              "an EchoTypes JSV POST")
    return 0
}
