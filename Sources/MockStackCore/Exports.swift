// Core's values speak ordered JSON everywhere; its users get the JSON types with it.
@_exported public import MockStackJSON
