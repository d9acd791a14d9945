internal import CCoreDataRuntime

/// The type tag of a value in a slot block or a row (the runtime's `cdr_type`).
enum SlotType: UInt8, Sendable {
    case null = 0
    /// Integer 16/32/64.
    case int64 = 1
    /// Double and Float.
    case double = 2
    case bool = 3
    /// UTF-8 text, length-counted (String, URI, Decimal).
    case text = 4
    case blob = 5
    /// Seconds since 2001-01-01 00:00:00 UTC.
    case date = 6
    case uuid = 7
    /// A to-one relationship in an object: a retained reference to the destination.
    case object = 8
    /// A to-many relationship in an object: an ordered set of references.
    case set = 9
    /// Any other value, in a retained ``ValueBox``.
    case box = 10
    /// A to-one relationship in a row: the destination's ``StoreKey``.
    case key = 11

    var cType: cdr_type { cdr_type(rawValue: UInt32(rawValue)) }
}
