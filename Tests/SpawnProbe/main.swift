import Foundation
import MockStackTesting

// Starts two shared servers the way a test does (so a second child must not keep the first's
// lifeline open), prints their pids on one line, then waits to be killed.
let example = try SharedMockStack.server(.spawned(), apps: ["example"])
let feathers = try SharedMockStack.server(.spawned(), apps: ["feathers"])
FileHandle.standardOutput.write(Data("\(example.ready.pid) \(feathers.ready.pid)\n".utf8))
while true { sleep(60) }
