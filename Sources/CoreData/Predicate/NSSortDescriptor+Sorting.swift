import Foundation

extension NSSortDescriptor {

    /// Sorts `objects` by `descriptors` (the first descriptor decides, later ones break
    /// ties), stably. Each sort key is read once per object. Used by in-memory fetches:
    /// pass `KeyValueReading` objects (managed objects), dictionaries or plain values.
    ///
    /// Descriptors made from Swift key paths use Foundation's `compare(_:to:)`.
    static func sort<Element>(_ objects: [Element],
                              by descriptors: [NSSortDescriptor]) -> [Element] {
        guard !descriptors.isEmpty, objects.count > 1 else { return objects }
        let keys: [[Any?]] = objects.map { object in
            descriptors.map { descriptor in
                (descriptor as? KeyedSortDescriptor)?.value(of: object) ?? nil
            }
        }
        let order = objects.indices.sorted { i, j in
            for (d, descriptor) in descriptors.enumerated() {
                let result: ComparisonResult
                if let keyed = descriptor as? KeyedSortDescriptor {
                    result = keyed.compareValues(keys[i][d], keys[j][d])
                } else {
                    result = descriptor.compare(objects[i], to: objects[j])
                }
                if result != .orderedSame { return result == .orderedAscending }
            }
            return i < j
        }
        return order.map { objects[$0] }
    }

    /// Compares two objects by this descriptor (key path value, selector, direction).
    /// nil objects compare as nil values: first when ascending.
    func compare(_ a: Any?, _ b: Any?) -> ComparisonResult {
        if let keyed = self as? KeyedSortDescriptor { return keyed.compareObjects(a, b) }
        switch (a, b) {
        case (nil, nil): return .orderedSame
        case (nil, _): return ascending ? .orderedAscending : .orderedDescending
        case (_, nil): return ascending ? .orderedDescending : .orderedAscending
        case let (x?, y?): return compare(x, to: y)
        }
    }
}
