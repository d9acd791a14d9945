import Foundation

/// What executing an ``NSPersistentHistoryChangeRequest`` returns.
///
/// ```swift
/// let result = try context.execute(request) as? NSPersistentHistoryResult
/// for transaction in result?.result as? [NSPersistentHistoryTransaction] ?? [] { … }
/// ```
///
/// ## Topics
/// - ``result``
/// - ``resultType``
open class NSPersistentHistoryResult: NSPersistentStoreResult, @unchecked Sendable {
    // @unchecked Sendable: immutable after init.

    /// The answer, shaped by ``resultType``: transactions, changes, object IDs, a count or
    /// `true`.
    open private(set) var result: Any?
    /// The request's result type.
    open private(set) var resultType: NSPersistentHistoryResultType

    init(result: Any?, resultType: NSPersistentHistoryResultType) {
        self.result = result
        self.resultType = resultType
        super.init()
    }
}
