import Testing
@testable import CoreData

/// Every construct of the format grammar (<doc:PredicateLanguage#Grammar>), parsed and evaluated.
@Suite struct PredicateGrammarTests {
    let alice = PredicateFixtures.alice()

    // MARK: - Lexical rules

    @Test("keywords are case-insensitive and whitespace is ignored")
    func keywordsIgnoreCase() throws {
        #expect(try predicateHolds("  name   beginswith 'Al'   AnD   age > 1 ", alice))
        #expect(try predicateHolds("name BeGiNsWiTh 'Al' aNd NOT age < 1", alice))
        #expect(try predicateHolds("truepredicate"))
        #expect(try predicateHolds("\tname\n==\r'Alice'", alice))
    }

    @Test("key paths stay case-sensitive")
    func keyPathsAreCaseSensitive() throws {
        #expect(try predicateHolds("name == 'x'", ["name": "x"]))
        #expect(try !predicateHolds("Name == 'x'", ["name": "x"]))
    }

    @Test("a #-escaped reserved word is a key path")
    func escapedReservedWord() throws {
        #expect(try predicateHolds("#size == 3", ["size": 3]))
        #expect(try predicateHolds("#name == 'x'", ["name": "x"]))
        #expect(try predicateHolds("info.#first == 1", ["info": ["first": 1]]))
    }

    @Test("both quote kinds make strings, and one does not close the other")
    func quotes() throws {
        #expect(try predicateHolds("SELF == \"a'b'c\"", "a'b'c"))
        #expect(try predicateHolds("SELF == 'say \"hi\"'", "say \"hi\""))
        #expect(try predicateHolds("'abc' == \"abc\""))
    }

    @Test("string literals take backslash escapes")
    func stringEscapes() throws {
        #expect(try predicateHolds(#"SELF == 'a\'b'"#, "a'b"))
        #expect(try predicateHolds(#"SELF == "a\"b""#, "a\"b"))
        #expect(try predicateHolds(#"SELF == 'a\\b'"#, "a\\b"))
        #expect(try predicateHolds(#"SELF == 'l1\nl2\tx\r'"#, "l1\nl2\tx\r"))
        #expect(try predicateHolds(#"SELF == '\u00e9\x41\101'"#, "éAA"))
    }

    @Test("numbers: integers, fixed point, exponents, hex, octal, binary, negatives")
    func numbers() throws {
        #expect(try predicateHolds("SELF == 27", 27))
        #expect(try predicateHolds("SELF == 2.71828", 2.71828))
        #expect(try predicateHolds("SELF == 9.2e-5", 9.2e-5))
        #expect(try predicateHolds("SELF == 1E3", 1000))
        #expect(try predicateHolds("SELF == 0x1F", 31))
        #expect(try predicateHolds("SELF == 0o17", 15))
        #expect(try predicateHolds("SELF == 0b101", 5))
        #expect(try predicateHolds("SELF == -3", -3))
        #expect(try predicateHolds("SELF == - 2.5", -2.5))
        #expect(try predicateHolds("SELF == 017", 17), "a leading 0 is not octal")
    }

    @Test("TRUE/YES, FALSE/NO and NULL/NIL are literals")
    func booleanAndNullLiterals() throws {
        #expect(try predicateHolds("active == TRUE AND active == YES", alice))
        #expect(try predicateHolds("active == FALSE AND active == NO", PredicateFixtures.bob()))
        #expect(try predicateHolds("nickname == NULL AND nickname == nil", alice))
    }

    @Test("SELF is the evaluated object, and SELF.key is the same as key")
    func selfLiteral() throws {
        #expect(try predicateHolds("SELF == 5", 5))
        #expect(try predicateHolds("SELF.age == age", alice))
        #expect(try NSPredicate.parse(format: "SELF.age == 1") == NSPredicate.parse(format: "age == 1"))
    }

    @Test("aggregate literals, including the empty one")
    func aggregates() throws {
        #expect(try predicateHolds("age IN {19, 34}", alice))
        #expect(try !predicateHolds("age IN {}", alice))
        #expect(try predicateHolds("{1, 2} == {1, 2}"))
    }

    @Test("$VAR is bound at evaluation time, and $var.key reads through it")
    func variables() throws {
        #expect(try predicateHolds("age > $MIN", alice, variables: ["MIN": 30]))
        #expect(try predicateHolds("$who.name == 'Alice'", nil, variables: ["who": alice]))
    }

    @Test("$VAR := expression assigns a variable")
    func assignment() throws {
        let e = try NSExpression.parse(format: "$x := 2 + 3")
        let context = NSMutableDictionary()
        #expect(e.expressionValue(with: nil, context: context) as? Int == 5)
        #expect(context["x"] as? Int == 5)
    }

    // MARK: - Format specifiers

    @Test("%@ substitutes a value and %K a key path")
    func objectAndKeySpecifiers() throws {
        #expect(try predicateHolds("%K == %@", alice, ["name", "Alice"]))
        #expect(try predicateHolds("%K == %@", alice, ["department.name", "Research"]))
        #expect(try predicateHolds("age IN %@", alice, [[1, 34]]))
        #expect(try predicateHolds("nickname == %@", alice, [NSNull()]))
    }

    @Test("printf conversions take the next argument as a constant")
    func printfSpecifiers() throws {
        #expect(try predicateHolds("age == %d AND age == %i AND age == %ld AND age == %lld", alice, [34, 34, 34, 34]))
        #expect(try predicateHolds("salary > %f AND salary < %lf", alice, [5000.0, 5001.0]))
        #expect(try predicateHolds("age == %u AND age < %e AND age < %g", alice, [34, 100.0, 100.0]))
        #expect(try predicateHolds("name == %s", alice, ["Alice"]))
    }

    @Test("quoted specifiers and variables are plain text and consume no argument")
    func quotedSpecifiers() throws {
        #expect(try predicateHolds("SELF == '%@' AND %@ == 1", "%@", [1]))
        #expect(try predicateHolds("SELF == \"%K\"", "%K"))
        #expect(try predicateHolds("SELF == '$x'", "$x"))
        #expect(try predicateHolds("SELF == '100%%'", "100%%"))
    }

    // MARK: - Boolean structure

    @Test("OR and ||, AND and &&, NOT and ! combine predicates")
    func booleanOperators() throws {
        #expect(try predicateHolds("age == 1 OR age == 34", alice))
        #expect(try predicateHolds("age == 1 || age == 34", alice))
        #expect(try predicateHolds("age == 34 AND name == 'Alice'", alice))
        #expect(try predicateHolds("age == 34 && name == 'Alice'", alice))
        #expect(try predicateHolds("NOT age == 1", alice))
        #expect(try predicateHolds("!(age == 1)", alice))
    }

    @Test("NOT binds tighter than AND, which binds tighter than OR")
    func booleanPrecedence() throws {
        let p = try NSPredicate.parse(format: "a == 1 OR b == 1 AND c == 1")
        let or = try #require(p as? NSCompoundPredicate)
        #expect(or.compoundPredicateType == .or)
        #expect((or.subpredicates[1] as? NSCompoundPredicate)?.compoundPredicateType == .and)
        // NOT a > 1 AND b  ==  (NOT a > 1) AND b
        let q = try #require(try NSPredicate.parse(format: "NOT a > 1 AND b == 1") as? NSCompoundPredicate)
        #expect(q.compoundPredicateType == .and)
        #expect((q.subpredicates[0] as? NSCompoundPredicate)?.compoundPredicateType == .not)
        #expect(try predicateHolds("1 == 1 OR 1 == 2 AND 1 == 2"))
    }

    @Test("parentheses nest to any depth, around predicates and expressions")
    func parentheses() throws {
        let deep = String(repeating: "(", count: 60) + "age == 34" + String(repeating: ")", count: 60)
        #expect(try predicateHolds(deep, alice))
        #expect(try predicateHolds("((age + 1)) * 2 == 70", alice))
        #expect(try predicateHolds("(age > 1 OR age < 0) AND ((name == 'Alice'))", alice))
        #expect(try predicateHolds("(age) == 34", alice))
    }

    @Test("TRUEPREDICATE and FALSEPREDICATE")
    func constantPredicates() throws {
        #expect(try predicateHolds("TRUEPREDICATE"))
        #expect(try !predicateHolds("FALSEPREDICATE"))
        #expect(try predicateHolds("NOT FALSEPREDICATE AND TRUEPREDICATE"))
    }

    // MARK: - Operators

    @Test("every spelling of the comparison operators", arguments: [
        ("age = 34", true), ("age == 34", true), ("age != 34", false), ("age <> 34", false),
        ("age < 35", true), ("age > 33", true), ("age <= 34", true), ("age =< 34", true),
        ("age >= 34", true), ("age => 34", true),
    ])
    func comparisonOperators(format: String, expected: Bool) throws {
        #expect(try predicateHolds(format, PredicateFixtures.alice()) == expected)
    }

    @Test("string and collection operators", arguments: [
        "name BEGINSWITH 'Al'", "name ENDSWITH 'ce'", "name CONTAINS 'lic'",
        "name LIKE 'A?i*'", "name MATCHES '[A-Z][a-z]+'", "'lic' IN name",
        "age IN {1, 34}", "tags CONTAINS 'swift'", "age BETWEEN {34, 40}",
    ])
    func stringAndCollectionOperators(format: String) throws {
        #expect(try predicateHolds(format, PredicateFixtures.alice()))
    }

    @Test("UTI-CONFORMS-TO and UTI-EQUALS parse and evaluate")
    func utiOperators() throws {
        #expect(try predicateHolds("SELF UTI-CONFORMS-TO 'public.image'", "public.image.png"))
        #expect(try predicateHolds("SELF UTI-CONFORMS-TO 'public.data'", "public.jpeg"))
        #expect(try !predicateHolds("SELF UTI-CONFORMS-TO 'public.image'", "public.text"))
        #expect(try predicateHolds("SELF uti-equals 'public.jpeg'", "public.jpeg"))
    }

    @Test("option brackets: c, d, cd, n, l")
    func optionBrackets() throws {
        let p = try #require(try NSPredicate.parse(format: "a ==[cd] 'x'") as? NSComparisonPredicate)
        #expect(p.options == [.caseInsensitive, .diacriticInsensitive])
        let q = try #require(try NSPredicate.parse(format: "a LIKE[nl] 'x'") as? NSComparisonPredicate)
        #expect(q.options == [.normalized, .localeSensitive])
        #expect(try predicateHolds("name ==[c] 'ALICE'", alice))
        #expect(try predicateHolds("name CONTAINS[CD] 'LÎC'", alice))
    }

    @Test("ANY, SOME, ALL and NONE prefix a comparison; NOT ANY is valid")
    func quantifiers() throws {
        #expect(try predicateHolds("ANY projects.hours > 100", alice))
        #expect(try predicateHolds("SOME projects.hours > 100", alice))
        #expect(try !predicateHolds("ALL projects.hours > 100", alice))
        #expect(try predicateHolds("NONE projects.hours > 1000", alice))
        #expect(try predicateHolds("NOT ANY projects.hours > 1000", alice))
        let some = try NSPredicate.parse(format: "SOME tags == 'x'")
        #expect(some == (try NSPredicate.parse(format: "ANY tags == 'x'")))
        let none = try NSPredicate.parse(format: "NONE tags == 'x'")
        #expect(none == (try NSPredicate.parse(format: "NOT ANY tags == 'x'")))
    }

    // MARK: - Expressions

    @Test("arithmetic: unary minus > ** > * / > + -, left-associative")
    func arithmetic() throws {
        #expect(try predicateHolds("1 + 2 * 3 == 7"))
        #expect(try predicateHolds("(1 + 2) * 3 == 9"))
        #expect(try predicateHolds("10 - 4 - 3 == 3"))
        #expect(try predicateHolds("2 ** 3 * 2 == 16"))
        #expect(try predicateHolds("2 ** 3 ** 2 == 64"), "** is left-associative")
        #expect(try predicateHolds("-2 ** 2 == 4"), "unary minus binds tighter than **")
        #expect(try predicateHolds("7 / 2 == 3.5"))
        #expect(try predicateHolds("age * 2 - 8 == 60", alice))
        #expect(try predicateHolds("-age == -34", alice))
    }

    @Test("key paths with collection operators: .@count, .@sum.key, @sum at the root")
    func keyPathsWithCollectionOperators() throws {
        #expect(try predicateHolds("projects.@count == 2", alice))
        #expect(try predicateHolds("projects.@sum.hours == 160", alice))
        #expect(try predicateHolds("projects.@max.hours == 120 AND projects.@min.hours == 40", alice))
        #expect(try predicateHolds("projects.@avg.hours == 80", alice))
        #expect(try predicateHolds("@sum.hours == 160", alice.values["projects"]))
        #expect(try predicateHolds("@count == 3", [1, 2, 3]))
        #expect(try predicateHolds("tags.@distinctUnionOfObjects.@count == 2", ["tags": ["a", "b", "a"]]))
    }

    @Test("indexes: [FIRST], [LAST], [SIZE] and [n]")
    func indexes() throws {
        let object: [String: Any] = ["list": [10, 20, 30]]
        #expect(try predicateHolds("list[FIRST] == 10", object))
        #expect(try predicateHolds("list[LAST] == 30", object))
        #expect(try predicateHolds("list[SIZE] == 3", object))
        #expect(try predicateHolds("list[1] == 20", object))
        #expect(try predicateHolds("list[1 + 1] == 30", object))
    }

    @Test("SUBQUERY filters a collection with an iterator variable")
    func subquery() throws {
        #expect(try predicateHolds("SUBQUERY(projects, $p, $p.hours > 50).@count == 1", alice))
        #expect(try predicateHolds("SUBQUERY(projects, $p, $p.title BEGINSWITH 'V' OR $p.hours > 100).@count == 2", alice))
        #expect(try predicateHolds("SUBQUERY(projects, $p, hours < 0).@count == 0", alice))
    }

    @Test("FUNCTION with a built-in selector evaluates; others fail at evaluation")
    func functionSyntax() throws {
        #expect(try predicateHolds("FUNCTION(SELF, 'uppercase:', name) == 'ALICE'", alice))
        #expect(throws: (any Error).self) { try predicateHolds("FUNCTION(SELF, 'reverse') == 1", alice) }
        let e = try NSExpression.parse(format: "FUNCTION(name, 'stringByAppending:', 'x')")
        #expect(e.expressionType == .function && e.function == "stringByAppending:")
    }

    @Test("CAST converts to NSDate, NSNumber and NSString")
    func cast() throws {
        #expect(try predicateHolds("birthday == CAST(0, 'NSDate')", alice))
        #expect(try predicateHolds("CAST('42', 'NSNumber') == 42"))
        #expect(try predicateHolds("CAST(age, \"NSString\") == '34'", alice))
        #expect(try predicateHolds("CAST(birthday, 'NSNumber') == 0", alice))
    }

    @Test("TERNARY chooses between two expressions")
    func ternary() throws {
        #expect(try predicateHolds("TERNARY(age > 30, 'old', 'young') == 'old'", alice))
        #expect(try predicateHolds("TERNARY(age > 30, 'old', 'young') == 'young'", PredicateFixtures.bob()))
    }

    @Test("built-in functions are called as name(args)", arguments: [
        "sum({1, 2, 3}) == 6", "count({1, 2}) == 2", "min({3, 1}) == 1", "max({3, 1}) == 3",
        "average({1, 2}) == 1.5", "median({5, 1, 3}) == 3", "mode({1, 2, 2}) == {2}",
        "stddev({2, 4, 4, 4, 5, 5, 7, 9}) == 2", "sqrt(16) == 4", "log(100) == 2",
        "ln(1) == 0", "exp(0) == 1", "floor(2.7) == 2", "ceiling(2.1) == 3", "abs(-3) == 3",
        "trunc(-2.7) == -2", "random() < 1", "now() > CAST(0, 'NSDate')",
        "uppercase('a') == 'A'", "lowercase('A') == 'a'", "length('abc') == 3",
        "noindex(5) == 5", "modulus(7, 3) == 1", "bitwiseAnd(6, 3) == 2", "bitwiseOr(4, 1) == 5",
        "bitwiseXor(6, 3) == 5", "leftshift(1, 3) == 8", "rightshift(8, 2) == 2",
        "onesComplement(0) == -1", "add(1, 2) == 3", "raise(2, 10) == 1024",
        "SUM({1, 2}) == 3", "random({7}) == 7",
    ])
    func builtinFunctions(format: String) throws {
        #expect(try predicateHolds(format))
    }

    @Test("NSExpression(format:) parses one expression")
    func expressionFormat() throws {
        let e = NSExpression(format: "price * quantity")
        #expect(e.expressionValue(with: ["price": 2.5, "quantity": 4], context: nil) as? Double == 10)
        let sum = NSExpression(format: "sum(%@)", argumentArray: [[1, 2, 3]])
        #expect(sum.expressionValue(with: nil, context: nil) as? Int == 6)
    }
}
