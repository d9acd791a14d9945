import Foundation
internal import CCoreDataRuntime

/// Transformable attributes: values in memory, bytes in the store, converted with the
/// attribute's `valueTransformerName` (or kept as `Data` when it has none).
enum Transformer {
    static func decode(_ value: cdr_value, for attribute: NSAttributeDescription) -> Any? {
        guard value.type == UInt8(CDR_BLOB.rawValue) else { return nil }
        let data = value.length > 0 && value.u.blob != nil
            ? Data(bytes: value.u.blob, count: Int(value.length)) : Data()
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
