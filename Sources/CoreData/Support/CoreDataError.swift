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

    /// A store-level error with the underlying cause (for example an `SQLiteError`).
    static func store(
        _ code: Int, _ description: String, url: URL? = nil, underlying: Error? = nil
    ) -> NSError {
        var info: [String: Any] = [:]
        if let url { info[NSURLErrorKey] = url; info[NSFilePathErrorKey] = url.path }
        if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
        var text = description
        if let underlying { text += " (\(underlying))" }
        return make(code, text, userInfo: info)
    }
}
