/// One mistake in a fixtures tree, located by file, line:column and JSON pointer.
public struct FixtureDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The file, as displayed (`Fixtures/example/app.json`).
    public var file: String
    public var position: SourcePosition
    /// Where in the document (`/routes/0/fixture`); empty for the whole document.
    public var pointer: String
    public var message: String

    public init(file: String, position: SourcePosition, pointer: String, message: String) {
        self.file = file
        self.position = position
        self.pointer = pointer
        self.message = message
    }

    /// `Fixtures/example/app.json:12:17: /routes/0/fixture: no file 'helo.json' in Fixtures/example`
    public var description: String {
        "\(file):\(position): " + (pointer.isEmpty ? "" : "\(pointer): ") + message
    }
}

/// Everything wrong with a fixtures tree; thrown when any app fails to load.
public struct FixtureErrors: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [FixtureDiagnostic]

    public init(_ diagnostics: [FixtureDiagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
