/// Runs a ``PatternProgram`` over a text's Unicode scalars as a Pike VM (Thompson's simulation):
/// every thread of the program advances over the text in lockstep, one scalar at a time, and
/// a program counter already reached at a position is not followed again. So each scalar costs
/// at most one visit per instruction — O(pattern × text) — whatever the pattern, with no
/// backtracking, and memory stays O(pattern). A run stops once it has taken its step limit
/// (``PatternBudget``): linear is not cheap for a large program over a long text.
struct PatternMachine {
    let program: [PatternProgram.Instruction]

    /// What a run found, and how much work it took (instructions visited), for tests that hold
    /// the matcher to its bound.
    struct Outcome: Equatable {
        var matched: Bool
        var steps: Int
        /// Stopped at `limit` steps before it could tell: `matched` is false.
        var cut = false
    }

    /// - Parameters:
    ///   - whole: the whole text must match (`wholeMatch`); otherwise any part of it may;
    ///   - limit: the most steps the run may take.
    func run(_ text: Substring.UnicodeScalarView, whole: Bool, limit: Int = .max) -> Outcome {
        var marks = [Int](repeating: -1, count: program.count)
        var current: [Int] = []
        var next: [Int] = []
        var stack: [Int] = []
        current.reserveCapacity(program.count)
        next.reserveCapacity(program.count)
        var steps = 0
        var generation = 0
        var index = text.startIndex
        var found = false

        /// Adds the thread at `start`, following jumps, splits and assertions, into `list`:
        /// only instructions that consume a scalar (or `match`) stay on it.
        func add(_ start: Int, to list: inout [Int], atStart: Bool, atEnd: Bool) {
            stack.append(start)
            while let pc = stack.popLast(), steps < limit {
                guard marks[pc] != generation else { continue }
                marks[pc] = generation
                steps += 1
                switch program[pc] {
                case .jump(let target): stack.append(target)
                case .split(let first, let second):
                    stack.append(second)
                    stack.append(first)
                case .start: if atStart { stack.append(pc + 1) }
                case .end: if atEnd { stack.append(pc + 1) }
                case .match:
                    if !whole || atEnd { found = true }
                    list.append(pc)
                case .scalar, .set: list.append(pc)
                }
            }
        }

        add(0, to: &current, atStart: true, atEnd: index == text.endIndex)
        while index != text.endIndex, !(found && !whole) {
            let value = text[index].value
            text.formIndex(after: &index)
            generation += 1
            let atEnd = index == text.endIndex
            found = false
            next.removeAll(keepingCapacity: true)
            for pc in current where steps < limit {
                steps += 1
                switch program[pc] {
                case .scalar(let wanted) where wanted == value: add(pc + 1, to: &next, atStart: false, atEnd: atEnd)
                case .set(let set) where set.contains(value): add(pc + 1, to: &next, atStart: false, atEnd: atEnd)
                default: break
                }
            }
            // A search starts a new thread at every position.
            if !whole { add(0, to: &next, atStart: false, atEnd: atEnd) }
            swap(&current, &next)
            // Whole-text matching has nothing left to try; a search still starts anew at each position.
            if whole, current.isEmpty { break }
            if steps >= limit { return Outcome(matched: false, steps: steps, cut: true) }
        }
        if steps >= limit, !found { return Outcome(matched: false, steps: steps, cut: true) }
        return Outcome(matched: found && (!whole || index == text.endIndex), steps: steps)
    }
}
