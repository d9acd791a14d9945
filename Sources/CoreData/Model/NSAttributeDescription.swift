import Foundation

/// An attribute of an entity: a typed value stored in the object's slot.
///
/// ## Topics
/// ### Type
/// - ``attributeType``
/// - ``type``
/// - ``attributeValueClassName``
/// ### Values
/// - ``defaultValue``
/// - ``valueTransformerName``
open class NSAttributeDescription: NSPropertyDescription, @unchecked Sendable {
    /// The newer, struct spelling of the attribute type (`attribute.type = .string`).
    public struct AttributeType: RawRepresentable, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        init(_ type: NSAttributeType) { rawValue = type.rawValue }
        /// No type: a transient attribute that holds any value, never stored.
        public static let undefined = AttributeType(.undefinedAttributeType)
        /// A 16-bit integer (`Int16`), stored as `INTEGER`.
        public static let integer16 = AttributeType(.integer16AttributeType)
        /// A 32-bit integer (`Int32`), stored as `INTEGER`.
        public static let integer32 = AttributeType(.integer32AttributeType)
        /// A 64-bit integer (`Int64`), stored as `INTEGER`.
        public static let integer64 = AttributeType(.integer64AttributeType)
        /// A decimal number (`Decimal`, `NSDecimalNumber`), stored as a real number.
        public static let decimal = AttributeType(.decimalAttributeType)
        /// A 64-bit floating-point number (`Double`), stored as `FLOAT`.
        public static let double = AttributeType(.doubleAttributeType)
        /// A 32-bit floating-point number (`Float`), stored as `FLOAT`.
        public static let float = AttributeType(.floatAttributeType)
        /// Text (`String`), stored as `VARCHAR`.
        public static let string = AttributeType(.stringAttributeType)
        /// A Boolean (`Bool`), stored as the integer 0 or 1.
        public static let boolean = AttributeType(.booleanAttributeType)
        /// A point in time (`Date`), stored as seconds since 1 January 2001.
        public static let date = AttributeType(.dateAttributeType)
        /// Bytes (`Data`), stored as a `BLOB`.
        public static let binaryData = AttributeType(.binaryDataAttributeType)
        /// A `UUID`, stored as 16 raw bytes.
        public static let uuid = AttributeType(.UUIDAttributeType)
        /// A `URL`, stored as its string.
        public static let uri = AttributeType(.URIAttributeType)
        /// Any value that a `ValueTransformer` (named by `valueTransformerName`) turns into bytes,
        /// stored as a `BLOB`.
        public static let transformable = AttributeType(.transformableAttributeType)
        /// An `NSManagedObjectID`, for derived and transient attributes.
        public static let objectID = AttributeType(.objectIDAttributeType)
        /// A group of attributes stored as columns of one value (see
        /// ``NSCompositeAttributeDescription``).
        public static let composite = AttributeType(.compositeAttributeType)
    }

    /// What the attribute holds and how the store keeps it (see ``NSAttributeType``).
    open var attributeType: NSAttributeType = .undefinedAttributeType {
        willSet { assertEditable() }
    }

    /// Same as ``attributeType``, in the `AttributeType` spelling.
    open var type: AttributeType {
        get { AttributeType(attributeType) }
        set { attributeType = NSAttributeType(rawValue: newValue.rawValue) ?? .undefinedAttributeType }
    }

    /// The value a newly inserted object starts with.
    open var defaultValue: Any? { willSet { assertEditable() } }
    /// For a transformable attribute: the name under which its `ValueTransformer` is registered.
    ///
    /// - Note: Apple parity: with no name (or an unregistered one) values are stored and read
    ///   back as `Data` unchanged; Apple falls back to `NSSecureUnarchiveFromData`.
    open var valueTransformerName: String? { willSet { assertEditable() } }
    /// Whether large values may live in files beside the store. Part of the version hash.
    ///
    /// - Note: Apple parity: external storage is not implemented; every value stays in its
    ///   column.
    open var allowsExternalBinaryDataStorage: Bool = false
    /// Whether persistent history keeps the value of a deleted object.
    ///
    /// - Note: Apple parity: read from model files and kept, with no effect: there is no
    ///   persistent history.
    open var preservesValueInHistoryOnDeletion: Bool = false
    /// Whether CloudKit encrypts the value.
    ///
    /// - Note: Apple parity: kept, with no effect: there is no CloudKit on Linux.
    open var allowsCloudEncryption: Bool = false
    /// The Swift class of values (Apple's Objective-C class names, e.g. `NSString`).
    open var attributeValueClassName: String? {
        get { _attributeValueClassName ?? Self.defaultClassName(for: attributeType) }
        set { _attributeValueClassName = newValue }
    }
    private var _attributeValueClassName: String?

    public override init() { super.init() }

    // MARK: - Validation limits (read from the model file; checked on save)

    /// Minimum and maximum numeric value, string length or date (`minValueString`, ...).
    var minimumValue: Any?
    var maximumValue: Any?
    var regularExpression: String?

    // MARK: - Derivation (read from the model file)

    /// The `derivationExpression` text of a derived attribute, kept raw until an
    /// expression parser exists; non-nil makes the attribute read-only for version hashes.
    var derivationExpressionString: String?

    /// `usesScalarValueType` from the model file: generated Swift accessors use `Int16`,
    /// `Bool`, ... rather than `NSNumber`. Informational; storage is the same.
    var usesScalarValueType = false

    // MARK: - Runtime

    /// The runtime slot type that holds values of this attribute.
    var slotType: SlotType {
        switch attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return .int64
        case .doubleAttributeType, .floatAttributeType: return .double
        case .booleanAttributeType: return .bool
        case .stringAttributeType, .URIAttributeType, .decimalAttributeType: return .text
        case .dateAttributeType: return .date
        case .binaryDataAttributeType: return .blob
        case .UUIDAttributeType: return .uuid
        default: return .box
        }
    }

    static func defaultClassName(for type: NSAttributeType) -> String? {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
             .doubleAttributeType, .floatAttributeType, .booleanAttributeType:
            return "NSNumber"
        case .decimalAttributeType: return "NSDecimalNumber"
        case .stringAttributeType: return "NSString"
        case .dateAttributeType: return "NSDate"
        case .binaryDataAttributeType: return "NSData"
        case .UUIDAttributeType: return "NSUUID"
        case .URIAttributeType: return "NSURL"
        case .objectIDAttributeType: return "NSManagedObjectID"
        default: return nil
        }
    }

    open override var description: String {
        super.description + ", attributeType \(attributeType.rawValue), defaultValue \(String(describing: defaultValue))"
    }
}

