// build-stamp PACKAGE_DIR OUTPUT: writes the Swift file that embeds, at build time, the
// abbreviated git commit the package's checkout is at (nil outside a checkout). Run by the
// BuildStamp build-tool plugin; the file is rewritten only when its text changes.
import Foundation

// An explicit entry point, not top-level code: a build with `--sanitize=fuzzer` (make fuzz)
// compiles every executable as a library, and top-level statements would not compile.
@main
enum BuildStamp {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3 else {
            fatalError("usage: build-stamp PACKAGE_DIR OUTPUT")
        }
        let output = URL(fileURLWithPath: arguments[2])
        let commit = GitCheckout(package: URL(fileURLWithPath: arguments[1]))?.commit
            .flatMap { $0.count >= 7 && $0.allSatisfy(\.isHexDigit) ? String($0.prefix(7)) : nil }
        let source = """
            // Written by the BuildStamp plugin at build time; do not edit.
            let buildCommit: String? = \(commit.map { "\"\($0)\"" } ?? "nil")

            """
        if GitCheckout.read(output) != source.trimmingCharacters(in: .whitespacesAndNewlines) {
            try source.write(to: output, atomically: true, encoding: .utf8)
        }
    }
}
