import Foundation

// MARK: - Optimistic locking, for stores that keep their rows' versions themselves

extension StoreChanges {
    /// One row a save depends on, with the version (`Z_OPT`) the saving context read.
    struct VersionCheck {
        let entity: NSEntityDescription
        let pk: Int64
        let expectedVersion: Int64
    }

    /// Every row whose version must still be the one the saving context read: the locked
    /// rows (`detectConflicts(for:)`), the updated rows and the deleted rows. A delete is
    /// checked like an update: deleting a row another writer changed since it was read
    /// would discard that writer's change unseen.
    var versionChecks: [VersionCheck] {
        locks.map { VersionCheck(entity: $0.entity, pk: $0.pk, expectedVersion: $0.expectedVersion) }
            + updates.map { VersionCheck(entity: $0.entity, pk: $0.pk, expectedVersion: $0.expectedVersion) }
            + deletes.map { VersionCheck(entity: $0.entity, pk: $0.pk, expectedVersion: $0.expectedVersion) }
    }

    /// Checks every row of ``versionChecks`` against `storedVersion` (the row's version in
    /// the store, nil when it is gone) before anything is written, so that a save in
    /// conflict writes nothing and names every row in conflict at once.
    ///
    /// The SQL stores make the same check in their `UPDATE`/`DELETE … WHERE Z_OPT = ?`
    /// statements (`SQLStoreCore.applyChanges(_:on:)`); the stores that hold their rows in
    /// memory (the in-memory store, `NSAtomicStore`) call this, and the coordinator calls it
    /// with its cached versions for a store that checks nothing itself (`NSIncrementalStore`,
    /// see ``StoreBackend/checksVersions``).
    ///
    /// - Throws: `StoreConflict` naming each row at another version or gone.
    func checkVersions(stored storedVersion: (VersionCheck) throws -> Int64?) throws {
        var conflicts: [StoreConflict.Row] = []
        for check in versionChecks {
            let stored = try storedVersion(check)
            if stored != check.expectedVersion {
                conflicts.append(.init(entity: check.entity, pk: check.pk, storedVersion: stored,
                                       expectedVersion: check.expectedVersion))
            }
        }
        if !conflicts.isEmpty { throw StoreConflict(rows: conflicts) }
    }
}
