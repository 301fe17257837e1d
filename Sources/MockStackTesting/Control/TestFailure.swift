#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Where a failed expectation is reported: under Swift Testing as an issue of the running
/// test, otherwise as an XCTest failure — either way at the caller's file and line.
struct CallerLocation: Sendable {
    var fileID: String
    var filePath: StaticString
    var line: UInt
    var column: UInt

    func fail(_ message: String) {
        #if canImport(Testing)
        if Test.current != nil {
            let location = SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
            Issue.record(Comment(rawValue: message), sourceLocation: location)
            return
        }
        #endif
        #if canImport(XCTest)
        XCTFail(message, file: filePath, line: line)
        #else
        print("\(filePath):\(line): error: \(message)")
        #endif
    }
}
