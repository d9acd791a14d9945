import Testing
@testable import CoreData

@Suite struct NSSortDescriptorTests {

    @Test("init(key:ascending:) keeps the key, direction and compare: selector")
    func keyAndSelector() {
        let d = NSSortDescriptor(key: "name", ascending: false)
        #expect(d.key == "name")
        #expect(!d.ascending)
        #expect(d.selector == Selector("compare:"))
        let c = NSSortDescriptor(key: "name", ascending: true, selector: Selector("caseInsensitiveCompare:"))
        #expect(c.selector?.name == "caseInsensitiveCompare:")
    }

    @Test("compares key path values, with nil first when ascending (as SQLite)")
    func nilFirst() {
        let d = NSSortDescriptor(key: "n", ascending: true)
        #expect(d.compare(["n": 1], ["n": 2]) == .orderedAscending)
        #expect(d.compare(["n": NSNull()], ["n": 2]) == .orderedAscending)
        #expect(d.compare([String: Any](), ["n": 0]) == .orderedAscending)
        #expect(d.compare(["n": 2.5], ["n": 2]) == .orderedDescending)
        let down = NSSortDescriptor(key: "n", ascending: false)
        #expect(down.compare(["n": NSNull()], ["n": 2]) == .orderedDescending)
    }

    @Test("compare: is code-point order, caseInsensitiveCompare: folds case")
    func stringSelectors() {
        let plain = NSSortDescriptor(key: nil, ascending: true)
        #expect(plain.compare("Zed", "apple") == .orderedAscending)
        let folded = NSSortDescriptor(key: nil, ascending: true, selector: Selector("caseInsensitiveCompare:"))
        #expect(folded.compare("Zed", "apple") == .orderedDescending)
        #expect(folded.compare("ABC", "abc") == .orderedSame)
    }

    @Test("localized selectors use Foundation's localized comparisons")
    func localizedSelectors() {
        let standard = NSSortDescriptor(key: nil, ascending: true, selector: Selector("localizedStandardCompare:"))
        #expect(standard.compare("file9", "file10") == .orderedAscending)
        let localized = NSSortDescriptor(key: nil, ascending: true, selector: Selector("localizedCompare:"))
        #expect(localized.compare("a", "B") == .orderedAscending)
        let insensitive = NSSortDescriptor(key: nil, ascending: true, selector: Selector("localizedCaseInsensitiveCompare:"))
        #expect(insensitive.compare("a", "A") == .orderedSame)
    }

    @Test("numbers and dates compare by value; mixed kinds still order totally")
    func valueKinds() {
        let d = NSSortDescriptor(key: nil, ascending: true)
        #expect(d.compare(2, 10.5) == .orderedAscending)
        #expect(d.compare(Date(timeIntervalSinceReferenceDate: 5), Date(timeIntervalSinceReferenceDate: 1)) == .orderedDescending)
        #expect(d.compare(1, "a") == .orderedAscending)
        #expect(d.compare("a", 1) == .orderedDescending)
    }

    @Test("sorting by several descriptors is stable and reads key paths")
    func sortHelper() {
        let people = [
            TestPerson(["name": "b", "age": 2, "department": ["name": "Y"]]),
            TestPerson(["name": "a", "age": 2, "department": ["name": "X"]]),
            TestPerson(["name": "c", "age": 1]),
            TestPerson(["name": "d", "age": 2, "department": ["name": "X"]]),
        ]
        let sorted = NSSortDescriptor.sort(people, by: [
            NSSortDescriptor(key: "age", ascending: false),
            NSSortDescriptor(key: "department.name", ascending: true),
        ])
        #expect(sorted.map { $0.values["name"] as? String } == ["a", "d", "b", "c"])
        #expect(NSSortDescriptor.sort([3, 1, 2], by: []) == [3, 1, 2])
    }

    @Test("reversedSortDescriptor flips the direction and keeps the key")
    func reversed() throws {
        let d = NSSortDescriptor(key: "n", ascending: true)
        let r = try #require(d.reversedSortDescriptor as? NSSortDescriptor)
        #expect(r.key == "n" && !r.ascending)
        #expect(r.compare(["n": 1], to: ["n": 2]) == .orderedDescending)
    }

    @Test("descriptors with the same key, direction and selector are equal")
    func equality() {
        #expect(NSSortDescriptor(key: "a", ascending: true) == NSSortDescriptor(key: "a", ascending: true))
        #expect(NSSortDescriptor(key: "a", ascending: true) != NSSortDescriptor(key: "a", ascending: false))
    }
}
