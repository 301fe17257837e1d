import MockStackCore

/// The stubs' and scenarios' endpoints.
extension ControlPlane {
    /// `POST stubs`: 201 with the stub's id, or 400 naming the field that is wrong.
    func addStub(_ request: HTTPRequest) -> HTTPResponse {
        let json: JSONValue
        do {
            json = try JSONParser.forRequestBodies().parse(request.body).root
        } catch {
            return PlainError.response(400, "The stub is not JSON: \(error)")
        }
        do {
            let stub = try addScoped(json)
            return .json(201, stub.listed)
        } catch {
            return PlainError.response(400, "Invalid stub: \(error.description)")
        }
    }

    /// Adds a stub in this scope: a session's answers only that session's requests.
    func addScoped(_ json: JSONValue) throws(Stub.Problem) -> Stub {
        var definition = json
        if let session, case .object(var root) = json {
            // (A match that is not an object is left for the stub's parser to refuse.)
            if var match = root["match"].map({ $0.objectValue }) ?? JSONObject() {
                match["session"] = .string(session.id)
                root["match"] = .object(match)
                definition = .object(root)
            }
        }
        return try stubs.add(definition)
    }

    /// `DELETE stubs[?app=NAME]`: this scope's stubs (the server's own, or this session's),
    /// all of them or one app's. A filter it does not know is a 400 rather than ignored, which
    /// would remove more than was asked.
    func removeStubs(_ request: HTTPRequest) -> HTTPResponse {
        let parameters = QueryParameters(request.query)
        for name in parameters.names where name != "app" {
            return PlainError.response(400, "Unknown filter '\(name)' (filters: app)")
        }
        stubs.removeAll(app: parameters["app"], session: session?.id)
        return HTTPResponse(status: 204)
    }

    /// `GET stubs`: each stub with its hits; one that never matched lists why the latest
    /// journal entries (for its app, if it names one) did not match it.
    func listStubs() -> HTTPResponse {
        let entries = scopedJournal.snapshot().entries
        let ignoringCase = appsIgnoringParameterCase
        // The near misses of every stub share one budget: their reasons say where it ran out.
        var budget = PatternBudget()
        let listed = stubs.all.filter { session == nil || $0.match.session == session?.id }.map { stub -> JSONValue in
            guard case .object(var object) = stub.listed else { return stub.listed }
            if stub.hits == 0 {
                let candidates = entries.filter { stub.match.app == nil || $0.app == stub.match.app }.suffix(5)
                    .reversed()
                object["nearMisses"] = .array(
                    candidates.compactMap { entry in
                        entry.stub == nil
                            ? stub.match.mismatch(subject(of: entry, ignoringCase), within: &budget).map { reason in
                                [
                                    "request": .number(JSONNumber(entry.id)),
                                    "method": .string(entry.request.method.rawValue),
                                    "path": .string(entry.request.path), "reason": .string(reason),
                                ]
                            } : nil
                    })
            }
            return .object(object)
        }
        return .json(200, ["stubs": .array(listed)])
    }

    // MARK: Scenarios

    /// `PUT scenarios/NAME/state` with `{"state": "…"}`: the scenario moved there, as a test
    /// sets up the middle of a flow.
    func setScenario(_ name: String, _ request: HTTPRequest) -> HTTPResponse {
        guard let json = try? JSONParser.forRequestBodies().parse(request.body).root, case .object(let object) = json,
            object.keys == ["state"], let state = object["state"]?.stringValue, !state.isEmpty
        else {
            return PlainError.response(400, "Expected {\"state\": \"…\"}, a state name")
        }
        guard stubs.setScenario(name, to: state, session: session?.id) else {
            let known = stubs.scenarios(session: session?.id).map(\.name)
            return PlainError.response(
                404,
                """
                No stub names the scenario '\(name)' (scenarios: \
                \(known.isEmpty ? "none" : known.joined(separator: ", ")))
                """
            )
        }
        return .json(200, ["name": .string(name), "state": .string(state)])
    }

    func describe(_ scenario: Scenario) -> JSONValue {
        [
            "name": .string(scenario.name), "state": .string(scenario.state),
            "possibleStates": .array(scenario.possibleStates.map(JSONValue.string)),
        ]
    }
}
