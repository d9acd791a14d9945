import Foundation

/// A bookmark in the persistent history of a coordinator's stores: for each store (by its
/// identifier), the number of the last transaction it covers.
///
/// Keep the token of the last transaction you processed (it archives with
/// `NSKeyedArchiver`), and ask for what came after it next time:
///
/// ```swift
/// let request = NSPersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// let result = try context.execute(request) as? NSPersistentHistoryResult
/// let transactions = result?.result as? [NSPersistentHistoryTransaction] ?? []
/// lastToken = transactions.last?.token ?? lastToken
/// ```
///
/// Two tokens are equal when they cover the same transactions of the same stores.
///
/// ## Topics
/// - ``init(coder:)``
/// - ``encode(with:)``
/// - ``supportsSecureCoding``
open class NSPersistentHistoryToken: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked Sendable: immutable after init.

    /// Store identifier → number of the last transaction covered.
    let storeTokens: [String: Int64]

    init(storeTokens: [String: Int64]) {
        self.storeTokens = storeTokens
        super.init()
    }

    /// Whether tokens decode only through `decodeObject(of:forKey:)`: always true.
    public static var supportsSecureCoding: Bool { true }

    /// Decodes a token archived with ``encode(with:)``; nil when the archive holds none.
    public required init?(coder: NSCoder) {
        guard let stores = coder.decodeObject(of: [NSDictionary.self, NSString.self, NSNumber.self],
                                              forKey: "storeTokens") as? NSDictionary else { return nil }
        var tokens: [String: Int64] = [:]
        for (key, value) in stores {
            guard let key = key as? String, let value = value as? NSNumber else { return nil }
            tokens[key] = value.int64Value
        }
        storeTokens = tokens
        super.init()
    }

    /// Archives the token: each store's identifier with its transaction number.
    open func encode(with coder: NSCoder) {
        let stores = NSMutableDictionary()
        for (key, value) in storeTokens { stores[NSString(string: key)] = NSNumber(value: value) }
        coder.encode(stores, forKey: "storeTokens")
    }

    /// The token itself: tokens are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// Whether `object` is a token covering the same transactions of the same stores.
    open override func isEqual(_ object: Any?) -> Bool {
        (object as? NSPersistentHistoryToken)?.storeTokens == storeTokens
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int {
        var hasher = Hasher()
        for key in storeTokens.keys.sorted() { hasher.combine(key); hasher.combine(storeTokens[key]) }
        return hasher.finalize()
    }

    /// The stores and transaction numbers, for debugging.
    open override var description: String {
        "<NSPersistentHistoryToken \(storeTokens.keys.sorted().map { "\($0): \(storeTokens[$0]!)" }.joined(separator: ", "))>"
    }
}
