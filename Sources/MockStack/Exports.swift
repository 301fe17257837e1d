// The control plane's guard (``AdminAccess``) is part of the server's API too.
@_exported public import MockStackControl
// Fixtures on disk and the load cache (``FixtureFolders``, ``LoadCache``): what `serve` and
// `validate` are given.
@_exported public import MockStackFixtures
// The proxy's target, client and recorder (`serve --proxy-unmatched`, `mockstack record`).
@_exported public import MockStackProxy
// What the server announces and is told (the ready line, the control plane's shapes) is
// part of the façade's API.
@_exported public import MockStackWire
