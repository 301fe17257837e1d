#if canImport(Glibc)
import Glibc

/// The C library's calls under names no method shadows (`ChildPipe` has its own `close()`).
let systemClose = Glibc.close
let systemRead = Glibc.read
let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin

let systemClose = Darwin.close
let systemRead = Darwin.read
let systemWrite = Darwin.write
#endif
