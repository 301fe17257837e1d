/// One question a load asked of its ``FixtureSource`` and the answer it got: what a cached
/// load records, digests and replays (``RecordingFixtureSource``, ``ReplayedFixtureSource``).
public struct FixtureExchange: Sendable, Equatable {
    /// What was asked.
    public enum Question: Sendable, Hashable {
        /// ``FixtureSource/appFolders()``.
        case appFolders
        /// ``FixtureSource/fileExists(_:)`` of a path.
        case fileExists(String)
        /// ``FixtureSource/read(_:)`` of a path.
        case read(String)
    }

    /// What the source said.
    public enum Answer: Sendable, Equatable {
        /// The app folders listed.
        case folders([String])
        /// Whether the file exists.
        case exists(Bool)
        /// The file's bytes.
        case bytes([UInt8])
        /// The call threw (why is not kept: a load that succeeded cannot depend on it).
        case failed
    }

    public var question: Question
    public var answer: Answer

    public init(question: Question, answer: Answer) {
        self.question = question
        self.answer = answer
    }

    /// Asks `source` the question.
    public static func asking(_ question: Question, of source: any FixtureSource) -> FixtureExchange {
        switch question {
        case .appFolders:
            return FixtureExchange(
                question: question, answer: (try? source.appFolders()).map(Answer.folders) ?? .failed)
        case .fileExists(let path):
            return FixtureExchange(question: question, answer: .exists(source.fileExists(path)))
        case .read(let path):
            return FixtureExchange(question: question, answer: (try? source.read(path)).map(Answer.bytes) ?? .failed)
        }
    }
}
