import MockStackCore
public import MockStackServiceStack

/// DTO source generated offline, as a running server would serve it (`mockstack codegen`).
public enum CodeGeneration {
    /// The `/types/{language}` file of the ServiceStack app named `app` in `fixtures`.
    /// - Parameters:
    ///   - options: the query options (`IncludeTypes`, `AddResponseStatus`, …);
    ///   - baseURL: the header's `BaseUrl:` (what a client would have fetched from);
    ///   - fixedDate: the header's `Date:` (ISO-8601), for golden files; nil: now.
    /// - Throws: ``FixtureErrors`` for broken fixtures, ``MockStackError`` for an unknown or
    ///   non-ServiceStack app.
    public static func dtos(
        _ language: DTOLanguage, fixtures: FixtureFolders, app name: String, options: [(name: String, value: String)],
        baseURL: String, fixedDate: String? = nil
    ) throws -> String {
        try FixedDate.check(fixedDate)
        let apps = try AppLoader.standard(typesDate: fixedDate).load(
            from: FixtureFolders.narrowed(fixtures.source(), to: [name]))
        guard
            let app = (apps.first as? RecordedAnswersApp)?.emulation as? ServiceStackApp ?? apps.first
                as? ServiceStackApp
        else {
            throw MockStackError(
                """
                app '\(name)' is not a ServiceStack app: /types/\(language.rawValue) is generated for ServiceStack \
                apps only
                """
            )
        }
        return app.dtos(language, query: options, baseURL: baseURL)
    }
}
