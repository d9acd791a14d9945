import Foundation

/// Sections and items in order, as a fetched results controller hands them to
/// its delegate's snapshot callback, `controller(_:didChangeContentWith:)`:
/// a stand-in for UIKit's and AppKit's diffable data source snapshot, which Linux does
/// not have.
///
/// A controller's snapshot has the section names as section identifiers and the objects'
/// IDs as items, so Apple's way of reading it compiles and works:
///
/// ```swift
/// func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
///                 didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference) {
///     let snapshot = snapshot as NSDiffableDataSourceSnapshot<String, NSManagedObjectID>
///     for section in snapshot.sectionIdentifiers {
///         print(section, snapshot.itemIdentifiers(inSection: section).count)
///     }
/// }
/// ```
///
/// - Note: Apple parity: Apple's type lives in UIKit and AppKit and can be applied to a
///   table or collection view; this one is a read-only value with the same reading API
///   (identifiers, counts and positions).
///
/// ## Topics
/// ### Counting
/// - ``numberOfSections``
/// - ``numberOfItems``
/// - ``numberOfItems(inSection:)``
/// ### Identifiers
/// - ``sectionIdentifiers``
/// - ``itemIdentifiers``
/// - ``itemIdentifiers(inSection:)``
/// - ``sectionIdentifier(containingItem:)``
/// ### Positions
/// - ``indexOfSection(_:)``
/// - ``indexOfItem(_:)``
public struct NSDiffableDataSourceSnapshot<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> {
    private var sections: [(identifier: SectionIdentifierType, items: [ItemIdentifierType])]

    init(sections: [(SectionIdentifierType, [ItemIdentifierType])]) {
        self.sections = sections.map { (identifier: $0.0, items: $0.1) }
    }

    /// How many sections the snapshot has.
    public var numberOfSections: Int { sections.count }
    /// How many items the snapshot has, over all sections.
    public var numberOfItems: Int { sections.reduce(0) { $0 + $1.items.count } }
    /// The sections' identifiers, in order.
    public var sectionIdentifiers: [SectionIdentifierType] { sections.map(\.identifier) }
    /// Every item's identifier, section after section.
    public var itemIdentifiers: [ItemIdentifierType] { sections.flatMap(\.items) }

    /// How many items a section has (0 for a section the snapshot does not have).
    public func numberOfItems(inSection identifier: SectionIdentifierType) -> Int {
        itemIdentifiers(inSection: identifier).count
    }

    /// The items of a section, in order (empty for a section the snapshot does not have).
    public func itemIdentifiers(inSection identifier: SectionIdentifierType) -> [ItemIdentifierType] {
        sections.first { $0.identifier == identifier }?.items ?? []
    }

    /// The section that holds an item, or nil.
    public func sectionIdentifier(containingItem identifier: ItemIdentifierType) -> SectionIdentifierType? {
        sections.first { $0.items.contains(identifier) }?.identifier
    }

    /// The position of a section, or nil.
    public func indexOfSection(_ identifier: SectionIdentifierType) -> Int? {
        sections.firstIndex { $0.identifier == identifier }
    }

    /// The position of an item among all items (section after section), or nil.
    public func indexOfItem(_ identifier: ItemIdentifierType) -> Int? {
        itemIdentifiers.firstIndex(of: identifier)
    }
}

extension NSDiffableDataSourceSnapshot: Sendable where SectionIdentifierType: Sendable, ItemIdentifierType: Sendable {}

/// The snapshot a fetched results controller hands its delegate: section names and
/// object IDs. Apple's is a class that bridges to
/// `NSDiffableDataSourceSnapshot<String, NSManagedObjectID>`; here it is that value type.
///
/// - Note: Apple parity: `snapshot as NSDiffableDataSourceSnapshot<String, NSManagedObjectID>`
///   compiles and works as on Apple platforms; the Objective-C style members of Apple's
///   class are not here.
public typealias NSDiffableDataSourceSnapshotReference = NSDiffableDataSourceSnapshot<String, NSManagedObjectID>
