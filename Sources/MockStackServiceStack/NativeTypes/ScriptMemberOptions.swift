/// The options the script type writers (Python, TypeScript) read for every member, read once.
struct ScriptMemberOptions {
    /// `MakePropertiesOptional`.
    let makesPropertiesOptional: Bool
    /// `InitializeCollections`.
    let initializesCollections: Bool
    /// `AddDescriptionAsComments`.
    let addsDescriptions: Bool

    init(_ options: NativeTypesOptions) {
        makesPropertiesOptional = options.flag("MakePropertiesOptional")
        initializesCollections = options.flag("InitializeCollections")
        addsDescriptions = options.flag("AddDescriptionAsComments")
    }
}
