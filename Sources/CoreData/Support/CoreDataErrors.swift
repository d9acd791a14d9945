// Core Data's error codes in NSCocoaErrorDomain, with Apple's numeric values, and the
// userInfo keys its errors carry. Swift and the C API report the same numbers.
//
// The list is the whole of Apple's CoreDataErrors.h (iOS 26 SDK). Apple declares no public
// codes in the 1344xx range: the codes NSPersistentCloudKitContainer logs there are private
// to CloudKit mirroring, which this package does not provide.
//
// The Swift spellings of the same codes (`CocoaError.Code.managedObjectValidation`, …) are
// in `CocoaError+CoreData.swift`.

// MARK: - Validation

/// A generic validation failure of a managed object.
public let NSManagedObjectValidationError = 1550
/// A uniqueness constraint of the entity is violated by objects being validated.
public let NSManagedObjectConstraintValidationError = 1551
/// Several validation errors at once; each is under ``NSDetailedErrorsKey``.
public let NSValidationMultipleErrorsError = 1560
/// A non-optional property is nil.
public let NSValidationMissingMandatoryPropertyError = 1570
/// A to-many relationship has fewer objects than its minimum count.
public let NSValidationRelationshipLacksMinimumCountError = 1580
/// A to-many relationship has more objects than its maximum count.
public let NSValidationRelationshipExceedsMaximumCountError = 1590
/// A delete was refused by a relationship whose delete rule is deny.
public let NSValidationRelationshipDeniedDeleteError = 1600
/// A number is above the attribute's maximum.
public let NSValidationNumberTooLargeError = 1610
/// A number is below the attribute's minimum.
public let NSValidationNumberTooSmallError = 1620
/// A date is after the attribute's latest allowed date.
public let NSValidationDateTooLateError = 1630
/// A date is before the attribute's earliest allowed date.
public let NSValidationDateTooSoonError = 1640
/// A date does not satisfy the attribute's date rules.
public let NSValidationInvalidDateError = 1650
/// A string is longer than the attribute's maximum length.
public let NSValidationStringTooLongError = 1660
/// A string is shorter than the attribute's minimum length.
public let NSValidationStringTooShortError = 1670
/// A string does not match the attribute's regular expression.
public let NSValidationStringPatternMatchingError = 1680
/// A URI attribute holds a value that is not a valid URI.
public let NSValidationInvalidURIError = 1690

// MARK: - Objects, contexts and coordinators

/// A context's lock could not be taken.
public let NSManagedObjectContextLockingError = 132000
/// A coordinator's lock could not be taken.
public let NSPersistentStoreCoordinatorLockingError = 132010
/// A fault fired for an object that no longer exists in its store.
public let NSManagedObjectReferentialIntegrityError = 133000
/// A saved object relates to an object of another store.
public let NSManagedObjectExternalRelationshipError = 133010
/// Saving met objects changed elsewhere; the conflicts are under
/// ``NSPersistentStoreSaveConflictsErrorKey``.
public let NSManagedObjectMergeError = 133020
/// Saving met uniqueness-constraint conflicts the merge policy left unresolved; they are
/// under ``NSPersistentStoreSaveConflictsErrorKey``.
public let NSManagedObjectConstraintMergeError = 133021

// MARK: - Stores

/// The store type is not registered (or the file is not of a known format).
public let NSPersistentStoreInvalidTypeError = 134000
/// The store at the URL is of another type than the one asked for.
public let NSPersistentStoreTypeMismatchError = 134010
/// The store's schema does not match what the store expects.
public let NSPersistentStoreIncompatibleSchemaError = 134020
/// The store could not write a save.
public let NSPersistentStoreSaveError = 134030
/// Some of several stores failed to save.
public let NSPersistentStoreIncompleteSaveError = 134040
/// A save met conflicts it could not resolve.
public let NSPersistentStoreSaveConflictsError = 134050
/// A Core Data error with no more specific code.
public let NSCoreDataError = 134060
/// A store operation (adding, removing, migrating, destroying a store…) failed.
public let NSPersistentStoreOperationError = 134070
/// The store could not be opened.
public let NSPersistentStoreOpenError = 134080
/// The store was not reachable within `NSPersistentStoreTimeoutOption`.
public let NSPersistentStoreTimeoutError = 134090
/// A store was given a request type it does not handle.
public let NSPersistentStoreUnsupportedRequestTypeError = 134091
/// The store was made with a model whose entity version hashes differ from the current
/// model's.
public let NSPersistentStoreIncompatibleVersionHashError = 134100

// MARK: - Migration

/// A migration failed.
public let NSMigrationError = 134110
/// A migration produced objects that violate a constraint.
public let NSMigrationConstraintViolationError = 134111
/// A migration was cancelled.
public let NSMigrationCancelledError = 134120
/// The model the store was made with could not be found.
public let NSMigrationMissingSourceModelError = 134130
/// No mapping model leads from the store's model to the current one.
public let NSMigrationMissingMappingModelError = 134140
/// The source store of a migration could not be read.
public let NSMigrationManagerSourceStoreError = 134150
/// The destination store of a migration could not be written.
public let NSMigrationManagerDestinationStoreError = 134160
/// An entity migration policy failed.
public let NSEntityMigrationPolicyError = 134170
/// SQLite reported an error; its result code is under ``NSSQLiteErrorDomain``.
public let NSSQLiteError = 134180
/// A mapping model could not be inferred between two models.
public let NSInferredMappingModelError = 134190
/// Importing external records failed.
public let NSExternalRecordImportError = 134200

// MARK: - Persistent history

/// A persistent history token names history that has since been deleted.
public let NSPersistentHistoryTokenExpiredError = 134301

// MARK: - Staged migration

/// A model reference of a staged migration could not be resolved.
public let NSManagedObjectModelReferenceNotFoundError = 134504
/// The store's metadata does not allow a staged migration.
public let NSStagedMigrationFrameworkVersionMismatchError = 134505
/// A staged migration would go from a newer model back to an older one.
public let NSStagedMigrationBackwardMigrationError = 134506

// MARK: - userInfo keys

/// The errors gathered into one error (for example a save with several validation
/// failures, code ``NSValidationMultipleErrorsError``).
public let NSDetailedErrorsKey = "NSDetailedErrors"
/// The object that failed to validate.
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
/// The key that failed to validate.
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
/// The validation predicate that did not hold.
public let NSValidationPredicateErrorKey = "NSValidationErrorPredicate"
/// The value that failed to validate.
public let NSValidationValueErrorKey = "NSValidationErrorValue"
/// The stores an error is about.
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
/// The objects (or object IDs) an error is about.
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"
/// The conflicts of a failed save: `[NSMergeConflict]` for ``NSManagedObjectMergeError``,
/// `[NSConstraintConflict]` for ``NSManagedObjectConstraintMergeError``. Its value is
/// `"conflictList"`, as on Apple, so code reading `userInfo["conflictList"]` works too.
public let NSPersistentStoreSaveConflictsErrorKey = "conflictList"
/// The domain of the SQLite errors found under `NSUnderlyingErrorKey`; also the userInfo
/// key under which a store error carries SQLite's result code (an `Int`).
public let NSSQLiteErrorDomain = "NSSQLiteErrorDomain"
