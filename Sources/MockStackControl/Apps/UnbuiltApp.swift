package import MockStackCore
import Synchronization

/// An app the registry serves before it is built: what a load cache hit mounts for every app
/// (docs/load-cache.md), its fixtures known to be those a full load has already checked. Its
/// name, mount and kind are known without the build; the app itself is made once, by the first
/// caller of ``app(whenFirstBuilt:)``, while callers that ask at the same time wait for it.
package final class UnbuiltApp: Sendable {
    package let name: String
    package let mount: String
    package let kind: String
    private let make: @Sendable () -> any MockApp
    /// Held for the whole build, and only until the app is made: a second caller waits for the
    /// first one's app rather than building another.
    private let made = Mutex<(any MockApp)?>(nil)

    /// - Parameter build: makes the app, run once; an app that failed to build answers as one
    ///   (its kind's 500) rather than being missing.
    package init(name: String, mount: String, kind: String, build: @escaping @Sendable () -> any MockApp) {
        self.name = name
        self.mount = mount
        self.kind = kind
        make = build
    }

    /// The app, built now by this caller unless it was already.
    /// - Parameter whenFirstBuilt: run once, by the caller that built it, before any other
    ///   caller gets the app (the registry swaps it into its table and hands it the journal's
    ///   observer before a request can open a socket on it).
    func app(whenFirstBuilt: (any MockApp) -> Void) -> any MockApp {
        made.withLock { made in
            if let made { return made }
            let app = make()
            whenFirstBuilt(app)
            made = app
            return app
        }
    }
}
