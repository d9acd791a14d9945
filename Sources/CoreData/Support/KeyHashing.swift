/// Hashing for the keys of the object registry and the row cache (store, inheritance
/// root, primary key), which every fetched row goes through several times: one 64-bit
/// mix (murmur3's finalizer over the three words and the table's seed) instead of
/// SipHash over each field.
@inline(__always)
func mixKeyHash(_ store: ObjectIdentifier, _ root: ObjectIdentifier, _ pk: Int64, seed: Int) -> Int {
    var h = UInt64(bitPattern: pk) &* 0x9E37_79B9_7F4A_7C15
    h ^= UInt64(UInt(bitPattern: root)) &* 0xC2B2_AE3D_27D4_EB4F
    h ^= UInt64(UInt(bitPattern: store)) &* 0x1656_67B1_9E37_79F9
    h ^= UInt64(UInt(bitPattern: seed))
    h ^= h >> 33
    h &*= 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 33
    h &*= 0xC4CE_B9FE_1A85_EC53
    h ^= h >> 33
    return Int(truncatingIfNeeded: h)
}
