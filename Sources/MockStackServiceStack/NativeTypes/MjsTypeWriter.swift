import MockStackCore

/// Writes DTOs as `/types/mjs` does (docs/servicestack.md#generated-dtos): an ES module's
/// `export class Name extends Base { … }` with a constructor assigning its `init`, a field per
/// member (camelCase, a required collection started empty), and for requests `getTypeName`,
/// `getMethod`, `createResponse`; an enum as `export var Name;` filled by a function, as
/// TypeScript compiles one. Under `AddDocAnnotations` JSDoc types what JavaScript cannot: the
/// constructor's `@param` (every member, the bases' too), each field's `@type` (`?` when
/// optional), an enum's `@typedef`, and a generic class's parameters as `any`.
struct MjsTypeWriter {
    let types: JavaScriptTypes
    /// `AddDocAnnotations`.
    let annotates: Bool
    /// The flags read for every member, read once.
    private let members: ScriptMemberOptions
    /// The written types by name, for the bases' members in a constructor's `@param`.
    private let declared: [String: MetadataType]

    /// The metadata's types by name, where a request's bases are found (its verb).
    private let typesByName: [String: MetadataType]

    init(options: NativeTypesOptions, layout: DTOLayout) {
        typesByName = layout.typesByName
        types = JavaScriptTypes(typeScript: TypeScriptTypeWriter(options: options, conflicts: layout.conflictingNames))
        annotates = options.flag("AddDocAnnotations")
        members = ScriptMemberOptions(options)
        var declared: [String: MetadataType] = [:]
        for entry in layout.entries where declared[entry.type.name] == nil { declared[entry.type.name] = entry.type }
        self.declared = declared
    }

    /// A class's or enum's lines; a base that is a dictionary first asks for the `Dictionary`
    /// class (`needsDictionary`).
    func write(_ entry: DTOLayout.Entry, needsDictionary: inout Bool) -> [String] {
        let type = entry.type
        let name = types.name(type)
        if type.isEnum { return writeEnum(type, name: name) }
        var lines: [String] = []
        let base = types.base(type)
        if base == "Dictionary", !needsDictionary {
            needsDictionary = true
            lines.append("class Dictionary {}")
        }
        if annotates {
            lines += types.typeScript.typeParameters(type).enumerated().map { index, parameter in
                // ServiceStack splits `<TKey, TValue>` at its commas and keeps the space.
                "/** @typedef \(index > 0 ? " " : "")\(parameter) {any} */"
            }
        }
        lines.append("export class \(name)\(base.map { " extends \($0)" } ?? "") {")
        if annotates {
            let parameters = constructorParameters(type)
            if !parameters.isEmpty { lines.append("    /** @param {{\(parameters.joined(separator: ","))}} [init] */") }
        }
        lines.append(
            base == nil
                ? "    constructor(init) { Object.assign(this, init) }"
                : "    constructor(init) { super(init); Object.assign(this, init) }")
        lines += fields(type)
        if case .request(let operation) = entry.role {
            lines.append("    getTypeName() { return '\(name)' }")
            if let method = TypeScriptTypeWriter.method(of: operation, types: typesByName) {
                lines.append("    getMethod() { return '\(method)' }")
            }
            switch types.responseValue(operation) {
            case nil: lines.append("    createResponse () { };")
            case ""?: lines.append("    createResponse() { }")
            case let value?: lines.append("    createResponse() { return \(value) }")
            }
        }
        return lines + ["}"]
    }

    private func writeEnum(_ type: MetadataType, name: String) -> [String] {
        var lines: [String] = []
        if annotates {
            let members = JavaScriptTypes.enumMembers(of: type)
            var texts: [String] = []
            for member in members {
                guard case .text(let text) = member.value else { break }
                texts.append(ScriptText.literal(text))
            }
            let isText = !members.isEmpty && texts.count == members.count
            lines.append("/** @typedef {\(isText ? texts.joined(separator: "|") : "number")} */")
        }
        lines += ["export var \(name);", "(function (\(name)) {"]
        lines += types.enumMembers(type, terminator: "").map { "    " + $0 }
        return lines + ["})(\(name) || (\(name) = {}));"]
    }

    /// `name?:type` for each member, then each base's, as the constructor takes them.
    private func constructorParameters(_ type: MetadataType) -> [String] {
        var parameters = type.properties.map(parameter)
        var base = type.inherits.flatMap { declared[$0.name] }
        var seen: Set<String> = [type.name]
        while let current = base, seen.insert(current.name).inserted {
            parameters += current.properties.map(parameter)
            base = current.inherits.flatMap { declared[$0.name] }
        }
        return parameters
    }

    private func parameter(_ property: MetadataProperty) -> String {
        "\(types.typeScript.memberName(property))?:\(memberType(property).name)"
    }

    private func memberType(_ property: MetadataProperty) -> (name: String, nullable: Bool) {
        types.typeScript.types.name(of: DTOLayout.memberType(property))
    }

    private func fields(_ type: MetadataType) -> [String] {
        var lines: [String] = []
        for property in type.properties {
            let (typeName, nullable) = memberType(property)
            if annotates {
                let annotated = (types.typeScript.isOptional(property, nullable: nullable) ? "?" : "") + typeName
                if members.addsDescriptions, let text = property.json["description"]?.stringValue {
                    lines += [
                        "    /**", "     * @type {\(annotated)}",
                        "     * @description \(ScriptAnnotations.oneLine(text).replacingCommentEnds()) */",
                    ]
                } else {
                    lines.append("    /** @type {\(annotated)} */")
                }
            }
            let initializer = types.typeScript.initializer(property, typeName: typeName, in: type)
            lines.append("    \(types.typeScript.memberName(property))\(initializer);")
        }
        return lines
    }
}
