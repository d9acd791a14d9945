import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// An account whose attributes carry every kind of model validation rule.
private enum AccountModel {
    static let earliest = Date(timeIntervalSinceReferenceDate: 0)
    static let latest = Date(timeIntervalSinceReferenceDate: 1_000_000)

    static func make() -> NSManagedObjectModel {
        let account = NSEntityDescription()
        account.name = "Account"
        account.managedObjectClassName = String(reflecting: Account.self)
        let badge = NSEntityDescription()
        badge.name = "Badge"
        func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = optional
            return attribute
        }
        let name = attribute("name", .stringAttributeType, optional: false)
        name.setValidationLimits(minimum: 2, maximum: 5)
        name.validationRegularExpression = "[a-z]+"
        let age = attribute("age", .integer16AttributeType)
        age.setValidationLimits(minimum: Int64(0), maximum: Int64(150))
        let score = attribute("score", .doubleAttributeType)
        score.setValidationLimits(minimum: 0.5, maximum: nil)
        let joined = attribute("joined", .dateAttributeType)
        joined.setValidationLimits(minimum: earliest, maximum: latest)
        let nickname = attribute("nickname", .stringAttributeType)
        nickname.setValidationPredicates([NSPredicate(format: "length >= 3")], withValidationWarnings: ["Nicknames have three letters or more."])
        let badges = NSRelationshipDescription()
        badges.name = "badges"
        badges.destinationEntity = badge
        badges.maxCount = 2
        badges.minCount = 1
        badges.isOptional = false
        badges.deleteRule = .nullifyDeleteRule
        let owner = NSRelationshipDescription()
        owner.name = "owner"
        owner.destinationEntity = account
        owner.maxCount = 1
        owner.isOptional = false
        badges.inverseRelationship = owner
        owner.inverseRelationship = badges
        account.properties = [name, age, score, joined, nickname, badges]
        badge.properties = [attribute("title", .stringAttributeType), owner]
        let model = NSManagedObjectModel()
        model.entities = [account, badge]
        return model
    }
}

final class Account: NSManagedObject {
    var updateValidations = 0

    override func validateValue(_ value: inout Any?, forKey key: String) throws {
        try super.validateValue(&value, forKey: key)
        if key == "name", value as? String == "root" {
            throw validationError(code: NSManagedObjectValidationError, key: key, value: value,
                                  message: "root is reserved")
        }
    }

    override func validateForUpdate() throws {
        updateValidations += 1
        try super.validateForUpdate()
    }
}

@Suite struct ValidationTests {
    private func makeStack() throws -> TestStack {
        try TestStack(storeType: NSSQLiteStoreType, model: AccountModel.make())
    }

    private func validAccount(_ stack: TestStack) -> NSManagedObject {
        let account = stack.insert("Account", ["name": "ann"])
        let badge = stack.insert("Badge", ["title": "b"])
        badge.setValue(account, forKey: "owner")
        return account
    }

    private func codes(_ error: NSError) -> [Int] {
        if error.code == NSValidationMultipleErrorsError {
            return ((error.userInfo[NSDetailedErrorsKey] as? [NSError]) ?? []).map(\.code).sorted()
        }
        return [error.code]
    }

    @Test("a valid object saves")
    func valid() throws {
        let stack = try makeStack()
        _ = validAccount(stack)
        try stack.context.save()
    }

    @Test("numbers below the minimum or above the maximum fail with Apple's codes and keys")
    func numberLimits() throws {
        let stack = try makeStack()
        let account = validAccount(stack)
        account.setValue(200, forKey: "age")
        account.setValue(0.1, forKey: "score")
        let error = try #require(throws: NSError.self) { try stack.context.save() }
        #expect(codes(error) == [NSValidationNumberTooLargeError, NSValidationNumberTooSmallError])
        let details = try #require(error.userInfo[NSDetailedErrorsKey] as? [NSError])
        let tooLarge = try #require(details.first { $0.code == NSValidationNumberTooLargeError })
        #expect(tooLarge.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === account)
        #expect(tooLarge.userInfo[NSValidationKeyErrorKey] as? String == "age")
        #expect((tooLarge.userInfo[NSValidationValueErrorKey] as? NSNumber)?.intValue == 200)
    }

    @Test("string length and regular expression are checked")
    func stringRules() throws {
        let stack = try makeStack()
        let account = validAccount(stack)
        account.setValue("abcdefg", forKey: "name")
        #expect(codes(try #require(throws: NSError.self) { try stack.context.save() }) == [NSValidationStringTooLongError])
        account.setValue("a", forKey: "name")
        #expect(codes(try #require(throws: NSError.self) { try stack.context.save() }) == [NSValidationStringTooShortError])
        account.setValue("AB1", forKey: "name")
        #expect(codes(try #require(throws: NSError.self) { try stack.context.save() }) == [NSValidationStringPatternMatchingError])
        account.setValue("abc", forKey: "name")
        try stack.context.save()
    }

    @Test("dates outside the bounds fail as too soon or too late")
    func dateBounds() throws {
        let stack = try makeStack()
        let account = validAccount(stack)
        account.setValue(Date(timeIntervalSinceReferenceDate: -5), forKey: "joined")
        #expect(codes(try #require(throws: NSError.self) { try stack.context.save() }) == [NSValidationDateTooSoonError])
        account.setValue(Date(timeIntervalSinceReferenceDate: 2_000_000), forKey: "joined")
        #expect(codes(try #require(throws: NSError.self) { try stack.context.save() }) == [NSValidationDateTooLateError])
    }

    @Test("to-many minimum and maximum counts are checked")
    func toManyCounts() throws {
        let stack = try makeStack()
        let account = stack.insert("Account", ["name": "ann"])
        #expect(codes(try #require(throws: NSError.self) { try stack.context.save() }) == [NSValidationRelationshipLacksMinimumCountError])
        for title in ["a", "b", "c"] {
            stack.insert("Badge", ["title": title]).setValue(account, forKey: "owner")
        }
        #expect(codes(try #require(throws: NSError.self) { try stack.context.save() }) == [NSValidationRelationshipExceedsMaximumCountError])
    }

    @Test("validation predicates report their warning")
    func predicates() throws {
        let stack = try makeStack()
        let account = validAccount(stack)
        account.setValue("ab", forKey: "nickname")
        let error = try #require(throws: NSError.self) { try stack.context.save() }
        #expect(error.code == NSManagedObjectValidationError)
        #expect(error.localizedDescription.contains("three letters"))
    }

    @Test("validateValue(_:forKey:) answers for one value; subclasses add per-key rules and validateForUpdate runs")
    func validateValueAndOverrides() throws {
        let stack = try makeStack()
        let account = validAccount(stack) as! Account
        var value: Any? = "x"
        #expect(throws: NSError.self) { try account.validateValue(&value, forKey: "name") }
        value = "bob"
        try account.validateValue(&value, forKey: "name")
        value = "root"
        let error = try #require(throws: NSError.self) { try account.validateValue(&value, forKey: "name") }
        #expect(error.localizedDescription.contains("reserved"))
        try stack.context.save()
        account.setValue("root", forKey: "name")
        #expect(throws: NSError.self) { try stack.context.save() }
        #expect(account.updateValidations == 1)
    }

    @Test("a failed save writes nothing and leaves the context as it was")
    func failedSaveLeavesContext() throws {
        let stack = try makeStack()
        let saved = validAccount(stack)
        try stack.context.save()
        saved.setValue("bob", forKey: "name")
        let bad = validAccount(stack)
        bad.setValue(500, forKey: "age")
        let temporaryID = bad.objectID
        #expect(throws: NSError.self) { try stack.context.save() }
        #expect(bad.isInserted && bad.objectID == temporaryID && bad.objectID.isTemporaryID)
        #expect(saved.isUpdated && saved.value(forKey: "name") as? String == "bob")
        let other = stack.newContext()
        #expect(try other.count(for: NSFetchRequest<NSManagedObject>(entityName: "Account")) == 1)
        #expect(try other.existingObject(with: saved.objectID).value(forKey: "name") as? String == "ann")
        bad.setValue(5, forKey: "age")
        try stack.context.save()
        #expect(try other.count(for: NSFetchRequest<NSManagedObject>(entityName: "Account")) == 2)
    }
}

// MARK: - Finding validateValue overrides (save's fast path)

private class ValidatingBase: NSManagedObject {
    override func validateValue(_ value: inout Any?, forKey key: String) throws {
        try super.validateValue(&value, forKey: key)
    }
}
private final class InheritsValidation: ValidatingBase {}
private final class PlainRecord: NSManagedObject {}
private class PlainBase: NSManagedObject {}
private final class PlainChild: PlainBase {}

@Suite struct ValidateValueOverrideTests {
    @Test("classes that override validateValue, directly or through a superclass, are told apart")
    func detection() {
        #expect(!ValidateValueOverride.isOverridden(by: NSManagedObject.self))
        #expect(!ValidateValueOverride.isOverridden(by: PlainRecord.self))
        #expect(!ValidateValueOverride.isOverridden(by: PlainChild.self))
        #expect(ValidateValueOverride.isOverridden(by: ValidatingBase.self))
        #expect(ValidateValueOverride.isOverridden(by: InheritsValidation.self))
        #expect(ValidateValueOverride.isOverridden(by: Account.self))
    }
}
