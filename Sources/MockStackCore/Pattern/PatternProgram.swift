/// A pattern compiled for ``PatternMachine``: Thompson's construction, one instruction per
/// literal or class and a `split` or `jump` per choice, so the program grows with the pattern
/// (a counted repetition repeats its body) and never with the text.
struct PatternProgram: Sendable, Equatable {
    enum Instruction: Sendable, Equatable {
        /// Consumes this scalar.
        case scalar(UInt32)
        /// Consumes any scalar of the set.
        case set(ScalarSet)
        /// Goes on at both.
        case split(Int, Int)
        case jump(Int)
        /// Goes on only at the start of the text.
        case start
        /// Goes on only at the end of the text.
        case end
        case match
    }

    let instructions: [Instruction]

    /// - Throws: ``PatternError/Kind/tooLarge(_:)`` when the program would exceed `limit`
    ///   instructions; the size is worked out before anything is built.
    init(_ node: PatternNode, limit: Int) throws(PatternError) {
        let size = Self.size(of: node, limit: limit) + 1
        guard size <= limit else {
            throw PatternError(
                .tooLarge(
                    """
                    the pattern compiles to more than \(limit) instructions (repetitions count their body once per \
                    repeat)
                    """
                ),
                at: 0, excerpt: "")
        }
        var instructions: [Instruction] = []
        instructions.reserveCapacity(size)
        Self.emit(node, into: &instructions)
        instructions.append(.match)
        self.instructions = instructions
    }

    /// How many instructions `node` compiles to, or `limit + 1` once past `limit`.
    private static func size(of node: PatternNode, limit: Int) -> Int {
        let size: Int
        switch node {
        case .empty: size = 0
        case .scalar, .set, .start, .end: size = 1
        case .concatenation(let items): size = items.reduce(0) { min($0 + Self.size(of: $1, limit: limit), limit + 1) }
        case .alternation(let branches):
            size = branches.reduce(2 * (branches.count - 1)) { min($0 + Self.size(of: $1, limit: limit), limit + 1) }
        case .repetition(let body, let low, let high):
            let each = Self.size(of: body, limit: limit)
            switch high {
            case nil where low == 0: size = each + 2
            case nil: size = low * each + 1
            case let high?: size = low * each + (high - low) * (each + 1)
            }
        }
        return min(size, limit + 1)
    }

    private static func emit(_ node: PatternNode, into program: inout [Instruction]) {
        switch node {
        case .empty: break
        case .scalar(let value): program.append(.scalar(value))
        case .set(let set): program.append(.set(set))
        case .start: program.append(.start)
        case .end: program.append(.end)
        case .concatenation(let items):
            for item in items { emit(item, into: &program) }
        case .alternation(let branches):
            var jumps: [Int] = []
            for branch in branches.dropLast() {
                let split = program.count
                program.append(.jump(-1))
                emit(branch, into: &program)
                jumps.append(program.count)
                program.append(.jump(-1))
                program[split] = .split(split + 1, program.count)
            }
            emit(branches[branches.count - 1], into: &program)
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repetition(let body, let low, nil) where low == 0:
            // L: split body, out; body; jump L; out:
            let loop = program.count
            program.append(.jump(-1))
            emit(body, into: &program)
            program.append(.jump(loop))
            program[loop] = .split(loop + 1, program.count)
        case .repetition(let body, let low, nil):
            // low - 1 copies, then L: body; split L, out
            for _ in 0..<(low - 1) { emit(body, into: &program) }
            let loop = program.count
            emit(body, into: &program)
            program.append(.split(loop, program.count + 1))
        case .repetition(let body, let low, let high?):
            for _ in 0..<low { emit(body, into: &program) }
            // Each optional copy may be skipped: split body, out; body; out:
            for _ in 0..<(high - low) {
                let split = program.count
                program.append(.jump(-1))
                emit(body, into: &program)
                program[split] = .split(split + 1, program.count)
            }
        }
    }
}
