import Foundation

/// A value of a binary property list (`bplist00`), including the `UID` references that keyed
/// archives are made of.
///
/// Foundation on Linux reads binary property lists but hands a keyed archive's `UID`s back as
/// opaque objects, and its `NSKeyedUnarchiver` cannot decode the cycles a compiled model is
/// full of (entity ↔ property ↔ model). Compiled models (`.mom`) and the store's
/// `Z_MODELCACHE` are therefore read and written with this small, strict codec: any damage in
/// the input is a thrown error, never a trap.
indirect enum PropertyListValue: Equatable, Sendable {
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    /// Seconds since 2001-01-01 00:00:00 UTC.
    case date(Double)
    case data(Data)
    case string(String)
    /// A keyed archive's reference to an entry of its `$objects` array.
    case uid(Int)
    case array([PropertyListValue])
    /// Keys are strings in every property list a keyed archive writes.
    case dictionary([String: PropertyListValue])

    var string: String? { if case .string(let value) = self { return value }; return nil }
    var uid: Int? { if case .uid(let value) = self { return value }; return nil }
    var array: [PropertyListValue]? { if case .array(let value) = self { return value }; return nil }
    var dictionary: [String: PropertyListValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }
}

/// Damage found while reading a binary property list or keyed archive.
struct PropertyListFormatError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Reads and writes Apple's binary property list format, version `00`.
///
/// Layout: the magic `bplist00`, the objects (a marker byte whose high nibble is the type and
/// low nibble a size or count), an offset table and a 32-byte trailer (offset size, reference
/// size, object count, top object, offset-table position), all big-endian.
enum BinaryPropertyList {
    // MARK: - Reading

    /// The top object of `data`.
    ///
    /// - Throws: ``PropertyListFormatError`` for anything that is not a well-formed binary
    ///   property list (bad magic, offsets outside the data, reference cycles, bad text).
    static func decode(_ data: Data) throws -> PropertyListValue {
        let bytes = [UInt8](data)
        var reader = try Reader(bytes)
        return try reader.value(at: reader.top, depth: 0)
    }

    private struct Reader {
        let bytes: [UInt8]
        let offsets: [Int]
        let referenceSize: Int
        let top: Int
        var decoding = Set<Int>()

        init(_ bytes: [UInt8]) throws {
            guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist00".utf8)) else {
                throw PropertyListFormatError("not a binary property list (no bplist00 header)")
            }
            self.bytes = bytes
            let trailer = bytes.count - 32
            let offsetSize = Int(bytes[trailer + 6])
            referenceSize = Int(bytes[trailer + 7])
            let count = Self.number(bytes, at: trailer + 8, size: 8)
            let top = Self.number(bytes, at: trailer + 16, size: 8)
            let table = Self.number(bytes, at: trailer + 24, size: 8)
            guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
                  count > 0, count < UInt64(bytes.count), top < count,
                  table >= 8, table < UInt64(trailer),
                  UInt64(trailer) - table >= count * UInt64(offsetSize) else {
                throw PropertyListFormatError("the binary property list's trailer is damaged")
            }
            self.top = Int(top)
            var offsets: [Int] = []
            offsets.reserveCapacity(Int(count))
            for index in 0..<Int(count) {
                let offset = Self.number(bytes, at: Int(table) + index * offsetSize, size: offsetSize)
                guard offset >= 8, offset < table else {
                    throw PropertyListFormatError("object \(index) lies outside the property list")
                }
                offsets.append(Int(offset))
            }
            self.offsets = offsets
        }

        static func number(_ bytes: [UInt8], at position: Int, size: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in position..<(position + size) { value = value << 8 | UInt64(bytes[index]) }
            return value
        }

        func need(_ position: Int, _ length: Int) throws {
            guard length >= 0, position >= 0, position <= bytes.count - 32, length <= bytes.count - 32 - position else {
                throw PropertyListFormatError("an object runs past the end of the property list")
            }
        }

        /// The count in a marker's low nibble, or the integer object after it when that is 0xF.
        func count(_ marker: UInt8, after position: inout Int) throws -> Int {
            let nibble = Int(marker & 0x0F)
            guard nibble == 0x0F else { return nibble }
            try need(position, 1)
            let intMarker = bytes[position]
            guard intMarker >> 4 == 0x1 else { throw PropertyListFormatError("a count is not an integer") }
            let size = 1 << Int(intMarker & 0x0F)
            guard size <= 8 else { throw PropertyListFormatError("a count is too large") }
            try need(position + 1, size)
            let value = Self.number(bytes, at: position + 1, size: size)
            position += 1 + size
            guard value < UInt64(bytes.count) else { throw PropertyListFormatError("a count is too large") }
            return Int(value)
        }

        func references(at position: Int, count: Int) throws -> [Int] {
            let (total, overflow) = count.multipliedReportingOverflow(by: referenceSize)
            guard !overflow else { throw PropertyListFormatError("a collection is too large") }
            try need(position, total)
            return (0..<count).map { Int(clamping: Self.number(bytes, at: position + $0 * referenceSize, size: referenceSize)) }
        }

        mutating func value(at index: Int, depth: Int) throws -> PropertyListValue {
            guard index >= 0, index < offsets.count else {
                throw PropertyListFormatError("a reference to object \(index), which does not exist")
            }
            guard depth < 512, decoding.insert(index).inserted else {
                throw PropertyListFormatError("the property list refers to itself")
            }
            defer { decoding.remove(index) }
            var position = offsets[index]
            let marker = bytes[position]
            position += 1
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: throw PropertyListFormatError("unsupported marker 0x\(String(marker, radix: 16))")
                }
            case 0x1:
                let size = 1 << Int(marker & 0x0F)
                try need(position, size)
                switch size {
                case 1, 2, 4: return .integer(Int64(Self.number(bytes, at: position, size: size)))
                case 8: return .integer(Int64(bitPattern: Self.number(bytes, at: position, size: 8)))
                case 16: return .integer(Int64(bitPattern: Self.number(bytes, at: position + 8, size: 8)))
                default: throw PropertyListFormatError("an integer of \(size) bytes")
                }
            case 0x2:
                let size = 1 << Int(marker & 0x0F)
                try need(position, size)
                switch size {
                case 4: return .real(Double(Float(bitPattern: UInt32(Self.number(bytes, at: position, size: 4)))))
                case 8: return .real(Double(bitPattern: Self.number(bytes, at: position, size: 8)))
                default: throw PropertyListFormatError("a real of \(size) bytes")
                }
            case 0x3:
                guard marker == 0x33 else { throw PropertyListFormatError("a date of the wrong size") }
                try need(position, 8)
                return .date(Double(bitPattern: Self.number(bytes, at: position, size: 8)))
            case 0x4:
                let length = try count(marker, after: &position)
                try need(position, length)
                return .data(Data(bytes[position..<(position + length)]))
            case 0x5:
                let length = try count(marker, after: &position)
                try need(position, length)
                let text = bytes[position..<(position + length)]
                guard let string = String(bytes: text, encoding: .isoLatin1) else {
                    throw PropertyListFormatError("an ASCII string does not decode")
                }
                return .string(string)
            case 0x6:
                let length = try count(marker, after: &position)
                try need(position, length * 2)
                var units: [UInt16] = []
                units.reserveCapacity(length)
                for unit in 0..<length {
                    units.append(UInt16(Self.number(bytes, at: position + unit * 2, size: 2)))
                }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                let size = Int(marker & 0x0F) + 1
                try need(position, size)
                return .uid(Int(clamping: Self.number(bytes, at: position, size: size)))
            case 0xA, 0xC:
                let length = try count(marker, after: &position)
                let refs = try references(at: position, count: length)
                return .array(try refs.map { try value(at: $0, depth: depth + 1) })
            case 0xD:
                let length = try count(marker, after: &position)
                let keys = try references(at: position, count: length)
                let values = try references(at: position + length * referenceSize, count: length)
                var result: [String: PropertyListValue] = [:]
                for (key, value) in zip(keys, values) {
                    guard case .string(let name) = try self.value(at: key, depth: depth + 1) else {
                        throw PropertyListFormatError("a dictionary key is not a string")
                    }
                    result[name] = try self.value(at: value, depth: depth + 1)
                }
                return .dictionary(result)
            default:
                throw PropertyListFormatError("unsupported marker 0x\(String(marker, radix: 16))")
            }
        }
    }

    // MARK: - Writing

    /// `value` as a binary property list. Dictionaries are written with their keys sorted and
    /// equal strings are written once, so equal values give equal bytes.
    static func encode(_ value: PropertyListValue) -> Data {
        var writer = Writer()
        let top = writer.add(value)
        return writer.finish(top: top)
    }

    private struct Writer {
        /// Each object's bytes, with references still as object numbers.
        var objects: [Object] = []
        var strings: [String: Int] = [:]

        enum Object {
            case leaf([UInt8])
            case collection(marker: UInt8, count: Int, references: [Int])
        }

        mutating func add(_ value: PropertyListValue) -> Int {
            switch value {
            case .string(let text):
                if let index = strings[text] { return index }
                let index = append(.leaf(Self.stringBytes(text)))
                strings[text] = index
                return index
            case .array(let items):
                let index = append(.leaf([]))
                let references = items.map { add($0) }
                objects[index] = .collection(marker: 0xA0, count: items.count, references: references)
                return index
            case .dictionary(let entries):
                let index = append(.leaf([]))
                let keys = entries.keys.sorted()
                let references = keys.map { add(.string($0)) } + keys.map { add(entries[$0]!) }
                objects[index] = .collection(marker: 0xD0, count: keys.count, references: references)
                return index
            default:
                return append(.leaf(Self.leafBytes(value)))
            }
        }

        mutating func append(_ object: Object) -> Int {
            objects.append(object)
            return objects.count - 1
        }

        static func header(_ type: UInt8, count: Int) -> [UInt8] {
            if count < 15 { return [type | UInt8(count)] }
            return [type | 0x0F] + integerBytes(Int64(count))
        }

        static func integerBytes(_ value: Int64) -> [UInt8] {
            let size: Int
            switch value {
            case 0...0xFF: size = 1
            case 0x100...0xFFFF: size = 2
            case 0x10000...0xFFFF_FFFF: size = 4
            default: size = 8
            }
            let marker = UInt8(0x10 | (size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3))
            return [marker] + bigEndian(UInt64(bitPattern: value), size: size)
        }

        static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
            (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) }
        }

        static func stringBytes(_ text: String) -> [UInt8] {
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                return header(0x50, count: text.utf8.count) + Array(text.utf8)
            }
            let units = Array(text.utf16)
            return header(0x60, count: units.count) + units.flatMap { bigEndian(UInt64($0), size: 2) }
        }

        static func leafBytes(_ value: PropertyListValue) -> [UInt8] {
            switch value {
            case .bool(let flag): return [flag ? 0x09 : 0x08]
            case .integer(let number): return integerBytes(number)
            case .real(let number): return [0x23] + bigEndian(number.bitPattern, size: 8)
            case .date(let seconds): return [0x33] + bigEndian(seconds.bitPattern, size: 8)
            case .data(let data): return header(0x40, count: data.count) + Array(data)
            case .uid(let number):
                let size = number <= 0xFF ? 1 : number <= 0xFFFF ? 2 : 4
                return [0x80 | UInt8(size - 1)] + bigEndian(UInt64(number), size: size)
            case .string(let text): return stringBytes(text)
            case .array, .dictionary: return []
            }
        }

        func finish(top: Int) -> Data {
            let referenceSize = objects.count <= 0xFF ? 1 : objects.count <= 0xFFFF ? 2 : 4
            var output: [UInt8] = Array("bplist00".utf8)
            var offsets: [Int] = []
            offsets.reserveCapacity(objects.count)
            for object in objects {
                offsets.append(output.count)
                switch object {
                case .leaf(let bytes):
                    output += bytes
                case .collection(let marker, let count, let references):
                    output += Self.header(marker, count: count)
                    for reference in references {
                        output += Self.bigEndian(UInt64(reference), size: referenceSize)
                    }
                }
            }
            let table = output.count
            let maxOffset = offsets.last ?? 0
            let offsetSize = maxOffset <= 0xFF ? 1 : maxOffset <= 0xFFFF ? 2 : maxOffset <= 0xFFFF_FFFF ? 4 : 8
            for offset in offsets { output += Self.bigEndian(UInt64(offset), size: offsetSize) }
            output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
            output += Self.bigEndian(UInt64(objects.count), size: 8)
            output += Self.bigEndian(UInt64(top), size: 8)
            output += Self.bigEndian(UInt64(table), size: 8)
            return Data(output)
        }
    }
}
