import CCoreDataAPI
import CoreData
import Foundation

// MARK: - Predicate arguments (no C varargs: a list built by calls)

/// Appends a value to an argument list.
private func append(_ arguments: OpaquePointer?, _ value: () throws -> Any) -> Int32 {
    capi {
        let box = try handle(arguments, as: ArgumentsBox.self, "arguments")
        box.values.append(try value())
    }
}

@c @implementation public func cd_arguments_create(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    capi {
        let out = try requireOut(out)
        out.pointee = retained(ArgumentsBox())
    }
}

@c @implementation public func cd_arguments_release(_ arguments: OpaquePointer?) {
    release(arguments, as: ArgumentsBox.self)
}

@c @implementation public func cd_arguments_add_int64(_ arguments: OpaquePointer?, _ value: Int64) -> Int32 {
    append(arguments) { NSNumber(value: value) }
}

@c @implementation public func cd_arguments_add_double(_ arguments: OpaquePointer?, _ value: Double) -> Int32 {
    append(arguments) {
        // NaN equals nothing in memory but binds as NULL in SQL: the two would disagree.
        guard !value.isNaN else { throw CAPIError(.range, "NaN is not a predicate argument; use cd_arguments_add_null for nil.") }
        return NSNumber(value: value)
    }
}

@c @implementation public func cd_arguments_add_bool(_ arguments: OpaquePointer?, _ value: Int32) -> Int32 {
    append(arguments) { NSNumber(value: value != 0) }
}

@c @implementation public func cd_arguments_add_text(_ arguments: OpaquePointer?, _ value: UnsafePointer<CChar>?) -> Int32 {
    append(arguments) { try requireString(value, "value") }
}

@c @implementation public func cd_arguments_add_decimal(_ arguments: OpaquePointer?, _ text: UnsafePointer<CChar>?) -> Int32 {
    append(arguments) { NSDecimalNumber(decimal: try exactDecimal(try requireString(text, "text"), "predicate argument")) }
}

@c @implementation public func cd_arguments_add_date(_ arguments: OpaquePointer?, _ seconds: Double) -> Int32 {
    append(arguments) {
        guard seconds.isFinite else { throw CAPIError(.range, "The date \(seconds) is not finite.") }
        return Date(timeIntervalSince1970: seconds)
    }
}

@c @implementation public func cd_arguments_add_uuid(_ arguments: OpaquePointer?, _ bytes: UnsafePointer<UInt8>?) -> Int32 {
    append(arguments) {
        guard let bytes else { throw CAPIError(.misuse, "bytes is NULL.") }
        return uuid(from: bytes)
    }
}

@c @implementation public func cd_arguments_add_blob(
    _ arguments: OpaquePointer?, _ bytes: UnsafeRawPointer?, _ length: Int
) -> Int32 {
    append(arguments) { try copiedBytes(bytes, length) }
}

@c @implementation public func cd_arguments_add_null(_ arguments: OpaquePointer?) -> Int32 {
    append(arguments) { NSNull() }
}

@c @implementation public func cd_arguments_add_object(_ arguments: OpaquePointer?, _ object: OpaquePointer?) -> Int32 {
    append(arguments) { try handle(object, as: ObjectBox.self, "object").object }
}

@c @implementation public func cd_arguments_add_object_id(_ arguments: OpaquePointer?, _ objectID: OpaquePointer?) -> Int32 {
    append(arguments) { try handle(objectID, as: ObjectIDBox.self, "object_id").objectID }
}
