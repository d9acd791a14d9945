import Foundation

/// Transformable attributes: values in memory, bytes in the store, converted with the
/// attribute's `valueTransformerName` (or kept as `Data` when it has none).
enum Transformer {
    /// The value of a transformable attribute from its stored bytes (a row's blob slot).
    static func decode(_ value: SlotValue, for attribute: NSAttributeDescription) -> Any? {
        guard value.type == .blob else { return nil }
        let data = value.data
        guard let name = attribute.valueTransformerName, !name.isEmpty,
              let transformer = ValueTransformer.valueTransformer(forName: NSValueTransformerName(rawValue: name)) else {
            return data
        }
        return transformer.reverseTransformedValue(data)
    }

    static func encode(_ value: Any, for attribute: NSAttributeDescription) -> Data? {
        if let name = attribute.valueTransformerName, !name.isEmpty,
           let transformer = ValueTransformer.valueTransformer(forName: NSValueTransformerName(rawValue: name)) {
            return transformer.transformedValue(value) as? Data
        }
        return value as? Data
    }
}
