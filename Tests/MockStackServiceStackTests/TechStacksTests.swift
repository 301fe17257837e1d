import Foundation
import MockStackCore
import Synchronization
import Testing
@testable import MockStackServiceStack

/// The shipped `techstacks` app against techstacks.io's behaviour (docs/servicestack.md#techstacks)
/// and the facts a realistic data set must respect (docs/servicestack.md#the-data-set), as the client suites ask for them.
@Suite struct TechStacksTests {
    static let app = try! TestHost.load("techstacks")

    private func get(_ target: String) -> HTTPResponse {
        TestHost.call(.get, target, app: Self.app)
    }

    /// A 200 JSON body, decoded.
    private func json(_ target: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
        let response = get(target)
        #expect(response.status == 200, "\(target): \(response.text)", sourceLocation: sourceLocation)
        #expect(response.contentType == "application/json; charset=utf-8", sourceLocation: sourceLocation)
        return (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    private func rows(_ body: [String: Any], _ key: String = "results") -> [[String: Any]] {
        body[key] as? [[String: Any]] ?? []
    }

    // MARK: Facts 1–8, 13, 14

    @Test func serviceStackIsTechnologyOne() {
        let body = json("/api/FindTechnologies?name=ServiceStack")
        #expect(body["total"] as? Int == 1)
        let row = rows(body).first ?? [:]
        #expect(row["id"] as? Int == 1)
        #expect(row["slug"] as? String == "servicestack")
        #expect(row["tier"] as? String == "Server")
        #expect(row["logoApproved"] as? Bool == true)
        #expect(row["isLocked"] as? Bool == false)
        // Without a Host header the app's base is http://localhost.
        #expect(row["logoUrl"] as? String == "http://localhost/logos/servicestack.png")
    }

    @Test func googlesMostViewedAreAngularGoAndProtocolBuffers() {
        let response = get("/api/FindTechnologies?vendorName=Google&take=3&orderByDesc=ViewCount&fields=Id,Name,VendorName,Tier,ProductUrl")
        #expect(response.status == 200)
        let body = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        let total = body["total"] as? Int ?? 0
        #expect((20...29).contains(total))
        #expect(rows(body).map { $0["id"] as? Int } == [7, 18, 77])
        #expect(rows(body).map { $0["name"] as? String } == ["AngularJS", "Go", "Protocol Buffers"])
        #expect(rows(body).map { $0["tier"] as? String } == ["Client", "ProgrammingLanguage", "Server"])
        // Selected columns only, in TechnologyView's order; an empty meta is left out (the total is always computed).
        #expect(response.text.hasPrefix(#"{"offset":0,"total":\#(total),"results":[{"id":7,"name":"AngularJS","vendorName":"Google","productUrl":"#))
        #expect(response.text.hasSuffix(#""tier":"Server"}]}"#))
    }

    @Test func descriptionsVendorsAndIds() {
        #expect(json("/api/QueryTechnology?DescriptionContains=framework")["total"] as? Int ?? 0 >= 5)
        #expect(rows(json("/api/QueryTechnology?vendorName=Amazon&take=3")).count == 3)
        #expect(rows(json("/api/FindTechnologies?ids=1,2,3&fields=id")).map { $0["id"] as? Int } == [1, 2, 3])
        // The Python client's query: ids OR Google, first five.
        let python = json("/api/FindTechnologies?ids=%5B1%2C2%2C3%5D&vendorName=Google&take=5&fields=id,name,vendorName,createdBy,viewCount,favCount")
        let google = json("/api/QueryTechnology?vendorName=Google")["total"] as? Int ?? 0
        #expect(python["total"] as? Int == google + 3)
        #expect(rows(python).count == 5)
        #expect(rows(python).allSatisfy { Set($0.keys).isSubset(of: ["id", "name", "vendorName", "createdBy", "viewCount", "favCount"]) })
    }

    @Test func flutterHasAShowcaseOrAnnouncement() throws {
        let flutter = json("/technology/flutter")["technology"] as? [String: Any] ?? [:]
        #expect(flutter["name"] as? String == "Flutter")
        let id = try #require(flutter["id"] as? Int)
        let posts = rows(json("/api/QueryPosts?anyTechnologyIds=\(id)&types=Announcement,Showcase"))
        #expect(!posts.isEmpty)
        #expect(posts.allSatisfy { ($0["technologyIds"] as? [Int] ?? []).contains(id) && $0["title"] is String })
        #expect(posts.allSatisfy { ["Announcement", "Showcase"].contains($0["type"] as? String) })
        // Other parameters still filter by convention.
        #expect(rows(json("/api/QueryPosts?anyTechnologyIds=\(id)&types=Question")).allSatisfy { $0["type"] as? String == "Question" })
    }

    @Test func getTechnologyBySlugOrId() {
        let body = json("/technology/servicestack")
        #expect((body["technology"] as? [String: Any])?["name"] as? String == "ServiceStack")
        #expect(!rows(body, "technologyStacks").isEmpty)
        #expect(body["created"] as? String == "0001-01-01T00:00:00")
        #expect(get("/technology/1").text == get("/technology/ServiceStack").text)
        #expect(get("/api/GetTechnology?id=1").text == get("/technology/servicestack").text)
        // Stacks choosing the technology, most recently modified first.
        let redis = rows(json("/technology/redis"), "technologyStacks")
        #expect(redis.count == 35)
        let modified = redis.compactMap { $0["lastModified"] as? String }
        #expect(modified == modified.sorted(by: >))
    }

    @Test func unknownTechnologyIs404TechStackNotFound() {
        let response = get("/technology/no-such-thing")
        #expect(response.status == 404)
        #expect(response.text.contains(#""responseStatus":{"errorCode":"NotFound","message":"Tech stack not found","errors":[]}"#))
        #expect(get("/technology/99999").status == 404)
        let missing = get("/api/GetTechnology")
        #expect(missing.status == 400)
        // System.Text.Json escapes the quotes HTML-safely.
        #expect(missing.text.contains(#""errorCode":"ArgumentNullException","message":"Value cannot be null. (Parameter \u0027Slug\u0027)""#))
    }

    @Test func allTechnologiesAreTheLatestHundredWithTheTotal() {
        let body = json("/technology")
        let results = rows(body)
        #expect(results.count == 100)
        let total = body["total"] as? Int ?? 0
        #expect(total == json("/api/QueryTechnology")["total"] as? Int)
        #expect((200...500).contains(total))
        let modified = results.compactMap { $0["lastModified"] as? String }
        #expect(modified == modified.sorted(by: >))
    }

    @Test func unfilteredQueriesReturnEveryRowOrNothing() {
        let all = json("/api/QueryTechnology")
        #expect(rows(all).count == all["total"] as? Int)
        // An OR query with no conditions finds nothing (fact 14).
        #expect(get("/api/FindTechnologies").text == #"{"offset":0,"total":0,"results":[]}"#)
        let tiers = Set(rows(all).compactMap { $0["tier"] as? String })
        #expect(tiers.count == 9)
    }

    @Test func writesNeedAnAuthenticatedUser() {
        for (method, target) in [(HTTPMethod.post, "/technology"), (.put, "/technology/5"), (.delete, "/technology/5"),
                                 (.post, "/techstacks"), (.put, "/techstacks/2"), (.delete, "/techstacks/2"),
                                 (.post, "/api/CreateTechnology")] {
            let response = TestHost.call(method, target, json: #"{"name":"Zig","tier":"ProgrammingLanguage"}"#, app: Self.app)
            #expect(response.status == 401, "\(method) \(target)")
            #expect(response.body.isEmpty)
        }
    }

    // MARK: Overview and AppOverview (facts 7, 9–12)

    @Test func appOverviewListsTiersAndTheTopHundred() {
        let response = get("/app-overview")
        #expect(response.text.hasPrefix(#"{"created":"2025-11-21T22:15:03Z","allTiers":[{"title":"[ Top 100 Technologies ]"},{"name":"ProgrammingLanguage","title":"Programming Languages","value":"ProgrammingLanguage"},{"name":"Client","title":"Client Libraries","value":"Client"}"#))
        let body = json("/api/AppOverview")
        #expect((body["allTiers"] as? [Any])?.count == 10)
        let top = rows(body, "topTechnologies")
        #expect(top.count == 100)
        #expect(top.first.map { NSDictionary(dictionary: $0) } == ["tier": "Data", "slug": "redis", "name": "Redis",
            "logoUrl": "http://localhost/logos/redis.png", "stacksCount": 35])
        let counts = top.compactMap { $0["stacksCount"] as? Int }
        #expect(counts == counts.sorted(by: >) && counts.allSatisfy { $0 >= 1 })
    }

    @Test func overviewRanksTheData() throws {
        let body = json("/overview")
        let top = rows(body, "topTechnologies")
        let expected: [(String, Int)] = [("Redis", 35), ("MySQL", 34), ("Amazon EC2", 29), ("Memcached", 28), ("Python", 25), ("Nginx", 24),
                                         ("Java", 22), ("Hadoop", 21), ("PostgreSQL", 18), ("Backbone.js", 18), ("Amazon S3", 18), ("Ruby", 17),
                                         ("mongoDB", 17), ("HAProxy", 17), ("node.js", 15), ("Ruby on Rails", 14), ("Linux", 14), ("C#", 11),
                                         ("Apache", 11), ("Apache HBase", 10)]
        #expect(top.prefix(20).map { "\($0["name"] as? String ?? "") \($0["stacksCount"] as? Int ?? 0)" } == expected.map { "\($0.0) \($0.1)" })
        #expect(top.count <= 50 && top.allSatisfy { $0["stacksCount"] as? Int ?? 0 >= 3 })

        let users = rows(body, "topUsers")
        #expect(users.count == 6)
        #expect(users.prefix(2).map { "\($0["userName"] as? String ?? "") \($0["stacksCount"] as? Int ?? 0)" } == ["demisbellot 61", "layoric 15"])

        let latest = rows(body, "latestTechStacks")
        #expect(latest.count == 20)
        let first = try #require(latest.first)
        #expect(first["id"] as? Int == 1 && first["name"] as? String == "TechStacks Website")
        #expect(first["vendorName"] as? String == "ServiceStack" && first["slug"] as? String == "techstacks-website")
        let choices = first["technologyChoices"] as? [[String: Any]] ?? []
        #expect(choices.count == 10)
        #expect(choices.first?["technologyId"] as? Int == 1)
        #expect(choices.allSatisfy { $0["description"] == nil && $0["technologyStackId"] as? Int == 1 })
        #expect(latest.allSatisfy { $0["details"] == nil && $0["detailsHtml"] == nil })

        let byTier = body["topTechnologiesByTier"] as? [String: [[String: Any]]] ?? [:]
        #expect(Set(byTier.keys) == ["ProgrammingLanguage", "Client", "Http", "Server", "Data", "SoftwareInfrastructure",
                                     "OperatingSystem", "HardwareInfrastructure", "ThirdPartyServices"])
        #expect(byTier["ThirdPartyServices"]?.count == 2)
        #expect(byTier.values.allSatisfy { (2...5).contains($0.count) })
        #expect(byTier["Server"]?.prefix(3).map { "\($0["name"] as? String ?? "") \($0["stacksCount"] as? Int ?? 0)" } == ["Ruby on Rails 14", "Django 9", "ServiceStack 8"])

        #expect(rows(body, "popularTechStacks").count == 12)
        let views = rows(body, "popularTechStacks").compactMap { $0["viewCount"] as? Int }
        #expect(views == views.sorted(by: >))
        let organizations = rows(body, "allOrganizations")
        #expect(!organizations.isEmpty)
        // Keys the Swift client needs even when empty (docs/servicestack.md#what-the-clients-need).
        #expect(organizations.allSatisfy { org in ["postTypes", "moderatorPostTypes", "labels", "categories"].allSatisfy { org[$0] is [Any] } })
        #expect(get("/api/Overview?reload=false").text == get("/overview").text)
    }

    @Test func configListsTheThreeEnums() {
        let response = get("/config")
        #expect(response.text.contains(#""allPostTypes":[{"name":"Announcement","title":"Announcements"},{"name":"Post","title":"Posts"},{"name":"Showcase","title":"Showcase"},{"name":"Question","title":"Questions"},{"name":"Request","title":"Feature Requests"}]"#))
        let body = json("/config")
        #expect((body["allTiers"] as? [Any])?.count == 9)
        #expect((body["allFlagTypes"] as? [[String: Any]])?.first?["title"] as? String == "Violates Rules or Conduct")
    }

    @Test func techStacksByIdOrSlugAndAutoQuery() {
        let stack = json("/techstacks/techstacks-website")["result"] as? [String: Any] ?? [:]
        #expect(stack["id"] as? Int == 1)
        #expect((stack["technologyChoices"] as? [Any])?.count == 10)
        #expect(stack["detailsHtml"] is String)
        #expect(get("/techstacks/1").status == 200)
        #expect(get("/techstacks/none-such").status == 404)
        let all = json("/techstacks")
        #expect(all["total"] as? Int == 60)
        let found = json("/techstacks/search?NameContains=website&fields=id,name")
        #expect(rows(found).first.map { NSDictionary(dictionary: $0) } == ["id": 1, "name": "TechStacks Website"])
    }

    /// Every stack count in the rankings agrees with the stacks GetTechnology lists.
    @Test func rankingsAgreeWithTheStacks() {
        for info in rows(json("/app-overview"), "topTechnologies").prefix(25) {
            let slug = info["slug"] as? String ?? ""
            #expect(rows(json("/technology/\(slug)"), "technologyStacks").count == info["stacksCount"] as? Int, "\(slug)")
        }
    }

    /// A manifest or data mistake stops the load, each reported where it is.
    @Test func inconsistentDataAndUnknownViewsAreReported() throws {
        let metadata = try String(contentsOf: TestHost.packageRoot.appendingPathComponent("Fixtures/techstacks/metadata.json"), encoding: .utf8)
        let files = [
            "ts/app.json": #"{"kind":"servicestack","metadata":"metadata.json","operations":{"Overview":{"behaviour":"techStacks","view":"overview"},"GetConfig":{"behaviour":"techStacks","view":"nope"}}}"#,
            "ts/metadata.json": metadata,
            "ts/technologies.json": #"[{"id":1,"name":"A","slug":"a","tier":"Server"},{"id":2,"name":"B","slug":"A","tier":"Data"}]"#,
            "ts/stacks.json": #"[{"id":1,"name":"S","technologyChoices":[{"id":1,"technologyId":9}]}]"#,
            "ts/users.json": "[]",
            "ts/organizations.json": "[]",
        ]
        do {
            _ = try AppLoader(kinds: [ServiceStackAppKind()]).load(from: InMemoryFixtureSource(files: files))
            Issue.record("a duplicate slug and an unknown view loaded")
        } catch {
            let messages = error.diagnostics.map(\.description)
            #expect(messages.contains { $0.hasSuffix("/operations/Overview: the TechStacks data is inconsistent: technology slug 'A' is used twice") })
            #expect(messages.contains { $0.hasSuffix("/operations/GetConfig/view: unknown view 'nope' (expected one of: appOverview, overview, config, technology, allTechnologies, techStack, allTechStacks)") })
        }
        var fixed = files
        fixed["ts/technologies.json"] = #"[{"id":1,"name":"A","slug":"a","tier":"Server"}]"#
        // techstacks.io's two routes whose variable no property binds, named as the shipped app names them.
        fixed["ts/app.json"] = #"{"kind":"servicestack","metadata":"metadata.json","operations":{"Overview":{"behaviour":"techStacks","view":"overview"},"UpdateOrganizationMember":{"unboundRouteVariables":["Id"]},"UpdateOrganizationMemberInvite":{"unboundRouteVariables":["UserId"]}}}"#
        do {
            _ = try AppLoader(kinds: [ServiceStackAppKind()]).load(from: InMemoryFixtureSource(files: fixed))
            Issue.record("a choice of a missing technology loaded")
        } catch {
            #expect(error.diagnostics.map(\.message) == ["the TechStacks data is inconsistent: stack 1 chooses technology 9, which does not exist"])
        }
    }

    /// `[CacheResponse(Duration = 3600)]`: a GET is answered from the cache for an hour, so
    /// AppOverview's `created` stands still; another target is its own entry.
    @Test func cachedServicesKeepTheirAnswerForAnHour() throws {
        let clock = Mutex(TestHost.fixedNow.ticks)
        let app = try TestHost.load("techstacks", clock: { DateTimeValue(ticks: clock.withLock { $0 }, kind: .utc) })
        func created(_ target: String = "/app-overview", accept: String? = nil) -> String {
            let headers: HTTPHeaders = accept.map { ["Accept": $0] } ?? [:]
            let text = TestHost.call(.get, target, headers: headers, app: app).text
            return String(text.dropFirst(#"{"created":""#.count).prefix(20))
        }
        #expect(created() == "2025-11-21T22:15:03Z")
        clock.withLock { $0 += 59 * 60 * CivilTime.ticksPerSecond }
        #expect(created() == "2025-11-21T22:15:03Z")
        #expect(created("/app-overview?reload=true") == "2025-11-21T23:14:03Z")
        // Every answer is JSON, so the negotiated type (the real key's other half) never differs.
        #expect(created(accept: "application/json") == "2025-11-21T22:15:03Z")
        clock.withLock { $0 += 2 * 60 * CivilTime.ticksPerSecond }
        #expect(created() == "2025-11-21T23:16:03Z")
        // Errors are not kept.
        #expect(TestHost.call(.get, "/technology/nope", app: app).status == 404)
    }

    @Test func theCacheIsBoundedByBytes() {
        // Each entry counts its body, its key twice and 64 bytes of bookkeeping.
        let cache = ResponseCache(seconds: 60, byteLimit: 2 * (4 + 2 + 64) + 10, largestBody: 6)
        let now = TestHost.fixedNow
        func response(_ size: Int) -> HTTPResponse { HTTPResponse(status: 200, body: Array(repeating: 0x61, count: size)) }
        cache.store(response(4), for: .init(target: "a"), now: now)
        cache.store(response(4), for: .init(target: "b"), now: now)
        cache.store(response(7), for: .init(target: "too big"), now: now)
        cache.store(HTTPResponse(status: 404, body: [1]), for: .init(target: "error"), now: now)
        #expect(cache.response(for: .init(target: "a"), now: now)?.body.count == 4)
        #expect(cache.response(for: .init(target: "too big"), now: now) == nil && cache.response(for: .init(target: "error"), now: now) == nil)
        cache.store(response(4), for: .init(target: "c"), now: now)
        #expect(cache.response(for: .init(target: "a"), now: now) == nil, "the oldest goes first")
        #expect(cache.response(for: .init(target: "b"), now: now) != nil && cache.response(for: .init(target: "c"), now: now) != nil)
        #expect(cache.response(for: .init(target: "c"), now: DateTimeValue(ticks: now.ticks + 61 * CivilTime.ticksPerSecond, kind: .utc)) == nil)
        cache.removeAll()
        #expect(cache.response(for: .init(target: "b"), now: now) == nil)
        // And by entries: a flood of distinct targets keeps the newest.
        let small = ResponseCache(seconds: 60, entryLimit: 3)
        for index in 0..<1000 { small.store(response(1), for: .init(target: "/x?n=\(index)"), now: now) }
        #expect((0..<1000).filter { small.response(for: .init(target: "/x?n=\($0)"), now: now) != nil } == [997, 998, 999])
        // Storing a key again makes it the newest, not the next to go.
        small.store(response(1), for: .init(target: "/x?n=997"), now: now)
        small.store(response(1), for: .init(target: "/x?n=1000"), now: now)
        #expect(small.response(for: .init(target: "/x?n=997"), now: now) != nil && small.response(for: .init(target: "/x?n=998"), now: now) == nil)
    }

    @Test func anAnswerHoldingURLsIsKeptPerOrigin() {
        let cache = ResponseCache(seconds: 60)
        let now = TestHost.fixedNow
        func origin(_ headers: HTTPHeaders) -> RequestOrigin {
            RequestOrigin(HTTPRequest(method: .get, target: "/types", headers: headers, mountPath: "/techstacks"))
        }
        let direct = origin(["Host": "127.0.0.1:8080"])
        let proxied = origin(["Host": "127.0.0.1:8080", "X-Forwarded-Host": "mock.example.org", "X-Forwarded-Proto": "https"])
        #expect(direct.baseURL == "http://127.0.0.1:8080/techstacks")
        #expect(proxied.baseURL == "https://mock.example.org/techstacks")
        cache.store(HTTPResponse(status: 200, body: Array(direct.baseURL.utf8)), for: .init(target: "/types", origin: direct), now: now)
        #expect(cache.response(for: .init(target: "/types", origin: direct), now: now)?.body == Array(direct.baseURL.utf8))
        // Same target and Host, another forwarded host: another answer, not the direct one's.
        #expect(cache.response(for: .init(target: "/types", origin: proxied), now: now) == nil)
        #expect(cache.response(for: .init(target: "/types"), now: now) == nil)
        // The same origin in another spelling of the header name is the same origin.
        #expect(origin(["host": "127.0.0.1:8080"]) == direct)
    }
}
