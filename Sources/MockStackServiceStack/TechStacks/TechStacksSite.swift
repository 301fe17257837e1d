import MockStackCore
import Synchronization

/// The techstacks.io data — technologies, the stacks that choose them, the stacks' owners and
/// the organizations — with everything the site's overview services rank from it (docs/servicestack.md#techstacks).
///
/// The data is checked at load (ids, slugs, choices: ``init(technologies:stacks:users:organizations:)``
/// throws). It cannot change while the server runs, so every ranking is worked out once, the
/// way the real services compute it per cache period, but only when a request first needs one
/// (``rankings``): a server that never answers an overview does not pay for them at start-up.
public final class TechStacksSite: Sendable {
    /// `Technology` rows, in file order.
    public let technologies: [DTOObject]
    /// `TechnologyStack` rows (without their choices), in file order.
    public let stacks: [DTOObject]
    /// Each stack's choices: which technology, and the choice's own fields.
    let choices: [[Choice]]
    /// `OrganizationInfo` rows.
    let organizations: [DTOObject]

    private let technologyById: [Int64: Int]
    private let technologyBySlug: [String: Int]
    private let stackById: [Int64: Int]
    private let stackBySlug: [String: Int]
    /// The stacks choosing each technology, in file order.
    private let stacksChoosing: [Int64: [Int]]
    /// `UserInfo` rows, for ``Rankings/topUsers``.
    private let users: [DTOObject]
    private let builtRankings = Mutex<Rankings?>(nil)

    /// What the overview services list, worked out from the checked data.
    final class Rankings: Sendable {
        /// `TechnologyInfo` of every technology chosen by at least one stack, most chosen first
        /// (ties by id, which the real query leaves to the database).
        let ranking: [(info: DTOObject, stacksCount: Int)]
        /// `UserInfo` of the stacks' owners, most stacks (counting favourites) first.
        let topUsers: [DTOObject]
        /// Stack indices, most recently modified first.
        let stacksByLastModified: [Int]
        /// Technology indices, most recently modified first.
        let technologiesByLastModified: [Int]
        /// Stack indices, most viewed first.
        let stacksByViews: [Int]
        /// The stacks choosing each technology, most recently modified first.
        let stacksByTechnology: [Int64: [Int]]

        init(_ site: TechStacksSite) {
            technologiesByLastModified = AutoQueryEngine.sortedIndices(
                of: site.technologies, by: [("LastModified", true), ("Id", false)])
            // Ties, which the real queries leave to the database, go by ascending id.
            stacksByLastModified = AutoQueryEngine.sortedIndices(
                of: site.stacks, by: [("LastModified", true), ("Id", false)])
            stacksByViews = AutoQueryEngine.sortedIndices(of: site.stacks, by: [("ViewCount", true), ("Id", false)])
            let recency = Dictionary(uniqueKeysWithValues: stacksByLastModified.enumerated().map { ($1, $0) })
            let stacksByTechnology = site.stacksChoosing.mapValues { $0.sorted { recency[$0]! < recency[$1]! } }
            self.stacksByTechnology = stacksByTechnology
            ranking = site.technologies
                .compactMap { technology -> (id: Int64, info: DTOObject, stacksCount: Int)? in
                    guard let id = technology.id, let count = stacksByTechnology[id]?.count else { return nil }
                    return (id, TechStacksSite.technologyInfo(technology, stacksCount: count), count)
                }
                .sorted { $0.stacksCount != $1.stacksCount ? $0.stacksCount > $1.stacksCount : $0.id < $1.id }
                .map { ($0.info, $0.stacksCount) }
            topUsers = TechStacksSite.rankUsers(stacks: site.stacks, users: site.users)
        }
    }

    /// The rankings, worked out by the first request that reads one.
    var rankings: Rankings {
        builtRankings.withLock { built in
            if let built { return built }
            let rankings = Rankings(self)
            built = rankings
            return rankings
        }
    }

    /// The id of the TechStacks site's own stack, which `Overview` lists first.
    static let siteStackId: Int64 = 1

    /// Builds the site, or throws the first inconsistency (a choice of an unknown technology,
    /// a duplicate id or slug) as a message for the fixture's diagnostics.
    public init(
        technologies: [DTOObject], stacks: [TechStacksStack], users: [DTOObject], organizations: [DTOObject]
    ) throws(TechStacksDataError) {
        self.technologies = technologies
        self.stacks = stacks.map(\.row)
        self.organizations = organizations

        var technologyById: [Int64: Int] = [:]
        var technologyBySlug: [String: Int] = [:]
        for (index, technology) in technologies.enumerated() {
            guard let id = technology.id else { throw TechStacksDataError("technology \(index) has no id") }
            guard technologyById.updateValue(index, forKey: id) == nil else {
                throw TechStacksDataError("technology id \(id) is used twice")
            }
            if let slug = technology["Slug"].text {
                guard technologyBySlug.updateValue(index, forKey: slug.lowercased()) == nil else {
                    throw TechStacksDataError("technology slug '\(slug)' is used twice")
                }
            }
        }
        var stackById: [Int64: Int] = [:]
        var stackBySlug: [String: Int] = [:]
        for (index, stack) in stacks.enumerated() {
            guard let id = stack.row.id else { throw TechStacksDataError("stack \(index) has no id") }
            guard stackById.updateValue(index, forKey: id) == nil else {
                throw TechStacksDataError("stack id \(id) is used twice")
            }
            if let slug = stack.row["Slug"].text {
                guard stackBySlug.updateValue(index, forKey: slug.lowercased()) == nil else {
                    throw TechStacksDataError("stack slug '\(slug)' is used twice")
                }
            }
        }
        self.technologyById = technologyById
        self.technologyBySlug = technologyBySlug
        self.stackById = stackById
        self.stackBySlug = stackBySlug
        self.users = users

        var choices: [[Choice]] = []
        var stacksByTechnology: [Int64: [Int]] = [:]
        for (stackIndex, stack) in stacks.enumerated() {
            var inStack: [Choice] = []
            for choice in stack.choices {
                guard let technologyId = choice["TechnologyId"].int64, let technology = technologyById[technologyId]
                else {
                    throw TechStacksDataError(
                        """
                        stack \(stack.row.id ?? 0) chooses technology \(choice["TechnologyId"].text ?? "null"), which \
                        does not exist
                        """
                    )
                }
                inStack.append(
                    Choice(
                        technology: technology, id: choice["Id"], stackId: stack.row["Id"],
                        justification: choice["Justification"]))
            }
            choices.append(inStack)
            for technologyId in Set(stack.choices.compactMap { $0["TechnologyId"].int64 }) {
                stacksByTechnology[technologyId, default: []].append(stackIndex)
            }
        }
        self.choices = choices
        stacksChoosing = stacksByTechnology
    }

    // MARK: Lookups

    /// `GetTechnology`'s lookup: a numeric slug is an id, anything else a slug in any case.
    public func technology(slugOrId: String) -> DTOObject? {
        if let id = Int32(slugOrId) { return technologyById[Int64(id)].map { technologies[$0] } }
        return technologyBySlug[slugOrId.lowercased()].map { technologies[$0] }
    }

    /// The stacks choosing a technology, most recently modified first.
    public func stacks(choosing technologyId: Int64) -> [DTOObject] {
        (rankings.stacksByTechnology[technologyId] ?? []).map { stacks[$0] }
    }

    /// The stack with this id, or (for a non-numeric text) this slug.
    func stackIndex(slugOrId: String) -> Int? {
        if let id = Int32(slugOrId) { return stackById[Int64(id)] }
        return stackBySlug[slugOrId.lowercased()]
    }

    /// A stack with its choices (`TechStackDetails`); `lightened` leaves out the stack's
    /// details and the technologies' descriptions, as `Overview` does.
    func details(ofStack index: Int, lightened: Bool = false) -> DTOObject {
        var details = stacks[index]
        if lightened {
            details["Details"] = .null
            details["DetailsHtml"] = .null
        }
        details["TechnologyChoices"] = .list(
            choices[index].map { choice in
                var technology = technologyInStack(choice)
                if lightened { technology["Description"] = .null }
                return .object(technology)
            })
        return details
    }

    // MARK: Building blocks

    /// `TechnologyInfo`: `tier, slug, name, logoUrl, stacksCount`.
    static func technologyInfo(_ technology: DTOObject, stacksCount: Int) -> DTOObject {
        DTOObject([
            ("Tier", technology["Tier"]), ("Slug", technology["Slug"]), ("Name", technology["Name"]),
            ("LogoUrl", technology["LogoUrl"]), ("StacksCount", .number(JSONNumber(stacksCount))),
        ])
    }

    /// A stack's choice of a technology.
    struct Choice: Sendable {
        /// The technology's index in ``technologies``.
        var technology: Int
        var id: DTOValue
        var stackId: DTOValue
        var justification: DTOValue
    }

    /// A choice as `TechnologyInStack`: the technology's fields, then the choice's own id in
    /// `Id` (the real service copies the technology over the choice and restores the id).
    func technologyInStack(_ choice: Choice) -> DTOObject {
        var result = technologies[choice.technology]
        result["TechnologyId"] = result["Id"]
        result["Id"] = choice.id
        result["TechnologyStackId"] = choice.stackId
        if !choice.justification.isNull { result["Justification"] = choice.justification }
        return result
    }

    /// `Overview.topUsers`: stacks grouped by owner, each counting once per favourite and at
    /// least once (the real query left-joins stacks to their favourites and counts rows), at
    /// most 20. Owners are matched by `createdBy` to the user's name.
    fileprivate static func rankUsers(stacks: [DTOObject], users: [DTOObject]) -> [DTOObject] {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for stack in stacks {
            guard let owner = stack["CreatedBy"].text else { continue }
            if counts[owner] == nil { order.append(owner) }
            counts[owner, default: 0] += max(1, stack["FavCount"].intValue ?? 0)
        }
        let avatars = Dictionary(
            users.compactMap { user in user["UserName"].text.map { ($0, user["AvatarUrl"]) } },
            uniquingKeysWith: { first, _ in first })
        return order.enumerated()
            .sorted {
                counts[$0.element]! != counts[$1.element]!
                    ? counts[$0.element]! > counts[$1.element]! : $0.offset < $1.offset
            }
            .prefix(20)
            .map {
                DTOObject([
                    ("UserName", .string($0.element)), ("AvatarUrl", avatars[$0.element] ?? .null),
                    ("StacksCount", .number(JSONNumber(counts[$0.element]!))),
                ])
            }
    }
}

/// A stack as the data file holds it: its `TechnologyStack` fields and its choices
/// (`{id, technologyId, justification?}` objects).
public struct TechStacksStack: Sendable {
    public var row: DTOObject
    public var choices: [DTOObject]

    public init(row: DTOObject, choices: [DTOObject]) {
        self.row = row
        self.choices = choices
    }
}

/// An inconsistency in the TechStacks data files.
public struct TechStacksDataError: Error, Sendable {
    public var message: String

    init(_ message: String) { self.message = message }
}

extension DTOObject {
    /// The `Id` as a 64-bit integer.
    var id: Int64? { self["Id"].int64 }
}

extension DTOValue {
    var int64: Int64? {
        if case .number(let number) = self { return Int64(number.literal) }
        return nil
    }
}
