import Foundation
import Testing
@testable import CoreData

@Suite struct PredicateTokenCacheTests {
    @Test("a format string built into a predicate per call is tokenized once and still takes each call's arguments")
    func perCallPredicatesShareTokens() throws {
        // A format no other test uses, so the first call is the one that tokenizes it.
        let format = "ident == %lld AND name BEGINSWITH[c] %@ AND note != '\(UUID().uuidString)'"
        #expect(!PredicateTokenCache.contains(format))
        let first = NSPredicate(format: format, Int64(1), "mi")
        #expect(PredicateTokenCache.contains(format))
        let second = NSPredicate(format: format, Int64(2), "br")
        #expect(first != second)
        #expect(first.evaluate(with: ["ident": 1, "name": "Milk", "note": ""]))
        #expect(!second.evaluate(with: ["ident": 1, "name": "Milk", "note": ""]))
        #expect(second.evaluate(with: ["ident": 2, "name": "Bread", "note": ""]))
        #expect(second.description.hasPrefix("ident == 2 AND name BEGINSWITH[c] \"br\""))
    }

    @Test("a format string that does not tokenize is not cached, and fails the same way each time")
    func failuresAreNotCached() {
        let format = "name == 'unterminated \(UUID())"
        for _ in 0..<2 {
            #expect(throws: (any Error).self) { try NSPredicate(validatingFormat: format) }
        }
        #expect(!PredicateTokenCache.contains(format))
    }

    @Test("the cache never holds more than its limit")
    func bounded() {
        for i in 0..<(PredicateTokenCache.limit + 10) {
            _ = NSPredicate(format: "value == \(i) AND tag == 'bounded'")
        }
        #expect(PredicateTokenCache.count <= PredicateTokenCache.limit)
    }
}
