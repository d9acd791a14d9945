import Foundation

/// A fresh folder in the system's temporary directory, removed with everything in it when
/// the last reference goes away: every file a test writes goes into one, so a test run
/// leaves nothing behind.
///
/// ```swift
/// let folder = try TemporaryDirectory()
/// let url = folder.file("Store.sqlite")
/// ```
///
/// Keep the value alive for as long as the files are used (a local `let`, a stored
/// property of the suite or of a ``TestStack``): the folder goes with it.
public final class TemporaryDirectory: @unchecked Sendable {
    // @unchecked Sendable: `url` is immutable; removal is idempotent and FileManager is
    // thread-safe.

    /// The folder; it exists until ``remove()`` or the release of this object.
    public let url: URL

    /// Creates `<temporary directory>/coredata-tests-<UUID>`.
    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("coredata-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { remove() }

    /// A path inside the folder (not created).
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Removes the folder now (release would do it later); safe to call twice.
    public func remove() {
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: url.path) else { return }
        if (try? fileManager.removeItem(at: url)) != nil { return }
        // A test made a folder read-only (to provoke a write error): give the owner back
        // its rights, then remove.
        try? fileManager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        if let paths = fileManager.enumerator(atPath: url.path) {
            for case let path as String in paths {
                try? fileManager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.appendingPathComponent(path).path)
            }
        }
        try? fileManager.removeItem(at: url)
    }
}
