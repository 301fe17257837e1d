/// A request waiting for a journal entry (`POST /__mockstack/requests/wait`): the first entry
/// recorded after ``since`` that ``matches`` accepts is handed to ``deliver``, once.
struct JournalWaiter: Sendable {
    /// Unique among the server's waiters (``WaitBudget/nextId()``), to take it back out.
    let id: Int
    /// Only entries with a greater id count.
    let since: Int
    let matches: @Sendable (JournalEntry) -> Bool
    /// Called outside the journal's lock, on the thread that recorded the entry.
    let deliver: @Sendable (JournalEntry) -> Void

    func wants(_ entry: JournalEntry) -> Bool { entry.id > since && matches(entry) }
}

/// What a wait finds in the journal when it starts.
enum JournalWaitStart {
    /// The first matching entry already there: nothing waits.
    case found(JournalEntry)
    /// None yet: the waiter is registered, and the next matching entry goes to it.
    case waiting
}
