import MockStackCore

/// Populates a request DTO the way ServiceStack does (docs/servicestack.md#request-binding): the body first (JSON, JSV,
/// urlencoded or multipart fields), then path variables and query values fill whatever the
/// body left at its default. Names match case-insensitively; every value that cannot be read
/// as its property's type becomes a field error of one 400 `SerializationException`.
public struct RequestBinder: Sendable {
    public let coercion: ValueCoercion

    public init(coercion: ValueCoercion) { self.coercion = coercion }

    /// Binds one request DTO of `type` for the operation `operation`.
    public func bind(
        _ input: RequestInput, pathVariables: [OperationRouter.PathVariable], to type: ObjectShape, operation: String
    ) throws(ServiceError) -> DTOObject {
        var binding = Binding(type: type, coercion: coercion)
        if !type.takesRawBody {
            switch input.body {
            case .none: break
            case .json(let bytes):
                switch try parseJSON(bytes, operation: operation) {
                case .object(let object): binding.apply(json: object)
                case .null: break
                case let other:
                    throw ServiceError(
                        .serialization,
                        """
                        Could not deserialize 'application/json' request using \(operation): expected a JSON object, \
                        found \(other.typeName)
                        """
                    )
                }
            case .jsv(let text):
                guard case .map(let members)? = JSVReader.read(text) else {
                    throw ServiceError(
                        .serialization,
                        "Could not deserialize 'application/jsv' request using \(operation): not a JSV object")
                }
                binding.apply(jsv: members)
            case .form:
                binding.apply(text: input.form, onlyDefaults: false)
            case .other(let contentType):
                throw Self.unsupported(contentType, operation: operation)
            }
        }
        // A route variable no property binds (one the manifest lets load, as the real host
        // publishes it): ServiceStack's RestPath refuses the request while building the DTO.
        for variable in pathVariables where type.property(named: variable.name) == nil {
            guard variable.name.lowercased() != "ignore" else { continue }
            throw ServiceError(.argument, "Could not find property \(variable.name) on \(operation)")
        }
        binding.apply(text: pathVariables.map { ($0.name, $0.value) }, onlyDefaults: true)
        binding.apply(text: input.query, onlyDefaults: true)
        return try binding.result(operation: operation)
    }

    /// Binds `POST /api/{Op}[]`: a JSON array of request DTOs, each also filled from the query.
    public func bindBatch(
        _ input: RequestInput, to type: ObjectShape, operation: String
    ) throws(ServiceError) -> [DTOObject] {
        guard case .json(let bytes) = input.body else {
            if case .other(let contentType) = input.body { throw Self.unsupported(contentType, operation: operation) }
            throw ServiceError(.serialization, "A batch request to \(operation)[] needs a JSON array body")
        }
        guard case .array(let elements) = try parseJSON(bytes, operation: operation) else {
            throw ServiceError(
                .serialization,
                "Could not deserialize 'application/json' request using \(operation)[]: expected a JSON array")
        }
        var requests: [DTOObject] = []
        for element in elements {
            guard case .object(let object) = element else {
                throw ServiceError(
                    .serialization,
                    """
                    Could not deserialize 'application/json' request using \(operation)[]: every element must be a \
                    JSON object, found \(element.typeName)
                    """
                )
            }
            var binding = Binding(type: type, coercion: coercion)
            binding.apply(json: object)
            binding.apply(text: input.query, onlyDefaults: true)
            requests.append(try binding.result(operation: operation))
        }
        return requests
    }

    private func parseJSON(_ bytes: [UInt8], operation: String) throws(ServiceError) -> JSONValue {
        do {
            return try JSONParser.forRequestBodies(maximumDepth: 64).parse(bytes).root
        } catch {
            // Mock choice: ServiceStack wraps the parser's message the same way; its wording is Unverified.
            throw ServiceError(
                .serialization,
                """
                Could not deserialize 'application/json' request using \(operation): \(error.message) at \
                \(error.position)
                """
            )
        }
    }

    private static func unsupported(_ contentType: String, operation: String) -> ServiceError {
        ServiceError(
            .serialization,
            """
            Content-Type '\(contentType)' is not supported by \(operation): send application/json, \
            application/x-www-form-urlencoded or multipart/form-data
            """
        )
    }

    /// One DTO being populated, with the field errors found so far.
    private struct Binding {
        let type: ObjectShape
        let coercion: ValueCoercion
        var dto = DTOObject()
        var errors: [FieldError] = []

        init(type: ObjectShape, coercion: ValueCoercion) {
            self.type = type
            self.coercion = coercion
            dto.reserveCapacity(type.properties.count)
        }

        mutating func apply(json object: JSONObject) {
            for member in object {
                guard let property = type.property(named: member.key) else { continue }
                if let value = coercion.fromJSON(member.value, as: property.shape) {
                    dto[property.name] = value
                } else {
                    fail(property, member.value.stringValue ?? member.value.jsonText)
                }
            }
        }

        mutating func apply(jsv members: [(key: String, value: JSVNode)]) {
            for member in members {
                guard let property = type.property(named: member.key) else { continue }
                if let value = coercion.fromJSV(member.value, as: property.shape) {
                    dto[property.name] = value
                } else {
                    fail(property, member.value.jsvText)
                }
            }
        }

        mutating func apply(text pairs: [(name: String, value: String)], onlyDefaults: Bool) {
            // Which properties this source has set (by position), so that a repeated key can
            // extend a list.
            var appliedHere = PositionSet()
            // By index, the pairs read in place rather than copied one by one.
            for index in pairs.indices {
                guard let position = type.position(ofPropertyNamed: pairs[index].name) else { continue }
                // The name and shape only, not a copy of the whole property.
                let name = type.properties[position].name
                let shape = type.properties[position].shape
                let current = dto[name]
                let repeated = appliedHere.contains(position)
                if onlyDefaults, !repeated, !Self.isDefault(current, shape) { continue }
                guard let value = coercion.fromText(pairs[index].value, as: shape) else {
                    fail(type.properties[position], pairs[index].value)
                    continue
                }
                // `ids=1&ids=2` accumulates into a list, as ASP.NET's repeated keys do.
                if repeated, case .list(let existing) = current, case .list(let more) = value {
                    dto[name] = .list(existing + more)
                } else {
                    dto[name] = value
                }
                appliedHere.insert(position)
            }
        }

        mutating func fail(_ property: PropertyShape, _ text: String) {
            guard !errors.contains(where: { $0.fieldName == property.name }) else { return }
            errors.append(
                FieldError(
                    errorCode: "SerializationException", fieldName: property.name,
                    message: "'\(text)' is an Invalid value for '\(property.name)'"))
        }

        /// The DTO as .NET would hold it: unset value-type properties at their defaults.
        func result(operation: String) throws(ServiceError) -> DTOObject {
            guard errors.isEmpty else {
                throw ServiceError(.serialization, "Unable to bind to request '\(operation)'", fieldErrors: errors)
            }
            var complete = dto
            for (name, value) in type.valueTypeDefaults where complete[name].isNull {
                complete[name] = value
            }
            return complete
        }

        /// A set of small integers without allocating for the first 64.
        struct PositionSet {
            private var bits: UInt64 = 0
            private var overflow: Set<Int> = []

            func contains(_ position: Int) -> Bool {
                position < 64 ? bits & (1 << UInt64(position)) != 0 : overflow.contains(position)
            }

            mutating func insert(_ position: Int) {
                if position < 64 { bits |= 1 << UInt64(position) } else { overflow.insert(position) }
            }
        }

        static func isDefault(_ value: DTOValue, _ shape: ValueShape) -> Bool {
            switch value {
            case .null: true
            case .string(let text): text.isEmpty
            case .list(let elements): elements.isEmpty
            case .map(let entries): entries.isEmpty
            default: value == shape.defaultValue
            }
        }
    }
}
