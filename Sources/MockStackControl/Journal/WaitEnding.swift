import MockStackCore

/// The answers that end a `requests/wait` before an entry or its timeout does, in the control
/// plane's error format: each a status a client can tell apart from the 200 of an entry found
/// and the 408 of a timeout.
enum WaitEnding {
    /// 410: the session the wait was made in is gone (deleted, evicted, or dropped with every
    /// session), so no request of it can come any more.
    static func sessionEnded(_ id: String, because reason: String) -> HTTPResponse {
        PlainError.response(
            410,
            """
            Session '\(id)' ended while this request waited for a journal entry (\(reason)); no request of it can be \
            recorded any more
            """
        )
    }

    /// 410: as ``sessionEnded(_:because:)``, for a wait on the session's Server Events
    /// subscriptions (`server-events/wait`).
    static func sessionEndedForSubscribers(_ id: String, because reason: String) -> HTTPResponse {
        PlainError.response(
            410,
            """
            Session '\(id)' ended while this request waited for Server Events subscriptions (\(reason)); none of it can \
            open any more
            """
        )
    }

    /// 409: the journal waited on was reset; an entry recorded after it belongs to whatever
    /// runs next, not to the wait made before.
    static let reset = PlainError.response(
        409, "The journal was reset while this request waited for an entry; start the wait again if it is still wanted")

    /// 422: matching the pattern against an entry ran out of steps (``PatternBudget``), so the
    /// wait could not tell whether that entry was the one.
    static func patternBudgetSpent(entry: Int, steps: Int) -> HTTPResponse {
        PlainError.response(
            422,
            "The pattern's regular expressions ran out of steps (\(steps) at most) matching journal entry \(entry); "
                + "a simpler regex, or one over a shorter part of the request, can be matched")
    }
}
