import Foundation

/// Who made a save, as persistent history records it: the saving context's
/// `transactionAuthor` and `name`. The store adds the bundle, the process and the time.
struct HistoryOrigin {
    var author: String?
    var contextName: String?
}

/// Whoever asks the coordinator for a write that persistent history records (a context):
/// the coordinator asks its requesting context for the origin of a batch request.
protocol HistoryAuthoring: AnyObject {
    var historyOrigin: HistoryOrigin { get }
}
