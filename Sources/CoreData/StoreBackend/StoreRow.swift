import Foundation

/// One row of a store, as runtime values in the entity layout's slot order.
final class StoreRow: @unchecked Sendable {
    // @unchecked Sendable: immutable after the store (or a parent context) filled it; the
    // row cache shares it between contexts under the coordinator's lock.
    let entity: NSEntityDescription
    let pk: Int64
    /// `Z_OPT`, the optimistic-locking version.
    let version: Int64
    let values: RowValues
    /// When the row was read or written (seconds of system uptime, ``now()``), for the
    /// contexts' `stalenessInterval`.
    let loadedAt: TimeInterval

    /// A row of NULLs shaped like the entity's layout, for its filler to write.
    init(entity: NSEntityDescription, pk: Int64, version: Int64) {
        self.entity = entity
        self.pk = pk
        self.version = version
        self.values = RowValues(count: entity.runtime.layout.slotCount)
        self.loadedAt = Self.now()
    }

    /// A row of NULLs for a store's decoder: `textBytes` is room for its text values in the
    /// row's own allocation (see ``RowValues/init(count:textBytes:)``), and `loadedAt` the
    /// time of the read, taken once for all the rows of one statement.
    init(entity: NSEntityDescription, pk: Int64, version: Int64, textBytes: Int, loadedAt: TimeInterval) {
        self.entity = entity
        self.pk = pk
        self.version = version
        self.values = RowValues(count: entity.runtime.layout.slotCount, textBytes: textBytes)
        self.loadedAt = loadedAt
    }

    /// The clock of ``loadedAt``: seconds of system uptime.
    static func now() -> TimeInterval { ProcessInfo.processInfo.systemUptime }

    var key: StoreKey { StoreKey(entityID: entity.runtime.entityID, pk: pk) }
}

extension RowValues {
    /// The store key of a to-one slot that holds one (a store's row), or nil.
    func storeKey(at slot: Int32) -> StoreKey? {
        let value = value(at: slot)
        return value.type == .key ? value.key : nil
    }
}
