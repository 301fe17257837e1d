/// The Feathers release a `feathers` app answers as (docs/feathers.md#dialects): `v5` ("Dove", the default) or
/// `v4` ("Crow"). It decides status rules, the `Allow` header, which `$` keys are filters,
/// how `$limit` parses, whether errors always carry `errors`, and the authentication reply.
public enum FeathersDialect: String, Sendable, CaseIterable {
    case v5
    case v4
}
