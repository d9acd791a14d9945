/**
 * @file coredata.h
 * @brief The C API of OpenCoreData: Apple's Core Data stack on Linux, for C programs and
 *        every language's FFI (Python ctypes, Rust, Go, ...).
 *
 * Link with `$(pkg-config --cflags --libs coredata)`; the library is `libcoredata.so`.
 *
 * ## Conventions
 * - Every name starts with `cd_` (functions, types) or `CD_` (macros, constants).
 * - Handles are opaque pointers. Each handle type has a release function; every release
 *   function accepts NULL and does nothing with it.
 * - Fallible functions return an `int` status: #CD_OK (0) on success, a small #cd_status
 *   code for API misuse and generic failures, or, for a failure of the stack itself, the
 *   code of the `NSError` in `NSCocoaErrorDomain` that the Swift API throws (for example
 *   1570 for a missing mandatory property), so C and Swift see the same numbers.
 *   cd_last_error_message() then says what went wrong.
 * - Output parameters come first and are named `out...`. They are written only on
 *   success.
 * - Ownership is in the name: a handle returned through `**out` by a `_create`, `_open`,
 *   `_copy_` or any other function is owned by the caller (+1) and must be released with
 *   its type's release function. Strings and blobs the caller owns are freed with
 *   cd_string_free() and cd_blob_free() only. `const char *` results marked "borrowed"
 *   live as long as the handle they came from.
 * - Strings in and out are UTF-8 and NUL-terminated. A `const char *` argument that is not
 *   valid UTF-8 (a key, an entity name, a path, a text value, a predicate format) returns
 *   #CD_TYPE and changes nothing; text holding a NUL character cannot be returned as a C
 *   string and reads as #CD_TYPE.
 * - Lengths and indexes are `size_t`; one above `PTRDIFF_MAX` (such as `SIZE_MAX`, or a
 *   negative number cast to `size_t`) returns #CD_RANGE.
 * - Dates are seconds since 1970-01-01 00:00:00 UTC (Unix time) as `double`; UUIDs are 16
 *   bytes in network order; decimals are text ("12.50").
 *
 * ## Threads
 * A context serialises its work on its queue, as in Core Data:
 * - the view context (cd_container_view_context()) belongs to the main thread; it may be
 *   used only from the main thread (the thread that runs `main()`, or Python's main thread).
 *   A call from another thread returns #CD_MISUSE instead of blocking forever.
 * - a background context (cd_container_new_background_context()) may be used from any
 *   thread: each call runs synchronously on the context's private queue (Core Data's
 *   `performAndWait`), so calls from several threads are serialised.
 * Objects, fetch results and to-many lists run their calls on the queue of the context
 * they came from, with the same rules: an object or result of the view context used from
 * another thread returns #CD_MISUSE too. cd_context_perform_and_wait() runs a whole callback
 * on the queue, which is both faster and atomic with respect to other threads.
 *
 * ## Misuse never aborts
 * NULL handles, unknown entities or keys, values of the wrong type, text that is not
 * UTF-8, lengths no allocation can hold, malformed predicates, objects whose context was
 * released and calls from the wrong thread all return a status (#CD_MISUSE, #CD_NOTFOUND,
 * #CD_TYPE, #CD_RANGE, ...) with a message; no call aborts the process. No call changes a
 * value silently either: a value the attribute or store cannot keep exactly (NaN, a double
 * beyond a float's range, a decimal of more than 38 digits, text that is not a URI for a
 * URI attribute) returns a status instead.
 * (Using a handle after releasing it is undefined behaviour, as with any C API.)
 */
#ifndef COREDATA_H
#define COREDATA_H

#include <stddef.h>
#include <stdint.h>

/** The version of this header, as text. */
#define CD_VERSION "0.1.0"
/** The version of this header: major * 1000000 + minor * 1000 + patch. */
#define CD_VERSION_NUMBER 1000

#if defined(__GNUC__) || defined(__clang__)
#  define CD_API extern __attribute__((visibility("default")))
#else
#  define CD_API extern
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------- */
/** @name Status codes */
/** @{ */

/**
 * Status codes. 0 is success; 1-255 are the API's own codes; 256 and above are the codes
 * of `NSError`s in `NSCocoaErrorDomain`: Foundation's file codes (256-642), key-value
 * coding and formatting (1024, 2048, 3072) and Core Data's codes (1550-134506), the same
 * numbers the Swift API throws. Every status a call returns is listed here: an
 * `NSCocoaErrorDomain` error whose code is not listed returns #CD_ERROR, with the code in
 * the message. cd_status_string() has a text of its own for each.
 */
typedef enum cd_status {
    CD_OK = 0,              /**< Success. */
    CD_ERROR = 1,           /**< A failure without a more precise code. */
    CD_MISUSE = 2,          /**< The API was used wrongly: NULL handle, wrong thread, released context. */
    CD_NOMEM = 3,           /**< Out of memory. */
    CD_NOTFOUND = 4,        /**< No such entity, key, object, file or index. */
    CD_TYPE = 5,            /**< The value's type does not fit the attribute or result, or text is not valid UTF-8. */
    CD_RANGE = 6,           /**< The value, length or index is out of range. */
    CD_NULL = 7,            /**< The value is null (nil); nothing was written to the output. */
    CD_UNSUPPORTED = 8,     /**< Not available here, or not enabled (undo). */
    CD_FILE_READ_UNKNOWN = 256,              /**< NSFileReadUnknownError. */
    CD_FILE_READ_NO_PERMISSION = 257,        /**< NSFileReadNoPermissionError. */
    CD_FILE_READ_INVALID_FILE_NAME = 258,    /**< NSFileReadInvalidFileNameError. */
    CD_FILE_READ_CORRUPT_FILE = 259,         /**< NSFileReadCorruptFileError: the model or store file does not parse. */
    CD_FILE_READ_NO_SUCH_FILE = 260,         /**< NSFileReadNoSuchFileError: no model file at the path. */
    CD_FILE_READ_INAPPLICABLE_STRING_ENCODING = 261, /**< NSFileReadInapplicableStringEncodingError. */
    CD_FILE_READ_UNSUPPORTED_SCHEME = 262,   /**< NSFileReadUnsupportedSchemeError. */
    CD_FILE_READ_TOO_LARGE = 263,            /**< NSFileReadTooLargeError. */
    CD_FILE_READ_UNKNOWN_STRING_ENCODING = 264, /**< NSFileReadUnknownStringEncodingError. */
    CD_FILE_WRITE_UNKNOWN = 512,             /**< NSFileWriteUnknownError. */
    CD_FILE_WRITE_NO_PERMISSION = 513,       /**< NSFileWriteNoPermissionError. */
    CD_FILE_WRITE_INVALID_FILE_NAME = 514,   /**< NSFileWriteInvalidFileNameError. */
    CD_FILE_WRITE_FILE_EXISTS = 516,         /**< NSFileWriteFileExistsError. */
    CD_FILE_WRITE_INAPPLICABLE_STRING_ENCODING = 517, /**< NSFileWriteInapplicableStringEncodingError. */
    CD_FILE_WRITE_UNSUPPORTED_SCHEME = 518,  /**< NSFileWriteUnsupportedSchemeError. */
    CD_FILE_WRITE_OUT_OF_SPACE = 640,        /**< NSFileWriteOutOfSpaceError. */
    CD_FILE_WRITE_VOLUME_READ_ONLY = 642,    /**< NSFileWriteVolumeReadOnlyError. */
    CD_KEY_VALUE_VALIDATION = 1024,          /**< NSKeyValueValidationError: a predicate names a key the objects lack. */
    CD_VALIDATION = 1550,                    /**< NSManagedObjectValidationError. */
    CD_CONSTRAINT_VALIDATION = 1551,         /**< NSManagedObjectConstraintValidationError. */
    CD_VALIDATION_MULTIPLE_ERRORS = 1560,    /**< NSValidationMultipleErrorsError. */
    CD_VALIDATION_MISSING_MANDATORY_PROPERTY = 1570, /**< NSValidationMissingMandatoryPropertyError. */
    CD_VALIDATION_RELATIONSHIP_LACKS_MINIMUM_COUNT = 1580, /**< NSValidationRelationshipLacksMinimumCountError. */
    CD_VALIDATION_RELATIONSHIP_EXCEEDS_MAXIMUM_COUNT = 1590, /**< NSValidationRelationshipExceedsMaximumCountError. */
    CD_VALIDATION_RELATIONSHIP_DENIED_DELETE = 1600, /**< NSValidationRelationshipDeniedDeleteError. */
    CD_VALIDATION_NUMBER_TOO_LARGE = 1610,   /**< NSValidationNumberTooLargeError. */
    CD_VALIDATION_NUMBER_TOO_SMALL = 1620,   /**< NSValidationNumberTooSmallError. */
    CD_VALIDATION_DATE_TOO_LATE = 1630,      /**< NSValidationDateTooLateError. */
    CD_VALIDATION_DATE_TOO_SOON = 1640,      /**< NSValidationDateTooSoonError. */
    CD_VALIDATION_INVALID_DATE = 1650,       /**< NSValidationInvalidDateError. */
    CD_VALIDATION_STRING_TOO_LONG = 1660,    /**< NSValidationStringTooLongError. */
    CD_VALIDATION_STRING_TOO_SHORT = 1670,   /**< NSValidationStringTooShortError. */
    CD_VALIDATION_STRING_PATTERN_MATCHING = 1680, /**< NSValidationStringPatternMatchingError. */
    CD_VALIDATION_INVALID_URI = 1690,        /**< NSValidationInvalidURIError. */
    CD_FORMATTING = 2048,                    /**< NSFormattingError: a malformed predicate format, or one that cannot be evaluated. */
    CD_USER_CANCELLED = 3072,                /**< NSUserCancelledError. */
    CD_CONTEXT_LOCKING = 132000,             /**< NSManagedObjectContextLockingError. */
    CD_COORDINATOR_LOCKING = 132010,         /**< NSPersistentStoreCoordinatorLockingError. */
    CD_REFERENTIAL_INTEGRITY = 133000,       /**< NSManagedObjectReferentialIntegrityError: the object is gone. */
    CD_EXTERNAL_RELATIONSHIP = 133010,       /**< NSManagedObjectExternalRelationshipError. */
    CD_MERGE = 133020,                       /**< NSManagedObjectMergeError. */
    CD_CONSTRAINT_MERGE = 133021,            /**< NSManagedObjectConstraintMergeError. */
    CD_STORE_INVALID_TYPE = 134000,          /**< NSPersistentStoreInvalidTypeError. */
    CD_STORE_TYPE_MISMATCH = 134010,         /**< NSPersistentStoreTypeMismatchError. */
    CD_STORE_INCOMPATIBLE_SCHEMA = 134020,   /**< NSPersistentStoreIncompatibleSchemaError. */
    CD_STORE_SAVE = 134030,                  /**< NSPersistentStoreSaveError. */
    CD_STORE_INCOMPLETE_SAVE = 134040,       /**< NSPersistentStoreIncompleteSaveError. */
    CD_STORE_SAVE_CONFLICTS = 134050,        /**< NSPersistentStoreSaveConflictsError. */
    CD_CORE_DATA = 134060,                   /**< NSCoreDataError. */
    CD_STORE_OPERATION = 134070,             /**< NSPersistentStoreOperationError. */
    CD_STORE_OPEN = 134080,                  /**< NSPersistentStoreOpenError. */
    CD_STORE_TIMEOUT = 134090,               /**< NSPersistentStoreTimeoutError: the store is locked by another connection. */
    CD_STORE_UNSUPPORTED_REQUEST_TYPE = 134091, /**< NSPersistentStoreUnsupportedRequestTypeError. */
    CD_STORE_INCOMPATIBLE_VERSION_HASH = 134100, /**< NSPersistentStoreIncompatibleVersionHashError. */
    CD_MIGRATION = 134110,                   /**< NSMigrationError. */
    CD_MIGRATION_CONSTRAINT_VIOLATION = 134111, /**< NSMigrationConstraintViolationError. */
    CD_MIGRATION_CANCELLED = 134120,         /**< NSMigrationCancelledError. */
    CD_MIGRATION_MISSING_SOURCE_MODEL = 134130, /**< NSMigrationMissingSourceModelError. */
    CD_MIGRATION_MISSING_MAPPING_MODEL = 134140, /**< NSMigrationMissingMappingModelError. */
    CD_MIGRATION_MANAGER_SOURCE_STORE = 134150, /**< NSMigrationManagerSourceStoreError. */
    CD_MIGRATION_MANAGER_DESTINATION_STORE = 134160, /**< NSMigrationManagerDestinationStoreError. */
    CD_ENTITY_MIGRATION_POLICY = 134170,     /**< NSEntityMigrationPolicyError. */
    CD_SQLITE = 134180,                      /**< NSSQLiteError. */
    CD_INFERRED_MAPPING_MODEL = 134190,      /**< NSInferredMappingModelError. */
    CD_EXTERNAL_RECORD_IMPORT = 134200,      /**< NSExternalRecordImportError. */
    CD_PERSISTENT_HISTORY_TOKEN_EXPIRED = 134301, /**< NSPersistentHistoryTokenExpiredError. */
    CD_MODEL_REFERENCE_NOT_FOUND = 134504,   /**< NSManagedObjectModelReferenceNotFoundError. */
    CD_STAGED_MIGRATION_FRAMEWORK_VERSION_MISMATCH = 134505, /**< NSStagedMigrationFrameworkVersionMismatchError. */
    CD_STAGED_MIGRATION_BACKWARD_MIGRATION = 134506 /**< NSStagedMigrationBackwardMigrationError. */
} cd_status;

/** @} */

/* ---------------------------------------------------------------------------------- */
/** @name Handles */
/** @{ */

typedef struct cd_container cd_container;         /**< NSPersistentContainer: model, coordinator, store. */
typedef struct cd_model cd_model;                 /**< NSManagedObjectModel, for introspection. */
typedef struct cd_context cd_context;             /**< NSManagedObjectContext. */
typedef struct cd_object cd_object;               /**< NSManagedObject. */
typedef struct cd_object_id cd_object_id;         /**< NSManagedObjectID. */
typedef struct cd_fetch_request cd_fetch_request; /**< NSFetchRequest. */
typedef struct cd_arguments cd_arguments;         /**< The arguments of a predicate format. */
typedef struct cd_fetch_result cd_fetch_result;   /**< A fetch's results, or a to-many's members. */
typedef struct cd_error cd_error;                 /**< Details of the last failure on a thread. */

/**
 * A callback run by cd_context_perform_and_wait() on the context's queue.
 * @param ctx the context, borrowed for the duration of the call
 * @param payload the pointer given to cd_context_perform_and_wait()
 */
typedef void (*cd_context_fn)(cd_context *ctx, void *payload);

/** @} */

/* ---------------------------------------------------------------------------------- */
/** @name Constants */
/** @{ */

/** Flags for cd_container_open(). */
enum cd_open_flags {
    CD_OPEN_DEFAULT = 0,            /**< Read-write SQLite store with lightweight migration. */
    CD_OPEN_READ_ONLY = 1,          /**< Open the store read-only; saving fails. Not with #CD_OPEN_IN_MEMORY. */
    CD_OPEN_NO_MIGRATION = 2,       /**< Do not migrate a store of an older model version. */
    CD_OPEN_IN_MEMORY = 4           /**< An in-memory store; the store path is ignored. */
};

/** Result types of a fetch request (Apple's NSFetchRequestResultType values). */
enum cd_result_type {
    CD_RESULT_OBJECTS = 0,          /**< Managed objects (the default). */
    CD_RESULT_OBJECT_IDS = 1,       /**< Object IDs. */
    CD_RESULT_DICTIONARIES = 2,     /**< One dictionary of property values per object. */
    CD_RESULT_COUNT = 4             /**< One row holding the number of matching objects. */
};

/** Attribute types (Apple's NSAttributeType values). */
enum cd_attribute_type {
    CD_ATTRIBUTE_UNDEFINED = 0,
    CD_ATTRIBUTE_INTEGER16 = 100,
    CD_ATTRIBUTE_INTEGER32 = 200,
    CD_ATTRIBUTE_INTEGER64 = 300,
    CD_ATTRIBUTE_DECIMAL = 400,
    CD_ATTRIBUTE_DOUBLE = 500,
    CD_ATTRIBUTE_FLOAT = 600,
    CD_ATTRIBUTE_STRING = 700,
    CD_ATTRIBUTE_BOOLEAN = 800,
    CD_ATTRIBUTE_DATE = 900,
    CD_ATTRIBUTE_BINARY = 1000,
    CD_ATTRIBUTE_UUID = 1100,
    CD_ATTRIBUTE_URI = 1200,
    CD_ATTRIBUTE_TRANSFORMABLE = 1800,
    CD_ATTRIBUTE_OBJECT_ID = 2000,
    CD_ATTRIBUTE_COMPOSITE = 2100
};

/** Kinds of entity properties, from cd_model_property(). */
enum cd_property_kind {
    CD_PROPERTY_ATTRIBUTE = 1,      /**< An attribute; see its cd_attribute_type. */
    CD_PROPERTY_TO_ONE = 2,         /**< A to-one relationship. */
    CD_PROPERTY_TO_MANY = 3,        /**< A to-many relationship. */
    CD_PROPERTY_OTHER = 4           /**< A fetched property or another kind. */
};

/** Bits of an object's state, from cd_object_state(). */
enum cd_object_state_flags {
    CD_OBJECT_INSERTED = 1,         /**< Inserted and not saved yet. */
    CD_OBJECT_UPDATED = 2,          /**< Has unsaved changes. */
    CD_OBJECT_DELETED = 4,          /**< Deleted and not saved yet. */
    CD_OBJECT_FAULT = 8             /**< Its data is not loaded yet. */
};

/** @} */

/* ---------------------------------------------------------------------------------- */
/** @name Library, errors and memory */
/** @{ */

/**
 * The version of the loaded library.
 * @return major * 1000000 + minor * 1000 + patch; compare with #CD_VERSION_NUMBER
 */
CD_API int64_t cd_libversion_number(void);

/**
 * The version of the loaded library, as text.
 * @return static text such as "0.1.0"; never NULL, not to be freed
 */
CD_API const char *cd_libversion(void);

/**
 * Describes a status code.
 * @param status a value returned by a cd_ function
 * @return static text; never NULL, not to be freed
 */
CD_API const char *cd_status_string(int status);

/**
 * The message of the last failure on the calling thread. Reading it (and
 * cd_last_error_code(), cd_last_error_copy(), cd_status_string(), the cd_error_
 * accessors) leaves it as it is.
 * @return borrowed text, valid until the next cd_ call on this thread; "" after a
 *         success; never NULL
 */
CD_API const char *cd_last_error_message(void);

/**
 * The status of the last call on the calling thread that returns a status.
 * @return #CD_OK after a success, else the status that call returned
 */
CD_API int cd_last_error_code(void);

/**
 * Copies the details of the last failure on the calling thread, leaving them in place.
 * @param[out] out receives a new error handle (+1), to release with cd_error_release()
 * @return #CD_OK (also when the last call succeeded: the copy then has code #CD_OK), or
 *         #CD_MISUSE if @p out is NULL, which then becomes the last failure, with a
 *         message
 */
CD_API int cd_last_error_copy(cd_error **out);

/**
 * The status code of an error.
 * @param error an error from cd_last_error_copy(), or NULL
 * @return the code, or #CD_MISUSE if @p error is NULL
 */
CD_API int cd_error_code(const cd_error *error);

/**
 * The domain of an error: "NSCocoaErrorDomain" for Core Data failures, "CDErrorDomain"
 * for the API's own codes.
 * @param error an error from cd_last_error_copy(), or NULL
 * @return borrowed text that lives as long as @p error; "" if @p error is NULL
 */
CD_API const char *cd_error_domain(const cd_error *error);

/**
 * The message of an error.
 * @param error an error from cd_last_error_copy(), or NULL
 * @return borrowed text that lives as long as @p error; "" if @p error is NULL
 */
CD_API const char *cd_error_message(const cd_error *error);

/**
 * The property that a validation error is about (`NSValidationKeyErrorKey`).
 * @param error an error from cd_last_error_copy(), or NULL
 * @return borrowed text that lives as long as @p error, or NULL when there is none
 */
CD_API const char *cd_error_key(const cd_error *error);

/**
 * Releases an error. NULL is a no-op.
 * @param error an error from cd_last_error_copy(), or NULL
 */
CD_API void cd_error_release(cd_error *error);

/**
 * Frees a string that a cd_ function gave to the caller. NULL is a no-op.
 * @param string a string returned through a `char **out` parameter, or NULL
 */
CD_API void cd_string_free(char *string);

/**
 * Frees a blob that a cd_ function gave to the caller. NULL is a no-op.
 * @param blob a blob returned through a `void **out` parameter, or NULL
 */
CD_API void cd_blob_free(void *blob);

/** @} */

/* ---------------------------------------------------------------------------------- */
/** @name Containers */
/** @{ */

/**
 * Opens a persistent container: loads the model and adds one store.
 * @param[out] out receives the container (+1), to release with cd_container_release()
 * @param model_path a `.xcdatamodeld` bundle or `.xcdatamodel` directory; the container's
 *        name is its base name. NULL opens an existing SQLite store with the model cached
 *        inside it (the one that wrote it, as Apple's Core Data caches it): for tools
 *        that inspect a store without its app; the container's name is the store's base name
 * @param store_path the SQLite store file (created, with its directory, if missing), or a
 *        `postgresql://` URI (libpq's form) for a PostgreSQL store, whose tables are created
 *        in that database if missing; may be NULL with #CD_OPEN_IN_MEMORY
 * @param flags a combination of cd_open_flags
 * @return #CD_OK; #CD_MISUSE for a NULL argument, an empty path, unknown flags,
 *         #CD_OPEN_READ_ONLY with #CD_OPEN_IN_MEMORY or a NULL model_path with
 *         #CD_OPEN_IN_MEMORY or a PostgreSQL store; #CD_TYPE for a path that is not UTF-8; 260 or 259 for a
 *         missing or malformed model; 260 for a missing store with a NULL model_path and
 *         #CD_STORE_INVALID_TYPE for a file that is not a store or caches no model; a
 *         store error such as #CD_STORE_OPEN, #CD_STORE_INCOMPATIBLE_VERSION_HASH or #CD_MIGRATION
 */
CD_API int cd_container_open(cd_container **out, const char *model_path,
                             const char *store_path, unsigned int flags);

/**
 * Releases a container. Contexts keep what they need of it alive. NULL is a no-op.
 * @param container a container, or NULL
 */
CD_API void cd_container_release(cd_container *container);

/**
 * The container's main-thread context (Core Data's `viewContext`).
 * @param[out] out receives the context (+1), to release with cd_context_release(); every
 *        call returns the same context
 * @param container a container; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_container_view_context(cd_context **out, cd_container *container);

/**
 * A new private-queue context on the container's coordinator, usable from any thread.
 * @param[out] out receives the context (+1), to release with cd_context_release()
 * @param container a container; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_container_new_background_context(cd_context **out, cd_container *container);

/**
 * The container's model, for introspection.
 * @param[out] out receives the model (+1), to release with cd_model_release()
 * @param container a container; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_container_copy_model(cd_model **out, cd_container *container);

/**
 * Makes an object ID from its URI representation (`x-coredata://<store>/<Entity>/p<n>`).
 * @param[out] out receives the ID (+1), to release with cd_object_id_release()
 * @param container the container whose store the ID belongs to; not NULL
 * @param uri a URI from cd_object_id_copy_uri(); not NULL
 * @return #CD_OK; #CD_TYPE for text that is not a URI, or not of the form
 *         `x-coredata://<store>/<Entity>/p<n>` (or `.../t<UUID>`); #CD_NOTFOUND if no
 *         store, entity or primary key of the container matches, and for a temporary ID;
 *         #CD_MISUSE
 */
CD_API int cd_container_object_id_from_uri(cd_object_id **out, cd_container *container,
                                            const char *uri);

/** @} */

/* ---------------------------------------------------------------------------------- */
/** @name Models */
/** @{ */

/**
 * Loads a model file without opening a store.
 * @param[out] out receives the model (+1), to release with cd_model_release()
 * @param path a `.xcdatamodeld` bundle or `.xcdatamodel` directory; not NULL, not ""
 * @return #CD_OK; 260 or 259 for a missing or malformed file; #CD_VALIDATION for a
 *         model that is not valid; #CD_MISUSE for NULL or ""; #CD_TYPE for a path that
 *         is not UTF-8
 */
CD_API int cd_model_load(cd_model **out, const char *path);

/**
 * Releases a model. NULL is a no-op.
 * @param model a model, or NULL
 */
CD_API void cd_model_release(cd_model *model);

/**
 * The number of entities in a model.
 * @param[out] out receives the count
 * @param model a model; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_model_entity_count(size_t *out, const cd_model *model);

/**
 * The name of an entity, by index (entities are sorted by name).
 * @param[out] out receives the name, borrowed: it lives as long as @p model
 * @param model a model; not NULL
 * @param index from 0 to the entity count - 1
 * @return #CD_OK, #CD_RANGE, or #CD_MISUSE
 */
CD_API int cd_model_entity_name(const char **out, const cd_model *model, size_t index);

/**
 * The parent entity (`superentity`) of an entity.
 * @param[out] out receives the parent's name (borrowed, lives as long as @p model), or
 *        NULL when the entity has no parent
 * @param model a model; not NULL
 * @param entity an entity name; not NULL
 * @return #CD_OK, #CD_NOTFOUND, or #CD_MISUSE
 */
CD_API int cd_model_entity_parent(const char **out, const cd_model *model, const char *entity);

/**
 * The number of properties of an entity, inherited ones included.
 * @param[out] out receives the count
 * @param model a model; not NULL
 * @param entity an entity name; not NULL
 * @return #CD_OK, #CD_NOTFOUND, or #CD_MISUSE
 */
CD_API int cd_model_property_count(size_t *out, const cd_model *model, const char *entity);

/**
 * Describes a property of an entity, by index (properties are sorted by name). Every
 * output pointer may be NULL when that detail is not wanted; strings are borrowed and
 * live as long as @p model.
 * @param[out] out_name receives the property's name
 * @param[out] out_kind receives a cd_property_kind
 * @param[out] out_attribute_type receives a cd_attribute_type (#CD_ATTRIBUTE_UNDEFINED
 *        for relationships)
 * @param[out] out_destination receives a relationship's destination entity (NULL for
 *        attributes)
 * @param[out] out_optional receives 1 if the property is optional, else 0
 * @param model a model; not NULL
 * @param entity an entity name; not NULL
 * @param index from 0 to the property count - 1
 * @return #CD_OK, #CD_NOTFOUND, #CD_RANGE, or #CD_MISUSE
 */
CD_API int cd_model_property(const char **out_name, int *out_kind, int *out_attribute_type,
                             const char **out_destination, int *out_optional,
                             const cd_model *model, const char *entity, size_t index);

/**
 * Whether a property of an entity, by index as for cd_model_property(), is an ordered
 * to-many relationship (Core Data's `isOrdered`): its members keep the order they were
 * added in, and cd_object_copy_to_many() lists them in that order.
 * @param[out] out receives 1 for an ordered to-many relationship, else 0
 * @param model a model; not NULL
 * @param entity an entity name; not NULL
 * @param index from 0 to the property count - 1
 * @return #CD_OK, #CD_NOTFOUND, #CD_RANGE, or #CD_MISUSE
 */
CD_API int cd_model_property_is_ordered(int *out, const cd_model *model, const char *entity,
                                        size_t index);

/** @} */

/* ---------------------------------------------------------------------------------- */
/** @name Contexts */
/** @{ */

/**
 * Releases a context handle. Objects obtained through it become unusable (their calls
 * return #CD_MISUSE) once the last handle of the context is released. NULL is a no-op.
 * @param ctx a context, or NULL
 */
CD_API void cd_context_release(cd_context *ctx);

/**
 * Runs @p fn on the context's queue and waits for it (Core Data's `performAndWait`).
 * Calls made inside @p fn on the same context, its objects and results run inline.
 * @param ctx a context; not NULL
 * @param fn the callback; not NULL
 * @param payload passed to @p fn unchanged; may be NULL
 * @return #CD_OK after @p fn returned; #CD_MISUSE (and @p fn is not called) for a NULL
 *         argument or the view context called from a thread other than the main thread
 */
CD_API int cd_context_perform_and_wait(cd_context *ctx, cd_context_fn fn, void *payload);

/**
 * Inserts a new object of an entity; it is saved by the next cd_context_save().
 * @param[out] out receives the object (+1), to release with cd_object_release()
 * @param ctx a context; not NULL
 * @param entity the entity's name; not NULL
 * @return #CD_OK; #CD_NOTFOUND for an unknown entity; #CD_MISUSE for an abstract entity,
 *         a NULL argument or the wrong thread
 */
CD_API int cd_context_insert(cd_object **out, cd_context *ctx, const char *entity);

/**
 * Marks an object for deletion; delete rules apply, and the next save removes it.
 * @param ctx a context; not NULL
 * @param object an object of this context; not NULL
 * @return #CD_OK; #CD_MISUSE for an object of another context; #CD_REFERENTIAL_INTEGRITY
 *         if its data is gone from the store
 */
CD_API int cd_context_delete(cd_context *ctx, cd_object *object);

/**
 * Writes the context's changes to the store, in one transaction. Does nothing if there
 * are none.
 * @param ctx a context; not NULL
 * @return #CD_OK; a validation code (1550-1680) naming the object and key in the message;
 *         #CD_MERGE or #CD_CONSTRAINT_MERGE; a store code such as #CD_SQLITE; #CD_MISUSE
 */
CD_API int cd_context_save(cd_context *ctx);

/**
 * Discards every unsaved change.
 * @param ctx a context; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_context_rollback(cd_context *ctx);

/**
 * Forgets every object: unsaved changes are lost, and object handles of this context
 * return #CD_REFERENTIAL_INTEGRITY or stale data afterwards; release them first.
 * @param ctx a context; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_context_reset(cd_context *ctx);

/**
 * Whether the context has unsaved changes.
 * @param[out] out receives 1 or 0
 * @param ctx a context; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_context_has_changes(int *out, cd_context *ctx);

/**
 * Turns undo registration on or off for the context (an `UndoManager`).
 * @param ctx a context; not NULL
 * @param enabled 1 to record changes for undo, 0 to stop
 * @return #CD_OK; #CD_MISUSE
 */
CD_API int cd_context_set_undo_enabled(cd_context *ctx, int enabled);

/**
 * Undoes the last group of changes.
 * @param ctx a context; not NULL
 * @return #CD_OK; #CD_NOTFOUND when there is nothing to undo; #CD_UNSUPPORTED while
 *         undo is not enabled (see cd_context_set_undo_enabled()); #CD_MISUSE
 */
CD_API int cd_context_undo(cd_context *ctx);

/**
 * Redoes the last undone group of changes.
 * @param ctx a context; not NULL
 * @return #CD_OK; #CD_NOTFOUND when there is nothing to redo; #CD_UNSUPPORTED while
 *         undo is not enabled (see cd_context_set_undo_enabled()); #CD_MISUSE
 */
CD_API int cd_context_redo(cd_context *ctx);

/**
 * Runs a fetch request.
 * @param[out] out receives the results (+1), to release with cd_fetch_result_release()
 * @param ctx a context; not NULL
 * @param request a fetch request; not NULL
 * @return #CD_OK; #CD_NOTFOUND for an unknown entity or sort key;
 *         #CD_KEY_VALUE_VALIDATION for a predicate key the entity lacks; #CD_CORE_DATA or
 *         #CD_FORMATTING when the predicate cannot be evaluated otherwise; #CD_MISUSE
 */
CD_API int cd_context_fetch(cd_fetch_result **out, cd_context *ctx,
                            const cd_fetch_request *request);

/**
 * The number of objects a fetch request would return.
 * @param[out] out receives the count
 * @param ctx a context; not NULL
 * @param request a fetch request; not NULL
 * @return as cd_context_fetch()
 */
CD_API int cd_context_count(size_t *out, cd_context *ctx, const cd_fetch_request *request);

/**
 * The object with an ID, loaded from the store if needed (Core Data's
 * `existingObject(with:)`).
 * @param[out] out receives the object (+1), to release with cd_object_release()
 * @param ctx a context; not NULL
 * @param object_id an ID; not NULL
 * @return #CD_OK; #CD_REFERENTIAL_INTEGRITY if no such object exists; #CD_MISUSE
 */
CD_API int cd_context_object_with_id(cd_object **out, cd_context *ctx,
                                     const cd_object_id *object_id);

/** @} */

/* ---------------------------------------------------------------------------------- */
/** @name Objects: identity and state */
/** @{ */

/**
 * Releases an object handle (the object stays in its context). NULL is a no-op.
 * @param object an object, or NULL
 */
CD_API void cd_object_release(cd_object *object);

/**
 * The object's ID: temporary until the object is first saved, then permanent.
 * @param[out] out receives the ID (+1), to release with cd_object_id_release()
 * @param object an object; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_object_copy_id(cd_object_id **out, cd_object *object);

/**
 * The name of the object's entity.
 * @param[out] out receives the name (owned: free with cd_string_free())
 * @param object an object; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_object_copy_entity_name(char **out, cd_object *object);

/**
 * The object's state.
 * @param[out] out receives cd_object_state_flags bits
 * @param object an object; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_object_state(unsigned int *out, cd_object *object);

/**
 * Whether two handles are the same object.
 * @param[out] out receives 1 or 0
 * @param a an object; not NULL
 * @param b an object; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_object_equal(int *out, const cd_object *a, const cd_object *b);

/**
 * A hash of an object's identity, for hash tables of object handles (Python sets, ...):
 * two handles of the same object have the same hash (cd_object_equal() gives 1), and it
 * stays the same for the object's life, across saves that make its ID permanent.
 * @param[out] out receives the hash
 * @param object an object; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_object_hash(uint64_t *out, const cd_object *object);

/** @} */

/* ---------------------------------------------------------------------------------- */
/** @name Objects: attribute values
 * Getters return #CD_NULL, writing nothing, when the value is null; #CD_NOTFOUND for a
 * key that is not a property of the entity; #CD_TYPE when the attribute has another type;
 * #CD_MISUSE for NULL arguments, an object whose context was released, or the wrong
 * thread; #CD_REFERENTIAL_INTEGRITY when the object's data is gone from the store.
 * Integer getters and setters serve the 16-, 32- and 64-bit integer types (setters return
 * #CD_RANGE for a value the type cannot hold); double ones serve double and float.
 */
/** @{ */

/**
 * Whether an attribute or relationship is null (nil or, for to-many, never null).
 * @param[out] out receives 1 or 0
 * @param object an object; not NULL
 * @param key a property name; not NULL
 * @return #CD_OK, or a code as for the getters
 */
CD_API int cd_object_is_null(int *out, cd_object *object, const char *key);

/**
 * Sets an attribute or to-one relationship to null.
 * @param object an object; not NULL
 * @param key a property name; not NULL
 * @return #CD_OK, #CD_NOTFOUND, #CD_TYPE for a to-many, or #CD_MISUSE
 */
CD_API int cd_object_set_null(cd_object *object, const char *key);

/**
 * Reads an integer attribute.
 * @param[out] out receives the value
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @return #CD_OK, #CD_NULL, or a code as described above
 */
CD_API int cd_object_get_int64(int64_t *out, cd_object *object, const char *key);

/**
 * Writes an integer attribute.
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @param value the value
 * @return #CD_OK, #CD_RANGE, or a code as described above
 */
CD_API int cd_object_set_int64(cd_object *object, const char *key, int64_t value);

/**
 * Reads a double or float attribute.
 * @param[out] out receives the value
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @return #CD_OK, #CD_NULL, or a code as described above
 */
CD_API int cd_object_get_double(double *out, cd_object *object, const char *key);

/**
 * Writes a double or float attribute.
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @param value the value; not NaN (the SQLite store would keep null: use
 *        cd_object_set_null()); for a float attribute, within a float's range
 * @return #CD_OK; #CD_RANGE for NaN, or for a finite value that a float attribute would
 *         turn into infinity or zero; a code as described above
 */
CD_API int cd_object_set_double(cd_object *object, const char *key, double value);

/**
 * Reads a Boolean attribute.
 * @param[out] out receives 1 or 0
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @return #CD_OK, #CD_NULL, or a code as described above
 */
CD_API int cd_object_get_bool(int *out, cd_object *object, const char *key);

/**
 * Writes a Boolean attribute.
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @param value 0 for false, anything else for true
 * @return #CD_OK, or a code as described above
 */
CD_API int cd_object_set_bool(cd_object *object, const char *key, int value);

/**
 * Reads a string attribute (or a URI attribute, as text).
 * @param[out] out receives the text (owned: free with cd_string_free())
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @return #CD_OK, #CD_NULL, or a code as described above
 */
CD_API int cd_object_get_text(char **out, cd_object *object, const char *key);

/**
 * Writes a string attribute (or a URI attribute, from text).
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @param value UTF-8 text; NULL sets null
 * @return #CD_OK; #CD_TYPE also for text that is not valid UTF-8, and for a URI attribute
 *         for text that is not a URI exactly as written (such as "not a uri", which would
 *         have to be percent-encoded); a code as described above
 */
CD_API int cd_object_set_text(cd_object *object, const char *key, const char *value);

/**
 * Reads a binary data attribute, or a transformable attribute as the bytes the store
 * keeps for its value (its value transformer's output, or the value itself when the
 * attribute names no transformer).
 * @param[out] out receives a copy of the bytes (owned: free with cd_blob_free()); NULL
 *        when the data is empty
 * @param[out] out_length receives the number of bytes
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @return #CD_OK, #CD_NULL, or a code as described above
 */
CD_API int cd_object_get_blob(void **out, size_t *out_length, cd_object *object,
                              const char *key);

/**
 * Writes a binary data attribute, or a transformable attribute from the bytes the store
 * keeps (decoded by its value transformer, when it names one).
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @param bytes the bytes, copied; may be NULL only when @p length is 0 (NULL with length
 *        0 sets empty data, not null)
 * @param length the number of bytes
 * @return #CD_OK; #CD_RANGE for a length above `PTRDIFF_MAX` or more than the process can
 *         allocate; #CD_TYPE for bytes the transformer cannot decode; #CD_MISUSE for NULL
 *         bytes with a length; a code as described above
 */
CD_API int cd_object_set_blob(cd_object *object, const char *key, const void *bytes,
                              size_t length);

/**
 * Reads a date attribute.
 * @param[out] out receives seconds since 1970-01-01 00:00:00 UTC
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @return #CD_OK, #CD_NULL, or a code as described above
 */
CD_API int cd_object_get_date(double *out, cd_object *object, const char *key);

/**
 * Writes a date attribute.
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @param seconds_since_1970 seconds since 1970-01-01 00:00:00 UTC
 * @return #CD_OK, or a code as described above
 */
CD_API int cd_object_set_date(cd_object *object, const char *key, double seconds_since_1970);

/**
 * Reads a UUID attribute.
 * @param[out] out receives the 16 bytes; must point to 16 writable bytes
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @return #CD_OK, #CD_NULL, or a code as described above
 */
CD_API int cd_object_get_uuid(uint8_t *out, cd_object *object, const char *key);

/**
 * Writes a UUID attribute.
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @param bytes 16 bytes; not NULL
 * @return #CD_OK, or a code as described above
 */
CD_API int cd_object_set_uuid(cd_object *object, const char *key, const uint8_t *bytes);

/**
 * Reads a decimal attribute as text ("12.5").
 * @param[out] out receives the text (owned: free with cd_string_free())
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @return #CD_OK, #CD_NULL, or a code as described above
 */
CD_API int cd_object_get_decimal(char **out, cd_object *object, const char *key);

/**
 * Writes a decimal attribute from text.
 * @param object an object; not NULL
 * @param key an attribute name; not NULL
 * @param text a decimal number such as "-12.50" or "1.5e3"; not NULL
 * @return #CD_OK; #CD_TYPE for text that is not a number; #CD_RANGE for a number a
 *         decimal cannot hold exactly (more than 38 significant digits, or an exponent
 *         out of range), rather than a rounded one; a code as described above
 */
CD_API int cd_object_set_decimal(cd_object *object, const char *key, const char *text);

/** @} */

/* ---------------------------------------------------------------------------------- */
/** @name Objects: relationships
 * Inverse relationships follow at once, in memory, as in Core Data.
 */
/** @{ */

/**
 * Reads a to-one relationship.
 * @param[out] out receives the destination (+1), to release with cd_object_release()
 * @param object an object; not NULL
 * @param key a to-one relationship name; not NULL
 * @return #CD_OK; #CD_NULL when there is no destination; #CD_TYPE for a key that is not
 *         a to-one relationship; #CD_NOTFOUND; #CD_MISUSE
 */
CD_API int cd_object_get_to_one(cd_object **out, cd_object *object, const char *key);

/**
 * Writes a to-one relationship.
 * @param object an object; not NULL
 * @param key a to-one relationship name; not NULL
 * @param destination an object of the same context and of the destination entity, or
 *        NULL to clear the relationship
 * @return #CD_OK; #CD_VALIDATION for an object of the wrong entity;
 *         #CD_EXTERNAL_RELATIONSHIP for an object of another context; #CD_TYPE;
 *         #CD_NOTFOUND; #CD_MISUSE
 */
CD_API int cd_object_set_to_one(cd_object *object, const char *key, cd_object *destination);

/**
 * The number of objects in a to-many relationship.
 * @param[out] out receives the count
 * @param object an object; not NULL
 * @param key a to-many relationship name; not NULL
 * @return #CD_OK; #CD_TYPE for a key that is not a to-many; #CD_NOTFOUND; #CD_MISUSE
 */
CD_API int cd_object_to_many_count(size_t *out, cd_object *object, const char *key);

/**
 * Adds an object to a to-many relationship (nothing happens if it is already there).
 * @param object an object; not NULL
 * @param key a to-many relationship name; not NULL
 * @param member an object of the same context and of the destination entity; not NULL
 * @return as cd_object_set_to_one()
 */
CD_API int cd_object_to_many_add(cd_object *object, const char *key, cd_object *member);

/**
 * Removes an object from a to-many relationship (nothing happens if it is not there).
 * @param object an object; not NULL
 * @param key a to-many relationship name; not NULL
 * @param member an object; not NULL
 * @return as cd_object_set_to_one()
 */
CD_API int cd_object_to_many_remove(cd_object *object, const char *key, cd_object *member);

/**
 * The members of a to-many relationship, to iterate with cd_fetch_result_object_at().
 * Unordered relationships have no particular order.
 * @param[out] out receives the list (+1), to release with cd_fetch_result_release()
 * @param object an object; not NULL
 * @param key a to-many relationship name; not NULL
 * @return #CD_OK; #CD_TYPE; #CD_NOTFOUND; #CD_MISUSE
 */
CD_API int cd_object_copy_to_many(cd_fetch_result **out, cd_object *object, const char *key);

/** @} */

/* ---------------------------------------------------------------------------------- */
/** @name Object IDs */
/** @{ */

/**
 * Releases an object ID. NULL is a no-op.
 * @param object_id an ID, or NULL
 */
CD_API void cd_object_id_release(cd_object_id *object_id);

/**
 * The ID's URI representation (`x-coredata://<store UUID>/<Entity>/p<n>`). An ID handle
 * keeps its URI and its identity (cd_object_id_equal()) after its container is released.
 * @param[out] out receives the URI (owned: free with cd_string_free())
 * @param object_id an ID; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_object_id_copy_uri(char **out, const cd_object_id *object_id);

/**
 * Whether an ID is temporary (its object was never saved).
 * @param[out] out receives 1 or 0
 * @param object_id an ID; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_object_id_is_temporary(int *out, const cd_object_id *object_id);

/**
 * Whether two IDs name the same object.
 * @param[out] out receives 1 or 0
 * @param a an ID; not NULL
 * @param b an ID; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_object_id_equal(int *out, const cd_object_id *a, const cd_object_id *b);

/** @} */

/* ---------------------------------------------------------------------------------- */
/** @name Fetch requests and predicate arguments */
/** @{ */

/**
 * Creates a fetch request for an entity (checked when the request runs).
 * @param[out] out receives the request (+1), to release with cd_fetch_request_release()
 * @param entity an entity name; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_fetch_request_create(cd_fetch_request **out, const char *entity);

/**
 * Releases a fetch request. NULL is a no-op.
 * @param request a request, or NULL
 */
CD_API void cd_fetch_request_release(cd_fetch_request *request);

/**
 * Sets the request's predicate from an `NSPredicate` format string, such as
 * `"quantity > %d AND name BEGINSWITH[c] %@"`. Each `%@`, `%d`, `%f`, `%K`, ... takes
 * the next argument of @p arguments (`%K` takes a text argument as a key path).
 * @param request a request; not NULL
 * @param format the format; NULL removes the predicate
 * @param arguments the arguments, copied; NULL for none
 * @return #CD_OK; #CD_FORMATTING for a malformed format or missing arguments; #CD_TYPE
 *         for a format that is not valid UTF-8; #CD_MISUSE
 */
CD_API int cd_fetch_request_set_predicate(cd_fetch_request *request, const char *format,
                                          const cd_arguments *arguments);

/**
 * Appends a sort key (a key path such as "name" or "list.title").
 * @param request a request; not NULL
 * @param key the key path; not NULL
 * @param ascending 1 for ascending, 0 for descending
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_fetch_request_add_sort(cd_fetch_request *request, const char *key, int ascending);

/**
 * Limits the number of results.
 * @param request a request; not NULL
 * @param limit the maximum number of results; 0 for no limit
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_fetch_request_set_limit(cd_fetch_request *request, size_t limit);

/**
 * Skips the first results.
 * @param request a request; not NULL
 * @param offset how many results to skip
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_fetch_request_set_offset(cd_fetch_request *request, size_t offset);

/**
 * Sets what the fetch returns.
 * @param request a request; not NULL
 * @param result_type a cd_result_type
 * @return #CD_OK; #CD_RANGE for an unknown type; #CD_MISUSE
 */
CD_API int cd_fetch_request_set_result_type(cd_fetch_request *request, int result_type);

/**
 * Adds a property to the dictionaries of a #CD_RESULT_DICTIONARIES fetch (by default
 * they hold every attribute).
 * @param request a request; not NULL
 * @param key a property name; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_fetch_request_add_property(cd_fetch_request *request, const char *key);

/**
 * Creates an empty argument list for cd_fetch_request_set_predicate().
 * @param[out] out receives the list (+1), to release with cd_arguments_release()
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_arguments_create(cd_arguments **out);

/**
 * Releases an argument list. NULL is a no-op.
 * @param arguments a list, or NULL
 */
CD_API void cd_arguments_release(cd_arguments *arguments);

/**
 * Appends an integer.
 * @param arguments a list; not NULL
 * @param value the value
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_arguments_add_int64(cd_arguments *arguments, int64_t value);

/**
 * Appends a double.
 * @param arguments a list; not NULL
 * @param value the value; not NaN (it equals nothing in memory, but binds as NULL in SQL)
 * @return #CD_OK; #CD_RANGE for NaN; #CD_MISUSE
 */
CD_API int cd_arguments_add_double(cd_arguments *arguments, double value);

/**
 * Appends a Boolean.
 * @param arguments a list; not NULL
 * @param value 0 for false, anything else for true
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_arguments_add_bool(cd_arguments *arguments, int value);

/**
 * Appends text (for `%@`, or a key path for `%K`).
 * @param arguments a list; not NULL
 * @param value UTF-8 text, copied; not NULL
 * @return #CD_OK; #CD_TYPE for text that is not valid UTF-8; #CD_MISUSE
 */
CD_API int cd_arguments_add_text(cd_arguments *arguments, const char *value);

/**
 * Appends a decimal number (an `NSDecimalNumber`, compared exactly, as a decimal attribute's
 * values are).
 * @param arguments a list; not NULL
 * @param text a decimal number such as "-12.50" or "1.5e3"; not NULL
 * @return #CD_OK; #CD_TYPE for text that is not a decimal number; #CD_RANGE for one a decimal
 *         cannot hold exactly (more than 38 significant digits, or an exponent out of range);
 *         #CD_MISUSE
 */
CD_API int cd_arguments_add_decimal(cd_arguments *arguments, const char *text);

/**
 * Appends a date.
 * @param arguments a list; not NULL
 * @param seconds_since_1970 seconds since 1970-01-01 00:00:00 UTC; finite
 * @return #CD_OK; #CD_RANGE for NaN or an infinity; #CD_MISUSE
 */
CD_API int cd_arguments_add_date(cd_arguments *arguments, double seconds_since_1970);

/**
 * Appends a UUID.
 * @param arguments a list; not NULL
 * @param bytes 16 bytes; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_arguments_add_uuid(cd_arguments *arguments, const uint8_t *bytes);

/**
 * Appends binary data.
 * @param arguments a list; not NULL
 * @param bytes the bytes, copied; may be NULL only when @p length is 0
 * @param length the number of bytes
 * @return #CD_OK; #CD_RANGE for a length above `PTRDIFF_MAX` or more than the process
 *         can allocate; #CD_MISUSE
 */
CD_API int cd_arguments_add_blob(cd_arguments *arguments, const void *bytes, size_t length);

/**
 * Appends null (`nil`).
 * @param arguments a list; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_arguments_add_null(cd_arguments *arguments);

/**
 * Appends a managed object (for predicates such as `"list == %@"`).
 * @param arguments a list; not NULL
 * @param object an object; not NULL; the list keeps it alive
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_arguments_add_object(cd_arguments *arguments, cd_object *object);

/**
 * Appends an object ID.
 * @param arguments a list; not NULL
 * @param object_id an ID; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_arguments_add_object_id(cd_arguments *arguments, const cd_object_id *object_id);

/** @} */

/* ---------------------------------------------------------------------------------- */
/** @name Fetch results
 * Results of the view context belong to the main thread, as the context does: every call
 * below (but the release) returns #CD_MISUSE from another thread.
 */
/** @{ */

/**
 * Releases fetch results. Object handles taken from them stay valid. NULL is a no-op.
 * @param result results, or NULL
 */
CD_API void cd_fetch_result_release(cd_fetch_result *result);

/**
 * The number of rows (objects, IDs or dictionaries; 1 for a count fetch).
 * @param[out] out receives the count
 * @param result results; not NULL
 * @return #CD_OK, or #CD_MISUSE
 */
CD_API int cd_fetch_result_count(size_t *out, const cd_fetch_result *result);

/**
 * The object of a row of an objects fetch or a to-many list.
 * @param[out] out receives the object (+1), to release with cd_object_release()
 * @param result results; not NULL
 * @param index from 0 to the count - 1
 * @return #CD_OK; #CD_RANGE; #CD_TYPE for results of another result type; #CD_MISUSE
 */
CD_API int cd_fetch_result_object_at(cd_object **out, const cd_fetch_result *result,
                                     size_t index);

/**
 * The object ID of a row of an objects or IDs fetch.
 * @param[out] out receives the ID (+1), to release with cd_object_id_release()
 * @param result results; not NULL
 * @param index from 0 to the count - 1
 * @return #CD_OK; #CD_RANGE; #CD_TYPE for results of another result type; #CD_MISUSE
 */
CD_API int cd_fetch_result_object_id_at(cd_object_id **out, const cd_fetch_result *result,
                                        size_t index);

/**
 * An integer of a row: a dictionary's value for @p key, or the count of a count fetch
 * (with @p key NULL).
 * @param[out] out receives the value (Booleans as 1 or 0)
 * @param result results; not NULL
 * @param index from 0 to the count - 1
 * @param key a property name; NULL for a count fetch
 * @return #CD_OK; #CD_NULL if the dictionary has no value for @p key; #CD_TYPE; #CD_RANGE
 *         for an index out of range, or a floating-point value that is not an integer of
 *         `int64_t`'s range (read it with cd_fetch_result_get_double()); #CD_MISUSE
 */
CD_API int cd_fetch_result_get_int64(int64_t *out, const cd_fetch_result *result,
                                     size_t index, const char *key);

/**
 * A double of a row of a dictionaries fetch (integers converted; dates as seconds since
 * 1970).
 * @param[out] out receives the value
 * @param result results; not NULL
 * @param index from 0 to the count - 1
 * @param key a property name; not NULL
 * @return #CD_OK; #CD_NULL; #CD_TYPE; #CD_RANGE; #CD_MISUSE
 */
CD_API int cd_fetch_result_get_double(double *out, const cd_fetch_result *result,
                                      size_t index, const char *key);

/**
 * A value of a row of a dictionaries fetch, as text: strings as they are, numbers in
 * decimal, dates as ISO 8601 in UTC and the proleptic Gregorian calendar with their
 * fraction of a second to the microsecond ("2023-11-14T22:13:20.5Z"), UUIDs in 8-4-4-4-12
 * form, object IDs as URIs, data as hex. Other values (a transformable attribute's decoded
 * value) have no text form: #CD_TYPE; nor have dates outside the years 0000-9999:
 * #CD_RANGE (read them with cd_fetch_result_get_double()).
 * @param[out] out receives the text (owned: free with cd_string_free())
 * @param result results; not NULL
 * @param index from 0 to the count - 1
 * @param key a property name; not NULL
 * @return #CD_OK; #CD_NULL; #CD_TYPE; #CD_RANGE; #CD_MISUSE
 */
CD_API int cd_fetch_result_copy_text(char **out, const cd_fetch_result *result,
                                     size_t index, const char *key);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* COREDATA_H */
