import MockStackCore
import Synchronization

/// A data set laid out by column: one array of values per field, so a condition reads one
/// contiguous array instead of visiting every row object (a cache miss each on a large set).
///
/// Columns derived for fast scans — upper-cased text for `LIKE`, order keys for `ORDER BY` —
/// are built the first time a query needs them and kept; the data never changes.
final class ColumnStore: Sendable {
    let fields: [String]
    /// `values[field][row]`.
    let values: [[DTOValue]]
    let count: Int
    private let texts = Mutex<[Int: TextColumn]>([:])
    private let orderKeys = Mutex<[Int: [RowSorter.Key]]>([:])

    init(rows: [DTOObject], fields: [String]) {
        self.fields = fields
        count = rows.count
        var values = fields.map { _ in [DTOValue]() }
        for index in values.indices { values[index].reserveCapacity(rows.count) }
        for row in rows {
            // A row holds its members in the fields' order, unset ones left out: walking both
            // in step finds each member with one comparison instead of a search.
            var next = 0
            let members = row.members
            for (position, field) in fields.enumerated() {
                if next < members.count, members[next].name == field {
                    values[position].append(members[next].value)
                    next += 1
                } else {
                    values[position].append(row[field])
                }
            }
        }
        self.values = values
    }

    /// Row `index` as an object with every field, in field order (unset ones `null`).
    func row(_ index: Int) -> DTOObject {
        var row = DTOObject()
        row.reserveCapacity(fields.count)
        for position in fields.indices { row.append(fields[position], values[position][index]) }
        return row
    }

    /// The upper-cased text of a column, built on first use.
    func text(_ position: Int) -> TextColumn {
        texts.withLock { built in
            if let column = built[position] { return column }
            let column = TextColumn(values[position])
            built[position] = column
            return column
        }
    }

    /// The order keys of a column, built on first use.
    func keys(_ position: Int) -> [RowSorter.Key] {
        orderKeys.withLock { built in
            if let keys = built[position] { return keys }
            let keys = values[position].map(RowSorter.key(of:))
            built[position] = keys
            return keys
        }
    }
}

/// A text column upper-cased for `UPPER(f) LIKE …`: every ASCII value's bytes back to back,
/// so a scan reads one buffer. Values that are not ASCII (or not text) are marked, and matched
/// from the original value the slower, Unicode-aware way.
struct TextColumn: Sendable {
    enum Kind: UInt8, Sendable {
        case null, ascii, other
    }

    let bytes: [UInt8]
    /// Row `i` is `bytes[offsets[i]..<offsets[i + 1]]`.
    let offsets: [Int]
    let kinds: [Kind]

    init(_ values: [DTOValue]) {
        var bytes: [UInt8] = []
        var offsets: [Int] = [0]
        var kinds: [Kind] = []
        offsets.reserveCapacity(values.count + 1)
        kinds.reserveCapacity(values.count)
        var scratch: [UInt8] = []
        for value in values {
            if value.isNull {
                kinds.append(.null)
            } else if SQLPattern.asciiUppercased(SQLOrdering.text(of: value), into: &scratch) {
                bytes.append(contentsOf: scratch)
                kinds.append(.ascii)
            } else {
                kinds.append(.other)
            }
            offsets.append(bytes.count)
        }
        self.bytes = bytes
        self.offsets = offsets
        self.kinds = kinds
    }

    func slice(_ index: Int) -> ArraySlice<UInt8> { bytes[offsets[index]..<offsets[index + 1]] }
}
