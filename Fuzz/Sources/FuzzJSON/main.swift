import FuzzSupport
import MockStackCore

/// The JSON reader (request bodies, fixtures, stubs): whatever it accepts must write back out
/// and read again to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(start, count)
    guard let value = try? JSONParser().parse(bytes).root else { return 0 }
    let written = value.encoded()
    guard let again = try? JSONParser().parse(written).root else {
        Fuzz.require(false, "its own output does not parse: \(String(decoding: written.prefix(300), as: UTF8.self))")
        return 0
    }
    Fuzz.require(again == value, "a round trip changed the value")
    _ = try? JSONParser().parse(bytes, recordPositions: true)
    return 0
}
