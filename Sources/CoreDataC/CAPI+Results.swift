import CCoreDataAPI
import CoreData
import Foundation

// MARK: - Fetch results

@c @implementation public func cd_fetch_result_release(_ result: OpaquePointer?) {
    release(result, as: ResultBox.self)
}

@c @implementation public func cd_fetch_result_count(_ out: UnsafeMutablePointer<Int>?, _ result: OpaquePointer?) -> Int32 {
    capi {
        let out = try requireOut(out)
        out.pointee = try ResultBox.checked(result).count
    }
}

/// Checks a row index.
private func checkIndex(_ index: Int, _ box: ResultBox) throws {
    guard index >= 0, index < box.count else {
        throw CAPIError(.range, "Row \(UInt(bitPattern: index)) is out of range (there are \(box.count)).")
    }
}

@c @implementation public func cd_fetch_result_object_at(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ result: OpaquePointer?, _ index: Int
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try ResultBox.checked(result)
        try checkIndex(index, box)
        guard case .objects(let objects) = box.rows else {
            throw CAPIError(.type, "These results are not objects (see cd_fetch_request_set_result_type).")
        }
        guard let contextBox = box.contextBox else {
            throw CAPIError(.misuse, "The context of these results was released.")
        }
        out.pointee = retained(ObjectBox(object: objects[index], contextBox: contextBox))
    }
}

@c @implementation public func cd_fetch_result_object_id_at(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ result: OpaquePointer?, _ index: Int
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try ResultBox.checked(result)
        try checkIndex(index, box)
        switch box.rows {
        case .objectIDs(let ids):
            out.pointee = retained(ObjectIDBox(ids[index]))
        case .objects(let objects):
            guard let contextBox = box.contextBox else {
                throw CAPIError(.misuse, "The context of these results was released.")
            }
            let objectID = try contextBox.run { objects[index].objectID }
            out.pointee = retained(ObjectIDBox(objectID))
        default:
            throw CAPIError(.type, "These results are not objects or object IDs.")
        }
    }
}

/// A number as an Int64, refusing (CD_RANGE) a floating-point value with a fraction or
/// beyond Int64's range, which `int64Value` would silently truncate or wrap.
private func exactInt64(_ number: NSNumber) throws -> Int64 {
    let type = String(cString: number.objCType)
    guard type == "d" || type == "f" else { return number.int64Value }
    guard let exact = Int64(exactly: number.doubleValue) else {
        throw CAPIError(.range, "The value \(number.doubleValue) is not an integer that fits int64_t; read it with cd_fetch_result_get_double.")
    }
    return exact
}

/// A date in ISO 8601, in UTC, with as many fractional digits as it has, to the
/// microsecond ("2023-11-14T22:13:20.123456Z"): `ISO8601DateFormatter` alone drops the
/// fraction, and with `.withFractionalSeconds` keeps milliseconds only.
private func iso8601(_ date: Date) -> String {
    var whole = date.timeIntervalSince1970.rounded(.down)
    var micros = Int(((date.timeIntervalSince1970 - whole) * 1_000_000).rounded())
    if micros == 1_000_000 { whole += 1; micros = 0 }
    let formatter = ISO8601DateFormatter()
    let base = formatter.string(from: Date(timeIntervalSince1970: whole))
    guard micros > 0, base.hasSuffix("Z") else { return base }
    var fraction = String(micros)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return base.dropLast() + "." + fraction + "Z"
}

/// The value of `key` in a dictionary row (CD_NULL when absent).
private func dictionaryValue(_ result: OpaquePointer?, _ index: Int, _ key: UnsafePointer<CChar>?) throws -> Any {
    let box = try ResultBox.checked(result)
    try checkIndex(index, box)
    guard case .dictionaries(let rows) = box.rows else {
        throw CAPIError(.type, "These results are not dictionaries (see cd_fetch_request_set_result_type).")
    }
    let key = try requireString(key, "key")
    guard let value = rows[index][key], !(value is NSNull) else {
        throw CAPIError(.null, "Row \(index) has no value for \(key).")
    }
    return value
}

@c @implementation public func cd_fetch_result_get_int64(
    _ out: UnsafeMutablePointer<Int64>?, _ result: OpaquePointer?, _ index: Int, _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try ResultBox.checked(result)
        if case .count(let count) = box.rows {
            try checkIndex(index, box)
            guard key == nil else { throw CAPIError(.type, "A count result has no keys: pass NULL.") }
            out.pointee = Int64(count)
            return
        }
        let value = try dictionaryValue(result, index, key)
        guard !(value is String), let number = try? number(value) else {
            throw CAPIError(.type, "The value \(value) is not an integer.")
        }
        out.pointee = try exactInt64(number)
    }
}

@c @implementation public func cd_fetch_result_get_double(
    _ out: UnsafeMutablePointer<Double>?, _ result: OpaquePointer?, _ index: Int, _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let value = try dictionaryValue(result, index, key)
        if let date = value as? Date {
            out.pointee = date.timeIntervalSince1970
        } else if !(value is String), let number = try? number(value) {
            out.pointee = number.doubleValue
        } else {
            throw CAPIError(.type, "The value \(value) is not a number.")
        }
    }
}

@c @implementation public func cd_fetch_result_copy_text(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ result: OpaquePointer?, _ index: Int,
    _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let value = try dictionaryValue(result, index, key)
        let text: String
        switch value {
        case let string as String: text = string
        case let date as Date: text = iso8601(date)
        case let uuid as UUID: text = uuid.uuidString
        case let url as URL: text = url.absoluteString
        case let objectID as NSManagedObjectID: text = objectID.uriRepresentation().absoluteString
        case let data as Data: text = data.map { String(format: "%02x", $0) }.joined()
        case let decimal as Decimal: text = decimal.description
        case let number as NSNumber: text = number.stringValue
        default:
            // No text form the header promises (a transformable's decoded value, say): a
            // debug description would be text nobody can read back.
            throw CAPIError(.type, "The value of \(key.flatMap { String(validatingCString: $0) } ?? "?") in row \(index) is \(type(of: value)), which has no text form; read it with the typed getters.")
        }
        out.pointee = try ownedCString(text)
    }
}
