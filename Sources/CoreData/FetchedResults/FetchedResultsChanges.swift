import Foundation

/// What changed between two layouts of a fetched results controller, in the order its
/// delegate hears it: sections deleted, sections inserted, then objects deleted (at their
/// old index paths), inserted (at their new ones), moved and updated.
struct FetchedResultsChanges {
    /// A section that appeared or disappeared.
    struct SectionChange {
        let section: FetchedResultsSection
        let index: Int
        let type: NSFetchedResultsChangeType
    }

    /// An object that joined, left, moved or changed.
    struct ObjectChange {
        let object: NSManagedObject
        let type: NSFetchedResultsChangeType
        let indexPath: IndexPath?
        let newIndexPath: IndexPath?
    }

    var sections: [SectionChange] = []
    var objects: [ObjectChange] = []

    var isEmpty: Bool { sections.isEmpty && objects.isEmpty }

    /// The changes that turn `old` into `new`. `updated` names the objects whose values
    /// changed: they are reported as updates, or as moves when their place among the
    /// objects that did not change is not the same any more (or their section is).
    init(from old: FetchedResultsLayout, to new: FetchedResultsLayout, updated: Set<ObjectIdentifier>) {
        let oldNames = Set(old.sections.map(\.name)), newNames = Set(new.sections.map(\.name))
        for (index, section) in old.sections.enumerated() where !newNames.contains(section.name) {
            sections.append(SectionChange(section: section, index: index, type: .delete))
        }
        for (index, section) in new.sections.enumerated() where !oldNames.contains(section.name) {
            sections.append(SectionChange(section: section, index: index, type: .insert))
        }

        var oldIndex: [ObjectIdentifier: Int] = [:]
        for (index, object) in old.objects.enumerated() { oldIndex[ObjectIdentifier(object)] = index }
        var inserts: [ObjectChange] = []
        var survivors: [Survivor] = []
        for object in new.objects {
            let id = ObjectIdentifier(object)
            let newPath = new.indexPaths[id]!
            guard let before = oldIndex[id] else {
                inserts.append(ObjectChange(object: object, type: .insert, indexPath: nil, newIndexPath: newPath))
                continue
            }
            let oldPath = old.indexPaths[id]!
            survivors.append(Survivor(object: object, oldIndex: before, oldPath: oldPath, newPath: newPath,
                                      updated: updated.contains(id),
                                      sameSection: old.sections[oldPath[0]].name == new.sections[newPath[0]].name))
        }
        for object in old.objects where !new.contains(object) {
            objects.append(ObjectChange(object: object, type: .delete,
                                        indexPath: old.indexPath(of: object), newIndexPath: nil))
        }
        objects += inserts
        let inPlace = Self.inPlace(survivors)
        var moves: [ObjectChange] = [], updates: [ObjectChange] = []
        for (position, survivor) in survivors.enumerated() {
            if !inPlace.contains(position) {
                moves.append(ObjectChange(object: survivor.object, type: .move,
                                          indexPath: survivor.oldPath, newIndexPath: survivor.newPath))
            } else if survivor.updated {
                updates.append(ObjectChange(object: survivor.object, type: .update,
                                            indexPath: survivor.oldPath, newIndexPath: survivor.newPath))
            }
        }
        objects += moves + updates
    }

    /// An object in both layouts.
    private struct Survivor {
        let object: NSManagedObject
        let oldIndex: Int
        let oldPath: IndexPath
        let newPath: IndexPath
        let updated: Bool
        let sameSection: Bool
    }

    /// The positions (in `survivors`, which is in the new order) of the objects that kept
    /// their place: the unchanged objects whose relative order held, then each changed
    /// object that stayed between the same unchanged neighbours and in order with the
    /// other changed objects there. An object whose section changed never kept its place.
    private static func inPlace(_ survivors: [Survivor]) -> Set<Int> {
        let steady = survivors.indices.filter { !survivors[$0].updated && survivors[$0].sameSection }
        let anchors = increasingRun(steady.map { survivors[$0].oldIndex }).map { steady[$0] }
        var result = Set(anchors)
        let anchorOldIndexes = anchors.map { survivors[$0].oldIndex }.sorted()
        var gaps: [Int: [Int]] = [:]
        var anchorsSoFar = 0
        for position in survivors.indices {
            if result.contains(position) { anchorsSoFar += 1; continue }
            let survivor = survivors[position]
            guard survivor.updated, survivor.sameSection else { continue }
            let anchorsBefore = lowerBound(anchorOldIndexes, survivor.oldIndex)
            if anchorsBefore == anchorsSoFar { gaps[anchorsSoFar, default: []].append(position) }
        }
        for positions in gaps.values {
            for kept in increasingRun(positions.map { survivors[$0].oldIndex }) { result.insert(positions[kept]) }
        }
        return result
    }

    /// The indexes of a longest strictly increasing subsequence of `values`.
    static func increasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []          // index into values of the smallest tail per length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var index = tails.last ?? -1
        while index >= 0 { run.append(index); index = previous[index] }
        return run.reversed()
    }

    /// How many of the sorted `values` are less than `value`.
    private static func lowerBound(_ values: [Int], _ value: Int) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
