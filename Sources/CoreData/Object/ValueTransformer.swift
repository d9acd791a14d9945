import Foundation

/// The name under which a value transformer is registered.
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A name, written without the `rawValue:` label: `NSValueTransformerName("ColorTransformer")`.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// `"NSSecureUnarchiveFromData"`: registered from the start with an
    /// ``NSSecureUnarchiveFromDataTransformer``, the transformer that models name for
    /// transformable attributes of Foundation types.
    public static let secureUnarchiveFromDataTransformerName = NSValueTransformerName("NSSecureUnarchiveFromData")
    /// `"NSKeyedUnarchiveFromData"`: registered from the start, so that older models naming
    /// it load and read their values.
    ///
    /// - Note: Apple parity: Apple's transformer under this name unarchives any `NSCoding`
    ///   class; here it is an ``NSSecureUnarchiveFromDataTransformer``, which unarchives only
    ///   its ``NSSecureUnarchiveFromDataTransformer/allowedTopLevelClasses``.
    public static let keyedUnarchiveFromDataTransformerName = NSValueTransformerName("NSKeyedUnarchiveFromData")
}

/// Converts values of transformable attributes to the bytes a store keeps, and back.
///
/// A transformable attribute names its transformer (`valueTransformerName`); saving calls
/// ``transformedValue(_:)``, which must return `Data`, and reading calls
/// ``reverseTransformedValue(_:)`` on the stored bytes. ``NSSecureUnarchiveFromDataTransformer``
/// and its subclasses, whose forward direction unarchives, are used the other way round, as
/// Apple's Core Data uses them.
///
/// ```swift
/// final class TagListTransformer: ValueTransformer, @unchecked Sendable {
///     override class func transformedValueClass() -> AnyClass { NSData.self }
///     override func transformedValue(_ value: Any?) -> Any? {
///         (value as? [String]).map { Data($0.joined(separator: ",").utf8) }
///     }
///     override func reverseTransformedValue(_ value: Any?) -> Any? {
///         (value as? Data).map { String(decoding: $0, as: UTF8.self).split(separator: ",").map(String.init) }
///     }
/// }
/// ValueTransformer.setValueTransformer(TagListTransformer(), forName: NSValueTransformerName("TagListTransformer"))
/// ```
///
/// - Note: Apple parity: Foundation on Linux has no `ValueTransformer`; this is ours,
///   with Apple's names. Register custom transformers with
///   `ValueTransformer.setValueTransformer(_:forName:)` before loading stores.
///
/// ## Topics
/// ### Registering transformers
/// - ``setValueTransformer(_:forName:)``
/// - ``valueTransformer(forName:)``
/// - ``init(forName:)``
/// - ``valueTransformerNames()``
/// ### Transforming values
/// - ``transformedValue(_:)``
/// - ``reverseTransformedValue(_:)``
/// - ``transformedValueClass()``
/// - ``allowsReverseTransformation()``
open class ValueTransformer: NSObject, @unchecked Sendable {
    // @unchecked Sendable: subclasses are expected to be stateless, as on Apple platforms.
    private static let registry = TransformerRegistry()

    /// Registers `transformer` under `name` for the whole process (thread-safe), replacing
    /// any transformer registered under it; nil removes the registration.
    ///
    /// Attributes look their transformer up by name each time a value is saved or read, so
    /// register it before the first of those (at start-up, before loading stores). An
    /// attribute whose name is not registered keeps `Data` values as they are and fails to
    /// save any other value.
    open class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        registry.set(transformer, for: name)
    }

    /// A transformer that forwards to the one registered under `name`, or nil when none is.
    ///
    /// - Note: Apple parity: Apple returns the registered instance itself. A Swift
    ///   initializer cannot, so this is a plain `ValueTransformer` that calls the registered
    ///   one: casting it to your subclass fails, its class methods are the base class's, and
    ///   where the registered transformer returns nil it returns the input unchanged. Use
    ///   ``valueTransformer(forName:)`` to get the instance.
    public convenience init?(forName name: NSValueTransformerName) {
        guard let found = Self.registry.transformer(for: name) else { return nil }
        self.init(forwardingTo: found)
    }

    /// The registered transformer (``init(forName:)`` returns a forwarding wrapper, since
    /// a Swift initializer cannot return another instance).
    open class func valueTransformer(forName name: NSValueTransformerName) -> ValueTransformer? {
        registry.transformer(for: name)
    }

    /// The names registered now, in no particular order: the two built-in ones
    /// (``NSValueTransformerName/secureUnarchiveFromDataTransformerName`` and
    /// ``NSValueTransformerName/keyedUnarchiveFromDataTransformerName``) and your own.
    open class func valueTransformerNames() -> [NSValueTransformerName] { registry.names() }

    private var target: ValueTransformer?
    public override init() { super.init() }
    private init(forwardingTo target: ValueTransformer) {
        self.target = target
        super.init()
    }

    /// The class of the values ``transformedValue(_:)`` returns; the default is `NSObject`.
    /// Override it to describe your transformer (`NSData.self` for one that stores data);
    /// Core Data here does not consult it.
    open class func transformedValueClass() -> AnyClass { NSObject.self }
    /// Whether ``reverseTransformedValue(_:)`` is supported; the default is true.
    ///
    /// - Note: Apple parity: Core Data here does not consult it, and the base
    ///   ``reverseTransformedValue(_:)`` does not check it (Apple's raises when it is false).
    open class func allowsReverseTransformation() -> Bool { true }

    /// Turns a value into its other representation. For a transformable attribute this
    /// is the value being saved, and the result must be `Data` (otherwise the save throws
    /// `NSManagedObjectValidationError`). The base class returns `value` unchanged;
    /// subclasses override it.
    ///
    /// - Parameter value: The value to transform, possibly nil.
    /// - Returns: The transformed value, or nil when `value` cannot be transformed.
    open func transformedValue(_ value: Any?) -> Any? {
        target?.transformedValue(value) ?? value
    }

    /// Turns a transformed value back. For a transformable attribute this receives the
    /// stored `Data` when the value is read, and returns the value the object shows.
    /// Override it together with ``transformedValue(_:)``.
    ///
    /// - Note: Apple parity: the base class returns `value` unchanged; Apple's calls
    ///   ``transformedValue(_:)`` (after checking ``allowsReverseTransformation()``).
    ///
    /// - Parameter value: The value to transform back, possibly nil.
    /// - Returns: The original value, or nil when `value` cannot be transformed back.
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        target?.reverseTransformedValue(value) ?? value
    }
}

/// Unarchives `Data` into objects of a few allowed classes, securely, and archives such
/// objects back into `Data`: Core Data's default transformer for transformable attributes.
///
/// As the name says, the forward direction unarchives: ``transformedValue(_:)`` takes the
/// archived `Data` and returns the object, ``reverseTransformedValue(_:)`` takes the object and
/// returns `Data`. A transformable attribute whose transformer is one of these (or a
/// subclass) therefore stores the result of ``reverseTransformedValue(_:)`` and reads with
/// ``transformedValue(_:)``, the other way round from any other transformer.
///
/// Subclass it to store your own `NSSecureCoding` classes: override
/// ``allowedTopLevelClasses`` (or `transformedValueClass()`) and register the subclass under
/// the name your model gives.
///
/// ```swift
/// final class ColorTransformer: NSSecureUnarchiveFromDataTransformer, @unchecked Sendable {
///     override class var allowedTopLevelClasses: [AnyClass] { [MyColor.self] }
/// }
/// ValueTransformer.setValueTransformer(ColorTransformer(), forName: NSValueTransformerName("ColorTransformer"))
/// ```
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer, @unchecked Sendable {
    /// The classes the top-level object of an archive may have, both to be archived by
    /// ``reverseTransformedValue(_:)`` and to be unarchived by ``transformedValue(_:)``.
    ///
    /// A subclass that overrides `transformedValueClass()` gets that one class. Otherwise
    /// the list is `NSArray`, `NSDictionary`, `NSSet`, `NSString`, `NSNumber`, `NSDate`,
    /// `NSData`, `NSURL`, `NSUUID` and `NSNull`: Swift arrays, dictionaries, sets, strings,
    /// numbers, dates, data, URLs and UUIDs of those, as they bridge to them. Override it to
    /// allow classes of your own.
    ///
    /// - Note: Apple parity: Apple takes `transformedValueClass()` when it is not nil; a Swift
    ///   class method cannot return nil, so here "not nil" means "overridden to return
    ///   something other than the base class's `NSObject`".
    open class var allowedTopLevelClasses: [AnyClass] {
        let named: AnyClass = transformedValueClass()
        if ObjectIdentifier(named) != ObjectIdentifier(NSObject.self) { return [named] }
        return [NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self, NSDate.self,
                NSData.self, NSURL.self, NSUUID.self, NSNull.self]
    }

    /// Unarchives `Data`, accepting only ``allowedTopLevelClasses`` at the top level (and
    /// secure coding throughout); nil for nil, for a value that is not `Data`, or when the
    /// archive holds anything else or cannot be read.
    ///
    /// - Note: Apple parity: Linux Foundation's unarchiver stops the program, rather than
    ///   failing, on an object of a class it was not allowed to decode. The top-level object's
    ///   class is therefore checked first (returning nil, as Apple does); a disallowed class
    ///   deeper inside an allowed container still stops the program there.
    open override func transformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        let allowed = Self.allowedTopLevelClasses
        guard KeyedArchive.rootClassIsAllowed(in: data, allowed: allowed) != false else { return nil }
        return try? NSKeyedUnarchiver.unarchivedObject(ofClasses: allowed, from: data)
    }

    /// Archives an object with `NSKeyedArchiver`, requiring secure coding; nil for nil, for
    /// an object none of whose class is among ``allowedTopLevelClasses`` (the archive could
    /// not be read back), or when archiving fails.
    open override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        let object = value as AnyObject
        guard Self.allowedTopLevelClasses.contains(where: { (object as? NSObject)?.isKind(of: $0) == true }) else {
            return nil
        }
        return try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
    }
}

/// Reads a keyed archive's structure without decoding it.
enum KeyedArchive {
    /// Whether the class of the archive's top-level object is one of `allowed` (or a
    /// subclass of one): nil when the archive's layout cannot be read here (the unarchiver
    /// then decides).
    static func rootClassIsAllowed(in data: Data, allowed: [AnyClass]) -> Bool? {
        guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
              let objects = plist["$objects"] as? [Any], let top = plist["$top"] as? [String: Any],
              let rootIndex = top["root"].flatMap(uidValue), rootIndex < objects.count else { return nil }
        let root = objects[rootIndex]
        let rootClass: AnyClass?
        switch root {
        case let name as String where name == "$null": return true
        case is String: rootClass = NSString.self
        case is NSNumber: rootClass = NSNumber.self
        case is Data: rootClass = NSData.self
        case let object as [String: Any]:
            guard let classIndex = object["$class"].flatMap(uidValue), classIndex < objects.count,
                  let classInfo = objects[classIndex] as? [String: Any],
                  let name = classInfo["$classname"] as? String else { return nil }
            rootClass = NSClassFromString(name)
        default: return nil
        }
        guard let rootClass = rootClass as? NSObject.Type else { return false }
        return allowed.contains { rootClass.isSubclass(of: $0) }
    }

    /// The index an archive's object reference (a keyed-archiver UID) points at.
    private static func uidValue(_ reference: Any) -> Int? {
        Mirror(reflecting: reference).children.first { $0.label == "value" }
            .flatMap { ($0.value as? UInt32).map(Int.init) }
    }
}

final class TransformerRegistry: @unchecked Sendable {
    // @unchecked Sendable: `transformers` is guarded by `lock`.
    private let lock = NSLock()
    private var transformers: [NSValueTransformerName: ValueTransformer] = [
        .secureUnarchiveFromDataTransformerName: NSSecureUnarchiveFromDataTransformer(),
        .keyedUnarchiveFromDataTransformerName: NSSecureUnarchiveFromDataTransformer(),
    ]

    func set(_ transformer: ValueTransformer?, for name: NSValueTransformerName) {
        lock.lock()
        defer { lock.unlock() }
        transformers[name] = transformer
    }

    func transformer(for name: NSValueTransformerName) -> ValueTransformer? {
        lock.lock()
        defer { lock.unlock() }
        return transformers[name]
    }

    func names() -> [NSValueTransformerName] {
        lock.lock()
        defer { lock.unlock() }
        return Array(transformers.keys)
    }
}
