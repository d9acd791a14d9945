import Testing
@testable import CoreData
import CoreDataTestSupport

/// `predicateFormat` prints canonical syntax that parses back to an equal predicate.
@Suite struct PredicateFormatTests {

    static let roundTrips: [String] = [
        "name == 'Alice'", "age != 3", "age < 3 AND age > 1", "a <= 1 OR b >= 2.5",
        "NOT a == 1", "NOT (a == 1 OR b == 2)", "a == 1 OR b == 2 AND c == 3",
        "(a == 1 OR b == 2) AND c == 3", "(a == 1 AND b == 2) AND c == 3",
        "name BEGINSWITH[c] 'x'", "name ENDSWITH[d] 'y'", "name CONTAINS[cd] 'z'",
        "name LIKE[n] 'a*b?'", "name MATCHES '^[a-z]+\\\\d$'", "name ==[l] 'x'",
        "a IN {1, 2, 3}", "a IN {}", "a BETWEEN {1, 10}", "ANY tags.name == 'x'",
        "ALL projects.hours > 2", "NONE projects.hours > 2", "NOT ANY x == 1",
        "TRUEPREDICATE", "FALSEPREDICATE", "a == nil", "a == TRUE", "a == NO",
        "SELF == 5", "SELF.name == 'x'", "$x == 3", "$x.name == 'y'",
        "projects.@count > 1", "projects.@sum.hours < 100", "@sum.items.price < 1000",
        "a + b * c == 7", "(a + b) * c == 7", "a - (b - c) == 0", "a - b - c == 0",
        "a ** b ** c == 1", "a ** (b ** c) == 1", "-a == 1", "a == -3", "a == -2.5e-07",
        "(-2) ** 2 == 4", "a / b == 1", "list[FIRST] == 1", "list[LAST] == 1",
        "list[SIZE] == 1", "list[2] == 1", "list[i + 1].name == 'x'",
        "SUBQUERY(projects, $p, $p.hours > 5 AND $p.title BEGINSWITH 'a').@count > 0",
        "FUNCTION(SELF, 'foo:bar:', 1, 'x') == 1", "CAST(x, 'NSNumber') == 1",
        "birthday < CAST(725846400.5, 'NSDate')", "TERNARY(a > 1, 'x', 'y') == 'x'",
        "sum(items.price) > 1", "now() > d", "random() < 1", "modulus(a, 2) == 0",
        "sum:(items.price) > 1", "modulus:by:(a, 2) == 0", "uppercase(name) == 'X'", "#size == 1", "a.#first == 1",
        "name == 'quote\" and apostrophe\\' and backslash\\\\'", "name == 'line\\nbreak\\ttab'",
        "name == 'Ünïcödé'", "a UTI-CONFORMS-TO 'public.image'", "a UTI-EQUALS 'public.png'",
        "x == 0x10", "x == 1e3", "{1, 'a', nil} == x", "$v := 3 == 3", "ANYKEY == 1",
        // Found by fuzzing (Tests/Fuzz/crashes): a variable named by a reserved word.
        "NOT (done == $YES) OR price <= 6e-08", "$in == 2",
    ]

    @Test("predicateFormat parses back to an equal predicate", arguments: roundTrips)
    func roundTrip(format: String) throws {
        let parsed = try NSPredicate.parse(format: format)
        let printed = parsed.formattedPredicate
        let reparsed = try NSPredicate.parse(format: printed)
        #expect(parsed == reparsed, "\(format) printed as \(printed)")
        #expect(reparsed.formattedPredicate == printed)
        if parsed is NSComparisonPredicate || parsed is NSCompoundPredicate {
            #expect(parsed.hash == reparsed.hash)
        }
    }

    // Found by fuzzing (Tests/Fuzz/crashes/predicate-crash-adb3…): Foundation's constant
    // predicate describes itself by its address on Linux.
    @Test("description prints the format, TRUEPREDICATE and FALSEPREDICATE included",
          arguments: ["TRUEPREDICATE", "FALSEPREDICATE", "NOT TRUEPREDICATE", "a == 1 AND TRUEPREDICATE", "name BEGINSWITH \"x\""])
    func descriptionIsTheFormat(format: String) throws {
        let predicate = NSPredicate(format: format)
        #expect(predicate.description == format)
        #expect(predicate.formattedPredicate == format)
        #expect(NSPredicate(format: predicate.description) == predicate)
    }

    static func constantArgument(_ index: Int) -> Any {
        let values: [Any] = [
            "x", 42, 4.25, true, NSNull(), Date(timeIntervalSinceReferenceDate: 12.5),
            [1, 2, 3], Set(["a"]), "with \"quotes\" and 'apostrophes'", -7, 1e300,
        ]
        return values[index]
    }

    @Test("round trips keep %@ arguments of every constant kind", arguments: 0..<11)
    func roundTripArguments(index: Int) throws {
        let arguments = [Self.constantArgument(index)]
        let parsed = try NSPredicate.parse(format: "value == %@", arguments: arguments)
        let reparsed = try NSPredicate.parse(format: parsed.formattedPredicate)
        #expect(parsed == reparsed, "\(parsed.formattedPredicate)")
    }

    @Test("canonical printing: ==, !=, <=, >=, upper-case keywords, double quotes")
    func canonicalForms() throws {
        let cases: [(String, String)] = [
            ("a = 1", "a == 1"), ("a <> 1", "a != 1"), ("a =< 1", "a <= 1"), ("a => 1", "a >= 1"),
            ("a beginswith 'x'", "a BEGINSWITH \"x\""), ("a && b == 1 || c == 2", ""),
            ("some x == 1", "ANY x == 1"), ("NONE x == 1", "NOT ANY x == 1"),
            ("a in {1,2}", "a IN {1, 2}"), ("a between {1,2}", "a BETWEEN {1, 2}"),
            ("a ==[dc] 'x'", "a ==[cd] \"x\""), ("! a == 1", "NOT a == 1"),
            ("truepredicate", "TRUEPREDICATE"), ("a == yes", "a == 1"), ("a == NIL", "a == nil"),
            ("a.@count == 1", "a.@count == 1"), ("CAST(0, 'NSDate') == d", "CAST(0.000000, \"NSDate\") == d"),
        ]
        for (input, expected) in cases where !expected.isEmpty {
            #expect(try NSPredicate.parse(format: input).formattedPredicate == expected)
        }
        // predicateFormat itself, read through the subclass (Foundation deprecates
        // NSPredicate's on Linux, so reading it through NSPredicate warns).
        let comparison = try #require(NSPredicate(format: "a = 1") as? CoreData.NSComparisonPredicate)
        #expect(comparison.predicateFormat == "a == 1")
    }

    @Test("structurally equal predicates are equal and hash alike; different ones are not")
    func structuralEquality() throws {
        let a = try NSPredicate.parse(format: "age == 34 AND name ==[c] 'x'")
        let b = try NSPredicate.parse(format: "age = 34.0 && name ==[c] \"x\"")
        #expect(a == b)
        #expect(a.hash == b.hash)
        #expect(a != (try NSPredicate.parse(format: "age == 34 AND name == 'x'")))
        #expect(a != (try NSPredicate.parse(format: "age == 34 OR name ==[c] 'x'")))
        #expect(try NSPredicate.parse(format: "a == 1") != NSPredicate.parse(format: "a == '1'"))
    }

    @Test("Foundation's own compound predicates print correctly through the formatter")
    func foundationCompoundFormat() throws {
        let compound = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSPredicate(format: "a == 1"), NSCompoundPredicate(notPredicateWithSubpredicate: NSPredicate(format: "b == 2")),
        ])
        #expect(compound.formattedPredicate == "a == 1 AND (NOT b == 2)")
        let outer = try NSPredicate.parse(format: "c == 3 OR %@ == 1", arguments: [1])
        #expect(outer.formattedPredicate == "c == 3 OR 1 == 1")
    }

    @Test("description is the predicate format")
    func descriptionIsFormat() throws {
        let p = try NSPredicate.parse(format: "a > 1")
        #expect(p.description == "a > 1")
        #expect(NSExpression(forKeyPath: "a.b").description == "a.b")
    }

    @Test("compound predicates parenthesize their compound subpredicates, as Apple prints them")
    func compoundParentheses() throws {
        let cases: [(String, String)] = [
            ("(a == 10 AND b == 30) AND c == 1", "(a == 10 AND b == 30) AND c == 1"),
            ("a == 10 AND b == 30 AND c == 1", "a == 10 AND b == 30 AND c == 1"),
            ("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
            ("a == 1 AND NOT b == 2", "a == 1 AND (NOT b == 2)"),
            ("NOT (a == 1 OR b == 2)", "NOT (a == 1 OR b == 2)"),
            ("NOT NOT a == 1", "NOT (NOT a == 1)"),
            ("NOT a == 1", "NOT a == 1"),
            ("(a == 1)", "a == 1"),
        ]
        for (input, expected) in cases {
            let predicate = NSPredicate(format: input)
            #expect(predicate.description == expected, "\(input)")
            #expect(NSPredicate(format: predicate.description) == predicate)
        }
        // Two predicates combined, as predicate-builder libraries combine them.
        let first = NSPredicate(format: "title == %@ && birthdate == %@", "The Almighty Kraken", "October 4")
        let second = NSPredicate(format: "isAwesome == true && isHungry == true")
        let both = NSPredicate(format: "(\(first)) AND (\(second))")
        #expect(both.description == #"(title == "The Almighty Kraken" AND birthdate == "October 4") AND (isAwesome == 1 AND isHungry == 1)"#)
    }

    @Test("constants print as Apple prints them: numbers, booleans, dates, strings, objects")
    func constantsAsApplePrintsThem() throws {
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let cases: [(NSPredicate, String)] = [
            (NSPredicate(format: "a == %@", NSNumber(value: 3.0)), "a == 3"),
            (NSPredicate(format: "a == %@", NSNumber(value: 2.5)), "a == 2.5"),
            (NSPredicate(format: "a == %@", argumentArray: [true]), "a == 1"),
            (NSPredicate(format: "a == %@", Date(timeIntervalSinceReferenceDate: 12.5)), #"a == CAST(12.500000, "NSDate")"#),
            (NSPredicate(format: "a == %@", "say \"hi\" \\ bye"), #"a == "say \"hi\" \\ bye""#),
            (NSPredicate(format: "a IN %@", ["x", "y"]), #"a IN {"x", "y"}"#),
            (NSPredicate(format: "a == %@", uuid as CVarArg), "a == E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
            (NSPredicate(format: "a == %@", URL(string: "https://example.com/x")! as CVarArg), "a == https://example.com/x"),
            (NSPredicate(format: "a == %@", Data([1, 2, 255])), "a == {length = 3, bytes = 0x0102ff}"),
            (NSPredicate(format: "a == nil"), "a == nil"),
            (NSPredicate(format: "a + b * c == 7"), "a + (b * c) == 7"),
            (NSPredicate(format: "(a + b) * c == 7"), "(a + b) * c == 7"),
            (NSPredicate(format: "sum(items.price) > 1"), "sum:(items.price) > 1"),
            (NSPredicate(format: "now() > d"), "now() > d"),
            (NSPredicate(format: "bitwiseAnd(a, 3) == 1"), "a & 3 == 1"),
            (NSPredicate(format: "FUNCTION(SELF, 'foo:bar:', 1, 'x') == 1"), #"FUNCTION(SELF, foo:bar: , 1, "x") == 1"#),
        ]
        for (predicate, expected) in cases {
            #expect(predicate.description == expected)
        }
        // Apple's FUNCTION spelling, with its bare selector, parses back.
        let function = NSPredicate(format: "FUNCTION(SELF, 'foo:bar:', 1, 'x') == 1")
        #expect(NSPredicate(format: function.description) == function)
    }

    @Test("a predicate holding an object ID prints the ID as its description")
    func objectIDsPrintByDescription() throws {
        let stack = try TestStack()
        let item = stack.insertItem("Soap")
        try stack.context.save()
        let predicate = NSPredicate(format: "SELF == %@", item.objectID)
        #expect(predicate.description == "SELF == \(item.objectID)")
    }
}
