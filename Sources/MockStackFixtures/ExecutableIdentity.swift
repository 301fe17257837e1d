import MockStackCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which build of mockstack this executable is, for the load cache's key: the linker's build ID
/// (`NT_GNU_BUILD_ID`, a digest of the linked contents) where the executable carries one, so a
/// copy of the same binary — the Docker image's, pulled on another host — is the same build and
/// any rebuilt binary another; else its size, modification time and identity (device, inode).
enum ExecutableIdentity {
    /// One line describing `executable`, or nil when it cannot be read.
    static func describe(_ executable: URL) -> String? {
        guard let status = FileStatus(path: executable.path) else { return nil }
        if let buildID = buildID(of: executable) { return "size \(status.size) build-id \(buildID)" }
        return
            """
            size \(status.size) modified \(status.modifiedSeconds).\(status.modifiedNanoseconds) device \
            \(status.device) inode \(status.inode)
            """
    }

    /// The ELF build ID in hex, read from the notes of the first 4 KiB (the file is mapped, not
    /// read whole); nil for anything else.
    static func buildID(of executable: URL) -> String? {
        guard let data = try? Data(contentsOf: executable, options: .alwaysMapped) else { return nil }
        return buildID(inELF: [UInt8](data.prefix(4096)))
    }

    /// The build ID note of a 64-bit little-endian ELF image's start, when its program headers
    /// and that note lie within `bytes`.
    static func buildID(inELF bytes: [UInt8]) -> String? {
        guard bytes.count >= 64, bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46, 2, 1]) else { return nil }
        func integer(at offset: Int, size: Int) -> Int? {
            guard offset >= 0, size <= 8, offset <= bytes.count - size else { return nil }
            let value = (0..<size).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
            return value > UInt64(Int.max) ? nil : Int(value)
        }
        guard let headers = integer(at: 32, size: 8), let entrySize = integer(at: 54, size: 2),
            let count = integer(at: 56, size: 2),
            entrySize >= 56
        else { return nil }
        for index in 0..<count {
            let header = headers + index * entrySize
            guard let type = integer(at: header, size: 4) else { return nil }
            guard type == 4, var offset = integer(at: header + 8, size: 8), let size = integer(at: header + 32, size: 8)
            else { continue }
            let end = offset + min(size, 4096)
            while offset + 12 <= end {
                guard let nameSize = integer(at: offset, size: 4),
                    let descriptionSize = integer(at: offset + 4, size: 4),
                    let noteType = integer(at: offset + 8, size: 4)
                else { return nil }
                let name = offset + 12
                let description = name + (nameSize + 3) / 4 * 4
                guard description + descriptionSize <= min(end, bytes.count) else { return nil }
                if noteType == 3, nameSize == 4, bytes[name..<name + 4].elementsEqual([0x47, 0x4E, 0x55, 0]),
                    descriptionSize > 0
                {
                    return HexText.of(bytes[description..<description + descriptionSize])
                }
                offset = description + (descriptionSize + 3) / 4 * 4
            }
        }
        return nil
    }
}
