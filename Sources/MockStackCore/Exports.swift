// Core's values speak ordered JSON everywhere; its users get the JSON types with it.
@_exported public import MockStackJSON
// The shapes the server and its test clients share (a fault's names, the ready line).
@_exported public import MockStackWire
