import MockStackCore

/// A request waiting on what one app's real-time connections do (`POST server-events/wait`):
/// whenever that app, in the waiter's scope, reports an activity, ``check`` looks at the app
/// again, and the first answer it gives is handed to ``deliver``, once — unless the wait is
/// ended first with an answer of its own (``end``).
struct ActivityWaiter: Sendable {
    /// Unique among the server's waiters (``WaitBudget/nextId()``), to take it back out.
    let id: Int
    /// The app whose activity wakes it.
    let app: String
    /// The session it waits in; nil on the whole server. The server's journal hears every
    /// session's activity too, and a server waiter is not woken by a session's.
    let session: String?
    /// The answer when what it waits for is there, else nil. Called outside the journal's lock,
    /// on the thread that reported the activity.
    let check: @Sendable () -> HTTPResponse?
    /// Called once with ``check``'s answer, outside the journal's lock.
    let deliver: @Sendable (HTTPResponse) -> Void
    /// Ends the wait with this answer instead (``WaitEnding``), outside the journal's lock.
    let end: @Sendable (HTTPResponse) -> Void

    func wakes(onActivityOf app: String, session: String?) -> Bool {
        self.app == app && self.session == session
    }
}

/// What a wait on the apps' activity finds when it starts.
enum ActivityWaitStart {
    /// What it waits for is there already: nothing waits.
    case found(HTTPResponse)
    /// Not yet: the waiter is registered, and is woken by its app's next activity.
    case waiting
    /// It cannot wait here: answer this at once (``WaitEnding``).
    case refused(HTTPResponse)
}
