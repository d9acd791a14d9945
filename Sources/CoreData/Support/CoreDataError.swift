import Foundation

/// Builds the `NSError`s this module throws: `NSCocoaErrorDomain`, Apple's codes, a
/// readable `NSLocalizedDescriptionKey`, and extra userInfo.
enum CoreDataError {
    static func make(
        _ code: Int, _ description: String, userInfo: [String: Any] = [:]
    ) -> NSError {
        var info = userInfo
        info[NSLocalizedDescriptionKey] = description
        return NSError(domain: NSCocoaErrorDomain, code: code, userInfo: info)
    }

    /// A store-level error with the underlying cause (for example an `SQLiteError`): the
    /// cause's one-line ``reason(_:)`` ends the description, and the cause itself goes
    /// under `NSUnderlyingErrorKey`.
    static func store(
        _ code: Int, _ description: String, url: URL? = nil, underlying: Error? = nil
    ) -> NSError {
        var info: [String: Any] = [:]
        if let url { info[NSURLErrorKey] = url; info[NSFilePathErrorKey] = url.path }
        if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
        var text = description
        if let underlying { text += " (\(reason(underlying)))" }
        return make(code, text, userInfo: info)
    }

    /// An error in one line, for a message: a `LocalizedError`'s description, an
    /// `NSError`'s (or `CocoaError`'s) `localizedDescription` (never its `description`,
    /// which dumps the whole userInfo), else the error's own description.
    static func reason(_ error: Error) -> String {
        if let localized = error as? LocalizedError, let text = localized.errorDescription { return text }
        if type(of: error) is NSError.Type || error is CustomNSError { return (error as NSError).localizedDescription }
        return String(describing: error)
    }

    /// `error` with the store's path in its description and userInfo (`NSFilePathErrorKey`,
    /// `NSURLErrorKey`): errors raised below the store (metadata, schema, version hashes)
    /// do not know the file they are about. `action` says what failed ("cannot be
    /// opened"). Errors outside `NSCocoaErrorDomain` are returned as they are.
    static func naming(_ error: NSError, url: URL, _ action: String) -> NSError {
        guard error.domain == NSCocoaErrorDomain else { return error }
        var info = error.userInfo
        if info[NSFilePathErrorKey] == nil { info[NSFilePathErrorKey] = url.path }
        if info[NSURLErrorKey] == nil { info[NSURLErrorKey] = url }
        if !error.localizedDescription.contains(url.path) {
            info[NSLocalizedDescriptionKey] = "The store at \(url.path) \(action): \(error.localizedDescription)"
        }
        return NSError(domain: error.domain, code: error.code, userInfo: info)
    }
}
