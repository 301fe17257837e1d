import MockStackCore

/// Reads an app's JSON data sets (`technologies.json`: an array of model objects) while its
/// manifest loads, each file once per model however many operations name it, reporting every
/// row that does not fit the model with its file, line and pointer.
///
/// Lives only for the load (one thread), so it needs no lock.
final class DataSetLoader {
    let manifest: ManifestReader
    let coercion: ValueCoercion
    private var rowsByKey: [String: [DTOObject]] = [:]
    private var derived: [String: any Sendable] = [:]

    init(manifest: ManifestReader, coercion: ValueCoercion) {
        self.manifest = manifest
        self.coercion = coercion
    }

    /// The rows of `fileName` (named at `pointer`) read as `modelName`, or nil after reporting why not.
    func rows(of fileName: String, as modelName: String, at pointer: String) -> [DTOObject]? {
        let key = modelName + "\u{0}" + fileName
        if let cached = rowsByKey[key] { return cached }
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
                guard element.objectValue != nil, case .object(let row)? = coercion.fromJSON(element, as: .object(model.reference)) else {
                    misfits.append(index)
                    return
                }
                rows.append(row)
            }
            guard isArray else {
                manifest.report(FixtureDiagnostic(file: display, position: .start, pointer: "", message: "a data set is a JSON array of \(modelName) objects"))
                return nil
            }
        } catch {
            manifest.report(FixtureDiagnostic(file: display, position: error.position, pointer: error.pointer, message: "invalid JSON: \(error.message)"))
            return nil
        }
        if !misfits.isEmpty {
            // Positions cost a third of a parse, so they are recorded only to report mistakes.
            let positions = try? JSONParser().parse(file.bytes, recordPositions: true)
            for index in misfits {
                manifest.report(FixtureDiagnostic(file: display, position: positions?.position(of: "/\(index)") ?? .start, pointer: "/\(index)",
                                                  message: "row \(index) is not a \(modelName): an object whose values fit its properties' types"))
            }
        }
        rowsByKey[key] = rows
        return rows
    }

    /// A value built once from data sets and shared by the operations that name the same
    /// inputs (`key` spells them out), such as a TechStacks site.
    func shared<Value: Sendable>(_ key: String, build: () -> Value?) -> Value? {
        if let cached = derived[key] as? Value { return cached }
        guard let value = build() else { return nil }
        derived[key] = value
        return value
    }
}
