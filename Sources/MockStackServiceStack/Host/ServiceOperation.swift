/// An operation ready to serve: its metadata, resolved request and return types, the type that
/// wraps its errors, and the behaviour the manifest gave it.
///
/// A class: every call holds it, and copying a struct this size would retain each of its many
/// stored references on every request.
public final class ServiceOperation: Sendable {
    public let metadata: MetadataOperation
    public let requestType: ObjectShape
    /// How a successful result is written; `nil` for void operations (204).
    public let returnShape: ValueShape?
    /// The resolved type ``returnShape`` names, when it is a declared object type: looked up
    /// here once rather than by name for every answer.
    public let returnType: ObjectShape?
    /// The DTO an error is written in (docs/servicestack.md#error-responses): `{Op}Response`, else
    /// the return type when it has a `ResponseStatus`, else `ErrorResponse`.
    public let errorWrapper: ValueShape
    /// The wrapper's resolved type, when the metadata declares it.
    public let errorWrapperType: ObjectShape?
    public let behaviour: any OperationBehaviour
    /// Successful GET answers kept for a while (`[CacheResponse]`), when the manifest asks.
    public let cache: ResponseCache?
    /// The serializer the host uses for this operation's responses.
    public let dialect: SerializerSettings.Dialect
    /// The C# service class, named in "Could not find method" errors and stack traces.
    public let serviceClass: String
    /// Verbs the service implements (`ANY` for `Any(…)`), upper-cased.
    public let actions: Set<String>
    /// Whether ``actions`` holds `ANY`, told once: asked on every call.
    private let implementsAnyVerb: Bool

    public var name: String { metadata.name }

    /// - Parameter coercion: the app's value reading, and through it its type catalog.
    public init(
        metadata: MetadataOperation, coercion: ValueCoercion, behaviour: any OperationBehaviour,
        dialect: SerializerSettings.Dialect, serviceClass: String, cache: ResponseCache? = nil
    ) {
        let catalog = coercion.catalog
        self.metadata = metadata
        self.cache = cache
        self.dialect = dialect
        self.serviceClass = serviceClass
        actions = Set(metadata.actions)
        implementsAnyVerb = actions.contains("ANY")
        requestType =
            catalog.object(named: metadata.request.name)
            ?? ObjectShape(reference: .named(metadata.request.name, []), properties: [])

        let returnShape: ValueShape?
        if metadata.returnsVoid || metadata.request.implements("IReturnVoid") {
            returnShape = nil
        } else if let returnType = metadata.returnType {
            returnShape = catalog.shape(of: returnType.reference)
        } else if let response = metadata.response {
            returnShape = catalog.shape(of: response.reference)
        } else {
            returnShape = .any
        }
        self.returnShape = returnShape
        if case .object(let reference)? = returnShape?.unwrapped {
            returnType = catalog.object(reference)
        } else {
            returnType = nil
        }
        self.behaviour = behaviour.prepared(returnShape: returnShape, coercion: coercion)

        let conventional = TypeReference.named(metadata.name + "Response", [])
        if catalog.object(conventional) != nil {
            errorWrapper = .object(conventional)
        } else if case .object(let reference)? = returnShape, catalog.object(reference)?.responseStatusProperty != nil {
            errorWrapper = .object(reference)
        } else {
            errorWrapper = .object(.named("ErrorResponse", []))
        }
        if case .object(let reference) = errorWrapper {
            errorWrapperType = catalog.object(reference)
        } else {
            errorWrapperType = nil
        }
    }

    /// Whether the service has a method for `verb` (or an `Any` method).
    public func implements(_ verb: String) -> Bool {
        implementsAnyVerb || actions.contains(verb)
    }
}

extension MetadataType {
    var reference: TypeReference { TypeReference(type: name, genericArgs: genericArgs) }
}
