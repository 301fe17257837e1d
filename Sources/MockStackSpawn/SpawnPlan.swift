#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `posix_spawn` does in the child before the program runs (descriptors set up, folder
/// changed, signals back to their defaults), and the spawn itself.
struct SpawnPlan {
    #if os(Linux)
    private var actions = posix_spawn_file_actions_t()
    private var attributes = posix_spawnattr_t()
    #else
    private var actions: posix_spawn_file_actions_t? = nil
    private var attributes: posix_spawnattr_t? = nil
    #endif

    init() {
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        // The child starts with no signal blocked and every signal's default action: this
        // process may ignore SIGPIPE, and an ignored signal stays ignored across exec.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        #if os(Linux)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        #else
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT))
        #endif
    }

    /// The child's `target` becomes a copy of `descriptor`.
    mutating func duplicate(_ descriptor: Int32, to target: Int32) {
        posix_spawn_file_actions_adddup2(&actions, descriptor, target)
    }

    /// The child's `target` is `path` opened with `flags`.
    mutating func open(_ target: Int32, _ path: String, _ flags: Int32) {
        posix_spawn_file_actions_addopen(&actions, target, path, flags, 0)
    }

    /// Starts `executable`; its process id, or the system's error number.
    mutating func spawn(
        _ executable: String, arguments: [String], environment: [String]
    ) -> Result<Int32, SpawnErrorCode> {
        #if os(Linux)
        // Every descriptor above 2 closed in the child, whichever thread made it without
        // close-on-exec (on Darwin, POSIX_SPAWN_CLOEXEC_DEFAULT does this).
        _ = GNUSpawnActions.addCloseFrom?(&actions, 3)
        #endif
        let argv = CStringArray([executable] + arguments)
        let envp = CStringArray(environment)
        defer {
            argv.release()
            envp.release()
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv.pointers, envp.pointers)
        return code == 0 ? .success(pid) : .failure(SpawnErrorCode(value: code))
    }

    mutating func release() {
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
    }
}

/// A `posix_spawn` error number, as an `Error` for `Result`.
struct SpawnErrorCode: Error {
    var value: Int32
}

/// Strings as the NUL-terminated, NULL-ended array `execve` takes, until ``release()``.
struct CStringArray {
    var pointers: [UnsafeMutablePointer<CChar>?]

    init(_ strings: [String]) {
        pointers = strings.map { strdup($0) } + [nil]
    }

    func release() {
        for pointer in pointers { free(pointer) }
    }
}

#if os(Linux)
/// glibc's `posix_spawn` file action that its Swift module leaves out (it is declared only
/// under _GNU_SOURCE), looked up by name: closing every descriptor from a number on (glibc
/// 2.34). nil where the C library has none.
enum GNUSpawnActions {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static let addCloseFrom: CloseFrom? = lookUp("posix_spawn_file_actions_addclosefrom_np")

    private static func lookUp<Function>(_ name: String) -> Function? {
        // A null handle is RTLD_DEFAULT: the libraries the process has loaded, libc among them.
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }
}
#endif
