import MockStackCore

/// `POST server-events/wait`: a long poll on an app's Server Events subscriptions, as
/// `requests/wait` is on the journal. When at least `count` subscriptions match (in `channel`,
/// of `userId`) it answers `200 {"subscribers":[…]}` with every one that does; when fewer do,
/// the answer is deferred (``Delivery/deferred(_:)``) and the app is looked at again at each
/// activity it reports in this scope (a subscription connecting, joining a channel) — or `408`
/// when `timeoutMs` pass first. It takes a place of the same ``WaitBudget`` as the journal's
/// waits, and ends with its session (`410`).
extension ControlPlane {
    private enum SubscriberWaitKey {
        static let app = "app"
        static let channel = "channel"
        static let userId = "userId"
        static let count = "count"
        static let timeoutMs = "timeoutMs"
        static let all = [app, channel, userId, count, timeoutMs]
    }

    /// What a wait asks for.
    private struct SubscriberWait: Sendable {
        var app: any ServerEventsApp
        var channel: String?
        var userId: String?
        var count: Int
        var timeoutMilliseconds: Int

        /// The timeout's message: `No Server Events subscription of app 'test' in channel 'home'
        /// of user '7' was open within 5000 ms`.
        var timedOut: String {
            let whose =
                " of app '\(app.name)'" + (channel.map { " in channel '\($0)'" } ?? "")
                + (userId.map { " of user '\($0)'" } ?? "")
            let what =
                count == 1
                ? "No Server Events subscription\(whose) was"
                : "Fewer than \(count) Server Events subscriptions\(whose) were"
            return "\(what) open within \(timeoutMilliseconds) ms"
        }
    }

    func waitForServerEventSubscribers(_ request: HTTPRequest) -> HTTPResponse {
        let wanted: SubscriberWait
        switch objectBody(request, keys: SubscriberWaitKey.all).flatMap(readSubscriberWait) {
        case .success(let read): wanted = read
        case .failure(let failure): return failure.response
        }
        guard waits.take() else {
            return PlainError.response(
                429,
                """
                \(waits.limit) requests are waiting already (for journal entries or Server Events subscriptions), the \
                most at once; try again when one has ended
                """
            )
        }
        let journal = scopedRealtime
        let waits = waits
        let id = waits.nextId()
        let answer = DeferredAnswer(timeoutMilliseconds: wanted.timeoutMilliseconds) { _ in
            journal.stopWaiting(id)
            waits.release()
        }
        let appName = wanted.app.name
        let waiter = ActivityWaiter(
            id: id, app: appName, session: session?.id,
            check: { [self] in
                // Looked up again each time: `--watch` may have swapped the app for a new one.
                guard case .success(let app) = serverEventsApp(named: .string(appName)) else { return nil }
                return Self.subscribers(of: app, matching: wanted)
            },
            deliver: { response in answer.complete(with: response) },
            end: { response in answer.complete(with: response) })
        switch journal.firstAnswer(orWait: waiter) {
        case .found(let response):
            waits.release()
            return response
        case .refused(let response):
            waits.release()
            return response
        case .waiting:
            var timeout = PlainError.response(408, wanted.timedOut)
            timeout.delivery = .deferred(answer)
            return timeout
        }
    }

    /// `200` with the app's subscriptions that match, when there are at least the count asked for.
    private static func subscribers(of app: any ServerEventsApp, matching wanted: SubscriberWait) -> HTTPResponse? {
        var found = app.serverEventSubscribers(channel: wanted.channel)
        if let userId = wanted.userId { found.removeAll { $0.userId != userId } }
        guard found.count >= wanted.count else { return nil }
        return .json(200, ["subscribers": .array(listed(found, of: app.name))])
    }

    private func readSubscriberWait(_ body: JSONObject) -> Result<SubscriberWait, ResponseFailure> {
        func refuse(_ message: String) -> Result<SubscriberWait, ResponseFailure> {
            .failure(ResponseFailure(PlainError.response(400, message)))
        }
        let app: any ServerEventsApp
        switch serverEventsApp(named: body[SubscriberWaitKey.app]) {
        case .success(let found): app = found
        case .failure(let failure): return .failure(failure)
        }
        var names: [String: String] = [:]
        for key in [SubscriberWaitKey.channel, SubscriberWaitKey.userId] {
            guard let value = body[key] else { continue }
            guard case .string(let name) = value, !name.isEmpty else {
                return refuse("'\(key)' must be a non-empty string")
            }
            names[key] = name
        }
        var count = 1
        if let value = body[SubscriberWaitKey.count] {
            guard let number = value.intValue, number >= 1 else {
                return refuse("'count' must be a whole number of subscriptions, 1 or more")
            }
            count = number
        }
        var timeout = Self.defaultWaitMilliseconds
        if let value = body[SubscriberWaitKey.timeoutMs] {
            guard let number = value.intValue, (0...Self.maxWaitMilliseconds).contains(number) else {
                return refuse(
                    "'timeoutMs' must be a whole number of milliseconds from 0 to \(Self.maxWaitMilliseconds)")
            }
            timeout = number
        }
        return .success(
            SubscriberWait(
                app: app, channel: names[SubscriberWaitKey.channel], userId: names[SubscriberWaitKey.userId],
                count: count, timeoutMilliseconds: timeout))
    }
}
