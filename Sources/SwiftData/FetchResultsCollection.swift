import CoreData

/// The results of a fetch made with a batch size: a collection whose elements are made a
/// batch at a time, as they are read, so a large result does not hold every model's
/// values at once.
///
/// ```swift
/// let trips = try context.fetch(FetchDescriptor<Trip>(), batchSize: 500)
/// for trip in trips { total += trip.budget }   // 500 rows read per statement
/// ```
///
/// - Note: Apple parity: the matching rows' keys are read up front (one statement), and
///   each batch's values with one more statement when the batch is first read; only the
///   batch last read is kept by the collection.
public struct FetchResultsCollection<Element>: RandomAccessCollection {
    private let storage: Storage

    init(count: Int, batchSize: Int, load: @escaping (Range<Int>) -> [Element]) {
        storage = Storage(count: count, batchSize: Swift.max(batchSize, 1), load: load)
    }

    /// The position of the first element: 0.
    public var startIndex: Int { 0 }
    /// The position after the last element: the number of results.
    public var endIndex: Int { storage.count }

    /// The element at `position`, read with the rest of its batch when the batch is not the
    /// one last read.
    public subscript(position: Int) -> Element {
        storage.element(at: position)
    }

    /// The loaded batch, shared by copies of the collection.
    private final class Storage {
        let count: Int
        let batchSize: Int
        let load: (Range<Int>) -> [Element]
        private var batchStart = -1
        private var batch: [Element] = []

        init(count: Int, batchSize: Int, load: @escaping (Range<Int>) -> [Element]) {
            self.count = count
            self.batchSize = batchSize
            self.load = load
        }

        func element(at position: Int) -> Element {
            precondition(position >= 0 && position < count, "FetchResultsCollection: index \(position) out of range")
            let start = position - position % batchSize
            if start != batchStart {
                batch = load(start..<Swift.min(start + batchSize, count))
                batchStart = start
            }
            return batch[position - start]
        }
    }
}
