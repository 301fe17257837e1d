import MockStackCore

/// What the load cache keeps of a load that succeeded (docs/load-cache.md): each question the
/// load asked of its fixture source, in order, with what checks its answer at the next start —
/// for each file read, its ``FileSignature`` and its content's digest (``FixtureDigest``); for
/// the app folders listed, the list and each listed folder's signature; each `fileExists`
/// answer — then the apps the load made (folder, name, mount, kind: what the ready line needs),
/// and the moment the load began (a file whose times are that close is checked by content).
///
/// On disk: `mockstack load record 3\n`, the key (a 32-bit little-endian length, then its
/// UTF-8), the moment, the entries, the apps, then a 16-byte digest of everything before it.
/// Decoding trusts nothing it reads: lengths are bounded, the digest must match, and anything
/// malformed is no record at all.
struct LoadRecord: Equatable {
    var key: String
    /// When the load that made it began (or the check that refreshed it), in nanoseconds since
    /// the epoch: files changed since then, or just before, are never trusted by `stat` alone.
    var madeAt: Int64
    var entries: [Entry]
    var apps: [AppLoader.DeferredAppDescription]

    /// One question and what checks its answer.
    enum Entry: Equatable {
        /// The app folders listed, and the folders on disk the list came from.
        case folders(listed: [String], stamps: [FolderStamp])
        /// A `fileExists` answer.
        case exists(path: String, Bool)
        /// A file read: its signature then (nil when not on disk: always checked by content) and
        /// its bytes' digest.
        case file(path: String, signature: FileSignature?, digest: [UInt8])
        /// A read that failed (a load that succeeded did not depend on why).
        case unreadable(path: String)
    }

    /// A listed folder's path and signature (nil when it was not there).
    struct FolderStamp: Equatable {
        var path: String
        var signature: FileSignature?
    }

    static let magic = Array("mockstack load record 3\n".utf8)
    static let digestBytes = 16
    /// Bounds for reading a record: past any of them it is refused as corrupt.
    static let maxBytes = 4 << 20
    static let maxCount = 100_000
    static let maxTextBytes = 64 << 10

    init(key: String, madeAt: Int64, entries: [Entry], apps: [AppLoader.DeferredAppDescription]) {
        self.key = key
        self.madeAt = madeAt
        self.entries = entries
        self.apps = apps
    }

    /// The record of a full load: its exchanges with its source, each file's and folder's
    /// signature taken now from where `files` says they are (after the load: a file changed
    /// since the load began is racy, so its signature is never trusted), and its apps.
    init(
        key: String, madeAt: Int64, exchanges: [FixtureExchange], files: FixtureFiles,
        apps: [AppLoader.DeferredAppDescription]
    ) {
        let entries = exchanges.compactMap { exchange -> Entry? in
            switch (exchange.question, exchange.answer) {
            case (.appFolders, .folders(let listed)):
                return .folders(
                    listed: listed, stamps: files.roots.map { FolderStamp(path: $0, signature: .of($0)) })
            case (.fileExists(let path), .exists(let exists)): return .exists(path: path, exists)
            case (.read(let path), .bytes(let bytes)):
                return .file(
                    path: path, signature: files.path(of: path).flatMap(FileSignature.of),
                    digest: FixtureDigest.of(bytes))
            case (.read(let path), .failed): return .unreadable(path: path)
            default: return nil
            }
        }
        self.init(key: key, madeAt: madeAt, entries: entries, apps: apps)
    }

    /// The record as it is written.
    var encoded: [UInt8] {
        var out = Self.magic
        Self.append(text: key, to: &out)
        Self.append(madeAt, to: &out)
        Self.append(UInt32(truncatingIfNeeded: entries.count), to: &out)
        for entry in entries {
            switch entry {
            case .folders(let listed, let stamps):
                out.append(UInt8(ascii: "L"))
                Self.append(texts: listed, to: &out)
                Self.append(UInt32(truncatingIfNeeded: stamps.count), to: &out)
                for stamp in stamps {
                    Self.append(text: stamp.path, to: &out)
                    Self.append(stamp.signature, to: &out)
                }
            case .exists(let path, let exists):
                out.append(UInt8(ascii: "E"))
                Self.append(text: path, to: &out)
                out.append(exists ? 1 : 0)
            case .file(let path, let signature, let digest):
                out.append(UInt8(ascii: "R"))
                Self.append(text: path, to: &out)
                Self.append(signature, to: &out)
                out += digest
            case .unreadable(let path):
                out.append(UInt8(ascii: "X"))
                Self.append(text: path, to: &out)
            }
        }
        Self.append(UInt32(truncatingIfNeeded: apps.count), to: &out)
        for app in apps { Self.append(texts: [app.folder, app.name, app.mount, app.kind], to: &out) }
        out += FixtureDigest.of(out)
        return out
    }

    /// A record read back; nil when `bytes` is not one, whatever they hold.
    init?(decoding bytes: [UInt8]) {
        guard bytes.count <= Self.maxBytes, bytes.count >= Self.magic.count + Self.digestBytes,
            bytes.starts(with: Self.magic),
            FixtureDigest.of(Array(bytes[..<(bytes.count - Self.digestBytes)])) == Array(bytes.suffix(Self.digestBytes))
        else { return nil }
        var reader = Reader(bytes: bytes, offset: Self.magic.count, end: bytes.count - Self.digestBytes)
        guard let key = reader.text(), let madeAt = reader.integer(Int64.self), let count = reader.count() else {
            return nil
        }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            guard let tag = reader.byte() else { return nil }
            switch tag {
            case UInt8(ascii: "L"):
                guard let listed = reader.texts(), let stampCount = reader.count() else { return nil }
                var stamps: [FolderStamp] = []
                for _ in 0..<stampCount {
                    guard let path = reader.text(), let signature = reader.signature() else { return nil }
                    stamps.append(FolderStamp(path: path, signature: signature))
                }
                entries.append(.folders(listed: listed, stamps: stamps))
            case UInt8(ascii: "E"):
                guard let path = reader.text(), let answer = reader.byte(), answer <= 1 else { return nil }
                entries.append(.exists(path: path, answer == 1))
            case UInt8(ascii: "R"):
                guard let path = reader.text(), let signature = reader.signature(),
                    let digest = reader.bytes(Self.digestBytes)
                else { return nil }
                entries.append(.file(path: path, signature: signature, digest: digest))
            case UInt8(ascii: "X"):
                guard let path = reader.text() else { return nil }
                entries.append(.unreadable(path: path))
            default: return nil
            }
        }
        guard let appCount = reader.count() else { return nil }
        var apps: [AppLoader.DeferredAppDescription] = []
        for _ in 0..<appCount {
            guard let fields = reader.texts(), fields.count == 4 else { return nil }
            apps.append(
                AppLoader.DeferredAppDescription(folder: fields[0], name: fields[1], mount: fields[2], kind: fields[3]))
        }
        guard reader.atEnd else { return nil }
        self.init(key: key, madeAt: madeAt, entries: entries, apps: apps)
    }

    private static func append(_ signature: FileSignature?, to out: inout [UInt8]) {
        guard let signature else { return out.append(0) }
        out.append(1)
        append(signature.device, to: &out)
        append(signature.inode, to: &out)
        append(signature.size, to: &out)
        append(signature.modified, to: &out)
        append(signature.changed, to: &out)
    }

    private static func append(texts: [String], to out: inout [UInt8]) {
        append(UInt32(truncatingIfNeeded: texts.count), to: &out)
        for text in texts { append(text: text, to: &out) }
    }

    private static func append(text: String, to out: inout [UInt8]) {
        append(UInt32(truncatingIfNeeded: text.utf8.count), to: &out)
        out.append(contentsOf: text.utf8)
    }

    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: Integer.bitWidth, by: 8) {
            out.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }

    /// Reads a record's fields in order, every read bounds-checked.
    private struct Reader {
        let bytes: [UInt8]
        var offset: Int
        /// Where the fields end (the record's own digest follows).
        let end: Int

        var atEnd: Bool { offset == end }

        mutating func byte() -> UInt8? {
            guard offset < end else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func bytes(_ count: Int) -> [UInt8]? {
            guard count >= 0, end - offset >= count else { return nil }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        /// A little-endian integer, read in place (a record holds thousands of them).
        mutating func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) -> Integer? {
            let width = Integer.bitWidth / 8
            guard end - offset >= width else { return nil }
            var value = Integer.zero
            var index = offset + width
            while index > offset {
                index -= 1
                value = value << 8 | Integer(truncatingIfNeeded: bytes[index])
            }
            offset += width
            return value
        }

        /// A count within ``LoadRecord/maxCount``.
        mutating func count() -> Int? {
            guard let count = integer(UInt32.self), count <= LoadRecord.maxCount else { return nil }
            return Int(count)
        }

        mutating func signature() -> FileSignature?? {
            guard let present = byte(), present <= 1 else { return nil }
            if present == 0 { return .some(nil) }
            guard let device = integer(UInt64.self), let inode = integer(UInt64.self), let size = integer(Int64.self),
                let modified = integer(Int64.self), let changed = integer(Int64.self)
            else { return nil }
            return .some(FileSignature(device: device, inode: inode, size: size, modified: modified, changed: changed))
        }

        /// A length-prefixed UTF-8 string: nil when too long or not valid UTF-8.
        mutating func text() -> String? {
            guard let length = integer(UInt32.self), length <= LoadRecord.maxTextBytes, end - offset >= Int(length)
            else { return nil }
            defer { offset += Int(length) }
            return String(validating: bytes[offset..<offset + Int(length)], as: UTF8.self)
        }

        mutating func texts() -> [String]? {
            guard let count = count() else { return nil }
            var texts: [String] = []
            for _ in 0..<count {
                guard let text = text() else { return nil }
                texts.append(text)
            }
            return texts
        }
    }
}
