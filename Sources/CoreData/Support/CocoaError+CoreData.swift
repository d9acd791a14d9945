import Foundation

// Core Data's error codes in their Swift spelling, as Apple's CoreData module declares them
// on `CocoaError.Code` and on `CocoaError`, so `catch CocoaError.managedObjectValidation`,
// `error.code == .persistentStoreIncompatibleVersionHash` and `CocoaError(.coreData)` build
// unchanged. Each value is the numeric constant of the same name in CoreDataErrors.swift.
//
// - Note: Apple parity: Apple gives Swift names to the codes of CoreDataErrors.h up to
//   134200 (plus the pre-Swift-4 `…Error` spellings, deprecated); the later codes (1551,
//   1690, 134111, 134301, 1345xx) have no Swift name on Apple either. Use
//   `CocoaError.Code(rawValue: NSPersistentHistoryTokenExpiredError)` for those, as on Apple.

// MARK: - CocoaError.Code
extension CocoaError.Code {
    /// `NSManagedObjectValidationError` (1550).
    public static var managedObjectValidation: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectValidationError) }
    /// `NSValidationMultipleErrorsError` (1560).
    public static var validationMultipleErrors: CocoaError.Code { CocoaError.Code(rawValue: NSValidationMultipleErrorsError) }
    /// `NSValidationMissingMandatoryPropertyError` (1570).
    public static var validationMissingMandatoryProperty: CocoaError.Code { CocoaError.Code(rawValue: NSValidationMissingMandatoryPropertyError) }
    /// `NSValidationRelationshipLacksMinimumCountError` (1580).
    public static var validationRelationshipLacksMinimumCount: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipLacksMinimumCountError) }
    /// `NSValidationRelationshipExceedsMaximumCountError` (1590).
    public static var validationRelationshipExceedsMaximumCount: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipExceedsMaximumCountError) }
    /// `NSValidationRelationshipDeniedDeleteError` (1600).
    public static var validationRelationshipDeniedDelete: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipDeniedDeleteError) }
    /// `NSValidationNumberTooLargeError` (1610).
    public static var validationNumberTooLarge: CocoaError.Code { CocoaError.Code(rawValue: NSValidationNumberTooLargeError) }
    /// `NSValidationNumberTooSmallError` (1620).
    public static var validationNumberTooSmall: CocoaError.Code { CocoaError.Code(rawValue: NSValidationNumberTooSmallError) }
    /// `NSValidationDateTooLateError` (1630).
    public static var validationDateTooLate: CocoaError.Code { CocoaError.Code(rawValue: NSValidationDateTooLateError) }
    /// `NSValidationDateTooSoonError` (1640).
    public static var validationDateTooSoon: CocoaError.Code { CocoaError.Code(rawValue: NSValidationDateTooSoonError) }
    /// `NSValidationInvalidDateError` (1650).
    public static var validationInvalidDate: CocoaError.Code { CocoaError.Code(rawValue: NSValidationInvalidDateError) }
    /// `NSValidationStringTooLongError` (1660).
    public static var validationStringTooLong: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringTooLongError) }
    /// `NSValidationStringTooShortError` (1670).
    public static var validationStringTooShort: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringTooShortError) }
    /// `NSValidationStringPatternMatchingError` (1680).
    public static var validationStringPatternMatching: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringPatternMatchingError) }
    /// `NSManagedObjectContextLockingError` (132000).
    public static var managedObjectContextLocking: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectContextLockingError) }
    /// `NSPersistentStoreCoordinatorLockingError` (132010).
    public static var persistentStoreCoordinatorLocking: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreCoordinatorLockingError) }
    /// `NSManagedObjectReferentialIntegrityError` (133000).
    public static var managedObjectReferentialIntegrity: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectReferentialIntegrityError) }
    /// `NSManagedObjectExternalRelationshipError` (133010).
    public static var managedObjectExternalRelationship: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectExternalRelationshipError) }
    /// `NSManagedObjectMergeError` (133020).
    public static var managedObjectMerge: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectMergeError) }
    /// `NSManagedObjectConstraintMergeError` (133021).
    public static var managedObjectConstraintMerge: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectConstraintMergeError) }
    /// `NSPersistentStoreInvalidTypeError` (134000).
    public static var persistentStoreInvalidType: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreInvalidTypeError) }
    /// `NSPersistentStoreTypeMismatchError` (134010).
    public static var persistentStoreTypeMismatch: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreTypeMismatchError) }
    /// `NSPersistentStoreIncompatibleSchemaError` (134020).
    public static var persistentStoreIncompatibleSchema: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompatibleSchemaError) }
    /// `NSPersistentStoreSaveError` (134030).
    public static var persistentStoreSave: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreSaveError) }
    /// `NSPersistentStoreIncompleteSaveError` (134040).
    public static var persistentStoreIncompleteSave: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompleteSaveError) }
    /// `NSPersistentStoreSaveConflictsError` (134050).
    public static var persistentStoreSaveConflicts: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreSaveConflictsError) }
    /// `NSCoreDataError` (134060).
    public static var coreData: CocoaError.Code { CocoaError.Code(rawValue: NSCoreDataError) }
    /// `NSPersistentStoreOperationError` (134070).
    public static var persistentStoreOperation: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreOperationError) }
    /// `NSPersistentStoreOpenError` (134080).
    public static var persistentStoreOpen: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreOpenError) }
    /// `NSPersistentStoreTimeoutError` (134090).
    public static var persistentStoreTimeout: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreTimeoutError) }
    /// `NSPersistentStoreUnsupportedRequestTypeError` (134091).
    public static var persistentStoreUnsupportedRequestType: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreUnsupportedRequestTypeError) }
    /// `NSPersistentStoreIncompatibleVersionHashError` (134100).
    public static var persistentStoreIncompatibleVersionHash: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompatibleVersionHashError) }
    /// `NSMigrationError` (134110).
    public static var migration: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationError) }
    /// `NSMigrationCancelledError` (134120).
    public static var migrationCancelled: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationCancelledError) }
    /// `NSMigrationMissingSourceModelError` (134130).
    public static var migrationMissingSourceModel: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationMissingSourceModelError) }
    /// `NSMigrationMissingMappingModelError` (134140).
    public static var migrationMissingMappingModel: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationMissingMappingModelError) }
    /// `NSMigrationManagerSourceStoreError` (134150).
    public static var migrationManagerSourceStore: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationManagerSourceStoreError) }
    /// `NSMigrationManagerDestinationStoreError` (134160).
    public static var migrationManagerDestinationStore: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationManagerDestinationStoreError) }
    /// `NSEntityMigrationPolicyError` (134170).
    public static var entityMigrationPolicy: CocoaError.Code { CocoaError.Code(rawValue: NSEntityMigrationPolicyError) }
    /// `NSSQLiteError` (134180).
    public static var sqlite: CocoaError.Code { CocoaError.Code(rawValue: NSSQLiteError) }
    /// `NSInferredMappingModelError` (134190).
    public static var inferredMappingModel: CocoaError.Code { CocoaError.Code(rawValue: NSInferredMappingModelError) }
    /// `NSExternalRecordImportError` (134200).
    public static var externalRecordImport: CocoaError.Code { CocoaError.Code(rawValue: NSExternalRecordImportError) }
}

// MARK: - CocoaError (the same codes, for `catch CocoaError.coreData` patterns)
extension CocoaError {
    /// `NSManagedObjectValidationError` (1550).
    public static var managedObjectValidation: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectValidationError) }
    /// `NSValidationMultipleErrorsError` (1560).
    public static var validationMultipleErrors: CocoaError.Code { CocoaError.Code(rawValue: NSValidationMultipleErrorsError) }
    /// `NSValidationMissingMandatoryPropertyError` (1570).
    public static var validationMissingMandatoryProperty: CocoaError.Code { CocoaError.Code(rawValue: NSValidationMissingMandatoryPropertyError) }
    /// `NSValidationRelationshipLacksMinimumCountError` (1580).
    public static var validationRelationshipLacksMinimumCount: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipLacksMinimumCountError) }
    /// `NSValidationRelationshipExceedsMaximumCountError` (1590).
    public static var validationRelationshipExceedsMaximumCount: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipExceedsMaximumCountError) }
    /// `NSValidationRelationshipDeniedDeleteError` (1600).
    public static var validationRelationshipDeniedDelete: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipDeniedDeleteError) }
    /// `NSValidationNumberTooLargeError` (1610).
    public static var validationNumberTooLarge: CocoaError.Code { CocoaError.Code(rawValue: NSValidationNumberTooLargeError) }
    /// `NSValidationNumberTooSmallError` (1620).
    public static var validationNumberTooSmall: CocoaError.Code { CocoaError.Code(rawValue: NSValidationNumberTooSmallError) }
    /// `NSValidationDateTooLateError` (1630).
    public static var validationDateTooLate: CocoaError.Code { CocoaError.Code(rawValue: NSValidationDateTooLateError) }
    /// `NSValidationDateTooSoonError` (1640).
    public static var validationDateTooSoon: CocoaError.Code { CocoaError.Code(rawValue: NSValidationDateTooSoonError) }
    /// `NSValidationInvalidDateError` (1650).
    public static var validationInvalidDate: CocoaError.Code { CocoaError.Code(rawValue: NSValidationInvalidDateError) }
    /// `NSValidationStringTooLongError` (1660).
    public static var validationStringTooLong: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringTooLongError) }
    /// `NSValidationStringTooShortError` (1670).
    public static var validationStringTooShort: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringTooShortError) }
    /// `NSValidationStringPatternMatchingError` (1680).
    public static var validationStringPatternMatching: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringPatternMatchingError) }
    /// `NSManagedObjectContextLockingError` (132000).
    public static var managedObjectContextLocking: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectContextLockingError) }
    /// `NSPersistentStoreCoordinatorLockingError` (132010).
    public static var persistentStoreCoordinatorLocking: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreCoordinatorLockingError) }
    /// `NSManagedObjectReferentialIntegrityError` (133000).
    public static var managedObjectReferentialIntegrity: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectReferentialIntegrityError) }
    /// `NSManagedObjectExternalRelationshipError` (133010).
    public static var managedObjectExternalRelationship: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectExternalRelationshipError) }
    /// `NSManagedObjectMergeError` (133020).
    public static var managedObjectMerge: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectMergeError) }
    /// `NSManagedObjectConstraintMergeError` (133021).
    public static var managedObjectConstraintMerge: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectConstraintMergeError) }
    /// `NSPersistentStoreInvalidTypeError` (134000).
    public static var persistentStoreInvalidType: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreInvalidTypeError) }
    /// `NSPersistentStoreTypeMismatchError` (134010).
    public static var persistentStoreTypeMismatch: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreTypeMismatchError) }
    /// `NSPersistentStoreIncompatibleSchemaError` (134020).
    public static var persistentStoreIncompatibleSchema: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompatibleSchemaError) }
    /// `NSPersistentStoreSaveError` (134030).
    public static var persistentStoreSave: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreSaveError) }
    /// `NSPersistentStoreIncompleteSaveError` (134040).
    public static var persistentStoreIncompleteSave: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompleteSaveError) }
    /// `NSPersistentStoreSaveConflictsError` (134050).
    public static var persistentStoreSaveConflicts: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreSaveConflictsError) }
    /// `NSCoreDataError` (134060).
    public static var coreData: CocoaError.Code { CocoaError.Code(rawValue: NSCoreDataError) }
    /// `NSPersistentStoreOperationError` (134070).
    public static var persistentStoreOperation: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreOperationError) }
    /// `NSPersistentStoreOpenError` (134080).
    public static var persistentStoreOpen: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreOpenError) }
    /// `NSPersistentStoreTimeoutError` (134090).
    public static var persistentStoreTimeout: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreTimeoutError) }
    /// `NSPersistentStoreUnsupportedRequestTypeError` (134091).
    public static var persistentStoreUnsupportedRequestType: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreUnsupportedRequestTypeError) }
    /// `NSPersistentStoreIncompatibleVersionHashError` (134100).
    public static var persistentStoreIncompatibleVersionHash: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompatibleVersionHashError) }
    /// `NSMigrationError` (134110).
    public static var migration: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationError) }
    /// `NSMigrationCancelledError` (134120).
    public static var migrationCancelled: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationCancelledError) }
    /// `NSMigrationMissingSourceModelError` (134130).
    public static var migrationMissingSourceModel: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationMissingSourceModelError) }
    /// `NSMigrationMissingMappingModelError` (134140).
    public static var migrationMissingMappingModel: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationMissingMappingModelError) }
    /// `NSMigrationManagerSourceStoreError` (134150).
    public static var migrationManagerSourceStore: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationManagerSourceStoreError) }
    /// `NSMigrationManagerDestinationStoreError` (134160).
    public static var migrationManagerDestinationStore: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationManagerDestinationStoreError) }
    /// `NSEntityMigrationPolicyError` (134170).
    public static var entityMigrationPolicy: CocoaError.Code { CocoaError.Code(rawValue: NSEntityMigrationPolicyError) }
    /// `NSSQLiteError` (134180).
    public static var sqlite: CocoaError.Code { CocoaError.Code(rawValue: NSSQLiteError) }
    /// `NSInferredMappingModelError` (134190).
    public static var inferredMappingModel: CocoaError.Code { CocoaError.Code(rawValue: NSInferredMappingModelError) }
    /// `NSExternalRecordImportError` (134200).
    public static var externalRecordImport: CocoaError.Code { CocoaError.Code(rawValue: NSExternalRecordImportError) }
}

// MARK: - Deprecated spellings (CocoaError.Code)
extension CocoaError.Code {
    /// `NSManagedObjectValidationError` (1550) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "managedObjectValidation")
    public static var managedObjectValidationError: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectValidationError) }
    /// `NSValidationMultipleErrorsError` (1560) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationMultipleErrors")
    public static var validationMultipleErrorsError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationMultipleErrorsError) }
    /// `NSValidationMissingMandatoryPropertyError` (1570) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationMissingMandatoryProperty")
    public static var validationMissingMandatoryPropertyError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationMissingMandatoryPropertyError) }
    /// `NSValidationRelationshipLacksMinimumCountError` (1580) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationRelationshipLacksMinimumCount")
    public static var validationRelationshipLacksMinimumCountError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipLacksMinimumCountError) }
    /// `NSValidationRelationshipExceedsMaximumCountError` (1590) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationRelationshipExceedsMaximumCount")
    public static var validationRelationshipExceedsMaximumCountError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipExceedsMaximumCountError) }
    /// `NSValidationRelationshipDeniedDeleteError` (1600) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationRelationshipDeniedDelete")
    public static var validationRelationshipDeniedDeleteError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipDeniedDeleteError) }
    /// `NSValidationNumberTooLargeError` (1610) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationNumberTooLarge")
    public static var validationNumberTooLargeError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationNumberTooLargeError) }
    /// `NSValidationNumberTooSmallError` (1620) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationNumberTooSmall")
    public static var validationNumberTooSmallError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationNumberTooSmallError) }
    /// `NSValidationDateTooLateError` (1630) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationDateTooLate")
    public static var validationDateTooLateError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationDateTooLateError) }
    /// `NSValidationDateTooSoonError` (1640) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationDateTooSoon")
    public static var validationDateTooSoonError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationDateTooSoonError) }
    /// `NSValidationInvalidDateError` (1650) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationInvalidDate")
    public static var validationInvalidDateError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationInvalidDateError) }
    /// `NSValidationStringTooLongError` (1660) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationStringTooLong")
    public static var validationStringTooLongError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringTooLongError) }
    /// `NSValidationStringTooShortError` (1670) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationStringTooShort")
    public static var validationStringTooShortError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringTooShortError) }
    /// `NSValidationStringPatternMatchingError` (1680) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationStringPatternMatching")
    public static var validationStringPatternMatchingError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringPatternMatchingError) }
    /// `NSManagedObjectContextLockingError` (132000) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "managedObjectContextLocking")
    public static var managedObjectContextLockingError: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectContextLockingError) }
    /// `NSPersistentStoreCoordinatorLockingError` (132010) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreCoordinatorLocking")
    public static var persistentStoreCoordinatorLockingError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreCoordinatorLockingError) }
    /// `NSManagedObjectReferentialIntegrityError` (133000) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "managedObjectReferentialIntegrity")
    public static var managedObjectReferentialIntegrityError: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectReferentialIntegrityError) }
    /// `NSManagedObjectExternalRelationshipError` (133010) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "managedObjectExternalRelationship")
    public static var managedObjectExternalRelationshipError: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectExternalRelationshipError) }
    /// `NSManagedObjectMergeError` (133020) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "managedObjectMerge")
    public static var managedObjectMergeError: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectMergeError) }
    /// `NSManagedObjectConstraintMergeError` (133021) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "managedObjectConstraintMerge")
    public static var managedObjectConstraintMergeError: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectConstraintMergeError) }
    /// `NSPersistentStoreInvalidTypeError` (134000) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreInvalidType")
    public static var persistentStoreInvalidTypeError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreInvalidTypeError) }
    /// `NSPersistentStoreTypeMismatchError` (134010) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreTypeMismatch")
    public static var persistentStoreTypeMismatchError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreTypeMismatchError) }
    /// `NSPersistentStoreIncompatibleSchemaError` (134020) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreIncompatibleSchema")
    public static var persistentStoreIncompatibleSchemaError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompatibleSchemaError) }
    /// `NSPersistentStoreSaveError` (134030) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreSave")
    public static var persistentStoreSaveError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreSaveError) }
    /// `NSPersistentStoreIncompleteSaveError` (134040) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreIncompleteSave")
    public static var persistentStoreIncompleteSaveError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompleteSaveError) }
    /// `NSPersistentStoreSaveConflictsError` (134050) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreSaveConflicts")
    public static var persistentStoreSaveConflictsError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreSaveConflictsError) }
    /// `NSCoreDataError` (134060) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "coreData")
    public static var coreDataError: CocoaError.Code { CocoaError.Code(rawValue: NSCoreDataError) }
    /// `NSPersistentStoreOperationError` (134070) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreOperation")
    public static var persistentStoreOperationError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreOperationError) }
    /// `NSPersistentStoreOpenError` (134080) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreOpen")
    public static var persistentStoreOpenError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreOpenError) }
    /// `NSPersistentStoreTimeoutError` (134090) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreTimeout")
    public static var persistentStoreTimeoutError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreTimeoutError) }
    /// `NSPersistentStoreUnsupportedRequestTypeError` (134091) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreUnsupportedRequestType")
    public static var persistentStoreUnsupportedRequestTypeError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreUnsupportedRequestTypeError) }
    /// `NSPersistentStoreIncompatibleVersionHashError` (134100) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreIncompatibleVersionHash")
    public static var persistentStoreIncompatibleVersionHashError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompatibleVersionHashError) }
    /// `NSMigrationError` (134110) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "migration")
    public static var migrationError: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationError) }
    /// `NSMigrationCancelledError` (134120) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "migrationCancelled")
    public static var migrationCancelledError: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationCancelledError) }
    /// `NSMigrationMissingSourceModelError` (134130) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "migrationMissingSourceModel")
    public static var migrationMissingSourceModelError: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationMissingSourceModelError) }
    /// `NSMigrationMissingMappingModelError` (134140) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "migrationMissingMappingModel")
    public static var migrationMissingMappingModelError: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationMissingMappingModelError) }
    /// `NSMigrationManagerSourceStoreError` (134150) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "migrationManagerSourceStore")
    public static var migrationManagerSourceStoreError: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationManagerSourceStoreError) }
    /// `NSMigrationManagerDestinationStoreError` (134160) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "migrationManagerDestinationStore")
    public static var migrationManagerDestinationStoreError: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationManagerDestinationStoreError) }
    /// `NSEntityMigrationPolicyError` (134170) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "entityMigrationPolicy")
    public static var entityMigrationPolicyError: CocoaError.Code { CocoaError.Code(rawValue: NSEntityMigrationPolicyError) }
    /// `NSSQLiteError` (134180) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "sqlite")
    public static var sqliteError: CocoaError.Code { CocoaError.Code(rawValue: NSSQLiteError) }
    /// `NSInferredMappingModelError` (134190) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "inferredMappingModel")
    public static var inferredMappingModelError: CocoaError.Code { CocoaError.Code(rawValue: NSInferredMappingModelError) }
    /// `NSExternalRecordImportError` (134200) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "externalRecordImport")
    public static var externalRecordImportError: CocoaError.Code { CocoaError.Code(rawValue: NSExternalRecordImportError) }
}

// MARK: - Deprecated spellings (CocoaError)
extension CocoaError {
    /// `NSManagedObjectValidationError` (1550) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "managedObjectValidation")
    public static var managedObjectValidationError: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectValidationError) }
    /// `NSValidationMultipleErrorsError` (1560) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationMultipleErrors")
    public static var validationMultipleErrorsError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationMultipleErrorsError) }
    /// `NSValidationMissingMandatoryPropertyError` (1570) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationMissingMandatoryProperty")
    public static var validationMissingMandatoryPropertyError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationMissingMandatoryPropertyError) }
    /// `NSValidationRelationshipLacksMinimumCountError` (1580) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationRelationshipLacksMinimumCount")
    public static var validationRelationshipLacksMinimumCountError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipLacksMinimumCountError) }
    /// `NSValidationRelationshipExceedsMaximumCountError` (1590) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationRelationshipExceedsMaximumCount")
    public static var validationRelationshipExceedsMaximumCountError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipExceedsMaximumCountError) }
    /// `NSValidationRelationshipDeniedDeleteError` (1600) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationRelationshipDeniedDelete")
    public static var validationRelationshipDeniedDeleteError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipDeniedDeleteError) }
    /// `NSValidationNumberTooLargeError` (1610) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationNumberTooLarge")
    public static var validationNumberTooLargeError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationNumberTooLargeError) }
    /// `NSValidationNumberTooSmallError` (1620) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationNumberTooSmall")
    public static var validationNumberTooSmallError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationNumberTooSmallError) }
    /// `NSValidationDateTooLateError` (1630) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationDateTooLate")
    public static var validationDateTooLateError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationDateTooLateError) }
    /// `NSValidationDateTooSoonError` (1640) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationDateTooSoon")
    public static var validationDateTooSoonError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationDateTooSoonError) }
    /// `NSValidationInvalidDateError` (1650) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationInvalidDate")
    public static var validationInvalidDateError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationInvalidDateError) }
    /// `NSValidationStringTooLongError` (1660) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationStringTooLong")
    public static var validationStringTooLongError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringTooLongError) }
    /// `NSValidationStringTooShortError` (1670) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationStringTooShort")
    public static var validationStringTooShortError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringTooShortError) }
    /// `NSValidationStringPatternMatchingError` (1680) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "validationStringPatternMatching")
    public static var validationStringPatternMatchingError: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringPatternMatchingError) }
    /// `NSManagedObjectContextLockingError` (132000) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "managedObjectContextLocking")
    public static var managedObjectContextLockingError: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectContextLockingError) }
    /// `NSPersistentStoreCoordinatorLockingError` (132010) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreCoordinatorLocking")
    public static var persistentStoreCoordinatorLockingError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreCoordinatorLockingError) }
    /// `NSManagedObjectReferentialIntegrityError` (133000) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "managedObjectReferentialIntegrity")
    public static var managedObjectReferentialIntegrityError: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectReferentialIntegrityError) }
    /// `NSManagedObjectExternalRelationshipError` (133010) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "managedObjectExternalRelationship")
    public static var managedObjectExternalRelationshipError: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectExternalRelationshipError) }
    /// `NSManagedObjectMergeError` (133020) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "managedObjectMerge")
    public static var managedObjectMergeError: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectMergeError) }
    /// `NSManagedObjectConstraintMergeError` (133021) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "managedObjectConstraintMerge")
    public static var managedObjectConstraintMergeError: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectConstraintMergeError) }
    /// `NSPersistentStoreInvalidTypeError` (134000) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreInvalidType")
    public static var persistentStoreInvalidTypeError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreInvalidTypeError) }
    /// `NSPersistentStoreTypeMismatchError` (134010) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreTypeMismatch")
    public static var persistentStoreTypeMismatchError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreTypeMismatchError) }
    /// `NSPersistentStoreIncompatibleSchemaError` (134020) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreIncompatibleSchema")
    public static var persistentStoreIncompatibleSchemaError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompatibleSchemaError) }
    /// `NSPersistentStoreSaveError` (134030) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreSave")
    public static var persistentStoreSaveError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreSaveError) }
    /// `NSPersistentStoreIncompleteSaveError` (134040) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreIncompleteSave")
    public static var persistentStoreIncompleteSaveError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompleteSaveError) }
    /// `NSPersistentStoreSaveConflictsError` (134050) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreSaveConflicts")
    public static var persistentStoreSaveConflictsError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreSaveConflictsError) }
    /// `NSCoreDataError` (134060) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "coreData")
    public static var coreDataError: CocoaError.Code { CocoaError.Code(rawValue: NSCoreDataError) }
    /// `NSPersistentStoreOperationError` (134070) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreOperation")
    public static var persistentStoreOperationError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreOperationError) }
    /// `NSPersistentStoreOpenError` (134080) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreOpen")
    public static var persistentStoreOpenError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreOpenError) }
    /// `NSPersistentStoreTimeoutError` (134090) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreTimeout")
    public static var persistentStoreTimeoutError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreTimeoutError) }
    /// `NSPersistentStoreUnsupportedRequestTypeError` (134091) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreUnsupportedRequestType")
    public static var persistentStoreUnsupportedRequestTypeError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreUnsupportedRequestTypeError) }
    /// `NSPersistentStoreIncompatibleVersionHashError` (134100) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "persistentStoreIncompatibleVersionHash")
    public static var persistentStoreIncompatibleVersionHashError: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompatibleVersionHashError) }
    /// `NSMigrationError` (134110) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "migration")
    public static var migrationError: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationError) }
    /// `NSMigrationCancelledError` (134120) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "migrationCancelled")
    public static var migrationCancelledError: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationCancelledError) }
    /// `NSMigrationMissingSourceModelError` (134130) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "migrationMissingSourceModel")
    public static var migrationMissingSourceModelError: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationMissingSourceModelError) }
    /// `NSMigrationMissingMappingModelError` (134140) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "migrationMissingMappingModel")
    public static var migrationMissingMappingModelError: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationMissingMappingModelError) }
    /// `NSMigrationManagerSourceStoreError` (134150) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "migrationManagerSourceStore")
    public static var migrationManagerSourceStoreError: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationManagerSourceStoreError) }
    /// `NSMigrationManagerDestinationStoreError` (134160) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "migrationManagerDestinationStore")
    public static var migrationManagerDestinationStoreError: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationManagerDestinationStoreError) }
    /// `NSEntityMigrationPolicyError` (134170) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "entityMigrationPolicy")
    public static var entityMigrationPolicyError: CocoaError.Code { CocoaError.Code(rawValue: NSEntityMigrationPolicyError) }
    /// `NSSQLiteError` (134180) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "sqlite")
    public static var sqliteError: CocoaError.Code { CocoaError.Code(rawValue: NSSQLiteError) }
    /// `NSInferredMappingModelError` (134190) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "inferredMappingModel")
    public static var inferredMappingModelError: CocoaError.Code { CocoaError.Code(rawValue: NSInferredMappingModelError) }
    /// `NSExternalRecordImportError` (134200) under its pre-Swift-4 name.
    @available(*, deprecated, renamed: "externalRecordImport")
    public static var externalRecordImportError: CocoaError.Code { CocoaError.Code(rawValue: NSExternalRecordImportError) }
}

// MARK: - userInfo accessors

extension CocoaError {
    /// The object that failed to validate (``NSValidationObjectErrorKey``).
    public var validationObject: Any? { userInfo[NSValidationObjectErrorKey] }

    /// The key that failed to validate (``NSValidationKeyErrorKey``).
    public var validationKey: String? { userInfo[NSValidationKeyErrorKey] as? String }

    /// The validation predicate that did not hold (``NSValidationPredicateErrorKey``).
    public var validationPredicate: NSPredicate? {
        userInfo[NSValidationPredicateErrorKey] as? NSPredicate
    }

    /// The value that failed to validate (``NSValidationValueErrorKey``).
    public var validationValue: Any? { userInfo[NSValidationValueErrorKey] }

    /// The stores the error is about (``NSAffectedStoresErrorKey``).
    public var affectedStores: [AnyObject]? { userInfo[NSAffectedStoresErrorKey] as? [AnyObject] }

    /// The objects the error is about (``NSAffectedObjectsErrorKey``).
    public var affectedObjects: [AnyObject]? {
        userInfo[NSAffectedObjectsErrorKey] as? [AnyObject]
    }
}
