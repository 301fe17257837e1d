#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FileManager {
    /// What sits at a path, following symlinks. (FoundationEssentials reports the directory flag
    /// as a `Bool`, Foundation on Apple platforms as an `ObjCBool`; this hides the difference.)
    enum EntryKind { case missing, file, directory }

    func kind(ofEntryAt path: String) -> EntryKind {
        #if canImport(FoundationEssentials)
        var isDirectory = false
        guard fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        return isDirectory ? .directory : .file
        #else
        var isDirectory: ObjCBool = false
        guard fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        return isDirectory.boolValue ? .directory : .file
        #endif
    }
}
