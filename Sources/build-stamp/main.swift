// build-stamp PACKAGE_DIR OUTPUT: writes the Swift file that embeds mockstack's version (the
// VERSION file), the abbreviated commit HEAD names in a git checkout, and the package's folder.
// Run by the BuildStamp build-tool plugin; reads git's files directly, so git need not be installed.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    fatalError("usage: build-stamp PACKAGE_DIR OUTPUT")
}
let package = URL(fileURLWithPath: arguments[1])
let output = URL(fileURLWithPath: arguments[2])

func read(_ url: URL) -> String? {
    (try? String(contentsOf: url, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The commit HEAD names: a detached HEAD holds it; a branch's file or packed-refs line does.
func headCommit() -> String? {
    let git = package.appendingPathComponent(".git")
    guard let head = read(git.appendingPathComponent("HEAD")) else { return nil }
    guard head.hasPrefix("ref: ") else { return head }
    let reference = String(head.dropFirst(5))
    if let loose = read(git.appendingPathComponent(reference)) { return loose }
    let packed = read(git.appendingPathComponent("packed-refs")) ?? ""
    for line in packed.split(separator: "\n") where line.hasSuffix(" " + reference) {
        return String(line.prefix { $0 != " " })
    }
    return nil
}

/// A Swift string literal for any path (quotes and backslashes escaped).
func literal(_ text: String) -> String {
    "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
}

guard let version = read(package.appendingPathComponent("VERSION")), !version.isEmpty else {
    fatalError("build-stamp: \(package.path)/VERSION is missing or empty")
}
let commit = headCommit().flatMap { $0.count >= 7 && $0.allSatisfy(\.isHexDigit) ? String($0.prefix(7)) : nil }
let source = """
    // Written by the BuildStamp plugin at build time; do not edit.
    let embeddedVersion = \(literal(version))
    let embeddedCommit: String? = \(commit.map { "\"\($0)\"" } ?? "nil")
    let embeddedPackageDirectory = \(literal(package.path))

    """
if read(output) != source.trimmingCharacters(in: .whitespacesAndNewlines) {
    try source.write(to: output, atomically: true, encoding: .utf8)
}
