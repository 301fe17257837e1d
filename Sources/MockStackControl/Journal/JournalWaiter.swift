import MockStackCore

/// A request waiting for a journal entry (`POST /__mockstack/requests/wait`): the first entry
/// recorded after ``since`` that ``matches`` accepts is handed to ``deliver``, once — unless
/// the wait is ended first with an answer of its own (``end``).
struct JournalWaiter: Sendable {
    /// Unique among the server's waiters (``WaitBudget/nextId()``), to take it back out.
    let id: Int
    /// Only entries with a greater id count.
    let since: Int
    /// Whether it wants the entry; its regexes take their steps from the budget, and one that
    /// runs out of them does not match (the journal then ends the wait).
    let matches: @Sendable (JournalEntry, inout PatternBudget) -> Bool
    /// Called outside the journal's lock, on the thread that recorded the entry.
    let deliver: @Sendable (JournalEntry) -> Void
    /// Ends the wait with this answer instead (``WaitEnding``), outside the journal's lock.
    let end: @Sendable (HTTPResponse) -> Void

    func wants(_ entry: JournalEntry, within budget: inout PatternBudget) -> Bool {
        entry.id > since && matches(entry, &budget)
    }
}

/// What a wait finds in the journal when it starts.
enum JournalWaitStart {
    /// The first matching entry already there: nothing waits.
    case found(JournalEntry)
    /// None yet: the waiter is registered, and the next matching entry goes to it.
    case waiting
    /// It cannot wait here: answer this at once (``WaitEnding``).
    case refused(HTTPResponse)
}
