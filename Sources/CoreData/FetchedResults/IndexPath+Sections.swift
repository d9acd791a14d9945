import Foundation

/// UIKit's and AppKit's section/row spellings of an index path, which fetched results
/// controller code uses everywhere (`controller.object(at: IndexPath(row: 0, section: 0))`,
/// `newIndexPath.row`).
///
/// On Apple platforms UIKit and AppKit add these to Foundation's `IndexPath`; Linux has
/// neither framework, so `import CoreData` brings them. A path's first index is its
/// section and its second its row (or item); reading one that the path lacks stops the
/// program, as on Apple.
extension IndexPath {
    /// A path to `row` in `section`.
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// A path to `item` in `section` (the collection-view spelling of ``init(row:section:)``).
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The section: the path's first index.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The row in the section: the path's second index.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The item in the section: the path's second index (the collection-view spelling of
    /// ``row``).
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
