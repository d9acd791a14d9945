import Foundation
@testable import CoreData
import Testing

/// The SHA-256 behind entity version hashes (Support/SHA256.swift).
@Suite("SHA-256")
struct SHA256Tests {
    @Test("SHA-256 matches the FIPS 180-4 test vectors")
    func sha256Vectors() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA256.hash([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var hasher = SHA256()
        for _ in 0..<1000 { hasher.update([UInt8](repeating: 0x61, count: 1000)) }
        #expect(hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
