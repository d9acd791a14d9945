import Foundation

/// A store that can tell when its file was written by anyone: this coordinator, another
/// coordinator, or another process (the SQLite store). The coordinator uses it for
/// `NSPersistentStoreRemoteChange` notifications.
protocol StoreCommitWatching: AnyObject {
    /// Starts calling `onCommit`, on a private queue, after commits to the store; at most one
    /// watch per store (a second call replaces the first). `onCommit` receives the number of
    /// the newest persistent history transaction when the store tracks history, else nil.
    /// Returns that number as it is when the watch starts. ``StoreBackend/close()`` stops it.
    @discardableResult
    func watchCommits(_ onCommit: @escaping @Sendable (_ lastTransaction: Int64?) -> Void) throws -> Int64?
}
