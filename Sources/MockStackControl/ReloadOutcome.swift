#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// What the last fixture reload (`serve --watch`) did, for `/__mockstack/health`.
package struct ReloadOutcome: Sendable {
    package var time: Date
    /// The apps swapped in, when it worked.
    package var reloaded: [String]
    /// `file:line:column: message` for each problem, when it did not.
    package var problems: [String]

    package init(time: Date, reloaded: [String], problems: [String]) {
        self.time = time
        self.reloaded = reloaded
        self.problems = problems
    }
}
