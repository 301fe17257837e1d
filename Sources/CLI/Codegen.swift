import MockStack
import MockStackCore
import MockStackServiceStack

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mockstack codegen LANGUAGE --app test [--option Key=Value …]`: the DTO file
/// `/types/{language}` would serve, without a running server.
struct Codegen: Subcommand {
    static let name = "codegen"
    static let abstract = "Print an app's generated DTOs (as GET {app}/types/{language} serves them), offline."

    var language = ""
    var app = ""
    var fixtures = FixturesOption()
    var options: [String] = []
    var baseUrl: String?
    var fixedDate: String?

    static let arguments: CommandArguments<Self>? = .one(
        \.language, valueName: "language", help: "The language: \(DTOLanguage.namesForHelp).")

    static let options: [CommandOption<Self>] =
        [.value("app", \.app, required: true, help: "The app (its folder name).")]
        + FixturesOption.options.map { $0.lifted(into: \Self.fixtures) }
        + [
            .repeating(
                "option", \.options, valueName: "key=value",
                help: "A query option, as in /types/{language}?Key=Value (repeatable)."),
            .value("base-url", \.baseUrl, help: "The header's BaseUrl. [default: http://127.0.0.1:8080/APP]"),
            .value(
                "fixed-date", \.fixedDate, valueName: "date",
                help: "The header's Date, as an ISO-8601 time (for golden files). [default: now]"),
        ]

    func run() throws {
        guard let language = DTOLanguage(name: language) else {
            let hint = DidYouMean.hint(
                for: self.language, among: DTOLanguage.allCases.map(\.rawValue), plural: "languages")
            printError("mockstack: unknown language '\(self.language)': \(hint) (see 'mockstack codegen --help')")
            throw ExitStatus(2)
        }
        let folders = try fixtures.folders()
        var query: [(name: String, value: String)] = []
        for option in options {
            guard let equals = option.firstIndex(of: "=") else {
                printError("mockstack: --option expects Key=Value, got '\(option)'")
                throw ExitStatus(2)
            }
            let name = String(option[..<equals])
            // The server itself ignores an unknown query option, as ServiceStack does; given
            // here by hand, it is a typo.
            guard language.options.contains(where: { $0.lowercased() == name.lowercased() }) else {
                let hint = DidYouMean.hint(
                    for: name, among: language.options, plural: "\(language.displayName) DTO options")
                printError("mockstack: --option \(name): not a \(language.displayName) DTO option; \(hint)")
                throw ExitStatus(2)
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
