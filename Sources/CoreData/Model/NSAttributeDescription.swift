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
    /// The struct spelling of the attribute type (`attribute.type = .string`), whose raw
    /// value is the ``NSAttributeType`` it stands for, as on Apple:
    /// `NSAttributeDescription.AttributeType.string.rawValue == .stringAttributeType`, and
    /// `.rawValue.rawValue` is Apple's number (700).
    public struct AttributeType: RawRepresentable, Hashable, Sendable {
        /// The attribute type this value stands for (settable, as Apple's is).
        public var rawValue: NSAttributeType
        /// The struct spelling of `rawValue`.
        public init(rawValue: NSAttributeType) { self.rawValue = rawValue }
        /// `NSAttributeType.undefinedAttributeType` (0): transient attributes only.
        public static let undefined = AttributeType(rawValue: .undefinedAttributeType)
        /// `NSAttributeType.integer16AttributeType` (100).
        public static let integer16 = AttributeType(rawValue: .integer16AttributeType)
        /// `NSAttributeType.integer32AttributeType` (200).
        public static let integer32 = AttributeType(rawValue: .integer32AttributeType)
        /// `NSAttributeType.integer64AttributeType` (300).
        public static let integer64 = AttributeType(rawValue: .integer64AttributeType)
        /// `NSAttributeType.decimalAttributeType` (400).
        public static let decimal = AttributeType(rawValue: .decimalAttributeType)
        /// `NSAttributeType.doubleAttributeType` (500).
        public static let double = AttributeType(rawValue: .doubleAttributeType)
        /// `NSAttributeType.floatAttributeType` (600).
        public static let float = AttributeType(rawValue: .floatAttributeType)
        /// `NSAttributeType.stringAttributeType` (700).
        public static let string = AttributeType(rawValue: .stringAttributeType)
        /// `NSAttributeType.booleanAttributeType` (800).
        public static let boolean = AttributeType(rawValue: .booleanAttributeType)
        /// `NSAttributeType.dateAttributeType` (900).
        public static let date = AttributeType(rawValue: .dateAttributeType)
        /// `NSAttributeType.binaryDataAttributeType` (1000).
        public static let binaryData = AttributeType(rawValue: .binaryDataAttributeType)
        /// `NSAttributeType.UUIDAttributeType` (1100).
        public static let uuid = AttributeType(rawValue: .UUIDAttributeType)
        /// `NSAttributeType.URIAttributeType` (1200).
        public static let uri = AttributeType(rawValue: .URIAttributeType)
        /// `NSAttributeType.transformableAttributeType` (1800).
        public static let transformable = AttributeType(rawValue: .transformableAttributeType)
        /// `NSAttributeType.objectIDAttributeType` (2000).
        public static let objectID = AttributeType(rawValue: .objectIDAttributeType)
        /// `NSAttributeType.compositeAttributeType` (2100).
        public static let composite = AttributeType(rawValue: .compositeAttributeType)
    }

    /// What the attribute holds and how the store keeps it (see ``NSAttributeType``).
    open var attributeType: NSAttributeType = .undefinedAttributeType {
        willSet { assertEditable() }
    }

    /// Same as ``attributeType``, in the `AttributeType` spelling.
    open var type: AttributeType {
        get { AttributeType(rawValue: attributeType) }
        set { attributeType = newValue.rawValue }
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

    // MARK: - Copying and archiving

    override func makeEmptyCopy() -> NSPropertyDescription { NSAttributeDescription() }

    override func copyProperties(to copy: NSPropertyDescription) {
        super.copyProperties(to: copy)
        guard let copy = copy as? NSAttributeDescription else { return }
        copy.attributeType = attributeType
        copy.defaultValue = defaultValue
        copy.valueTransformerName = valueTransformerName
        copy.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        copy.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        copy.allowsCloudEncryption = allowsCloudEncryption
        copy._attributeValueClassName = _attributeValueClassName
        copy.minimumValue = minimumValue
        copy.maximumValue = maximumValue
        copy.regularExpression = regularExpression
        copy.derivationExpressionString = derivationExpressionString
        copy.usesScalarValueType = usesScalarValueType
    }

    /// Archives the attribute: the property's fields, then its type, default value,
    /// transformer name, storage flags and validation limits.
    ///
    /// - Note: Apple parity: a decimal default value is archived as its text (Foundation's
    ///   `NSDecimalNumber` does not archive on Linux) and decodes as an `NSDecimalNumber`.
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(Int64(attributeType.rawValue), forKey: "NSAttributeType")
        ModelCoding.encodeValue(defaultValue, forKey: "NSDefaultValue", with: coder)
        coder.encode(valueTransformerName, forKey: "NSValueTransformerName")
        coder.encode(allowsExternalBinaryDataStorage, forKey: "NSAllowsExternalBinaryDataStorage")
        coder.encode(preservesValueInHistoryOnDeletion, forKey: "NSPreservesValueInHistoryOnDeletion")
        coder.encode(allowsCloudEncryption, forKey: "NSAllowsCloudEncryption")
        coder.encode(_attributeValueClassName, forKey: "NSAttributeValueClassName")
        ModelCoding.encodeValue(minimumValue, forKey: "NSMinimumValue", with: coder)
        ModelCoding.encodeValue(maximumValue, forKey: "NSMaximumValue", with: coder)
        coder.encode(regularExpression, forKey: "NSRegularExpression")
        coder.encode(derivationExpressionString, forKey: "NSDerivationExpression")
        coder.encode(usesScalarValueType, forKey: "NSUsesScalarValueType")
    }

    /// Reads an attribute archived by ``encode(with:)``.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        attributeType = NSAttributeType(rawValue: ModelCoding.decodeUInt(forKey: "NSAttributeType", with: coder))
            ?? .undefinedAttributeType
        defaultValue = ModelCoding.decodeValue(forKey: "NSDefaultValue", with: coder)
        valueTransformerName = coder.decodeObjectIfPresent(forKey: "NSValueTransformerName") as? String
        allowsExternalBinaryDataStorage = coder.decodeBool(forKey: "NSAllowsExternalBinaryDataStorage")
        preservesValueInHistoryOnDeletion = coder.decodeBool(forKey: "NSPreservesValueInHistoryOnDeletion")
        allowsCloudEncryption = coder.decodeBool(forKey: "NSAllowsCloudEncryption")
        _attributeValueClassName = coder.decodeObjectIfPresent(forKey: "NSAttributeValueClassName") as? String
        minimumValue = ModelCoding.decodeValue(forKey: "NSMinimumValue", with: coder)
        maximumValue = ModelCoding.decodeValue(forKey: "NSMaximumValue", with: coder)
        regularExpression = coder.decodeObjectIfPresent(forKey: "NSRegularExpression") as? String
        derivationExpressionString = coder.decodeObjectIfPresent(forKey: "NSDerivationExpression") as? String
        usesScalarValueType = coder.decodeBool(forKey: "NSUsesScalarValueType")
    }

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

