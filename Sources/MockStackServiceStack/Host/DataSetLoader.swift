import MockStackCore

/// Reads an app's JSON data sets (`technologies.json`: an array of model objects) while its
/// manifest loads, each file once per model however many operations name it, reporting every
/// row that does not fit the model with its file, line and pointer.
///
/// Lives only for the load (one thread), so it needs no lock.
final class DataSetLoader {
    let manifest: ManifestReader
    let coercion: ValueCoercion
    /// Rows read so far, and nil for a file and model already reported as broken (so it is
    /// reported once, however many operations name it).
    private var rowsByKey: [String: [DTOObject]?] = [:]
    private var derived: [String: (any Sendable)?] = [:]
    /// Every `~/` path the rows read hold, with the pointer that named their data set, in the
    /// order found (``VirtualFiles``).
    private(set) var virtualPaths: [(path: String, pointer: String)] = []

    init(manifest: ManifestReader, coercion: ValueCoercion) {
        self.manifest = manifest
        self.coercion = coercion
    }

    /// The rows of `fileName` (named at `pointer`) read as `modelName`, or nil after reporting why not.
    func rows(of fileName: String, as modelName: String, at pointer: String) -> [DTOObject]? {
        let key = modelName + "\u{0}" + fileName
        if let cached = rowsByKey[key] { return cached }
        rowsByKey[key] = .some(nil)
        let rows = readRows(of: fileName, as: modelName, at: pointer)
        rowsByKey[key] = .some(rows)
        for row in rows ?? [] { collectVirtualPaths(in: .object(row), pointer: pointer) }
        return rows
    }

    private func collectVirtualPaths(in value: DTOValue, pointer: String) {
        switch value {
        case .string(let text) where text.hasPrefix("~/"): virtualPaths.append((text, pointer))
        case .list(let items): for item in items { collectVirtualPaths(in: item, pointer: pointer) }
        case .object(let object):
            for member in object.members { collectVirtualPaths(in: member.value, pointer: pointer) }
        case .map(let entries): for entry in entries { collectVirtualPaths(in: entry.value, pointer: pointer) }
        default: break
        }
    }

    private func readRows(of fileName: String, as modelName: String, at pointer: String) -> [DTOObject]? {
        guard let model = coercion.catalog.object(named: modelName) else {
            manifest.report("the metadata declares no type '\(modelName)'", at: pointer)
            return nil
        }
        guard let file = manifest.appFile(named: fileName, at: pointer) else { return nil }
        let display = manifest.displayPath(file.path)
        var rows: [DTOObject] = []
        var misfits: [Int] = []
        do {
            // Row by row: the parsed JSON of one row is dropped before the next is read.
            let isArray = try JSONParser().forEachElement(of: file.bytes) { index, element in
                guard element.objectValue != nil,
                    case .object(let row)? = coercion.fromJSON(element, as: .object(model.reference))
                else {
                    misfits.append(index)
                    return
                }
                rows.append(row)
            }
            guard isArray else {
                manifest.report(
                    FixtureDiagnostic(
                        file: display, position: .start, pointer: "",
                        message: "a data set is a JSON array of \(modelName) objects"))
                return nil
            }
        } catch {
            manifest.report(
                FixtureDiagnostic(
                    file: display, position: error.position, pointer: error.pointer,
                    message: "invalid JSON: \(error.message)"))
            return nil
        }
        if !misfits.isEmpty {
            // Positions make a parse much dearer, so they are recorded only to report mistakes.
            let positions = try? JSONParser().parse(file.bytes, recordPositions: true)
            for index in misfits {
                manifest.report(
                    FixtureDiagnostic(
                        file: display, position: positions?.position(of: "/\(index)") ?? .start, pointer: "/\(index)",
                        message: "row \(index) is not a \(modelName): an object whose values fit its properties' types")
                )
            }
        }
        return misfits.isEmpty ? rows : nil
    }

    /// A value built once from data sets and shared by the operations that name the same
    /// inputs (`key` spells them out), such as a TechStacks site; a build that failed (and
    /// reported why) is not tried again.
    func shared<Value: Sendable>(_ key: String, build: () -> Value?) -> Value? {
        if let cached = derived[key] { return cached as? Value }
        let value = build()
        derived[key] = .some(value.map { $0 as any Sendable })
        return value
    }
}
