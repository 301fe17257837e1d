import Testing
@testable import MockStackCore

/// The multipart parser's header parameters: quoted values full of
/// backslashes read exactly, and the journal's summaries describe the same parts.
@Suite struct MultipartFormTests {
    static func body(_ disposition: String, content: String = "x", boundary: String = "b") -> [UInt8] {
        Array("--\(boundary)\r\nContent-Disposition: \(disposition)\r\nContent-Type: text/plain\r\n\r\n\(content)\r\n--\(boundary)--\r\n".utf8)
    }

    @Test(arguments: [
        (#"form-data; name="a"; filename="b.txt""#, "a", "b.txt"),
        (#"form-data; name="a\"b"; filename="c;d""#, #"a"b"#, "c;d"),
        (#"form-data; name="\\\\"; filename="\a\b""#, #"\\"#, "ab"),
        (#"form-data; name=plain ; filename= spaced.txt "#, "plain", "spaced.txt"),
        (#"form-data;name="a";filename="trailing\"#, "a", #"trailing\"#),
    ])
    func dispositionParametersAreRead(disposition: String, name: String, fileName: String) throws {
        let form = try MultipartForm(body: Self.body(disposition), boundary: "b", maximumParts: 10)
        #expect(form.parts.map(\.name) == [name])
        #expect(form.parts.map(\.fileName) == [fileName])
        #expect(form.parts.map(\.contentType) == ["text/plain"])
        #expect(form.parts.map(\.body) == [Array("x".utf8)])
    }

    @Test func aValueOfBackslashesReadsAsHalfAsMany() throws {
        // 16,000 backslashes escape one another: 8,000 remain (the input that froze the loop).
        let backslashes = String(repeating: "\\", count: 16_000)
        let form = try MultipartForm(body: Self.body("form-data; name=\"f\"; filename=\"\(backslashes)\""), boundary: "b", maximumParts: 10)
        #expect(form.parts.first?.fileName == String(repeating: "\\", count: 8_000))
    }

    @Test func summariesDescribeThePartsWithoutTheirBytes() throws {
        var body: [UInt8] = []
        for index in 0..<3 {
            body += Array("--b\r\ncontent-disposition: form-data; name=\"f\(index)\"\(index == 1 ? "; filename=\"a.wav\"" : "")\r\n\r\n".utf8)
            body += Array(repeating: UInt8(ascii: "z"), count: index * 10) + Array("\r\n".utf8)
        }
        body += Array("--b--".utf8)
        let form = try MultipartForm(body: body, boundary: "b", maximumParts: 3)
        let summaries = try MultipartForm.summaries(of: body, boundary: "b", maximumParts: 3)
        #expect(summaries == form.parts.map { MultipartForm.Summary(name: $0.name, fileName: $0.fileName, contentType: $0.contentType, size: $0.body.count) })
        #expect(summaries.map(\.size) == [0, 10, 20] && summaries[1].fileName == "a.wav")
        #expect(throws: MultipartForm.Problem(description: "the multipart body has more than 2 parts")) {
            try MultipartForm.summaries(of: body, boundary: "b", maximumParts: 2)
        }
    }
}
