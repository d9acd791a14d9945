import Foundation

/// Who made a save, as persistent history records it: the saving context's
/// `transactionAuthor` and `name`. The store adds the bundle, the process and the time.
struct HistoryOrigin {
    var author: String?
    var contextName: String?
}
