import Foundation
@testable import CoreData
import CoreDataTestSupport

/// Random predicates over ``DifferentialModel``: every operator with and without `[c]`,
/// `[d]`, `[cd]`, NULLs, non-ASCII text, numbers of both kinds, dates, UUIDs, binary data,
/// URIs, to-one and to-many key paths, quantifiers, collection operators, SUBQUERY,
/// arithmetic, objects and object IDs (alone, in arrays and sets), Foundation's reference
/// types (NSNumber, NSDate, NSUUID, NSArray), expressions and nil as arguments, compounds,
/// and a few predicates that must fail (to-many used as a scalar, type errors).
struct PredicateGenerator {
    /// An argument for `%@`: a value, or objects named by serial (resolved per context).
    enum Argument {
        case value(Any?)
        case object(entity: String, serial: Int64)
        case objects(entity: String, serials: [Int64])
        /// The object ID of the object with this serial (NSNull when there is none).
        case objectID(entity: String, serial: Int64)
        /// Object IDs, as an array or as a set.
        case objectIDs(entity: String, serials: [Int64], asSet: Bool)
    }

    var random: SplitMix64
    var maxSerial: Int64

    mutating func predicate(depth: Int = 0) -> (String, [Argument]) {
        let roll = random.next(10)
        if depth < 3 && roll < 3 {
            let (a, x) = predicate(depth: depth + 1), (b, y) = predicate(depth: depth + 1)
            return ("(\(a)) \(random.next(2) == 0 ? "AND" : "OR") (\(b))", x + y)
        }
        if depth < 3 && roll == 3 {
            let (a, x) = predicate(depth: depth + 1)
            return ("NOT (\(a))", x)
        }
        return comparison()
    }

    private static let options = ["", "[c]", "[d]", "[cd]", "[n]"]
    private static let orderings = ["==", "!=", "<", "<=", ">", ">="]
    private static let likePatterns = ["*a*", "?ob", "a*", "*é*", "Å*", "x\\*y*", "*", "", "*%*", "[x]", "b?b"]
    private static let regexes = ["a.*", "[A-Z].*", ".*ö.*", "b|B.*", "bo", ".*", "\\[x\\]", "[a-z]+"]

    private mutating func text() -> Any? { DifferentialModel.texts[random.next(DifferentialModel.texts.count)] }
    private mutating func texts() -> [Any] { (0..<random.next(4)).map { _ in text() ?? NSNull() } }
    private mutating func number() -> Any? {
        switch random.next(6) {
        case 0: return nil
        case 1: return Double(random.next(120)) / 4 - 3
        case 2: return random.next(2) == 0
        default: return random.next(60) - 5
        }
    }
    private mutating func option() -> String { random.pick(Self.options) }

    mutating func comparison() -> (String, [Argument]) {
        switch random.next(23) {
        case 0, 1:  // strings against constants
            let key = random.pick(["name", "nickname", "team.title"])
            let op = random.pick(Self.orderings + ["BEGINSWITH", "ENDSWITH", "CONTAINS"])
            return ("\(key) \(op)\(option()) %@", [.value(text())])
        case 2:
            let key = random.pick(["name", "nickname", "team.title"])
            if random.next(2) == 0 {
                return ("\(key) LIKE\(option()) %@", [.value(random.pick(Self.likePatterns))])
            }
            return ("\(key) MATCHES\(option()) %@", [.value(random.pick(Self.regexes))])
        case 3:  // string against string column, IN and BETWEEN
            switch random.next(4) {
            case 0: return ("name \(random.pick(Self.orderings + ["BEGINSWITH", "CONTAINS", "LIKE"]))\(option()) nickname", [])
            case 1: return ("name IN\(option()) %@", [.value(texts())])
            case 2: return ("%@ IN\(option()) name", [.value(text())])
            default:
                let a = text() ?? "a", b = text() ?? "z"
                return ("nickname BETWEEN %@", [.value([a, b])])
            }
        case 4, 5:  // numbers
            let key = random.pick(["age", "score", "team.rank", "serial", "active"])
            switch random.next(5) {
            case 0: return ("\(key) IN %@", [.value((0..<random.next(4)).map { _ in number() ?? NSNull() })])
            case 1: return ("\(key) BETWEEN %@", [.value([number() ?? 0, number() ?? 10])])
            case 2: return ("\(key) \(random.pick(["==", "!="])) %@", [.value(random.next(3) == 0 ? text() : number())])
            default: return ("\(key) \(random.pick(Self.orderings)) %@", [.value(number())])
            }
        case 6:
            let date = random.next(5) == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(random.next(10)) * 86_400)
            return ("born \(random.pick(Self.orderings)) %@", [.value(date)])
        case 7:
            let token: Any? = random.next(3) == 0 ? nil : random.pick(DifferentialModel.uuids)
            return ("token \(random.pick(["==", "!="])) %@", [.value(token)])
        case 8:  // objects
            switch random.next(4) {
            case 0: return ("team == %@", [.object(entity: "Team", serial: Int64(random.next(6)) + 1)])
            case 1: return ("team \(random.pick(["==", "!="])) nil", [])
            case 2: return ("team IN %@", [.objects(entity: "Team", serials: [1, 3, Int64(random.next(5) + 1)])])
            default: return ("SELF IN %@", [.objects(entity: "Person", serials: (0..<5).map { _ in Int64(random.next(Int(maxSerial))) + 1 })])
            }
        case 9, 10:  // quantifiers
            let quantifier = random.pick(["ANY", "ALL", "NONE", "SOME"])
            if random.next(2) == 0 {
                let key = random.pick(["pets.name", "clubs.name", "pets.owner.nickname"])
                let op = random.pick(Self.orderings + ["BEGINSWITH", "CONTAINS", "LIKE"])
                return ("\(quantifier) \(key) \(op)\(option()) %@", [.value(op == "LIKE" ? random.pick(Self.likePatterns) : text())])
            }
            return ("\(quantifier) pets.legs \(random.pick(Self.orderings)) %@", [.value(number())])
        case 11, 12:  // collection operators
            let key = random.pick(["pets.@count", "clubs.@count", "pets.@sum.legs", "pets.@avg.legs",
                                   "pets.@max.legs", "pets.@min.legs", "team.people.@count", "clubs.@max.name"])
            let value: Any? = key.hasSuffix("name") ? text() : number()
            return ("\(key) \(random.pick(Self.orderings)) %@", [.value(value)])
        case 13:
            let inner = random.pick(["$p.legs > 1", "$p.name BEGINSWITH[c] 'a'", "legs == nil",
                                     "$p.legs >= 2 AND NOT ($p.name CONTAINS[cd] 'o')", "$p.owner.age > 20"])
            return ("SUBQUERY(pets, $p, \(inner)).@count \(random.pick(Self.orderings)) %@", [.value(random.next(3))])
        case 14:  // membership in to-many
            switch random.next(3) {
            case 0: return ("pets CONTAINS %@", [.object(entity: "Pet", serial: Int64(random.next(Int(maxSerial))) + 1)])
            case 1: return ("%@ IN clubs", [.object(entity: "Club", serial: Int64(random.next(4)) + 6)])
            default: return ("clubs.name CONTAINS\(option()) %@", [.value(text())])
            }
        case 15:  // arithmetic
            let expression = random.pick(["age + 1", "score * 2", "age - score", "score / 2", "age * age",
                                          "2 + 3", "-age", "born + 86400"])
            if expression.hasPrefix("born") {
                return ("\(expression) > %@", [.value(Date(timeIntervalSinceReferenceDate: Double(random.next(10)) * 86_400))])
            }
            return ("\(expression) \(random.pick(Self.orderings)) %@", [.value(number())])
        case 16:  // constants and booleans
            return (random.pick(["TRUEPREDICATE", "FALSEPREDICATE", "active == YES", "active == NO",
                                 "1 == 1", "'a' == 'b'", "active != nil"]), [])
        case 17:  // must fail in both back ends: to-many as a scalar, ordering across types
            return (random.pick(["pets.name == 'bob'", "clubs.name BEGINSWITH 'a'", "name > 3",
                                 "age < 'bob'"]), [])
        case 19:  // object IDs stand for their objects
            let people = (0..<4).map { _ in Int64(random.next(Int(maxSerial))) + 1 }
            switch random.next(5) {
            case 0: return ("team \(random.pick(["==", "!="])) %@", [.objectID(entity: "Team", serial: Int64(random.next(6)) + 1)])
            case 1: return ("SELF IN %@", [.objectIDs(entity: "Person", serials: people, asSet: random.next(2) == 0)])
            case 2: return ("team IN %@", [.objectIDs(entity: "Team", serials: [2, Int64(random.next(5) + 1)], asSet: true)])
            case 3: return ("pets CONTAINS %@", [.objectID(entity: "Pet", serial: people[0])])
            default: return ("%@ IN clubs", [.objectID(entity: "Club", serial: Int64(random.next(4)) + 6)])
            }
        case 20:  // binary data and URIs
            let data: Any? = random.next(5) == 0 ? nil : random.pick(DifferentialModel.datas)
            let url: Any? = random.next(5) == 0 ? nil : random.pick(DifferentialModel.urls)
            switch random.next(4) {
            case 0: return ("avatar \(random.pick(["==", "!="])) %@", [.value(data)])
            case 1: return ("homepage \(random.pick(["==", "!="])) %@", [.value(url)])
            case 2: return ("avatar IN %@", [.value([random.pick(DifferentialModel.datas), random.pick(DifferentialModel.datas)])])
            default: return ("homepage IN %@", [.value(Set([random.pick(DifferentialModel.urls), random.pick(DifferentialModel.urls)]))])
            }
        case 21:  // Foundation's reference types, as Apple code passes them
            switch random.next(5) {
            case 0: return ("age \(random.pick(Self.orderings)) %@", [.value(NSNumber(value: random.next(60) - 5))])
            case 1: return ("born \(random.pick(Self.orderings)) %@", [.value(NSDate(timeIntervalSinceReferenceDate: Double(random.next(10)) * 86_400))])
            case 2: return ("token == %@", [.value(random.pick(DifferentialModel.uuids) as NSUUID)])
            case 3: return ("name IN\(option()) %@", [.value(NSArray(array: texts()))])
            default: return ("nickname IN %@", [.value(Set(texts().compactMap { $0 as? String }))])
            }
        case 22:  // expressions and nil as arguments
            switch random.next(3) {
            case 0: return ("%@ \(random.pick(Self.orderings)) %@", [.value(NSExpression(forKeyPath: random.pick(["age", "score", "team.rank"]))), .value(number() ?? 0)])
            case 1: return ("nickname \(random.pick(["==", "!="])) %@", [.value(NSNull())])
            default: return ("born == %@", [.value(Optional<Date>.none as Any)])
            }
        default:  // paths beyond SQL (two to-many steps): memory only, still equal
            return ("ANY clubs.members.name ==\(option()) %@", [.value(text())])
        }
    }
}
