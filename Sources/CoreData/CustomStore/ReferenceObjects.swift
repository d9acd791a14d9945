import Foundation

/// A custom store's identities: the reference objects an app's store gives its objects
/// (`newObjectID(for:referenceObject:)`, `newReferenceObject(for:)`), each paired with the
/// primary key that object IDs, row caches and contexts use inside the framework.
///
/// Keys are handed out per inheritance root, in the order reference objects are first
/// seen, and never reused while the store is open. Equal reference objects get the same
/// key: numbers by value (`5`, `Int64(5)` and `NSNumber(value: 5)` are one object), strings
/// by value, anything else `Hashable` by its own equality.
final class ReferenceObjects: @unchecked Sendable {
    // @unchecked Sendable: used only under the coordinator's lock or by the store's own
    // code, which Core Data calls one request at a time; `lock` guards it anyway, since an
    // app may call `newObjectID(for:referenceObject:)` from any thread.

    /// A reference object, normalised for equality.
    enum Key: Hashable {
        case integer(Int64)
        case string(String)
        case other(AnyHashable)

        init?(_ reference: Any) {
            switch reference {
            case let value as Int: self = .integer(Int64(value))
            case let value as Int64: self = .integer(value)
            case let value as Int32: self = .integer(Int64(value))
            case let value as UInt32: self = .integer(Int64(value))
            case let value as String: self = .string(value)
            case let value as NSString: self = .string(value as String)
            case let number as NSNumber:
                let integer = number.int64Value
                self = NSNumber(value: integer).isEqual(number) ? .integer(integer) : .other(AnyHashable(number))
            case let value as AnyHashable: self = .other(value)
            default: return nil
            }
        }

        /// The text after `p` in an object ID's URI.
        var uriText: String {
            switch self {
            case .integer(let value): return String(value)
            case .string(let value): return value
            case .other(let value): return "\(value.base)"
            }
        }
    }

    private struct Family {
        var keys: [Key: Int64] = [:]
        var references: [Int64: (reference: Any, key: Key, entity: NSEntityDescription)] = [:]
        var last: Int64 = 0
    }

    private var families: [ObjectIdentifier: Family] = [:]
    private let lock = NSLock()

    /// The primary key of a reference object for an entity, made on first sight.
    /// Returns nil for a reference object that is neither a number, a string nor `Hashable`.
    func primaryKey(for reference: Any, entity: NSEntityDescription) -> Int64? {
        guard let key = Key(reference) else { return nil }
        let root = entity.runtime.rootID
        lock.lock()
        defer { lock.unlock() }
        if let pk = families[root]?.keys[key] {
            // A sub-entity seen later than its parent names the object better.
            if let known = families[root]?.references[pk], known.entity !== entity, entity.isKindOf(entity: known.entity) {
                families[root]?.references[pk] = (known.reference, key, entity)
            }
            return pk
        }
        var family = families[root] ?? Family()
        family.last += 1
        family.keys[key] = family.last
        family.references[family.last] = (reference, key, entity)
        families[root] = family
        return family.last
    }

    /// The reference object behind a primary key (nil for a key this table never made).
    func reference(for pk: Int64, entity: NSEntityDescription) -> Any? {
        lock.lock()
        defer { lock.unlock() }
        return families[entity.runtime.rootID]?.references[pk]?.reference
    }

    /// The most specific entity the store named for a primary key.
    func entity(for pk: Int64, family entity: NSEntityDescription) -> NSEntityDescription? {
        lock.lock()
        defer { lock.unlock() }
        return families[entity.runtime.rootID]?.references[pk]?.entity
    }

    /// The URI text of a primary key's reference object.
    func uriText(for pk: Int64, entity: NSEntityDescription) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return families[entity.runtime.rootID]?.references[pk]?.key.uriText
    }

    /// The primary key that a URI's text names: a reference object already seen with that
    /// text (a string first), else the number it spells, else the string itself.
    func primaryKey(forURIText text: String, entity: NSEntityDescription) -> Int64? {
        let root = entity.runtime.rootID
        lock.lock()
        let family = families[root]
        lock.unlock()
        if let pk = family?.keys[.string(text)] { return pk }
        if let number = Int64(text) { return primaryKey(for: number, entity: entity) }
        return primaryKey(for: text, entity: entity)
    }
}
