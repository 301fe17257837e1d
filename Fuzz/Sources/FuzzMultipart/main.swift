import FuzzSupport
import MockStackCore

/// The multipart/form-data parser. The input's first line is the Content-Type's boundary
/// parameter; the rest is the body. Parts it finds lie inside the body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(start, count)
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
    let contentType = "multipart/form-data; boundary=" + String(decoding: bytes[..<newline], as: UTF8.self)
    let body = Array(bytes[min(bytes.count, newline + 1)...])
    guard let boundary = MultipartForm.boundary(in: contentType) else { return 0 }
    guard let form = try? MultipartForm(body: body, boundary: boundary, maximumParts: 64) else { return 0 }
    Fuzz.require(form.parts.count <= 64, "\(form.parts.count) parts over the limit of 64")
    Fuzz.require(form.parts.reduce(0) { $0 + $1.body.count } <= body.count, "parts hold more bytes than the body")
    return 0
}
