import Foundation

/// Transformable attributes: values in memory, bytes in the store, converted with the
/// attribute's `valueTransformerName` (or kept as `Data` when it has none).
enum Transformer {
    /// The value of a transformable attribute from its stored bytes (a row's blob slot).
    static func decode(_ value: SlotValue, for attribute: NSAttributeDescription) -> Any? {
        guard value.type == .blob else { return nil }
        return decode(value.data, for: attribute)
    }

    /// The value stored bytes stand for: the transformer's reverse transformation (its
    /// forward one for an unarchive-from-data transformer), or the bytes themselves when the
    /// attribute names no registered transformer.
    static func decode(_ data: Data, for attribute: NSAttributeDescription) -> Any? {
        guard let transformer = transformer(of: attribute) else { return data }
        if transformer is NSSecureUnarchiveFromDataTransformer { return transformer.transformedValue(data) }
        return transformer.reverseTransformedValue(data)
    }

    /// The bytes a value is stored as: the transformer's output (its reverse output for an
    /// unarchive-from-data transformer, whose forward direction turns data into objects), or
    /// the value itself when it is `Data` and the attribute names no registered transformer.
    static func encode(_ value: Any, for attribute: NSAttributeDescription) -> Data? {
        guard let transformer = transformer(of: attribute) else { return value as? Data }
        if transformer is NSSecureUnarchiveFromDataTransformer {
            return transformer.reverseTransformedValue(value) as? Data
        }
        return transformer.transformedValue(value) as? Data
    }

    private static func transformer(of attribute: NSAttributeDescription) -> ValueTransformer? {
        guard let name = attribute.valueTransformerName, !name.isEmpty else { return nil }
        return ValueTransformer.valueTransformer(forName: NSValueTransformerName(rawValue: name))
    }
}
