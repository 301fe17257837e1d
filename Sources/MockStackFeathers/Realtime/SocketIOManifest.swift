import MockStackCore
import MockStackSocketIO

extension EngineIOSettings {
    /// The manifest keys of `socketio`, named as the socket.io server's own options.
    static let manifestKeys: Set<String> = ["pingInterval", "pingTimeout", "maxHttpBufferSize"]

    /// `socketio` in a Feathers app's `app.json`: the options a Feathers app passes to
    /// `socketio()`, in milliseconds and bytes as socket.io takes them. Engine.IO's defaults
    /// where absent, and when the manifest has no `socketio`.
    static func read(_ manifest: ManifestReader, at pointer: String) -> EngineIOSettings {
        var settings = EngineIOSettings()
        guard manifest.settingsObject(at: pointer, allowed: manifestKeys) else { return settings }
        if let interval = manifest.int(pointer + "/pingInterval", in: 10...86_400_000) {
            settings.pingInterval = interval
        }
        if let timeout = manifest.int(pointer + "/pingTimeout", in: 10...86_400_000) {
            settings.pingTimeout = timeout
        }
        if let limit = manifest.int(pointer + "/maxHttpBufferSize", in: 64...(64 << 20)) {
            settings.maxPayload = limit
        }
        return settings
    }
}
