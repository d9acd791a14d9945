import Foundation

/// Property names to slots, for `value(forKey:)` and its kin: an open-addressing table over
/// the names' UTF-8 bytes (FNV-1a), built once per entity runtime.
///
/// `Dictionary<String, Int32>` hashes every looked-up key with SipHash, which costs more than
/// the rest of a key-value read of a number; the names of an entity are few and short, and a
/// looked-up key usually is the very string the model holds (a literal), so the comparison
/// after the hash takes `String`'s identical-bits fast path.
struct SlotKeyTable: Sendable {
    private let names: [String]
    /// -1 marks an empty bucket.
    private let slots: [Int32]
    private let mask: Int

    init(_ slotByName: [String: Int32]) {
        var capacity = 8
        while capacity < slotByName.count * 2 { capacity *= 2 }
        var names = [String](repeating: "", count: capacity)
        var slots = [Int32](repeating: -1, count: capacity)
        for (name, slot) in slotByName {
            var i = Self.hash(name) & (capacity - 1)
            while slots[i] >= 0 { i = (i + 1) & (capacity - 1) }
            names[i] = name
            slots[i] = slot
        }
        self.names = names
        self.slots = slots
        self.mask = capacity - 1
    }

    @inline(__always)
    private static func hash(_ key: String) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return Int(truncatingIfNeeded: h ^ (h >> 32))
    }

    /// The slot of the property named `key`, or nil.
    @inline(__always)
    func slot(forKey key: String) -> Int32? {
        var i = Self.hash(key) & mask
        while true {
            let slot = slots[i]
            if slot < 0 { return nil }
            if names[i] == key { return slot }
            i = (i + 1) & mask
        }
    }
}
