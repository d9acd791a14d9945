/// The storage type of an attribute, with Apple's raw values.
public enum NSAttributeType: UInt, Sendable {
    /// No type: a transient attribute that holds any value, never stored.
    case undefinedAttributeType = 0
    /// A 16-bit integer (`Int16`), stored as `INTEGER`.
    case integer16AttributeType = 100
    /// A 32-bit integer (`Int32`), stored as `INTEGER`.
    case integer32AttributeType = 200
    /// A 64-bit integer (`Int64`), stored as `INTEGER`.
    case integer64AttributeType = 300
    /// A decimal number (`Decimal`, `NSDecimalNumber`), stored as a real number.
    case decimalAttributeType = 400
    /// A 64-bit floating-point number (`Double`), stored as `FLOAT`.
    case doubleAttributeType = 500
    /// A 32-bit floating-point number (`Float`), stored as `FLOAT`.
    case floatAttributeType = 600
    /// Text (`String`), stored as `VARCHAR`.
    case stringAttributeType = 700
    /// A Boolean (`Bool`), stored as the integer 0 or 1.
    case booleanAttributeType = 800
    /// A point in time (`Date`), stored as seconds since 1 January 2001.
    case dateAttributeType = 900
    /// Bytes (`Data`), stored as a `BLOB`.
    case binaryDataAttributeType = 1000
    /// A `UUID`, stored as 16 raw bytes.
    case UUIDAttributeType = 1100
    /// A `URL`, stored as its string.
    case URIAttributeType = 1200
    /// Any value that a `ValueTransformer` (named by `valueTransformerName`) turns into bytes,
    /// stored as a `BLOB`.
    case transformableAttributeType = 1800
    /// An `NSManagedObjectID`, for derived and transient attributes.
    case objectIDAttributeType = 2000
    /// A group of attributes stored as columns of one value (see
    /// ``NSCompositeAttributeDescription``).
    case compositeAttributeType = 2100
}
