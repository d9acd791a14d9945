import Foundation

/// The identity of a managed object: its entity, its store and its primary key (or, before
/// the first save, a temporary identity).
///
/// IDs are immutable, `Hashable` and `Sendable`: pass them between contexts and threads,
/// then call `object(with:)` or `existingObject(with:)` on the other side.
///
/// ## Topics
/// - ``entity``
/// - ``persistentStore``
/// - ``isTemporaryID``
/// - ``uriRepresentation()``
open class NSManagedObjectID: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: every stored property is set in init and never changes.

    enum Reference: Hashable {
        case permanent(Int64)
        case temporary(UUID)
    }

    /// The entity the ID was made for: the object's entity, or, for an ID built from a
    /// reference whose concrete entity was not known, a superentity of it. IDs of one object
    /// compare equal either way (equality looks at the inheritance root, the store and the
    /// key).
    public let entity: NSEntityDescription
    /// The store (nil for a temporary ID, or once the store is gone).
    public var persistentStore: NSPersistentStore? { storeReference?.store }
    /// The store's shared weak reference: an ID retains this small object instead of
    /// forming a weak reference of its own (which costs a side-table update per ID).
    let storeReference: StoreReference?
    let reference: Reference

    init(entity: NSEntityDescription, store: NSPersistentStore?, reference: Reference) {
        self.entity = entity
        self.storeReference = store?.reference
        self.reference = reference
        super.init()
    }

    static func temporary(for entity: NSEntityDescription) -> NSManagedObjectID {
        NSManagedObjectID(entity: entity, store: nil, reference: .temporary(TemporaryIDs.next()))
    }

    /// Whether this is a temporary ID: one an inserted object gets until its first save (or
    /// `obtainPermanentIDs(for:)`) gives it a store key. A temporary ID names no store row:
    /// it is valid only in the process and the contexts that know the object, and the object
    /// gets a different, permanent ID when it is saved, so keep the object (or ask for its
    /// ID again after the save) rather than a temporary ID.
    ///
    /// ```swift
    /// let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
    /// item.objectID.isTemporaryID   // true
    /// try context.save()
    /// item.objectID.isTemporaryID   // false: a permanent ID with the row's key
    /// ```
    open var isTemporaryID: Bool {
        if case .temporary = reference { return true }
        return false
    }

    /// The primary key (`Z_PK`) of a permanent ID.
    var primaryKey: Int64? {
        if case .permanent(let pk) = reference { return pk }
        return nil
    }

    var storeKey: StoreKey? {
        primaryKey.map { StoreKey(entityID: entity.runtime.entityID, pk: $0) }
    }

    /// `x-coredata://<store UUID>/<Entity>/p<pk>` (a custom store's reference object in
    /// place of the primary key), or
    /// `x-coredata:///<Entity>/t<UUID>` for a temporary ID.
    open func uriRepresentation() -> URL {
        let name = entity.name ?? ""
        switch reference {
        case .permanent(let pk):
            let store = persistentStore
            let host = store?.identifier ?? ""
            let key = store?.uriKey(forPrimaryKey: pk, entity: entity) ?? String(pk)
            // A custom store's reference object may hold characters a URL path cannot.
            let plain = key.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
            let escaped = plain ? key
                : key.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? key
            return URL(string: "x-coredata://\(host)/\(name)/p\(escaped)")!
        case .temporary(let uuid):
            return URL(string: "x-coredata:///\(name)/t\(uuid.uuidString)")!
        }
    }

    // MARK: - Identity

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSManagedObjectID else { return false }
        if other === self { return true }
        guard reference == other.reference, persistentStore === other.persistentStore else {
            return false
        }
        if case .temporary = reference { return true }
        return entity.runtime.root === other.entity.runtime.root
    }

    open override var hash: Int {
        // One 64-bit mix of the key or the temporary number (sets and dictionaries of IDs
        // hash every ID they hold; equal IDs have equal references).
        switch reference {
        case .permanent(let pk):
            return mixKeyHash(ObjectIdentifier(NSManagedObjectID.self), ObjectIdentifier(NSManagedObjectID.self), pk, seed: 0)
        case .temporary(let uuid):
            // Temporary numbers differ in their last 8 bytes (TemporaryIDs).
            let bits = withUnsafeBytes(of: uuid.uuid) {
                $0.loadUnaligned(fromByteOffset: 0, as: Int64.self) ^ $0.loadUnaligned(fromByteOffset: 8, as: Int64.self)
            }
            return mixKeyHash(ObjectIdentifier(NSManagedObjectID.self), ObjectIdentifier(UUID.self), bits, seed: 0)
        }
    }

    open func copy(with zone: NSZone? = nil) -> Any { self }

    open override var description: String { "\(uriRepresentation().absoluteString)" }
}

/// Identities of temporary IDs: a random UUID drawn once per process, with a counter
/// folded into its last 8 bytes. Unique within the process (the counter) and, with
/// overwhelming probability, across processes (the random base). `UUID()` reads
/// /dev/urandom on every call on Linux, which cost more than the rest of an insert.
enum TemporaryIDs {
    private static let base = UUID().uuid
    private static let counter = LockedCounter()

    static func next() -> UUID {
        var uuid = base
        let count = UInt64(counter.next())
        withUnsafeMutableBytes(of: &uuid) { bytes in
            for i in 0..<8 { bytes[8 + i] ^= UInt8(truncatingIfNeeded: count >> (8 * UInt64(i))) }
        }
        return UUID(uuid: uuid)
    }
}
