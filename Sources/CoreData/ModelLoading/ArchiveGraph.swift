import Foundation

/// An `NSKeyedArchiver` archive read as data: the `$objects` table, with each object's class
/// and fields, references left as object numbers.
///
/// This is how compiled models (`.mom`) and `Z_MODELCACHE` are read: the object graph of a
/// model is full of cycles, which swift-corelibs-foundation's `NSKeyedUnarchiver` cannot
/// decode, so descriptions are built by ``CompiledModelReader`` from the fields directly.
struct ArchiveGraph {
    let objects: [PropertyListValue]
    let rootIndex: Int

    /// - Throws: ``PropertyListFormatError`` when `data` is not a keyed archive.
    init(_ data: Data) throws {
        guard case .dictionary(let top) = try BinaryPropertyList.decode(data) else {
            throw PropertyListFormatError("the property list is not a keyed archive")
        }
        guard top["$archiver"]?.string == "NSKeyedArchiver",
              let objects = top["$objects"]?.array,
              let root = top["$top"]?.dictionary?["root"]?.uid,
              root > 0, root < objects.count else {
            throw PropertyListFormatError("the property list is not an NSKeyedArchiver archive with a root object")
        }
        self.objects = objects
        self.rootIndex = root
    }

    /// The root object.
    func root() throws -> ArchivedObject {
        guard let object = try object(at: rootIndex) else {
            throw PropertyListFormatError("the archive's root object is empty")
        }
        return object
    }

    /// The archived object numbered `index`; nil for `$null` (number 0) and for plain values.
    func object(at index: Int) throws -> ArchivedObject? {
        guard index > 0 else { return nil }
        guard index < objects.count else {
            throw PropertyListFormatError("a reference to archived object \(index), which does not exist")
        }
        guard case .dictionary(let fields) = objects[index], fields["$classname"] == nil else { return nil }
        guard let classIndex = fields["$class"]?.uid, classIndex < objects.count,
              case .dictionary(let info) = objects[classIndex],
              let className = info["$classname"]?.string else {
            throw PropertyListFormatError("archived object \(index) has no class")
        }
        let chain = info["$classes"]?.array?.compactMap(\.string) ?? [className]
        return ArchivedObject(archive: self, index: index, fields: fields, className: className, classes: chain)
    }

    /// What `value` stands for: a referenced entry of `$objects`, or the value itself.
    func resolve(_ value: PropertyListValue) throws -> PropertyListValue? {
        guard case .uid(let index) = value else { return value }
        guard index > 0 else { return nil }
        guard index < objects.count else {
            throw PropertyListFormatError("a reference to archived object \(index), which does not exist")
        }
        return objects[index]
    }
}

/// One object of a ``ArchiveGraph``: its class and its fields.
struct ArchivedObject {
    let archive: ArchiveGraph
    let index: Int
    let fields: [String: PropertyListValue]
    let className: String
    /// The class and its superclasses, as archived.
    let classes: [String]

    func isKind(of name: String) -> Bool { classes.contains(name) }

    /// The field `key`, references followed; nil when absent or `$null`.
    func field(_ key: String) throws -> PropertyListValue? {
        guard let value = fields[key] else { return nil }
        return try archive.resolve(value)
    }

    func object(_ key: String) throws -> ArchivedObject? {
        guard let value = fields[key], case .uid(let index) = value else { return nil }
        return try archive.object(at: index)
    }

    func string(_ key: String) throws -> String? {
        guard let value = fields[key] else { return nil }
        return try archive.string(value)
    }

    func integer(_ key: String) throws -> Int64? {
        switch try field(key) {
        case .integer(let value)?: return value
        case .bool(let flag)?: return flag ? 1 : 0
        case .real(let value)?: return Int64(exactly: value.rounded())
        default: return nil
        }
    }

    func bool(_ key: String) throws -> Bool {
        switch try field(key) {
        case .bool(let flag)?: return flag
        case .integer(let value)?: return value != 0
        default: return false
        }
    }

    /// The members of an archived `NSArray`/`NSSet` (and their mutable kinds), in order.
    func members(_ key: String) throws -> [PropertyListValue] {
        guard let collection = try object(key) else { return [] }
        return try collection.members()
    }

    func members() throws -> [PropertyListValue] {
        guard let items = fields["NS.objects"]?.array else {
            throw PropertyListFormatError("archived \(className) \(index) is not an array or set")
        }
        return items
    }

    /// The entries of an archived dictionary: `NSDictionary`, `NSMutableDictionary`, or the
    /// `NSKnownKeysDictionary1` Core Data writes for a model's entities.
    func entries(_ key: String) throws -> [(key: PropertyListValue, value: PropertyListValue)] {
        guard let dictionary = try object(key) else { return [] }
        return try dictionary.entries()
    }

    func entries() throws -> [(key: PropertyListValue, value: PropertyListValue)] {
        if let keys = fields["NS.keys"]?.array, let values = fields["NS.objects"]?.array, keys.count == values.count {
            return Array(zip(keys, values)).map { (key: $0.0, value: $0.1) }
        }
        if let mapping = try object("searchMapping"), let values = try object("values") {
            let keys = try mapping.members("keys")
            let items = try values.members()
            let empty = try string("emptyToken")
            var result: [(key: PropertyListValue, value: PropertyListValue)] = []
            for (key, value) in zip(keys, items) {
                if let empty, try archive.string(value) == empty { continue }
                result.append((key: key, value: value))
            }
            return result
        }
        throw PropertyListFormatError("archived \(className) \(index) is not a dictionary")
    }
}

extension ArchiveGraph {
    /// An archived string: a plain string entry or an `NSString`/`NSMutableString` object.
    func string(_ value: PropertyListValue) throws -> String? {
        switch try resolve(value) {
        case .string(let text)?: return text == "$null" ? nil : text
        case .dictionary(let fields)?:
            if let text = fields["NS.string"] { return try string(text) }
            if case .data(let bytes)? = fields["NS.bytes"] { return String(decoding: bytes, as: UTF8.self) }
            return nil
        default: return nil
        }
    }

    /// An archived plain value as Foundation's type: strings, numbers, dates, data, UUIDs,
    /// URLs, decimal numbers, arrays, sets and dictionaries of those; nil for `$null` and for
    /// objects of other classes (an app's own value classes cannot be rebuilt here).
    func plainValue(_ value: PropertyListValue, depth: Int = 0) throws -> Any? {
        guard depth < 64 else { throw PropertyListFormatError("archived values nest too deeply") }
        guard let resolved = try resolve(value) else { return nil }
        switch resolved {
        case .string(let text): return text == "$null" ? nil : text
        case .integer(let number): return NSNumber(value: number)
        case .real(let number): return NSNumber(value: number)
        case .bool(let flag): return NSNumber(value: flag)
        case .data(let bytes): return bytes
        case .date(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        case .uid, .array: return nil
        case .dictionary:
            guard case .uid(let index) = value, let object = try self.object(at: index) else { return nil }
            return try plainValue(of: object, depth: depth)
        }
    }

    private func plainValue(of object: ArchivedObject, depth: Int) throws -> Any? {
        switch object.className {
        case "NSString", "NSMutableString": return try string(.uid(object.index))
        case "NSDate": return (try object.field("NS.time")).flatMap(Self.double).map(Date.init(timeIntervalSinceReferenceDate:))
        case "NSData", "NSMutableData":
            if case .data(let bytes)? = try object.field("NS.data") ?? object.field("NS.bytes") { return bytes }
            return nil
        case "NSUUID":
            guard case .data(let bytes)? = try object.field("NS.uuidbytes"), bytes.count == 16 else { return nil }
            let b = [UInt8](bytes)
            return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                               b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
        case "NSURL":
            guard let relative = try object.string("NS.relative") else { return nil }
            if let base = try object.object("NS.base"), let baseURL = try plainValue(of: base, depth: depth + 1) as? URL {
                return URL(string: relative, relativeTo: baseURL)
            }
            return URL(string: relative)
        case "NSDecimalNumber", "NSDecimalNumberPlaceholder":
            return try decimal(object)
        case "NSNumber":
            return try object.field("NS.intval").flatMap(Self.double).map { NSNumber(value: $0) }
        case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
            return try object.members().map { try plainValue($0, depth: depth + 1) ?? NSNull() }
        case "NSDictionary", "NSMutableDictionary", "NSKnownKeysDictionary1":
            var result: [AnyHashable: Any] = [:]
            for (key, value) in try object.entries() {
                guard let key = try plainValue(key, depth: depth + 1) as? AnyHashable else { continue }
                result[key] = try plainValue(value, depth: depth + 1) ?? NSNull()
            }
            return result
        default:
            return nil
        }
    }

    private static func double(_ value: PropertyListValue) -> Double? {
        switch value {
        case .real(let number): return number
        case .integer(let number): return Double(number)
        default: return nil
        }
    }

    /// `NSDecimalNumber`'s archive: a little-endian mantissa of up to 16 bytes, an exponent
    /// and a sign.
    private func decimal(_ object: ArchivedObject) throws -> Decimal? {
        guard case .data(let bytes)? = try object.field("NS.mantissa") else { return nil }
        let exponent = Int(try object.integer("NS.exponent") ?? 0)
        let negative = try object.bool("NS.negative")
        var mantissa = Decimal(0)
        for byte in bytes.reversed() { mantissa = mantissa * 256 + Decimal(Int(byte)) }
        var result = Decimal(sign: negative ? .minus : .plus, exponent: exponent, significand: mantissa)
        if try object.bool("NS.compact") == false, bytes.isEmpty { result = .nan }
        return result
    }
}

// MARK: - Writing

/// Builds an `NSKeyedArchiver` archive the way Apple's archiver lays one out: `$null` first,
/// each object once (shared objects and equal strings referenced by number), class entries
/// after their first instance, `{"root": UID}` on top.
struct KeyedArchiveBuilder {
    private(set) var objects: [PropertyListValue] = [.string("$null")]
    private var classIndexes: [String: Int] = [:]
    private var stringIndexes: [String: Int] = [:]
    private var objectIndexes: [ObjectIdentifier: Int] = [:]

    // Computed, not a stored global: an indirect enum case in a global is a heap box whose
    // tagged pointer LeakSanitizer cannot see, and reports as a leak (the C harness).
    /// `$null`: what an absent object field holds.
    static var null: PropertyListValue { .uid(0) }

    /// A reference to `text` (each distinct string is archived once).
    mutating func string(_ text: String?) -> PropertyListValue {
        guard let text else { return Self.null }
        if let index = stringIndexes[text] { return .uid(index) }
        objects.append(.string(text))
        stringIndexes[text] = objects.count - 1
        return .uid(objects.count - 1)
    }

    /// The number reserved for `object`, and whether it was new (its fields still to be set).
    mutating func reserve(_ object: AnyObject) -> (reference: PropertyListValue, isNew: Bool) {
        let id = ObjectIdentifier(object)
        if let index = objectIndexes[id] { return (.uid(index), false) }
        objects.append(.string("$null"))
        objectIndexes[id] = objects.count - 1
        return (.uid(objects.count - 1), true)
    }

    /// A new anonymous object (a collection, a value) with its fields.
    mutating func add(className: String, classes: [String], fields: [String: PropertyListValue]) -> PropertyListValue {
        objects.append(.string("$null"))
        let index = objects.count - 1
        set(.uid(index), className: className, classes: classes, fields: fields)
        return .uid(index)
    }

    /// Fills a reserved object.
    mutating func set(
        _ reference: PropertyListValue, className: String, classes: [String], fields: [String: PropertyListValue]
    ) {
        guard case .uid(let index) = reference else { return }
        var fields = fields
        fields["$class"] = classReference(className, classes: classes)
        objects[index] = .dictionary(fields)
    }

    private mutating func classReference(_ name: String, classes: [String]) -> PropertyListValue {
        if let index = classIndexes[name] { return .uid(index) }
        objects.append(.dictionary(["$classname": .string(name), "$classes": .array(classes.map(PropertyListValue.string))]))
        classIndexes[name] = objects.count - 1
        return .uid(objects.count - 1)
    }

    // MARK: Collections and values

    mutating func array(_ items: [PropertyListValue], mutable: Bool = false) -> PropertyListValue {
        add(className: mutable ? "NSMutableArray" : "NSArray",
            classes: mutable ? ["NSMutableArray", "NSArray", "NSObject"] : ["NSArray", "NSObject"],
            fields: ["NS.objects": .array(items)])
    }

    mutating func set(_ items: [PropertyListValue]) -> PropertyListValue {
        add(className: "NSSet", classes: ["NSSet", "NSObject"], fields: ["NS.objects": .array(items)])
    }

    mutating func dictionary(
        _ entries: [(key: PropertyListValue, value: PropertyListValue)], mutable: Bool = false
    ) -> PropertyListValue {
        add(className: mutable ? "NSMutableDictionary" : "NSDictionary",
            classes: mutable ? ["NSMutableDictionary", "NSDictionary", "NSObject"] : ["NSDictionary", "NSObject"],
            fields: ["NS.keys": .array(entries.map(\.key)), "NS.objects": .array(entries.map(\.value))])
    }

    /// A plain Foundation value, as Apple's archiver writes it; nil for values it has no
    /// archived form for here.
    mutating func value(_ value: Any?) -> PropertyListValue {
        guard let value else { return Self.null }
        // Native Swift values first: Foundation bridges them all to NSNumber, which would
        // blur a Bool and an Int.
        let type = Swift.type(of: value)
        if type == Bool.self, let flag = value as? Bool { return appendPlain(.bool(flag)) }
        if type == Double.self, let number = value as? Double { return appendPlain(.real(number)) }
        if type == Float.self, let number = value as? Float { return appendPlain(.real(Double(number))) }
        if type == Decimal.self, let number = value as? Decimal { return decimal(number) }
        if let number = value as? NSDecimalNumber, type is NSDecimalNumber.Type { return decimal(number.decimalValue) }
        switch value {
        case let text as String: return string(text)
        case let number as any BinaryInteger: return appendPlain(.integer(Int64(clamping: number)))
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": return appendPlain(.bool(number.boolValue))
            case "d", "f": return appendPlain(.real(number.doubleValue))
            default: return appendPlain(.integer(number.int64Value))
            }
        case let date as Date:
            return add(className: "NSDate", classes: ["NSDate", "NSObject"],
                       fields: ["NS.time": .real(date.timeIntervalSinceReferenceDate)])
        case let data as Data:
            return add(className: "NSData", classes: ["NSData", "NSObject"], fields: ["NS.data": .data(data)])
        case let uuid as UUID:
            let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
            return add(className: "NSUUID", classes: ["NSUUID", "NSObject"], fields: ["NS.uuidbytes": .data(bytes)])
        case let url as URL:
            return add(className: "NSURL", classes: ["NSURL", "NSObject"],
                       fields: ["NS.base": Self.null, "NS.relative": string(url.absoluteString)])
        case let items as [Any]:
            let members = items.map { self.value($0) }
            return array(members)
        case let entries as [AnyHashable: Any]:
            let sorted = entries.sorted { "\($0.key)" < "\($1.key)" }
            let pairs = sorted.map { (key: self.value($0.key.base), value: self.value($0.value)) }
            return dictionary(pairs)
        default:
            return Self.null
        }
    }

    private mutating func appendPlain(_ value: PropertyListValue) -> PropertyListValue {
        objects.append(value)
        return .uid(objects.count - 1)
    }

    /// `NSDecimalNumber`'s archived form: the significand as little-endian bytes, the
    /// exponent and the sign.
    private mutating func decimal(_ decimal: Decimal) -> PropertyListValue {
        // The significand's decimal digits, divided by 256 repeatedly.
        var digits = "\(decimal.significand.magnitude)".compactMap { $0.wholeNumberValue }
        var mantissa: [UInt8] = []
        while !(digits.isEmpty || digits.allSatisfy { $0 == 0 }) {
            var quotient: [Int] = []
            var remainder = 0
            for digit in digits {
                let current = remainder * 10 + digit
                quotient.append(current / 256)
                remainder = current % 256
            }
            mantissa.append(UInt8(remainder))
            digits = Array(quotient.drop { $0 == 0 })
        }
        if mantissa.count % 2 == 1 { mantissa.append(0) }
        return add(className: "NSDecimalNumber", classes: ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"], fields: [
            "NS.exponent": .integer(Int64(decimal.exponent)),
            "NS.length": .integer(Int64(mantissa.count / 2)),
            "NS.negative": .bool(decimal.sign == .minus && !decimal.isZero),
            "NS.compact": .bool(true),
            "NS.mantissa.bo": .integer(1),
            "NS.mantissa": .data(Data(mantissa.isEmpty ? [0, 0] : mantissa)),
        ])
    }

    /// The finished archive, `root` on top.
    func archive(root: PropertyListValue) -> Data {
        BinaryPropertyList.encode(.dictionary([
            "$version": .integer(100000),
            "$archiver": .string("NSKeyedArchiver"),
            "$top": .dictionary(["root": root]),
            "$objects": .array(objects),
        ]))
    }
}
