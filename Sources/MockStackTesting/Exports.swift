// A test speaks the control plane's JSON (stub bodies, journal entries) and reads the ready
// line: both come with `import MockStackTesting`, and neither needs the server.
@_exported public import MockStackJSON
@_exported public import MockStackWire
