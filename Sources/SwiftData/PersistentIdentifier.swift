import CoreData

/// The identity of a model's record: the managed object ID of its row once inserted
/// (temporary until saved, then permanent), or a temporary one before insertion.
///
/// ```swift
/// let id = trip.persistentModelID
/// let same = context.model(for: id) as? Trip
/// ```
public struct PersistentIdentifier: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    enum Storage: Hashable, Sendable {
        case managed(NSManagedObjectID)
        case unmanaged(UUID, String)
    }
    let storage: Storage

    init(_ objectID: NSManagedObjectID) { storage = .managed(objectID) }
    init(unmanaged id: UUID, entityName: String) { storage = .unmanaged(id, entityName) }

    /// The Core Data object ID, for a model that has been inserted.
    var objectID: NSManagedObjectID? {
        if case .managed(let id) = storage { return id }
        return nil
    }

    /// The name of the model's entity (its class's name).
    public var entityName: String {
        switch storage {
        case .managed(let id): id.entity.name ?? ""
        case .unmanaged(_, let name): name
        }
    }

    /// The identifier of the store that holds the record; nil until it is saved.
    public var storeIdentifier: String? {
        guard case .managed(let id) = storage, !id.isTemporaryID else { return nil }
        return id.persistentStore?.identifier
    }

    /// The ID's URI form (`x-coredata://…`), or a temporary form before insertion.
    public var description: String {
        switch storage {
        case .managed(let id): id.uriRepresentation().absoluteString
        case .unmanaged(let uuid, let name): "unmanaged://\(name)/\(uuid.uuidString)"
        }
    }

    /// Encodes the identifier's URI form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decoding needs a store to resolve the URI against, which a decoder does not carry.
    ///
    /// - Note: Apple parity: Apple's identifiers decode; here decoding throws
    ///   `DecodingError.dataCorrupted` (resolve a URI with the coordinator's
    ///   `managedObjectID(forURIRepresentation:)` instead).
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: decoder.codingPath,
            debugDescription: "PersistentIdentifier cannot be decoded without its store"))
    }

    /// Orders identifiers by their text form (stable within a store).
    public static func < (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        lhs.description < rhs.description
    }
}
