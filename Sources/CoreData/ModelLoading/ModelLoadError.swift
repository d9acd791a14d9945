import Foundation

/// Builds the errors thrown while reading model files. Every error is an `NSError` in
/// `NSCocoaErrorDomain` whose description names the file and, where it applies, the
/// entity, the property and the line.
///
/// Codes: file-level problems use Foundation's file codes (`NSFileReadNoSuchFileError`
/// 260 for a missing file, `NSFileReadCorruptFileError` 259 for XML that does not parse
/// and for the unsupported legacy format); problems in the model itself (unknown type,
/// missing destination, inheritance cycle, ...) use `NSManagedObjectValidationError`.
enum ModelLoadError {
    /// `userInfo` keys carrying the entity and property names of a model error.
    static let entityKey = "NSModelErrorEntityName"
    static let propertyKey = "NSModelErrorPropertyName"
    static let lineKey = "NSModelErrorLine"

    static let noSuchFile = 260        // NSFileReadNoSuchFileError
    static let corruptFile = 259       // NSFileReadCorruptFileError
    static let invalidModel = NSManagedObjectValidationError

    static func make(
        _ code: Int, file: URL, entity: String? = nil, property: String? = nil,
        line: Int? = nil, _ problem: String
    ) -> NSError {
        var text = "Can't load the Core Data model \(file.path)"
        if let line { text += " (line \(line))" }
        text += ": "
        if let entity { text += "entity \(entity)" + (property == nil ? ": " : ", ") }
        if let property { text += "property \(property): " }
        text += problem
        var info: [String: Any] = [NSFilePathErrorKey: file.path, NSURLErrorKey: file]
        if let entity { info[entityKey] = entity }
        if let property { info[propertyKey] = property }
        if let line { info[lineKey] = line }
        return CoreDataError.make(code, text, userInfo: info)
    }
}
