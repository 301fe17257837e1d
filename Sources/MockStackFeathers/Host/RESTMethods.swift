import MockStackCore

/// The REST transport's one verb → service-method mapping (docs/feathers.md#service-methods):
/// routing, the journal's operation names, the routes listing and v4's `Allow` all read it.
extension ServiceMethod {
    /// The method `verb` calls on a collection (`/svc`, no id) or on one record (`/svc/:id`), as
    /// transport-commons' `getServiceMethod` maps it; nil for a verb with no method.
    init?(restVerb verb: HTTPMethod, hasId: Bool) {
        switch verb {
        case .get: self = hasId ? .get : .find
        case .post: self = .create
        case .put: self = .update
        case .patch: self = .patch
        case .delete: self = .remove
        default: return nil
        }
    }

    /// The verbs that call a method, in the order the routes listing gives them.
    static let restVerbs: [HTTPMethod] = [.get, .post, .put, .patch, .delete]

    /// The same verbs in the order Express registers a v4 service's routes, which its `Allow` keeps.
    static let expressRouteOrder: [HTTPMethod] = [.get, .post, .patch, .put, .delete]

    /// Whether the method is listed on a collection: `find` and `create`, and the others
    /// `multi` lets change every match.
    func isListedOnCollection(multi: Set<ServiceMethod>) -> Bool {
        self == .find || self == .create || multi.contains(self)
    }

    /// Whether the method is listed on one record: those that take an id (`create` takes none).
    var isListedOnRecord: Bool { self != .find && self != .create }
}
