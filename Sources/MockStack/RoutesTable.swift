public import MockStackCore

/// The `mockstack routes` table: one row per route, columns padded to fit.
public struct RoutesTable: Sendable {
    public let apps: [any MockApp]

    public init(apps: [any MockApp]) { self.apps = apps }

    public var rows: [[String]] {
        apps.flatMap { app in
            app.routes.map { [app.name, app.mount, $0.name, $0.methods.joined(separator: ","), app.mount + $0.path] }
        }
    }

    /// The table as text, a header line first.
    public var rendered: String {
        let all = [["APP", "MOUNT", "OPERATION", "VERBS", "ROUTE"]] + rows
        let widths = (0..<5).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
