import Testing
@testable import CoreData
import CoreDataTestSupport

/// Bad input (<doc:PredicateLanguage#Errors-in-a-format-string>): each is a thrown NSError
/// naming the problem and the character position, and no input crashes the parser.
@Suite struct PredicateParseErrorTests {

    @Test("a parse error is an NSError in NSCocoaErrorDomain, code 2048, with the position")
    func errorShape() throws {
        let error = try #require(formatParseError("age == (1"))
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == 2048)
        #expect(error.localizedDescription.hasPrefix("Unable to parse the format string \"age == (1\""))
        #expect(error.localizedDescription.contains("at character 9"))
        #expect(error.userInfo["NSPredicateFormatPosition"] as? Int == 9)
        #expect(error.userInfo["NSPredicateFormatString"] as? String == "age == (1")
    }

    @Test("these must be parse errors", arguments: [
        ("(a == 1", "')'"), ("a == 1)", "extraneous"), ("a IN {1, 2", "'}'"), ("list[1 == 2", "']'"),
        ("a IN 1, 2}", "extraneous"), ("a ==", "missing operand"), ("== 1", "expected an expression"),
        ("a == 1 AND", "missing operand"), ("a == 1 AND AND b == 2", "doubled"),
        ("a == 1 OR OR b == 2", "doubled"), ("AND a == 1", "missing operand"),
        ("a == 1 b", "extraneous"), ("a == 'abc", "unterminated"), ("a === 1", "unknown operator"),
        ("a >> 1", "unknown operator"), ("a EQUALS 1", "unknown operator 'EQUALS'"),
        ("a == ?", "'?'"), ("", "empty"), ("   ", "empty"), ("active", "comparison operator"),
        ("size == 3", "reserved word"), ("a.size == 3", "reserved word"), ("foo(1) == 1", "Unable to parse function name 'foo:'"),
        ("sum(1, 2) == 1", "function name"), ("a ==[x] 'b'", "malformed option"), ("a ==[] 'b'", "malformed option"),
        ("a ==[c 'b'", "']'"), ("a == %1$@", "positional"), ("a == %y", "format specifier"),
        ("a == 1 %%", "literal percent"), ("a NOT IN {1}", "comparison operator"), ("$ == 1", "identifier"),
        ("a == 08x", "malformed number"), ("a == 'x\\u12'", "escape"), ("CAST(1, 'NSFoo') == 1", "CAST type"),
        ("SUBQUERY(a, b, b == 1).@count == 1", "$variable"), ("FETCH(a, b, c) == 1", "FETCH"),
        ("(a == 1) (b == 2)", "extraneous"), ("NOT", "missing operand"), ("a == 1 &", "unexpected character"),
        // Found by fuzzing (CI, stop 25): a digit with a combining mark sorts among the octal
        // digits as a Character, and trapped when read as one.
        ("a == 'x\\1\u{301}'", "octal escape"),
    ])
    func mustFail(format: String, fragment: String) throws {
        let error = try #require(formatParseError(format), "\(format) parsed")
        #expect(error.domain == NSCocoaErrorDomain && error.code == 2048)
        #expect(error.localizedDescription.contains(fragment), "\(error.localizedDescription)")
    }

    @Test("a missing argument is an error naming the specifier")
    func missingArgument() throws {
        let error = try #require(formatParseError("a == %@ AND b == %@", [1]))
        #expect(error.localizedDescription.contains("missing argument for %@"))
        #expect(error.localizedDescription.contains("at character 17"))
    }

    @Test("%K with a non-string argument is an error")
    func keySpecifierNeedsString() throws {
        let error = try #require(formatParseError("%K == 1", [42]))
        #expect(error.localizedDescription.contains("%K needs a key path string"))
        #expect(formatParseError("%K == 1", [NSNull()]) != nil)
    }

    @Test("numeric conversions check that they get a number")
    func numericConversionsCheckType() throws {
        #expect(formatParseError("a == %d", ["x"]) != nil)
        #expect(formatParseError("a == %f", [NSNull()]) != nil)
        #expect(formatParseError("a == %s", [1]) != nil)
    }

    @Test("nesting deeper than the parser's limit is an error, not a stack overflow")
    func tooDeep() throws {
        let deep = String(repeating: "(", count: 5000) + "a == 1" + String(repeating: ")", count: 5000)
        #expect(formatParseError(deep)?.localizedDescription.contains("too deep") == true)
        #expect(formatParseError(String(repeating: "NOT ", count: 5000) + "a == 1") != nil)
        #expect(formatParseError("a == " + String(repeating: "-", count: 5000) + "1") != nil)
    }

    @Test("random and mutated strings never crash the parser or evaluator")
    func fuzz() throws {
        var generator = SplitMix64(seed: 0x5EED)
        let seeds = PredicateFormatTests.roundTrips + [
            "name == %@ AND age > %d", "%K BETWEEN %@", "ANY a.b.@sum.c IN {1, 2}",
        ]
        let alphabet = Array("abcxyz019 .,()[]{}'\"\\$#@%*?+-/=<>!&|:_KdcnlANDORNOTINY\u{e9}")
        let fragments = ["AND", "OR", "NOT", "ANY", "ALL", "IN", "LIKE", "MATCHES", "BETWEEN",
                         "SUBQUERY(", "CAST(", "FUNCTION(", "TERNARY(", "%@", "%K", "$v", "{",
                         "}", "(", ")", "[c]", "==", ".@count", "'", "\"", "SELF", "nil", "1e9"]
        let object: [String: Any] = ["a": 1, "name": "x", "b": [1, 2], "c": ["d": "e"]]
        var outcomes = (parsed: 0, rejected: 0)
        for round in 0..<4000 {
            var text: String
            if round % 2 == 0 {
                var chars = Array(seeds[Int(generator.next() % UInt64(seeds.count))])
                for _ in 0..<(1 + generator.next() % 4) {
                    let at = chars.isEmpty ? 0 : Int(generator.next() % UInt64(chars.count))
                    switch generator.next() % 3 {
                    case 0 where !chars.isEmpty: chars.remove(at: at)
                    case 1: chars.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: at)
                    default:
                        let piece = fragments[Int(generator.next() % UInt64(fragments.count))]
                        chars.insert(contentsOf: piece, at: at)
                    }
                }
                text = String(chars)
            } else {
                text = (0..<(generator.next() % 12)).map { _ in
                    fragments[Int(generator.next() % UInt64(fragments.count))]
                }.joined(separator: generator.next() % 2 == 0 ? " " : "")
            }
            let arguments: [Any] = ["name", 1, [1, 2], NSNull(), "x"]
            do {
                let predicate = try NSPredicate.parse(format: text, arguments: arguments)
                outcomes.parsed += 1
                _ = predicate.evaluate(with: object)
                _ = try? predicate.evaluateOrThrow(with: object, substitutionVariables: ["v": 1])
                let printed = predicate.formattedPredicate
                if !printed.contains("\"<") { _ = try? NSPredicate.parse(format: printed) }
            } catch {
                let error = error as NSError
                #expect(error.domain == NSCocoaErrorDomain && error.code == 2048)
                outcomes.rejected += 1
            }
        }
        #expect(outcomes.parsed + outcomes.rejected == 4000)
        #expect(outcomes.parsed > 100 && outcomes.rejected > 100)
    }
}

/// The two ways a bad format ends: the throwing entry point for user text, and the stop
/// with Apple's wording for `NSPredicate(format:)`.
@Suite struct PredicateFormatFailureTests {

    @Test("NSPredicate(validatingFormat:) throws for text typed by users, and parses good text")
    func validatingFormat() throws {
        let error = try #require(throws: NSError.self) { try NSPredicate(validatingFormat: "name == ") }
        #expect(error.domain == NSCocoaErrorDomain && error.code == NSFormattingError)
        #expect(error.localizedDescription.hasPrefix("Unable to parse the format string \"name == \""))
        let missing = try #require(throws: NSError.self) {
            try NSPredicate(validatingFormat: "name == %@ AND age > %@", argumentArray: ["x"])
        }
        #expect(missing.localizedDescription.contains("missing argument"))
        let predicate = try NSPredicate(validatingFormat: "name == %@", argumentArray: ["x"])
        #expect(predicate.evaluate(with: ["name": "x"]))
        #expect(try NSPredicate(validatingFormat: "TRUEPREDICATE").evaluate(with: nil))
        let expression = try NSExpression(validatingFormat: "a + %@", argumentArray: [2])
        #expect(expression.expressionValue(with: ["a": 1], context: nil) as? Int == 3)
        #expect(throws: NSError.self) { try NSExpression(validatingFormat: "a +") }
    }

    @Test("NSPredicate(format:) with a bad format stops with Apple's wording, in any build")
    func badFormatStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = NSPredicate(format: "name == ")
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("Unable to parse the format string \"name == \""), "\(output)")
    }

    @Test("a missing argument stops NSPredicate(format:) with the specifier named")
    func missingArgumentStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = NSPredicate(format: "name == %@", argumentArray: [])
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("missing argument for %@"), "\(output)")
    }
}
