import CoreData
import CoreDataTestSupport
import Testing

/// Core Data's error vocabulary as Apple code uses it: the numeric codes, their
/// `CocoaError` spellings, the userInfo keys errors really carry, and the version numbers.
@Suite struct CoreDataErrorVocabularyTests {

    static let codes: [(Int, Int)] = [
        (NSManagedObjectValidationError, 1550), (NSManagedObjectConstraintValidationError, 1551),
        (NSValidationMultipleErrorsError, 1560), (NSValidationMissingMandatoryPropertyError, 1570),
        (NSValidationRelationshipLacksMinimumCountError, 1580),
        (NSValidationRelationshipExceedsMaximumCountError, 1590),
        (NSValidationRelationshipDeniedDeleteError, 1600), (NSValidationNumberTooLargeError, 1610),
        (NSValidationNumberTooSmallError, 1620), (NSValidationDateTooLateError, 1630),
        (NSValidationDateTooSoonError, 1640), (NSValidationInvalidDateError, 1650),
        (NSValidationStringTooLongError, 1660), (NSValidationStringTooShortError, 1670),
        (NSValidationStringPatternMatchingError, 1680), (NSValidationInvalidURIError, 1690),
        (NSManagedObjectContextLockingError, 132000), (NSPersistentStoreCoordinatorLockingError, 132010),
        (NSManagedObjectReferentialIntegrityError, 133000),
        (NSManagedObjectExternalRelationshipError, 133010), (NSManagedObjectMergeError, 133020),
        (NSManagedObjectConstraintMergeError, 133021), (NSPersistentStoreInvalidTypeError, 134000),
        (NSPersistentStoreTypeMismatchError, 134010), (NSPersistentStoreIncompatibleSchemaError, 134020),
        (NSPersistentStoreSaveError, 134030), (NSPersistentStoreIncompleteSaveError, 134040),
        (NSPersistentStoreSaveConflictsError, 134050), (NSCoreDataError, 134060),
        (NSPersistentStoreOperationError, 134070), (NSPersistentStoreOpenError, 134080),
        (NSPersistentStoreTimeoutError, 134090), (NSPersistentStoreUnsupportedRequestTypeError, 134091),
        (NSPersistentStoreIncompatibleVersionHashError, 134100), (NSMigrationError, 134110),
        (NSMigrationConstraintViolationError, 134111), (NSMigrationCancelledError, 134120),
        (NSMigrationMissingSourceModelError, 134130), (NSMigrationMissingMappingModelError, 134140),
        (NSMigrationManagerSourceStoreError, 134150), (NSMigrationManagerDestinationStoreError, 134160),
        (NSEntityMigrationPolicyError, 134170), (NSSQLiteError, 134180),
        (NSInferredMappingModelError, 134190), (NSExternalRecordImportError, 134200),
        (NSPersistentHistoryTokenExpiredError, 134301),
        (NSManagedObjectModelReferenceNotFoundError, 134504),
        (NSStagedMigrationFrameworkVersionMismatchError, 134505),
        (NSStagedMigrationBackwardMigrationError, 134506),
    ]

    @Test("every error code of CoreDataErrors.h has Apple's value")
    func numericCodes() {
        for (code, value) in Self.codes { #expect(code == value) }
        #expect(Set(Self.codes.map(\.0)).count == Self.codes.count)
    }

    static let swiftNames: [(CocoaError.Code, CocoaError.Code, Int)] = [
        (.managedObjectValidation, CocoaError.managedObjectValidation, 1550),
        (.validationMultipleErrors, CocoaError.validationMultipleErrors, 1560),
        (.validationMissingMandatoryProperty, CocoaError.validationMissingMandatoryProperty, 1570),
        (.validationRelationshipLacksMinimumCount, CocoaError.validationRelationshipLacksMinimumCount, 1580),
        (.validationRelationshipExceedsMaximumCount, CocoaError.validationRelationshipExceedsMaximumCount, 1590),
        (.validationRelationshipDeniedDelete, CocoaError.validationRelationshipDeniedDelete, 1600),
        (.validationNumberTooLarge, CocoaError.validationNumberTooLarge, 1610),
        (.validationNumberTooSmall, CocoaError.validationNumberTooSmall, 1620),
        (.validationDateTooLate, CocoaError.validationDateTooLate, 1630),
        (.validationDateTooSoon, CocoaError.validationDateTooSoon, 1640),
        (.validationInvalidDate, CocoaError.validationInvalidDate, 1650),
        (.validationStringTooLong, CocoaError.validationStringTooLong, 1660),
        (.validationStringTooShort, CocoaError.validationStringTooShort, 1670),
        (.validationStringPatternMatching, CocoaError.validationStringPatternMatching, 1680),
        (.managedObjectContextLocking, CocoaError.managedObjectContextLocking, 132000),
        (.persistentStoreCoordinatorLocking, CocoaError.persistentStoreCoordinatorLocking, 132010),
        (.managedObjectReferentialIntegrity, CocoaError.managedObjectReferentialIntegrity, 133000),
        (.managedObjectExternalRelationship, CocoaError.managedObjectExternalRelationship, 133010),
        (.managedObjectMerge, CocoaError.managedObjectMerge, 133020),
        (.managedObjectConstraintMerge, CocoaError.managedObjectConstraintMerge, 133021),
        (.persistentStoreInvalidType, CocoaError.persistentStoreInvalidType, 134000),
        (.persistentStoreTypeMismatch, CocoaError.persistentStoreTypeMismatch, 134010),
        (.persistentStoreIncompatibleSchema, CocoaError.persistentStoreIncompatibleSchema, 134020),
        (.persistentStoreSave, CocoaError.persistentStoreSave, 134030),
        (.persistentStoreIncompleteSave, CocoaError.persistentStoreIncompleteSave, 134040),
        (.persistentStoreSaveConflicts, CocoaError.persistentStoreSaveConflicts, 134050),
        (.coreData, CocoaError.coreData, 134060),
        (.persistentStoreOperation, CocoaError.persistentStoreOperation, 134070),
        (.persistentStoreOpen, CocoaError.persistentStoreOpen, 134080),
        (.persistentStoreTimeout, CocoaError.persistentStoreTimeout, 134090),
        (.persistentStoreUnsupportedRequestType, CocoaError.persistentStoreUnsupportedRequestType, 134091),
        (.persistentStoreIncompatibleVersionHash, CocoaError.persistentStoreIncompatibleVersionHash, 134100),
        (.migration, CocoaError.migration, 134110),
        (.migrationCancelled, CocoaError.migrationCancelled, 134120),
        (.migrationMissingSourceModel, CocoaError.migrationMissingSourceModel, 134130),
        (.migrationMissingMappingModel, CocoaError.migrationMissingMappingModel, 134140),
        (.migrationManagerSourceStore, CocoaError.migrationManagerSourceStore, 134150),
        (.migrationManagerDestinationStore, CocoaError.migrationManagerDestinationStore, 134160),
        (.entityMigrationPolicy, CocoaError.entityMigrationPolicy, 134170),
        (.sqlite, CocoaError.sqlite, 134180),
        (.inferredMappingModel, CocoaError.inferredMappingModel, 134190),
        (.externalRecordImport, CocoaError.externalRecordImport, 134200),
    ]

    @Test("CocoaError.Code and CocoaError carry Apple's Swift names for the Core Data codes")
    func swiftSpellings() {
        for (code, alias, value) in Self.swiftNames {
            #expect(code.rawValue == value)
            #expect(alias == code)
        }
    }

    @Test("a failed save is caught as a CocoaError and its accessors read Apple's keys")
    func validationErrorAsCocoaError() throws {
        let stack = try TestStack()
        let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: stack.context)
        do {
            try stack.context.save()
            Issue.record("the save should fail validation")
        } catch let error as CocoaError where error.code == .validationMissingMandatoryProperty {
            #expect(error.validationKey == "name")
            #expect(error.validationObject as? NSManagedObject === item)
            #expect(error.validationValue == nil)
            #expect(error.errorCode == NSValidationMissingMandatoryPropertyError)
        }
        item.setValue("Soap", forKey: "name")
        _ = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: stack.context)
        _ = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: stack.context)
        do {
            try stack.context.save()
            Issue.record("the save should fail validation twice")
        } catch CocoaError.validationMultipleErrors {
            // Apple's `catch CocoaError.code` pattern matches the thrown NSError.
        }
    }

    @Test("a merge conflict lists NSMergeConflicts under conflictList", arguments: allStoreTypes)
    func mergeConflictsUnderConflictList(storeType: String) throws {
        let stack = try TestStack(storeType: storeType)
        let item = stack.insertItem("Soap")
        try stack.context.save()
        let other = stack.newContext()
        let copy = try other.existingObject(with: item.objectID)
        item.setValue("New", forKey: "name")
        try stack.context.save()
        copy.setValue("Stale", forKey: "name")
        let error = try #require(throws: NSError.self) { try other.save() }
        #expect(NSPersistentStoreSaveConflictsErrorKey == "conflictList")
        let conflicts = try #require(error.userInfo["conflictList"] as? [NSMergeConflict])
        #expect(conflicts.first?.sourceObject === copy)
        let cocoa = try #require(error as Error as? CocoaError)
        #expect(cocoa.code == .managedObjectMerge)
        #expect(cocoa.persistentStoreSaveConflicts?.count == conflicts.count)
    }

    @Test("a uniqueness conflict lists NSConstraintConflicts under conflictList")
    func constraintConflictsUnderConflictList() throws {
        let person = entity("Person", [attribute("email", .stringAttributeType)])
        person.uniquenessConstraints = [["email"]]
        let model = NSManagedObjectModel()
        model.entities = [person]
        let stack = try TestStack(storeType: NSSQLiteStoreType, model: model)
        stack.insert("Person", ["email": "a@x"])
        stack.insert("Person", ["email": "a@x"])
        let error = try #require(throws: NSError.self) { try stack.context.save() }
        #expect(error.code == NSManagedObjectConstraintMergeError)
        let conflicts = try #require(error.userInfo["conflictList"] as? [NSConstraintConflict])
        #expect(conflicts.first?.constraint == ["email"])
    }

    @Test("the version numbers are Apple's, and the running version is newer than all of them")
    func versionNumbers() {
        let releases: [(Double, Double)] = [
            (NSCoreDataVersionNumber10_4, 46.0), (NSCoreDataVersionNumber10_4_3, 77.0),
            (NSCoreDataVersionNumber10_5, 185.0), (NSCoreDataVersionNumber10_5_3, 186.0),
            (NSCoreDataVersionNumber10_6, 246.0), (NSCoreDataVersionNumber10_6_2, 250.0),
            (NSCoreDataVersionNumber10_6_3, 251.0), (NSCoreDataVersionNumber10_7, 358.4),
            (NSCoreDataVersionNumber10_7_2, 358.12), (NSCoreDataVersionNumber10_7_3, 358.13),
            (NSCoreDataVersionNumber10_7_4, 358.14), (NSCoreDataVersionNumber10_8, 407.5),
            (NSCoreDataVersionNumber10_8_2, 407.7), (NSCoreDataVersionNumber10_9, 481.0),
            (NSCoreDataVersionNumber10_9_2, 481.1), (NSCoreDataVersionNumber10_9_3, 481.3),
            (NSCoreDataVersionNumber10_10, 526.0), (NSCoreDataVersionNumber10_10_2, 526.1),
            (NSCoreDataVersionNumber10_10_3, 526.2), (NSCoreDataVersionNumber10_11, 640.0),
            (NSCoreDataVersionNumber10_11_3, 641.3),
            (NSCoreDataVersionNumber_iPhoneOS_3_0, 241.0), (NSCoreDataVersionNumber_iPhoneOS_3_1, 248.0),
            (NSCoreDataVersionNumber_iPhoneOS_3_2, 310.2), (NSCoreDataVersionNumber_iPhoneOS_4_0, 320.5),
            (NSCoreDataVersionNumber_iPhoneOS_4_1, 320.11), (NSCoreDataVersionNumber_iPhoneOS_4_2, 320.15),
            (NSCoreDataVersionNumber_iPhoneOS_4_3, 320.17), (NSCoreDataVersionNumber_iPhoneOS_5_0, 386.1),
            (NSCoreDataVersionNumber_iPhoneOS_5_1, 386.5), (NSCoreDataVersionNumber_iPhoneOS_6_0, 419.0),
            (NSCoreDataVersionNumber_iPhoneOS_6_1, 419.1), (NSCoreDataVersionNumber_iPhoneOS_7_0, 479.1),
            (NSCoreDataVersionNumber_iPhoneOS_7_1, 479.3), (NSCoreDataVersionNumber_iPhoneOS_8_0, 519.0),
            (NSCoreDataVersionNumber_iPhoneOS_8_3, 519.15), (NSCoreDataVersionNumber_iPhoneOS_9_0, 640.0),
            (NSCoreDataVersionNumber_iPhoneOS_9_2, 641.4), (NSCoreDataVersionNumber_iPhoneOS_9_3, 641.6),
        ]
        for (constant, value) in releases {
            #expect(constant == value)
            #expect(NSCoreDataVersionNumber > constant)
        }
    }
}
