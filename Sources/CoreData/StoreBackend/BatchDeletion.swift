import Foundation

/// The rows a batch delete removes and the relationships it clears, worked out from the
/// model's delete rules as Apple's batch delete applies them:
///
/// - **Cascade**: the destinations are deleted too (and their own rules apply, transitively).
/// - **Nullify**: a to-one inverse pointing at a deleted row is cleared (its row's `Z_OPT`
///   goes up); a to-many inverse loses the deleted row (join-table rows go with it).
/// - **Deny**: the delete fails when a deleted row still has destinations that are not
///   deleted themselves.
/// - **No action**: nothing; inverses keep pointing at the deleted row.
///
/// A nullified to-one inverse that is not optional fails the delete, as Apple's does.
///
/// The work only reads (through ``StoreBackend/relatedKeys(relationship:pks:)``); the store
/// writes it.
struct BatchDeletion {
    /// Every row to delete, the requested ones first, then those cascaded to.
    private(set) var deleted: [StoreKey] = []
    /// To-one relationships to clear, each with the rows holding it (none of them deleted).
    private(set) var nullified: [(relationship: NSRelationshipDescription, keys: [StoreKey])] = []
    /// Join-table links from or to deleted rows (filled when asked for: stores that keep
    /// links as records of their own; a SQLite store deletes join-table rows by key).
    private(set) var unlinked: [StoreChanges.Link] = []

    /// Works out the delete of `requested` in `backend`; `entities` names the entity of a
    /// `Z_ENT`.
    ///
    /// - Throws: `NSPersistentStoreSaveError` when a deny rule or a mandatory to-one inverse
    ///   forbids it (`sqliteCode` then goes under `NSSQLiteErrorDomain`, as Apple's SQLite
    ///   trigger reports it); the backend's read errors.
    init(deleting requested: [StoreKey], entities: (Int) -> NSEntityDescription?, backend: StoreBackend,
         collectLinks: Bool, sqliteCode: Int? = nil) throws {
        var isDeleted = Set<StoreKey>()
        deleted = requested.filter { isDeleted.insert($0).inserted }
        var denied: [(relationship: NSRelationshipDescription, related: [StoreKey])] = []
        var toClear: [ObjectIdentifier: (relationship: NSRelationshipDescription, keys: [StoreKey])] = [:]
        var links = Set<StoreChanges.Link>()
        var pending = deleted
        while !pending.isEmpty {
            var next: [StoreKey] = []
            // One query per relationship and entity, for every pending row of that entity.
            var byEntity: [Int: [Int64]] = [:]
            var entityOrder: [Int] = []
            for key in pending {
                if byEntity[key.entityID] == nil { entityOrder.append(key.entityID) }
                byEntity[key.entityID, default: []].append(key.pk)
            }
            for entityID in entityOrder {
                guard let entity = entities(entityID), let pks = byEntity[entityID] else { continue }
                for case let relationship as NSRelationshipDescription in entity.runtime.slotProperties
                where !relationship.isTransient {
                    let inverse = relationship.inverseRelationship
                    let rule = relationship.deleteRule
                    let needsLinks = collectLinks && relationship.isToMany && (inverse?.isToMany ?? true)
                    let needsMembers = rule == .cascadeDeleteRule || rule == .denyDeleteRule
                        || (rule == .nullifyDeleteRule && inverse.map { !$0.isToMany } == true) || needsLinks
                    guard needsMembers else { continue }
                    let related = try backend.relatedKeys(relationship: relationship, pks: pks)
                    for pk in pks {
                        let members = related[pk] ?? []
                        guard !members.isEmpty else { continue }
                        let source = StoreKey(entityID: entityID, pk: pk)
                        if needsLinks {
                            for member in members {
                                if StoreChanges.ownsLinks(relationship) {
                                    links.insert(.init(relationship: relationship, source: source, destination: member))
                                } else if let inverse {
                                    links.insert(.init(relationship: inverse, source: member, destination: source))
                                }
                            }
                        }
                        switch rule {
                        case .cascadeDeleteRule:
                            for member in members where isDeleted.insert(member).inserted {
                                deleted.append(member)
                                next.append(member)
                            }
                        case .denyDeleteRule:
                            denied.append((relationship, members))
                        case .nullifyDeleteRule:
                            guard let inverse, !inverse.isToMany else { break }
                            toClear[ObjectIdentifier(inverse), default: (inverse, [])].keys += members
                        default:
                            break
                        }
                    }
                }
            }
            pending = next
        }
        for (relationship, related) in denied where related.contains(where: { !isDeleted.contains($0) }) {
            throw Self.refusal(
                "Batch delete failed due to deny delete rule on \(relationship.entity.name ?? "?")/\(relationship.name)",
                sqliteCode: sqliteCode)
        }
        for (_, entry) in toClear.sorted(by: { $0.value.relationship.name < $1.value.relationship.name }) {
            var seen = Set<StoreKey>()
            let keys = entry.keys.filter { !isDeleted.contains($0) && seen.insert($0).inserted }
            guard !keys.isEmpty else { continue }
            if !entry.relationship.isOptional {
                throw Self.refusal(
                    "Batch delete failed due to mandatory OTO nullify inverse on \(entry.relationship.entity.name ?? "?")/\(entry.relationship.name)",
                    sqliteCode: sqliteCode)
            }
            nullified.append((entry.relationship, keys))
        }
        unlinked = Array(links)
    }

    /// The error for a delete the rules forbid (Apple reports its SQLite trigger's failure).
    private static func refusal(_ reason: String, sqliteCode: Int?) -> NSError {
        var info: [String: Any] = [NSLocalizedFailureReasonErrorKey: reason]
        if let sqliteCode { info[NSSQLiteErrorDomain] = sqliteCode }
        return CoreDataError.make(NSPersistentStoreSaveError, "Constraint trigger violation: \(reason).", userInfo: info)
    }
}
