import CCoreDataAPI

// MARK: - Status texts
//
// One entry per `cd_status` value of include/coredata.h, and nothing else: `describe`
// passes an NSError's code through only when it is listed here, so every status a call
// returns is in the header's enum (CAPITests and the C harness check both directions).

/// The text of each status: the API's own codes, Foundation's file codes, and Core Data's
/// codes (the constants of Support/CoreDataErrors.swift).
let statusTexts: [Int32: StaticString] = [
    0: "success",
    1: "error",
    2: "API misuse (NULL handle, released context, wrong thread or wrong handle type)",
    3: "out of memory",
    4: "not found",
    5: "wrong value type, or text that is not valid UTF-8",
    6: "out of range",
    7: "the value is null",
    8: "not supported",
    // Foundation's file errors (NSCocoaErrorDomain 256-642).
    256: "the file could not be read",
    257: "no permission to read the file",
    258: "invalid file name to read",
    259: "the file is corrupt or in an unknown format",
    260: "no such file",
    261: "the file's text is not in the expected encoding",
    262: "unsupported URL scheme for reading",
    263: "the file is too large to read",
    264: "the file's text encoding is unknown",
    512: "the file could not be written",
    513: "no permission to write the file",
    514: "invalid file name to write",
    516: "the file already exists",
    517: "the text cannot be written in the requested encoding",
    518: "unsupported URL scheme for writing",
    640: "no space left on the volume",
    642: "the volume is read-only",
    // Key-value coding and formatting.
    1024: "unknown key (key-value validation failed)",
    2048: "malformed predicate format, or a predicate that cannot be evaluated",
    3072: "cancelled",
    // Validation.
    1550: "validation failed",
    1551: "a uniqueness constraint is violated",
    1560: "several validation errors",
    1570: "a mandatory property is missing",
    1580: "a to-many relationship has too few objects",
    1590: "a to-many relationship has too many objects",
    1600: "a Deny delete rule refused the delete",
    1610: "a number is too large",
    1620: "a number is too small",
    1630: "a date is too late",
    1640: "a date is too soon",
    1650: "a date is invalid",
    1660: "a string is too long",
    1670: "a string is too short",
    1680: "a string does not match its pattern",
    1690: "a URI is invalid",
    // Objects, contexts and coordinators.
    132000: "the context could not be locked",
    132010: "the coordinator could not be locked",
    133000: "the object no longer exists in its store",
    133010: "a relationship points to an object in another store or context",
    133020: "merge conflict",
    133021: "uniqueness constraint conflict",
    // Stores.
    134000: "invalid persistent store type or no store",
    134010: "persistent store type mismatch",
    134020: "incompatible store schema",
    134030: "the store could not be saved",
    134040: "the store was saved only in part",
    134050: "save conflicts",
    134060: "Core Data error",
    134070: "persistent store operation failed",
    134080: "the persistent store could not be opened",
    134090: "persistent store timeout",
    134091: "the store does not support this request",
    134100: "the store was made by an incompatible model version",
    // Migration.
    134110: "migration failed",
    134111: "migration would violate a uniqueness constraint",
    134120: "migration was cancelled",
    134130: "no model matches the store to migrate it",
    134140: "no mapping model to migrate the store",
    134150: "migration could not read the source store",
    134160: "migration could not write the destination store",
    134170: "an entity migration policy failed",
    134180: "SQLite error",
    134190: "no mapping model could be inferred",
    134200: "external record import failed",
    // Persistent history and staged migration.
    134301: "the persistent history token has expired",
    134504: "a model reference of the migration was not found",
    134505: "the store does not support a staged migration",
    134506: "a staged migration would migrate backward",
]

@c @implementation public func cd_status_string(_ status: Int32) -> UnsafePointer<CChar>? {
    staticText(statusTexts[status] ?? "unknown status")
}
