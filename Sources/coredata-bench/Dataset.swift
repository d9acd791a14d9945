import Foundation

/// The values both sides write, generated once before any timing so that neither side
/// pays for formatting strings.
struct Dataset {
    let count: Int
    let ident: [Int64]
    let quantity: [Int64]
    let rank: [Int64]
    let flags: [Int64]
    let price: [Double]
    let weight: [Double]
    let name: [String]
    let city: [String]
    let notes: [String]
    /// Seconds since 2001-01-01 (what a Date holds and what the store writes).
    let created: [Double]

    init(count n: Int) {
        count = n
        ident = (0..<n).map { 1_000_000 + Int64($0) }
        quantity = (0..<n).map { Int64($0 % 1000) }
        rank = (0..<n).map { Int64($0) &* 31 % 10_007 }
        flags = (0..<n).map { Int64($0 & 0xff) }
        price = (0..<n).map { Double($0) * 0.25 }
        weight = (0..<n).map { Double($0 % 977) / 7.0 }
        // `Name<k>x<i>`: a prefix `NAME<k>X` (case-insensitively) selects i % 100 == k, 1%.
        name = (0..<n).map { "Name\($0 % 100)x\($0)" }
        city = (0..<n).map { "City \($0 % 5000)" }
        notes = (0..<n).map { "Item number \($0) with a few words of notes" }
        created = (0..<n).map { 600_000_000 + Double($0) * 60 }
    }

    /// The prefix that selects 1% of the rows (`k` in 0..<100).
    static func namePrefix(_ k: Int) -> String { "NAME\(k)X" }
}

/// A deterministic generator (SplitMix64): both sides look up the same "random" keys.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// MARK: - Checksums

/// Hashes the values of one row (FNV-1a over 64-bit words and UTF-8 bytes).
struct RowHash {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always) mutating func add(_ word: UInt64) {
        value = (value ^ word) &* 0x0000_0100_0000_01b3
        value ^= value >> 29
    }

    @inline(__always) mutating func add(_ v: Int64) { add(UInt64(bitPattern: v)) }
    @inline(__always) mutating func add(_ v: Double) { add(v.bitPattern) }
    @inline(__always) mutating func add(_ date: Date?) {
        if let date { add(date.timeIntervalSinceReferenceDate) } else { add(UInt64(0xdead)) }
    }

    mutating func add(_ text: String?) {
        guard let text else { add(UInt64(0xbeef)); return }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        add(h)
        add(UInt64(text.utf8.count))
    }

    /// The same hash over raw UTF-8 bytes (what SQLite hands out), for table checksums.
    mutating func add(bytes: UnsafeRawBufferPointer) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        add(h)
        add(UInt64(bytes.count))
    }
}

/// An order-independent checksum of many rows: the count and the wrapping sum of the
/// row hashes. Both sides of a workload must produce equal checksums.
struct Checksum: Equatable, CustomStringConvertible {
    var rows = 0
    var sum: UInt64 = 0

    @inline(__always) mutating func add(_ row: RowHash) {
        rows += 1
        sum &+= row.value
    }

    var description: String { "\(rows) rows, sum \(String(sum, radix: 16))" }
}
