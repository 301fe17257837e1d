import MockStackCore

/// Writes DTOs as `/types/js` does (docs/servicestack.md#generated-dtos): each class as ES5
/// code in the shape TypeScript's compiler gives a class (`var Name = /** @class */ (function
/// (_super) { … }(Base));`), its constructor assigning its `init`, a request's `getTypeName`,
/// `getMethod` and `createResponse` on its prototype, then `exports.Name = Name;`; an enum as a
/// `var` filled by a function and exported. Members are not declared: JavaScript has no fields
/// in this shape, and ServiceStack writes no comments or annotations here.
struct CommonJsTypeWriter {
    let types: JavaScriptTypes

    /// The metadata's types by name, where a request's bases are found (its verb).
    private let typesByName: [String: MetadataType]

    init(options: NativeTypesOptions, layout: DTOLayout) {
        typesByName = layout.typesByName
        types = JavaScriptTypes(typeScript: TypeScriptTypeWriter(options: options, conflicts: layout.conflictingNames))
    }

    /// A class's or enum's lines; a base that is a dictionary first asks for the `Dictionary`
    /// class (`needsDictionary`).
    func write(_ entry: DTOLayout.Entry, needsDictionary: inout Bool) -> [String] {
        let type = entry.type
        let name = types.name(type)
        if type.isEnum {
            return ["var \(name);", "(function (\(name)) {"]
                + types.enumMembers(type, terminator: ";").map { "    " + $0 }
                + ["})(\(name) = exports.\(name) || (exports.\(name) = {}));"]
        }
        var lines: [String] = []
        let base = types.base(type)
        if base == "Dictionary", !needsDictionary {
            needsDictionary = true
            // ServiceStack's empty class, indented as it writes it.
            lines += [
                "var Dictionary = /** @class */ (function () {", "        function Dictionary() {", "    }",
                "    return Dictionary;", "    }());", "exports.Dictionary = Dictionary;",
            ]
        }
        lines.append("var \(name) = /** @class */ (function (\(base == nil ? "" : "_super")) {")
        if base != nil { lines.append("    __extends(\(name), _super);") }
        lines.append("    function \(name)(init) {")
        lines +=
            base == nil
            ? ["        Object.assign(this, init);"]
            : [
                "        var _this = _super.call(this, init) || this;", "        Object.assign(_this, init);",
                "        return _this;",
            ]
        lines.append("    }")
        if case .request(let operation) = entry.role {
            lines.append("    \(name).prototype.getTypeName = function () { return '\(name)'; };")
            if let method = TypeScriptTypeWriter.method(of: operation, types: typesByName) {
                lines.append("    \(name).prototype.getMethod = function () { return '\(method)'; };")
            }
            let value = types.responseValue(operation).flatMap { $0.isEmpty ? nil : $0 }
            lines.append(
                "    \(name).prototype.createResponse = function () { \(value.map { "return \($0); " } ?? "")};")
        }
        return lines + ["    return \(name);", "}(\(base ?? "")));", "exports.\(name) = \(name);"]
    }
}
