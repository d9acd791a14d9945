// Core Data's error codes in NSCocoaErrorDomain, with Apple's numeric values, and the
// userInfo keys its errors carry. Swift and the C API report the same numbers.

// MARK: - Validation

/// A property's value fails validation: a model rule (range, length, pattern, validation predicate)
/// or an override of `validateValue(_:forKey:)`.
public let NSManagedObjectValidationError = 1550
/// Two objects share the values of a uniqueness constraint in one save, before a merge policy
/// resolves the conflict.
public let NSManagedObjectConstraintValidationError = 1551
/// A save found several validation failures; each one is an `NSError` under
/// ``NSDetailedErrorsKey``.
public let NSValidationMultipleErrorsError = 1560
/// A mandatory (non-optional) attribute or to-one relationship has no value at save.
public let NSValidationMissingMandatoryPropertyError = 1570
/// A to-many relationship has fewer members than its minimum count.
public let NSValidationRelationshipLacksMinimumCountError = 1580
/// A to-many relationship has more members than its maximum count.
public let NSValidationRelationshipExceedsMaximumCountError = 1590
/// A delete is refused by a relationship whose delete rule is `.denyDeleteRule` and that still has
/// a destination.
public let NSValidationRelationshipDeniedDeleteError = 1600
/// A number is above the attribute's maximum value.
public let NSValidationNumberTooLargeError = 1610
/// A number is below the attribute's minimum value.
public let NSValidationNumberTooSmallError = 1620
/// A date is after the attribute's latest allowed date.
public let NSValidationDateTooLateError = 1630
/// A date is before the attribute's earliest allowed date.
public let NSValidationDateTooSoonError = 1640
/// A date value is not valid. Kept for Apple's numbering; no check here reports it.
public let NSValidationInvalidDateError = 1650
/// A string is longer than the attribute's maximum length.
public let NSValidationStringTooLongError = 1660
/// A string is shorter than the attribute's minimum length.
public let NSValidationStringTooShortError = 1670
/// A string does not match the attribute's regular expression.
public let NSValidationStringPatternMatchingError = 1680
/// A URI value is not valid. Kept for Apple's numbering; no check here reports it.
public let NSValidationInvalidURIError = 1690

// MARK: - Objects, contexts and coordinators

/// A context could not be locked. Kept for Apple's numbering: contexts here serialise on their
/// queue and never report it.
public let NSManagedObjectContextLockingError = 132000
/// A coordinator could not be locked. Kept for Apple's numbering; not reported here.
public let NSPersistentStoreCoordinatorLockingError = 132010
/// A fault fired for an object whose row is gone (deleted in the store since it was fetched).
public let NSManagedObjectReferentialIntegrityError = 133000
/// An object is related to an object in a different store, which a save cannot write.
public let NSManagedObjectExternalRelationshipError = 133010
/// A save found rows changed by someone else since they were read (optimistic locking on
/// `Z_OPT`) and the merge policy refused; the conflicts are under
/// ``NSPersistentStoreSaveConflictsErrorKey``.
public let NSManagedObjectMergeError = 133020
/// A uniqueness constraint conflict that the merge policy did not resolve (`NSErrorMergePolicy`).
public let NSManagedObjectConstraintMergeError = 133021

// MARK: - Stores

/// An unknown store type or configuration name when adding a store.
public let NSPersistentStoreInvalidTypeError = 134000
/// A store file is not of the requested type. Kept for Apple's numbering; not reported here.
public let NSPersistentStoreTypeMismatchError = 134010
/// A store's tables or columns do not match what the model needs.
public let NSPersistentStoreIncompatibleSchemaError = 134020
/// The store failed to write a save (the SQLite error is under `NSUnderlyingErrorKey`).
public let NSPersistentStoreSaveError = 134030
/// A save was only partly written to its stores. Kept for Apple's numbering; a save here is one
/// transaction per store.
public let NSPersistentStoreIncompleteSaveError = 134040
/// A save met conflicts with the store's contents; see ``NSPersistentStoreSaveConflictsErrorKey``.
public let NSPersistentStoreSaveConflictsError = 134050
/// A Core Data failure with no more precise code.
public let NSCoreDataError = 134060
/// A store operation failed: reading, migrating or replacing a store, or a request the store cannot
/// run.
public let NSPersistentStoreOperationError = 134070
/// A store file could not be opened (a missing folder, a file that is not a database, no
/// permission).
public let NSPersistentStoreOpenError = 134080
/// The store stayed locked by another connection for longer than the store's timeout
/// (``NSPersistentStoreTimeoutOption``).
public let NSPersistentStoreTimeoutError = 134090
/// A store was given a request type it does not run. Kept for Apple's numbering; not reported here.
public let NSPersistentStoreUnsupportedRequestTypeError = 134091
/// The store was written with another version of the model and cannot be migrated automatically.
public let NSPersistentStoreIncompatibleVersionHashError = 134100

// MARK: - Migration

/// A migration failed with no more precise code.
public let NSMigrationError = 134110
/// Migrated data violates a uniqueness constraint of the destination model.
public let NSMigrationConstraintViolationError = 134111
/// A migration was cancelled. Kept for Apple's numbering; migrations here cannot be cancelled.
public let NSMigrationCancelledError = 134120
/// No model version that matches the store's version hashes was found to migrate from.
public let NSMigrationMissingSourceModelError = 134130
/// No mapping model exists for the migration (inference is off, or the change cannot be inferred).
public let NSMigrationMissingMappingModelError = 134140
/// The store to migrate could not be read.
public let NSMigrationManagerSourceStoreError = 134150
/// The migrated store could not be written.
public let NSMigrationManagerDestinationStoreError = 134160
/// A custom entity migration policy failed. Kept for Apple's numbering: custom migration policies
/// are not implemented.
public let NSEntityMigrationPolicyError = 134170
/// SQLite reported an error; its code and message are under `NSUnderlyingErrorKey`.
public let NSSQLiteError = 134180
/// A mapping model could not be inferred between the two model versions (for example an attribute
/// type change other than between integer widths or between Float and Double).
public let NSInferredMappingModelError = 134190
/// Importing external records failed. Kept for Apple's numbering; not reported here.
public let NSExternalRecordImportError = 134200

// MARK: - userInfo keys

/// In the `userInfo` of an ``NSValidationMultipleErrorsError``: the individual errors, an array of
/// `NSError`.
public let NSDetailedErrorsKey = "NSDetailedErrors"
/// In a validation error's `userInfo`: the object that failed validation.
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
/// In a validation error's `userInfo`: the key of the property that failed validation.
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
/// In a validation error's `userInfo`: the validation predicate the value did not satisfy.
public let NSValidationPredicateErrorKey = "NSValidationErrorPredicate"
/// In a validation error's `userInfo`: the value that failed validation.
public let NSValidationValueErrorKey = "NSValidationErrorValue"
/// In an error's `userInfo`: the stores the failure concerns. Kept for Apple's spelling; errors
/// here do not set it.
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
/// In an error's `userInfo`: the objects the failure concerns.
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"
/// In a save error's `userInfo`: the conflicts found, as ``NSMergeConflict`` objects (stale rows)
/// or ``NSConstraintConflict`` objects (uniqueness constraints).
public let NSPersistentStoreSaveConflictsErrorKey = "NSPersistentStoreSaveConflicts"
/// The domain of the underlying errors that carry SQLite's own result codes.
public let NSSQLiteErrorDomain = "NSSQLiteErrorDomain"
