import ArgumentParser
import MockStack
import MockStackCore
import MockStackServiceStack

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mockstack codegen swift|python|typescript --app test [--option Key=Value …]`: the DTO file
/// `/types/{language}` would serve, without a running server.
struct Codegen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codegen",
        abstract: "Print an app's generated DTOs (as GET {app}/types/{language} serves them), offline.",
        usage: """
            mockstack codegen swift|python|typescript --app <app>
                  [--option <key=value> ...] [--fixtures <folder>]
                  [--base-url <url>] [--fixed-date <date>]
            """)

    @Argument(help: "The language: swift, python (py) or typescript (ts).")
    var language: String

    @Option(help: "The app (its folder name).")
    var app: String

    @OptionGroup var fixtures: FixturesOption

    @Option(
        name: .customLong("option"),
        help: ArgumentHelp("A query option, as in /types/{language}?Key=Value (repeatable).", valueName: "key=value"))
    var options: [String] = []

    @Option(help: "The header's BaseUrl. [default: http://127.0.0.1:8080/APP]")
    var baseUrl: String?

    @Option(
        help: ArgumentHelp(
            "The header's Date, as an ISO-8601 time (for golden files). [default: now]", valueName: "date"))
    var fixedDate: String?

    func run() throws {
        guard let language = DTOLanguage(name: language) else {
            let hint = DidYouMean.hint(
                for: self.language, among: DTOLanguage.allCases.map(\.rawValue), plural: "languages")
            printError("mockstack: unknown language '\(self.language)': \(hint) (see 'mockstack codegen --help')")
            throw ExitCode(2)
        }
        let folders = try fixtures.folders()
        var query: [(name: String, value: String)] = []
        for option in options {
            guard let equals = option.firstIndex(of: "=") else {
                printError("mockstack: --option expects Key=Value, got '\(option)'")
                throw ExitCode(2)
            }
            let name = String(option[..<equals])
            // The server itself ignores an unknown query option, as ServiceStack does; given
            // here by hand, it is a typo.
            guard language.options.contains(where: { $0.lowercased() == name.lowercased() }) else {
                let hint = DidYouMean.hint(
                    for: name, among: language.options, plural: "\(language.displayName) DTO options")
                printError("mockstack: --option \(name): not a \(language.displayName) DTO option; \(hint)")
                throw ExitCode(2)
            }
            query.append((name, String(option[option.index(after: equals)...])))
        }
        let text = try loadedOrExit(ending: "no DTOs generated") {
            try CodeGeneration.dtos(
                language, fixtures: folders, app: app, options: query,
                baseURL: baseUrl ?? "http://127.0.0.1:8080/\(app)", fixedDate: fixedDate)
        }
        print(text, terminator: "")
    }
}
