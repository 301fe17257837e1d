import FuzzSupport
import MockStackCore
import MockStackFeathers

/// Feathers' qs parser: any query string gives an object within qs's limits (1,000
/// parameters, depth 5, arrays up to index 20), and that object writes out as JSON.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQueryString(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = Fuzz.text(start, count)
    let parser = QSParser()
    let parsed = parser.parse(text)
    Fuzz.require(parsed.count <= parser.parameterLimit, "\(parsed.count) top-level keys")
    let written = JSONValue.object(parsed).encoded()
    Fuzz.require((try? JSONParser().parse(written)) != nil, "the parsed query does not write out as JSON")
    return 0
}
