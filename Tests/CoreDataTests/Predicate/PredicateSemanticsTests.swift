import Testing
@testable import CoreData

/// One test per semantic rule of the predicate language (<doc:PredicateLanguage#Semantics>).
@Suite struct PredicateSemanticsTests {
    let alice = PredicateFixtures.alice()
    let bob = PredicateFixtures.bob()

    // MARK: - NULL

    @Test("nil equals only nil or NSNull")
    func nilEquality() throws {
        #expect(try predicateHolds("nickname == nil", alice))
        #expect(try predicateHolds("nil == nil"))
        #expect(try predicateHolds("SELF == nil", NSNull()))
        #expect(try !predicateHolds("nickname == 'v'", alice))
        #expect(try !predicateHolds("name == nil", alice))
    }

    @Test("nil != value is true in memory")
    func nilInequality() throws {
        #expect(try predicateHolds("nickname != 'v'", alice))
        #expect(try !predicateHolds("nickname != nil", alice))
    }

    @Test("ordering and string operators are false when an operand is nil", arguments: [
        "nickname < 1", "nickname > 1", "nickname <= 1", "nickname >= 1",
        "nickname BETWEEN {0, 1}", "nickname BEGINSWITH 'a'", "nickname ENDSWITH 'a'",
        "nickname CONTAINS 'a'", "nickname LIKE '*'", "nickname MATCHES '.*'",
        "nickname IN {nil, 1}", "name CONTAINS nil", "'a' IN nickname", "age < nil",
    ])
    func nilOperandsAreFalse(format: String) throws {
        #expect(try !predicateHolds(format, PredicateFixtures.alice()))
    }

    @Test("NOT is two-valued: NOT (x > 0) with nil x is true")
    func notIsTwoValued() throws {
        #expect(try predicateHolds("NOT (salary > 0)", bob))
    }

    @Test("a key path through a nil to-one yields nil, not an error")
    func keyPathThroughNil() throws {
        #expect(try predicateHolds("department.name == nil", bob))
        #expect(try !predicateHolds("department.name == 'Research'", bob))
    }

    @Test("nil is never 0, and NSNull is treated like nil")
    func noCoercionToZero() throws {
        #expect(try !predicateHolds("salary == 0", bob))
        #expect(try !predicateHolds("salary < 1", bob))
        #expect(try predicateHolds("x == nil", ["x": NSNull()]))
        #expect(try !predicateHolds("x == 0", ["x": NSNull()]))
    }

    // MARK: - Types and equality

    @Test("equality never coerces strings to numbers")
    func noStringNumberCoercion() throws {
        #expect(try !predicateHolds("age == '34'", alice))
        #expect(try predicateHolds("'42' != 42"))
    }

    @Test("numbers compare by value across Int, Double and NSNumber")
    func numbersAcrossTypes() throws {
        #expect(try predicateHolds("34 == 34.0"))
        #expect(try predicateHolds("SELF == 34", NSNumber(value: 34.0)))
        #expect(try predicateHolds("SELF == 3", Int8(3)))
        #expect(try predicateHolds("SELF < 3", Float(2.5)))
        #expect(try predicateHolds("SELF == %@", 7, [UInt64(7)]))
    }

    @Test("booleans are numbers: active == 1 and active == YES")
    func booleansAreNumbers() throws {
        #expect(try predicateHolds("active == 1", alice))
        #expect(try predicateHolds("active == YES", alice))
        #expect(try predicateHolds("active == 0", bob))
        #expect(try predicateHolds("SELF == YES", NSNumber(value: true)))
    }

    @Test("ordering a number against a string is an error, not false")
    func orderingNumberAgainstStringThrows() throws {
        #expect(throws: (any Error).self) { try predicateHolds("name <= 2", alice) }
        #expect(!NSPredicate(format: "name <= 2").evaluate(with: alice))
    }

    @Test("dates compare as dates")
    func datesCompare() throws {
        let later = Date(timeIntervalSinceReferenceDate: 100)
        #expect(try predicateHolds("birthday < %@", alice, [later]))
        #expect(try predicateHolds("birthday == %@", alice, [NSDate(timeIntervalSinceReferenceDate: 0)]))
        #expect(try !predicateHolds("birthday == 0", alice))
    }

    @Test("string ordering without options is code-point order")
    func codePointOrdering() throws {
        #expect(try !predicateHolds("'Alice' > 'alice'"))
        #expect(try predicateHolds("'Zed' < 'apple'"))
        #expect(try predicateHolds("'apple' <[c] 'Zed'"))
    }

    // MARK: - Options

    @Test("string comparisons are case- and diacritic-sensitive by default")
    func sensitiveByDefault() throws {
        #expect(try !predicateHolds("'abc' == 'ABC'"))
        #expect(try !predicateHolds("'café' == 'cafe'"))
    }

    @Test("[c] is full Unicode case folding")
    func caseFolding() throws {
        #expect(try predicateHolds("'ÅNGSTRÖM' ==[c] 'Ångström'"))
        #expect(try predicateHolds("'STRASSE' ==[c] 'straße'"))
    }

    @Test("[d] ignores diacritics")
    func diacriticFolding() throws {
        #expect(try predicateHolds("'naïve' LIKE[d] 'naive'"))
        #expect(try predicateHolds("'Ångström' ==[d] 'Angstrom'"))
        #expect(try predicateHolds("'ñú' ==[d] 'nu'"))
    }

    @Test("[d] alone stays case-sensitive and [c] alone stays diacritic-sensitive")
    func optionsAreIndependent() throws {
        #expect(try !predicateHolds("'Ångström' ==[d] 'angstrom'"))
        #expect(try !predicateHolds("'Ångström' ==[c] 'angstrom'"))
        #expect(try predicateHolds("'Ångström' ==[cd] 'angstrom'"))
    }

    @Test("options apply to equality, ordering, substring, IN and MATCHES operators", arguments: [
        "'ABC' ==[c] 'abc'", "NOT 'ABC' !=[c] 'abc'", "'abc' <[c] 'ABD'", "'ABC' >=[c] 'abc'",
        "'ÉCOLE' BEGINSWITH[cd] 'eco'", "'École' ENDSWITH[cd] 'OLE'", "'École' CONTAINS[cd] 'COL'",
        "'ÉCOLE' IN[cd] {'ecole'}", "'ÉCOLE' MATCHES[c] 'é.*'", "'École' LIKE[cd] 'E*'",
    ])
    func optionScope(format: String) throws {
        #expect(try predicateHolds(format))
    }

    @Test("options on non-string operands are ignored")
    func optionsIgnoredOnNumbers() throws {
        #expect(try predicateHolds("age ==[cd] 34", alice))
        #expect(try predicateHolds("age <[c] 40", alice))
    }

    @Test("[n] means already normalized: no folding is done")
    func normalizedOption() throws {
        #expect(try predicateHolds("'WXYZlan' MATCHES[n] '.*lan'"))
        #expect(try !predicateHolds("'ABC' ==[n] 'abc'"))
        #expect(try !predicateHolds("'ABC' ==[cn] 'abc'"), "[n] supersedes [c]")
    }

    @Test("[l] is accepted as a constant")
    func localeOption() throws {
        let p = try #require(try NSPredicate.parse(format: "a ==[l] 'x'") as? NSComparisonPredicate)
        #expect(p.options.rawValue == 0x08)
        #expect(try predicateHolds("'x' ==[l] 'x'"))
    }

    // MARK: - LIKE, MATCHES, CONTAINS

    @Test("LIKE matches the whole string with * and ? only")
    func likeWildcards() throws {
        #expect(try predicateHolds("'Alice' LIKE 'A*'"))
        #expect(try !predicateHolds("'Alice' LIKE 'lic'"), "anchored")
        #expect(try predicateHolds("'Alice' LIKE '?lic?'"))
        #expect(try !predicateHolds("'Alice' LIKE '?lic'"))
        #expect(try predicateHolds("'' LIKE '*'"))
        #expect(try predicateHolds("'a*b' LIKE 'a\\\\*b'"), "a backslash escapes a wildcard")
        #expect(try !predicateHolds("'axb' LIKE 'a\\\\*b'"))
    }

    @Test("LIKE treats . % _ [ ] ^ as literal characters", arguments: [
        ("a.c", "a.c", true), ("abc", "a.c", false), ("a%c", "a%c", true), ("abc", "a%c", false),
        ("a_c", "a_c", true), ("abc", "a_c", false), ("[a]", "[a]", true), ("a", "[a]", false),
        ("^a", "^a", true), ("a", "^a", false),
    ])
    func likeLiterals(string: String, pattern: String, expected: Bool) throws {
        #expect(try predicateHolds("SELF LIKE %@", string, [pattern]) == expected)
    }

    @Test("LIKE is case-sensitive unless [c]")
    func likeCase() throws {
        #expect(try !predicateHolds("'Alice' LIKE 'a*'"))
        #expect(try predicateHolds("'Alice' LIKE[c] 'a*'"))
    }

    @Test("MATCHES is an ICU regex that must match the entire string")
    func matchesAnchored() throws {
        #expect(try !predicateHolds("'John' MATCHES 'Jo'"))
        #expect(try predicateHolds("'John' MATCHES 'Jo.*'"))
        #expect(try predicateHolds("'John' MATCHES 'Jo\\\\w+'"))
        #expect(try !predicateHolds("'John x' MATCHES 'John|x'"), "alternation stays anchored")
        #expect(try predicateHolds("'john' MATCHES[c] 'JOHN'"))
    }

    @Test("CONTAINS, BEGINSWITH and ENDSWITH are substring tests on strings")
    func substringOperators() throws {
        #expect(try predicateHolds("'Alice' CONTAINS 'lic'"))
        #expect(try predicateHolds("'Alice' BEGINSWITH 'Al'"))
        #expect(try predicateHolds("'Alice' ENDSWITH 'ice'"))
        #expect(try !predicateHolds("'Alice' CONTAINS 'LIC'"))
    }

    @Test("CONTAINS on a collection is a membership test")
    func containsOnCollection() throws {
        #expect(try predicateHolds("tags CONTAINS 'swift'", alice))
        #expect(try !predicateHolds("tags CONTAINS 'sw'", alice))
    }

    @Test("the empty string is never contained, a prefix or a suffix (Foundation's choice)")
    func emptyStringSubstring() throws {
        #expect(try !predicateHolds("'abc' CONTAINS ''"))
        #expect(try !predicateHolds("'abc' BEGINSWITH ''"))
        #expect(try !predicateHolds("'abc' ENDSWITH ''"))
        #expect(try !predicateHolds("'' IN 'abc'"))
    }

    // MARK: - To-many key paths

    @Test("ANY is true if any element matches and false on an empty collection")
    func anyQuantifier() throws {
        #expect(try predicateHolds("ANY projects.hours < 50", alice))
        #expect(try !predicateHolds("ANY projects.hours > 0", bob))
    }

    @Test("ALL requires every element and is vacuously true on an empty collection")
    func allQuantifier() throws {
        #expect(try predicateHolds("ALL projects.hours > 10", alice))
        #expect(try !predicateHolds("ALL projects.hours > 50", alice))
        #expect(try predicateHolds("ALL projects.hours > 1000", bob))
    }

    @Test("NONE is NOT ANY and is true on an empty collection")
    func noneQuantifier() throws {
        #expect(try predicateHolds("NONE projects.hours > 500", alice))
        #expect(try !predicateHolds("NONE projects.hours > 100", alice))
        #expect(try predicateHolds("NONE projects.hours > 0", bob))
    }

    @Test("a bare to-many key path compared as a scalar is an error naming the key path")
    func bareToManyIsRejected() throws {
        do {
            _ = try predicateHolds("projects.hours > 100", alice)
            Issue.record("expected an error")
        } catch {
            #expect((error as NSError).localizedDescription.contains("projects.hours"))
        }
        #expect(throws: (any Error).self) { try predicateHolds("projects.title == 'Orion'", alice) }
        #expect(!NSPredicate(format: "projects.hours > 100").evaluate(with: alice))
    }

    @Test("a collection key path is fine as the collection operand of IN and CONTAINS")
    func collectionOperands() throws {
        #expect(try predicateHolds("'Orion' IN projects.title", alice))
        #expect(try predicateHolds("projects.title CONTAINS 'Orion'", alice))
        #expect(try !predicateHolds("'Rigel' IN projects.title", alice))
    }

    // MARK: - Collection operators

    @Test("@count is the number of elements, 0 when empty")
    func countOperator() throws {
        #expect(try predicateHolds("projects.@count == 2", alice))
        #expect(try predicateHolds("projects.@count == 0", bob))
    }

    @Test("@sum of an empty collection is 0")
    func sumOfEmpty() throws {
        #expect(try predicateHolds("projects.@sum.hours == 0", bob))
    }

    @Test("@avg is a floating-point mean, and nil on an empty collection")
    func averageOperator() throws {
        #expect(try predicateHolds("@avg == 1.5", [1, 2]))
        #expect(try predicateHolds("projects.@avg.hours == nil", bob))
    }

    @Test("@min and @max of an empty collection are nil")
    func minMaxOfEmpty() throws {
        #expect(try predicateHolds("projects.@min.hours == nil AND projects.@max.hours == nil", bob))
        #expect(try predicateHolds("@max == 'b' AND @min == 'a'", ["a", "b"]))
    }

    @Test("collection operators work at the root and after a relationship")
    func operatorPositions() throws {
        #expect(try predicateHolds("@sum.hours == 160", alice.values["projects"]))
        #expect(try predicateHolds("projects.@avg.hours == 80", alice))
    }

    // MARK: - IN

    @Test("IN accepts arrays, sets and dictionaries (their values)")
    func inCollections() throws {
        #expect(try predicateHolds("age IN %@", alice, [[1, 34]]))
        #expect(try predicateHolds("age IN %@", alice, [Set([34, 2])]))
        #expect(try predicateHolds("age IN %@", alice, [["a": 34]]))
        #expect(try predicateHolds("age IN %@", alice, [NSArray(array: [34])]))
    }

    @Test("IN membership is type-strict")
    func inIsTypeStrict() throws {
        #expect(try !predicateHolds("age IN {'34'}", alice))
    }

    @Test("there is no NOT IN operator; NOT (x IN …) works")
    func notIn() throws {
        #expect(formatParseError("age NOT IN {1}") != nil)
        #expect(try predicateHolds("NOT (age IN {1, 2})", alice))
    }

    @Test("IN[c] folds case for string members")
    func inCaseInsensitive() throws {
        #expect(try predicateHolds("name IN[c] {'alice'}", alice))
        #expect(try !predicateHolds("name IN {'alice'}", alice))
    }

    @Test("x IN 'string' is a substring test")
    func inString() throws {
        #expect(try predicateHolds("'lic' IN 'Alice'"))
        #expect(try !predicateHolds("'xyz' IN 'Alice'"))
    }

    // MARK: - Miscellaneous

    @Test("an empty AND is true and an empty OR is false")
    func emptyCompounds() throws {
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: []).evaluate(with: nil))
        #expect(!NSCompoundPredicate(orPredicateWithSubpredicates: []).evaluate(with: nil))
        #expect(try NSCompoundPredicate(andPredicateWithSubpredicates: []).evaluateOrThrow(with: nil))
    }

    @Test("BETWEEN is inclusive on both ends and does not reorder its bounds")
    func betweenSemantics() throws {
        #expect(try predicateHolds("34 BETWEEN {34, 35}"))
        #expect(try predicateHolds("35 BETWEEN {34, 35}"))
        #expect(try !predicateHolds("34 BETWEEN {35, 30}"))
        #expect(try predicateHolds("age BETWEEN %@", alice, [[30, 40]]))
        #expect(throws: (any Error).self) { try predicateHolds("1 BETWEEN {1, 2, 3}") }
    }

    @Test("=< and => are accepted and printed as <= and >=")
    func alternativeSpellings() throws {
        #expect(try NSPredicate.parse(format: "a =< 1 AND b => 2").formattedPredicate == "a <= 1 AND b >= 2")
    }

    @Test("an unbound variable is an evaluation error, not a parse error")
    func unboundVariable() throws {
        let p = try NSPredicate.parse(format: "age > $MIN")
        do {
            _ = try p.evaluateOrThrow(with: alice)
            Issue.record("expected an error")
        } catch {
            #expect((error as NSError).localizedDescription == "Can't get value for 'MIN' in bindings")
        }
        #expect(!p.evaluate(with: alice))
    }

    @Test("substituted values are never re-parsed as syntax")
    func substitutedValuesAreValues() throws {
        let tricky = "x' OR 1 == 1 OR name == '"
        #expect(try predicateHolds("name == %@", ["name": tricky], [tricky]))
        #expect(try !predicateHolds("name == %@", alice, [tricky]))
        #expect(try predicateHolds("name == %@", ["name": "a\"b"], ["a\"b"]))
    }

    @Test("the Swift API takes CVarArg... and argumentArray:")
    func swiftAPIShape() {
        #expect(NSPredicate(format: "age == %d AND name == %@", 34, "Alice").evaluate(with: alice))
        #expect(NSPredicate(format: "age == %@", argumentArray: [34]).evaluate(with: alice))
    }
}
