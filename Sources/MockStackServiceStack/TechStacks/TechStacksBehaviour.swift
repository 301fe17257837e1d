import MockStackCore

/// `techStacks`: the techstacks.io services that are not AutoQuery, computed from the app's
/// data set the way the real services compute them (docs/servicestack.md#techstacks).
///
/// `created` is the request's time; the real services cache most of these answers for an hour
/// (`[CacheResponse]`), which the manifest's `cacheSeconds` reproduces, `created` included.
public struct TechStacksBehaviour: OperationBehaviour {
    /// Which service the operation is.
    public enum View: String, Sendable, CaseIterable {
        case appOverview, overview, config, technology, allTechnologies, techStack, allTechStacks
    }

    public let view: View
    public let site: TechStacksSite
    /// `GetConfig`'s lists, `Option`s of `TechnologyTier` (with values), `PostType` and `FlagType`.
    let tiers: [DTOValue], postTypes: [DTOValue], flagTypes: [DTOValue]

    /// The number of rows `GetAllTechnologies` and `GetAllTechnologyStacks` list.
    static let allLimit = 100

    init(view: View, site: TechStacksSite, tiers: [DTOValue], postTypes: [DTOValue], flagTypes: [DTOValue]) {
        self.view = view
        self.site = site
        self.tiers = tiers
        self.postTypes = postTypes
        self.flagTypes = flagTypes
    }

    public func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        var response = DTOObject()
        switch view {
        case .appOverview:
            response["Created"] = .dateTime(call.now)
            response["AllTiers"] = .list([.object(DTOObject([("Title", .string("[ Top 100 Technologies ]"))]))] + tiers)
            response["TopTechnologies"] = .list(site.rankings.ranking.prefix(100).map { .object($0.info) })
        case .overview:
            response = Self.overview(of: site)
            response["Created"] = .dateTime(call.now)
        case .config:
            response["AllTiers"] = .list(tiers)
            response["AllPostTypes"] = .list(postTypes)
            response["AllFlagTypes"] = .list(flagTypes)
        case .technology:
            guard let technology = site.technology(slugOrId: try slug(of: call)) else {
                throw .http(404, "Tech stack not found")
            }
            // `Created` is never set: it is written as DateTime's default (docs/servicestack.md#techstacks).
            response["Technology"] = .object(technology)
            response["TechnologyStacks"] = .list(site.stacks(choosing: technology.id ?? 0).map { .object($0) })
        case .allTechnologies:
            response["Results"] = .list(
                site.rankings.technologiesByLastModified.prefix(Self.allLimit).map { .object(site.technologies[$0]) })
            response["Total"] = .number(JSONNumber(site.technologies.count))
        case .techStack:
            guard let index = site.stackIndex(slugOrId: try slug(of: call)) else {
                throw .http(404, "Tech stack not found")
            }
            response["Created"] = .dateTime(call.now)
            response["Result"] = .object(site.details(ofStack: index))
        case .allTechStacks:
            response["Results"] = .list(
                site.rankings.stacksByLastModified.prefix(Self.allLimit).map { .object(site.stacks[$0]) })
            response["Total"] = .number(JSONNumber(site.stacks.count))
        }
        return ServiceResult(.dto(.object(response)))
    }

    /// The `Slug` a lookup names; `Id`, which has only a setter on the real DTO (and so is
    /// not in the metadata), fills it with the number.
    private func slug(of call: ServiceCall) throws(ServiceError) -> String {
        if let slug = call.request.value(named: "Slug").text, !slug.isEmpty { return slug }
        if let id = call.input.parameter("id"), !id.isEmpty { return id }
        throw .argument(.argumentNull, "Value cannot be null.", parameter: "Slug")
    }

    /// `OverviewResponse` but `created`.
    private static func overview(of site: TechStacksSite) -> DTOObject {
        // Technologies in at least three stacks, most chosen first: the top 50, and the top 5
        // of each tier, keyed by tier name in the order the tiers first appear.
        let rankings = site.rankings
        let popular = rankings.ranking.filter { $0.stacksCount >= 3 }
        var byTier: [(tier: String, infos: [DTOValue])] = []
        for entry in popular {
            guard let tier = entry.info["Tier"].text else { continue }
            if let index = byTier.firstIndex(where: { $0.tier == tier }) {
                if byTier[index].infos.count < 5 { byTier[index].infos.append(.object(entry.info)) }
            } else {
                byTier.append((tier, [.object(entry.info)]))
            }
        }
        // The 20 most recently modified stacks, lightened (no details, no choice descriptions),
        // with the TechStacks site's own stack moved first when it is among them.
        var latest = rankings.stacksByLastModified.prefix(20).map { site.details(ofStack: $0, lightened: true) }
        if let own = latest.firstIndex(where: { $0.id == TechStacksSite.siteStackId }) {
            latest.insert(latest.remove(at: own), at: 0)
        }
        return DTOObject([
            ("TopUsers", .list(rankings.topUsers.map { .object($0) })),
            ("TopTechnologies", .list(popular.prefix(50).map { .object($0.info) })),
            ("LatestTechStacks", .list(latest.map { .object($0) })),
            ("PopularTechStacks", .list(rankings.stacksByViews.prefix(12).map { .object(site.stacks[$0]) })),
            ("AllOrganizations", .list(site.organizations.map { .object($0) })),
            ("TopTechnologiesByTier", .map(byTier.map { DTOMapEntry(key: $0.tier, value: .list($0.infos)) })),
        ])
    }
}
