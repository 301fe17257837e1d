// What the server announces and is told (the ready line, the control plane's shapes) is
// part of the façade's API.
@_exported public import MockStackWire
