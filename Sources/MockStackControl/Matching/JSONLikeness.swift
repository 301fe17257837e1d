import MockStackCore

/// `{"equalToJson": …, "ignoreArrayOrder": true, "ignoreExtraElements": true}` under
/// `bodyPointers` (README.md, Request patterns): whether a body's JSON is like the expected JSON,
/// as WireMock's `equalToJson` with those options decides.
///
/// - Numbers compare by value (`1` is `1.0`); everything else as JSON equality.
/// - With extra elements ignored, an object may have members the expected one lacks, and an
///   array items beyond those expected (in order, the expected items as a subsequence of the
///   actual ones).
/// - With array order ignored, each expected item needs an actual item of its own, found by
///   bipartite matching, so that duplicates count as they should.
///
/// Every comparison of two values takes steps from the request's ``PatternBudget``: comparing
/// large arrays in any order costs up to the product of their sizes, and the budget bounds it.
/// A comparison cut short counts as not alike, and leaves the budget spent.
struct JSONLikeness {
    let ignoringArrayOrder: Bool
    let ignoringExtraElements: Bool

    /// The steps one comparison of two values costs: about what a regex step costs, many times
    /// over, so that the budget bounds the time as it does for a regex.
    static let stepsPerComparison = 64

    func isLike(_ actual: JSONValue, _ expected: JSONValue, within budget: inout PatternBudget) -> Bool {
        // A container costs its size as well: looking at its members is work too.
        let size =
            switch actual {
            case .object(let members): members.count
            case .array(let items): items.count
            default: 0
            }
        guard budget.take(Self.stepsPerComparison + size) else { return false }
        switch (expected, actual) {
        case (.object(let wanted), .object(let found)):
            if !ignoringExtraElements, found.count != wanted.count { return false }
            for (key, value) in wanted {
                guard let present = found[key], isLike(present, value, within: &budget) else { return false }
            }
            return true
        case (.array(let wanted), .array(let found)):
            if !ignoringExtraElements, wanted.count != found.count { return false }
            guard wanted.count <= found.count else { return false }
            return ignoringArrayOrder
                ? matchedInAnyOrder(found, wanted, within: &budget) : matchedInOrder(found, wanted, within: &budget)
        case (.number(let wanted), .number(let found)):
            return wanted == found || wanted.doubleValue == found.doubleValue
        default:
            return expected == actual
        }
    }

    /// The expected items, each like the actual item at its place, or (extra items ignored) like
    /// a later one: the first that fits, which finds a subsequence whenever there is one.
    private func matchedInOrder(_ found: [JSONValue], _ wanted: [JSONValue], within budget: inout PatternBudget) -> Bool
    {
        var next = 0
        for item in wanted {
            while next < found.count, !isLike(found[next], item, within: &budget) {
                guard ignoringExtraElements, !budget.isSpent else { return false }
                next += 1
            }
            guard next < found.count else { return false }
            next += 1
        }
        return true
    }

    /// Each expected item matched to an actual item of its own (Kuhn's augmenting paths), each
    /// pair compared at most once.
    private func matchedInAnyOrder(
        _ found: [JSONValue], _ wanted: [JSONValue], within budget: inout PatternBudget
    ) -> Bool {
        // Pairs compared so far, by `w * found.count + f`: what is kept grows with the comparisons
        // the budget allows, not with the arrays' sizes multiplied.
        var alike: [Int: Bool] = [:]
        var owner: [Int?] = Array(repeating: nil, count: found.count)
        func compare(_ w: Int, _ f: Int) -> Bool {
            let key = w * found.count + f
            if let known = alike[key] { return known }
            let result = isLike(found[f], wanted[w], within: &budget)
            alike[key] = result
            return result
        }
        // An actual item is visited in this round when its stamp is the round's: one array for
        // every round, not one each.
        var visitedIn = Array(repeating: -1, count: found.count)
        // An augmenting path from `start`, searched depth first with a stack of its own: a path
        // may be as long as the arrays, too deep for the loop thread's stack as recursion.
        func place(_ start: Int, round: Int) -> Bool {
            var levels: [(owner: Int, next: Int)] = [(start, 0)]
            var path: [Int] = []
            while let level = levels.last {
                var f = level.next
                var descended = false
                while f < found.count, !budget.isSpent {
                    defer { f += 1 }
                    guard visitedIn[f] != round, compare(level.owner, f) else { continue }
                    visitedIn[f] = round
                    levels[levels.count - 1].next = f + 1
                    path.append(f)
                    guard let holder = owner[f] else {
                        // A free item: each level's owner moves to the item it reached.
                        for (depth, item) in path.enumerated() { owner[item] = levels[depth].owner }
                        return true
                    }
                    levels.append((holder, 0))
                    descended = true
                    break
                }
                guard !budget.isSpent else { return false }
                if !descended {
                    levels.removeLast()
                    if !path.isEmpty { path.removeLast() }
                }
            }
            return false
        }
        for w in wanted.indices {
            guard place(w, round: w), !budget.isSpent else { return false }
        }
        return true
    }
}
