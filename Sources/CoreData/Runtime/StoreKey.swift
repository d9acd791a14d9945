/// An object's identity inside one store: its entity's number (`Z_ENT`) and primary key
/// (`Z_PK`). Rows hold to-one references in this form (``SlotType/key``).
struct StoreKey: Hashable, Sendable {
    let entityID: Int
    let pk: Int64
}
