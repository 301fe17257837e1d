# The release build's flags on Linux, in one place: the Makefile (RELEASE_FLAGS) and the
# Dockerfile's build stage both source this file and pass $RELEASE_LINK_FLAGS to
# `swift build -c release`, in the shell that sourced it (it exports PKG_CONFIG_PATH). Plain sh
# assignments and exports only (the container smoke test sources it too).
#
# --static-swift-stdlib: the Swift runtime inside the binary; it starts faster and maps less
# memory.
# -no-pie: a fixed-address executable. A PIE's ~58,000 relocations dirty the data pages of the
# whole static binary at every start (≈1.2 MiB RSS and ≈1 ms). A loopback test server gives up
# little by losing ASLR for its own image (Benchmarks/LOG.md).
STATIC_RUNTIME="--static-swift-stdlib -Xlinker -no-pie"
# The static runtime's link arguments export every symbol of the executable (-export-dynamic):
# 18,308 names nothing looks up, whose tables (1.5 MiB, 0.9 of it resident) the dynamic loader
# pages in at each start while it resolves the shared libraries' symbols. --no-export-dynamic,
# given later, wins. (Crash backtraces are named from the symbol table, which stays.)
NO_EXPORTS="-Xlinker --no-export-dynamic"
# Each function in its own section, so that gold can lay out the ones a server runs together,
# in the order of Sources/CLI/link-order.txt (Scripts/link-order.sh): Linux maps code
# 64 KiB around each page fault, and scattered, those functions kept ~3 MiB more resident.
# (-function-sections goes to the frontend: SwiftPM 6.3 crashes re-planning a build whose
# -Xswiftc flags hold it as a driver option. SwiftPM does not rebuild objects for a changed
# frontend flag: a release build from before the layout gets it once .build/release is removed.)
LINK_ORDER="-Xswiftc -Xfrontend -Xswiftc -function-sections -Xlinker --section-ordering-file=Sources/CLI/link-order.txt"
# libstdc++ from its static archive: the Swift runtime uses a few dozen of its functions, but
# loading libstdc++.so made the dynamic loader process its ~5,200 relocations at every start:
# 1.9M instructions and 80 page faults of `mockstack --version`'s 9.4M and 342
# (Benchmarks/LOG.md). The folder holds a linker script named libstdc++.so that names
# libstdc++.a; searched before the compiler's own folder, it is what `-lstdc++` finds.
STATIC_ARCHIVES="-Xlinker -LScripts/static-archives"
# libcrypto from its static archive too, for the same reason (libcrypto.so is larger still, for
# three digests), another way: SwiftPM puts the system's library folder, from the pkg-config
# files, before any -L above, so a stand-in libcrypto.so would never be found first. The release
# build reads Scripts/static-archives/libcrypto.pc instead, whose one flag names the archive:
# PKG_CONFIG_PATH puts that folder first (CLibcrypto's module map links nothing itself).
PKG_CONFIG_PATH="$PWD/Scripts/static-archives${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_PATH
RELEASE_LINK_FLAGS="$STATIC_RUNTIME $NO_EXPORTS $LINK_ORDER $STATIC_ARCHIVES"
