import Foundation

/// The name under which a value transformer is registered.
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let secureUnarchiveFromDataTransformerName = NSValueTransformerName("NSSecureUnarchiveFromData")
    public static let keyedUnarchiveFromDataTransformerName = NSValueTransformerName("NSKeyedUnarchiveFromData")
}

/// Converts values of transformable attributes to the bytes a store keeps, and back.
///
/// - Note: Apple parity: Foundation on Linux has no `ValueTransformer`; this is ours,
///   with Apple's names. Register custom transformers with
///   `ValueTransformer.setValueTransformer(_:forName:)` before loading stores.
open class ValueTransformer: NSObject, @unchecked Sendable {
    // @unchecked Sendable: subclasses are expected to be stateless, as on Apple platforms.
    private static let registry = TransformerRegistry()

    open class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        registry.set(transformer, for: name)
    }

    public convenience init?(forName name: NSValueTransformerName) {
        guard let found = Self.registry.transformer(for: name) else { return nil }
        self.init(forwardingTo: found)
    }

    /// The registered transformer (``init(forName:)`` returns a forwarding wrapper, since
    /// a Swift initializer cannot return another instance).
    open class func valueTransformer(forName name: NSValueTransformerName) -> ValueTransformer? {
        registry.transformer(for: name)
    }

    open class func valueTransformerNames() -> [NSValueTransformerName] { registry.names() }

    private var target: ValueTransformer?
    public override init() { super.init() }
    private init(forwardingTo target: ValueTransformer) {
        self.target = target
        super.init()
    }

    open class func transformedValueClass() -> AnyClass { NSObject.self }
    open class func allowsReverseTransformation() -> Bool { true }

    open func transformedValue(_ value: Any?) -> Any? {
        target?.transformedValue(value) ?? value
    }

    open func reverseTransformedValue(_ value: Any?) -> Any? {
        target?.reverseTransformedValue(value) ?? value
    }
}

/// Archives values with `NSKeyedArchiver` and unarchives them securely: Core Data's
/// default transformer for transformable attributes.
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer, @unchecked Sendable {
    open class var allowedTopLevelClasses: [AnyClass] {
        [NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self, NSDate.self,
         NSData.self, NSURL.self, NSUUID.self, NSNull.self]
    }

    open override func transformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        return try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: false)
    }

    open override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return try? NSKeyedUnarchiver.unarchivedObject(ofClasses: Self.allowedTopLevelClasses, from: data)
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
