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
        public static let undefined = AttributeType(.undefinedAttributeType)
        public static let integer16 = AttributeType(.integer16AttributeType)
        public static let integer32 = AttributeType(.integer32AttributeType)
        public static let integer64 = AttributeType(.integer64AttributeType)
        public static let decimal = AttributeType(.decimalAttributeType)
        public static let double = AttributeType(.doubleAttributeType)
        public static let float = AttributeType(.floatAttributeType)
        public static let string = AttributeType(.stringAttributeType)
        public static let boolean = AttributeType(.booleanAttributeType)
        public static let date = AttributeType(.dateAttributeType)
        public static let binaryData = AttributeType(.binaryDataAttributeType)
        public static let uuid = AttributeType(.UUIDAttributeType)
        public static let uri = AttributeType(.URIAttributeType)
        public static let transformable = AttributeType(.transformableAttributeType)
        public static let objectID = AttributeType(.objectIDAttributeType)
        public static let composite = AttributeType(.compositeAttributeType)
    }

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
    open var valueTransformerName: String? { willSet { assertEditable() } }
    open var allowsExternalBinaryDataStorage: Bool = false
    open var preservesValueInHistoryOnDeletion: Bool = false
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

