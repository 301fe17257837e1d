/// What kind of app `mockstack record` writes (`--kind`).
public enum RecordingKind: String, Sendable, CaseIterable {
    /// ServiceStack when the target answers `/types/metadata` (or the folder already holds an
    /// app: its kind), else static. A Feathers server says nothing that tells it apart: name it.
    case auto
    /// The target's `/types/metadata`, and each operation's answers per request.
    case servicestack
    /// The services seen, their records as seed data, the pagination they answered with.
    case feathers
    /// Each method and path's answer, byte for byte.
    case `static`
}
