import MockStackCore

extension BehaviourReader {
    static let techStacksKeys: Set<String> = ["view", "technologies", "stacks", "users", "organizations"]

    /// `{"behaviour": "techStacks", "view": "overview"}`, with the data files named by
    /// `technologies`, `stacks`, `users` and `organizations` (defaults: those names + `.json`).
    /// Operations naming the same files share one ``TechStacksSite``.
    func techStacks(at pointer: String) -> (any OperationBehaviour)? {
        guard let viewName = manifest.string(pointer + "/view", required: true) else { return nil }
        guard let view = TechStacksBehaviour.View(rawValue: viewName) else {
            let names = TechStacksBehaviour.View.allCases.map(\.rawValue).joined(separator: ", ")
            manifest.report("unknown view '\(viewName)' (expected one of: \(names))", at: pointer + "/view")
            return nil
        }
        func file(_ key: String) -> (name: String, pointer: String) {
            let at = pointer + "/" + key
            return (manifest.string(at) ?? key + ".json", manifest.value(at: at) == nil ? pointer : at)
        }
        let technologies = file("technologies")
        let stacks = file("stacks")
        let users = file("users")
        let organizations = file("organizations")
        let key = ["techStacks", technologies.name, stacks.name, users.name, organizations.name].joined(
            separator: "\u{0}")
        let site: TechStacksSite? = dataSets.shared(key) { () -> TechStacksSite? in
            guard let technologyRows = dataSets.rows(of: technologies.name, as: "Technology", at: technologies.pointer),
                let stackRows = dataSets.rows(of: stacks.name, as: "TechStackDetails", at: stacks.pointer),
                let userRows = dataSets.rows(of: users.name, as: "UserInfo", at: users.pointer),
                let organizationRows = dataSets.rows(
                    of: organizations.name, as: "OrganizationInfo", at: organizations.pointer)
            else { return nil }
            let stacks = stackRows.map { details in
                var row = details
                row["TechnologyChoices"] = .null
                return TechStacksStack(
                    row: DTOObject(row.members.filter { !$0.value.isNull }),
                    choices: (details["TechnologyChoices"].listValue ?? []).compactMap(\.objectValue))
            }
            do throws(TechStacksDataError) {
                return try TechStacksSite(
                    technologies: technologyRows, stacks: stacks, users: userRows, organizations: organizationRows)
            } catch {
                manifest.report("the TechStacks data is inconsistent: \(error.message)", at: pointer)
                return nil
            }
        }
        guard let site else { return nil }
        let listsTiers = view == .appOverview || view == .config
        return TechStacksBehaviour(
            view: view, site: site,
            tiers: listsTiers ? options(of: "TechnologyTier", withValues: true, at: pointer) : [],
            postTypes: view == .config ? options(of: "PostType", withValues: false, at: pointer) : [],
            flagTypes: view == .config ? options(of: "FlagType", withValues: false, at: pointer) : [])
    }

    /// `Option`s for an enum's members: `name`, `title` (its `[Description]`, else the name)
    /// and, for tiers, `value`.
    private func options(of enumName: String, withValues: Bool, at pointer: String) -> [DTOValue] {
        guard let type = coercion.catalog.definition(named: enumName), type.isEnum else {
            manifest.report(
                "the metadata declares no enum '\(enumName)', which the TechStacks services list", at: pointer)
            return []
        }
        return type.enumNames.enumerated().map { index, name in
            var option = DTOObject([
                ("Name", .string(name)),
                ("Title", .string(type.enumDescriptions.indices.contains(index) ? type.enumDescriptions[index] : name)),
            ])
            if withValues { option["Value"] = .enumMember(name) }
            return .object(option)
        }
    }
}
