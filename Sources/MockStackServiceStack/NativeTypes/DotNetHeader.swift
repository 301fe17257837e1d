import MockStackCore

/// The option lines of a .NET file's header (C#, F#, VB.NET; docs/servicestack.md#generated-dtos),
/// after its opening: each option as the generator's configuration holds it (the query's value
/// over the host's over ServiceStack's defaults), behind the comment prefix unless the query gave
/// it a value.
enum DotNetHeader {
    /// The options the .NET generators write as `True`/`False`.
    static let flagOptions: Set<String> = [
        "MakePartial", "MakeVirtual", "MakeInternal", "MakeDataContractsExtensible", "AddNullableAnnotations",
        "AddReturnMarker", "AddDescriptionAsComments", "AddDataContractAttributes", "AddIndexesToDataMembers",
        "AddGeneratedCodeAttributes", "AddResponseStatus", "InitializeCollections", "ExportValueTypes",
    ]

    /// One line per option of `names`, in that order.
    /// - Parameters:
    ///   - commentPrefix: what disables an option the query did not give (`//`, `'''`);
    ///   - givenPrefix: what precedes one it gave (nothing, or VB.NET's `'`);
    ///   - typesSeparator: what joins `IncludeTypes` and `ExcludeTypes` (VB.NET's is `, `);
    ///   - oneLine: how the language keeps a value on its line and inside the header's comment.
    static func optionLines(
        _ names: [String], options: NativeTypesOptions, commentPrefix: String, givenPrefix: String = "",
        typesSeparator: String = ",", oneLine: (String) -> String
    ) -> [String] {
        names.map { name in
            let value: String
            switch name {
            case _ where flagOptions.contains(name): value = options.flag(name) ? "True" : "False"
            case "IncludeTypes", "ExcludeTypes": value = options.list(name).joined(separator: typesSeparator)
            case "AddNamespaces": value = options.list(name).joined(separator: ",")
            case "AddImplicitVersion": value = options.text(name).flatMap { Int($0) }.map(String.init) ?? ""
            default: value = options.text(name) ?? ""
            }
            return (options.hasValue(name) ? givenPrefix : commentPrefix) + name + ": " + oneLine(value)
        }
    }
}
