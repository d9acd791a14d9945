import CoreData
import Foundation

/// JSON for the tool's `--json` output, `export` and `import`: the one place that says how
/// each Core Data value is written, and read back.
///
/// Strings, numbers and Booleans as JSON's own; dates as ISO 8601 in UTC with milliseconds;
/// UUIDs in 8-4-4-4-12 form; data in Base64; decimals and URIs as strings; object IDs as
/// their URIs; values a transformer decoded as their description.
enum JSONValues {
    /// The JSON form of one attribute or relationship value; `NSNull` for nil.
    static func value(_ value: Any?) -> Any {
        switch value {
        case nil, is NSNull: return NSNull()
        case let string as String: return string
        case let date as Date: return timestamp(date)
        case let uuid as UUID: return uuid.uuidString
        case let data as Data: return data.base64EncodedString()
        case let decimal as Decimal: return "\(decimal)"
        case let url as URL: return url.absoluteString
        case let id as NSManagedObjectID: return id.uriRepresentation().absoluteString
        case let object as NSManagedObject: return object.objectID.uriRepresentation().absoluteString
        case let decimal as NSDecimalNumber: return decimal.stringValue
        case let number as NSNumber: return number
        case let bool as Bool: return bool
        case let int as Int: return int
        case let int as Int64: return int
        case let double as Double: return double
        case let value?: return "\(value)"
        }
    }

    /// A date as ISO 8601 in UTC with milliseconds: `2023-11-14T22:13:20.500Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// `object` as JSON text: pretty-printed with sorted keys, or on one line.
    static func text(_ object: Any, pretty: Bool = true) throws -> String {
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        if pretty { options.insert(.prettyPrinted) }
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: options), as: UTF8.self)
    }

    /// The attribute value that `json` (as ``value(_:)`` wrote it) stands for; nil for JSON's
    /// null. A value of the wrong JSON type, or one with no JSON form (a transformable
    /// attribute's), is an `NSValidationErrorMinimum`-range error naming the attribute.
    static func attributeValue(_ json: Any, for attribute: NSAttributeDescription, entity: String) throws -> Any? {
        if json is NSNull { return nil }
        func wrong() -> NSError {
            NSError(domain: NSCocoaErrorDomain, code: NSManagedObjectValidationError, userInfo: [
                NSLocalizedDescriptionKey: "\(entity).\(attribute.name): \(json) is not a value of its type (\(attribute.attributeType))",
                NSValidationKeyErrorKey: attribute.name,
            ])
        }
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            guard !(json is Bool), let integer = json as? Int else { throw wrong() }
            return Int64(integer)
        case .doubleAttributeType, .floatAttributeType:
            guard let number = json as? NSNumber else { throw wrong() }
            return number.doubleValue
        case .booleanAttributeType:
            guard let bool = json as? Bool else { throw wrong() }
            return bool
        case .stringAttributeType:
            guard let string = json as? String else { throw wrong() }
            return string
        case .dateAttributeType:
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            guard let text = json as? String,
                  let date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text) else { throw wrong() }
            return date
        case .UUIDAttributeType:
            guard let text = json as? String, let uuid = UUID(uuidString: text) else { throw wrong() }
            return uuid
        case .binaryDataAttributeType:
            guard let text = json as? String, let data = Data(base64Encoded: text) else { throw wrong() }
            return data
        case .decimalAttributeType:
            guard let text = json as? String, let decimal = Decimal(string: text) else { throw wrong() }
            return decimal
        case .URIAttributeType:
            guard let text = json as? String, let url = URL(string: text) else { throw wrong() }
            return url
        default:
            throw wrong()
        }
    }
}
