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

/// A date in ISO 8601, in UTC and the proleptic Gregorian calendar, with as many
/// fractional digits as it has, to the microsecond ("2023-11-14T22:13:20.123456Z").
/// `ISO8601DateFormatter` drops the fraction (or keeps milliseconds), switches to the
/// Julian calendar before 1582 and prints nonsense years for far dates; years outside
/// 0000-9999, which ISO 8601 writes only by agreement, are CD_RANGE.
func iso8601(_ date: Date) throws -> String {
    let t = date.timeIntervalSince1970
    var whole = t.rounded(.down)
    var micros = Int(((t - whole) * 1_000_000).rounded())
    if micros == 1_000_000 { whole += 1; micros = 0 }
    // 0000-01-01T00:00:00Z ..< 10000-01-01T00:00:00Z
    guard whole >= -62_167_219_200, whole < 253_402_300_800 else {
        throw CAPIError(.range, "The date \(t) s since 1970 is outside the years 0000-9999 of ISO 8601 text; read it with cd_fetch_result_get_double.")
    }
    let seconds = Int64(whole)
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    // Days since 1970-01-01 to a civil date (H. Hinnant's days_from_civil, inverted).
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    var text = String(format: "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld", year, month, day,
                      secondOfDay / 3_600, secondOfDay / 60 % 60, secondOfDay % 60)
    if micros > 0 {
        var fraction = String(format: "%06ld", micros)
        while fraction.hasSuffix("0") { fraction.removeLast() }
        text += "." + fraction
    }
    return text + "Z"
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
        case let date as Date: text = try iso8601(date)
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
