import Foundation

/// The code that migrates the objects of one entity mapping: subclass it to change how
/// destination objects are made, and name the subclass in the mapping's
/// ``NSEntityMapping/entityMigrationPolicyClassName``.
///
/// A migration manager calls, for every entity mapping in the mapping model's order:
/// 1. ``begin(_:with:)``, ``createDestinationInstances(forSource:in:manager:)`` for each
///    source object, then ``endInstanceCreation(forMapping:manager:)``;
/// 2. once every mapping created its objects: ``createRelationships(forDestination:in:manager:)``
///    for each destination object, then ``endRelationshipCreation(forMapping:manager:)``;
/// 3. ``performCustomValidation(forMapping:manager:)``; the destination is then
///    validated and saved, and ``end(_:manager:)`` closes each mapping.
///
/// A method that throws stops the migration with its error.
///
/// ```swift
/// final class NotePolicy: NSEntityMigrationPolicy {
///     override func createDestinationInstances(
///         forSource source: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager
///     ) throws {
///         let note = NSEntityDescription.insertNewObject(
///             forEntityName: mapping.destinationEntityName!, into: manager.destinationContext)
///         note.setValue((source.value(forKey: "text") as? String)?.uppercased(), forKey: "text")
///         manager.associate(sourceInstance: source, withDestinationInstance: note, for: mapping)
///     }
/// }
/// // in the mapping: entityMigrationPolicyClassName = "MyApp.NotePolicy"
/// ```
///
/// - Note: Apple parity: the class is found with `NSClassFromString`, so a Swift policy
///   is named with its module (`"MyApp.NotePolicy"`), as on Apple. A name without a module
///   (what Apple apps write for an `@objc(NotePolicy)` class) is also looked for in the
///   modules of the models' entity classes and of the main executable. The initializer is
///   `required` so that the manager can make one from the class. `FUNCTION($entityPolicy,
///   "selector:", …)` in a value expression calls ``performFunction(_:with:)``, which a
///   subclass overrides to map selector names to its methods (Linux has no Objective-C
///   runtime to send them).
///
/// ## Topics
/// - ``begin(_:with:)``
/// - ``createDestinationInstances(forSource:in:manager:)``
/// - ``endInstanceCreation(forMapping:manager:)``
/// - ``createRelationships(forDestination:in:manager:)``
/// - ``endRelationshipCreation(forMapping:manager:)``
/// - ``performCustomValidation(forMapping:manager:)``
/// - ``end(_:manager:)``
/// - ``performFunction(_:with:)``
open class NSEntityMigrationPolicy: NSObject {

    /// A policy; the migration manager makes one per entity mapping.
    public required override init() {
        super.init()
    }

    // MARK: - Creating objects

    /// Called before any object of `mapping` is created. Does nothing by default.
    open func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {}

    /// Creates the destination objects of one source object.
    ///
    /// By default: one object of the mapping's destination entity, inserted into the
    /// manager's ``NSMigrationManager/destinationContext``, each attribute set from its
    /// mapping's value expression (`$source`, `$manager`, `$entityMapping`,
    /// `$propertyMapping`, `$entityPolicy` and `$destination` bound), then associated with
    /// the source object (``NSMigrationManager/associate(sourceInstance:withDestinationInstance:for:)``).
    ///
    /// - Throws: `NSEntityMigrationPolicyError` (134170) when the mapping has no
    ///   destination entity or a value does not fit its attribute; any error of a value
    ///   expression.
    open func createDestinationInstances(
        forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager
    ) throws {
        guard let entity = manager.destinationEntity(for: mapping) else {
            throw CoreDataError.make(
                NSEntityMigrationPolicyError,
                "The entity mapping \(mapping.name ?? "?") has no destination entity to create objects of.")
        }
        let destination = NSEntityDescription.insertNewObject(forEntityName: entity.name ?? "", into: manager.destinationContext)
        for propertyMapping in mapping.attributeMappings ?? [] {
            guard let name = propertyMapping.name, let expression = propertyMapping.valueExpression,
                  let attribute = entity.attributesByName[name] else { continue }
            let value = try manager.evaluate(expression, source: sInstance, destination: destination,
                                             mapping: mapping, propertyMapping: propertyMapping, policy: self)
            if let unwrapped = NSAttributeDescription.unwrap(value), !attribute.accepts(unwrapped) {
                throw CoreDataError.make(
                    NSEntityMigrationPolicyError,
                    "\(mapping.name ?? "?").\(name): \(attribute.unacceptableTypeMessage(unwrapped))")
            }
            destination.setValue(NSAttributeDescription.unwrap(value), forKey: name)
        }
        manager.associate(sourceInstance: sInstance, withDestinationInstance: destination, for: mapping)
    }

    /// Called once every object of `mapping` is created. Does nothing by default.
    open func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    // MARK: - Relationships

    /// Sets the relationships of one destination object.
    ///
    /// By default each relationship mapping's value expression is evaluated with the
    /// object's source object as `$source`; a to-one relationship gets the first object
    /// of the value, a to-many one all of them.
    open func createRelationships(
        forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager
    ) throws {
        let source = manager.sourceInstances(forEntityMappingName: mapping.name ?? "", destinationInstances: [dInstance]).first
        let entity = dInstance.entity
        for propertyMapping in mapping.relationshipMappings ?? [] {
            guard let name = propertyMapping.name, let expression = propertyMapping.valueExpression,
                  let relationship = entity.relationshipsByName[name] else { continue }
            let value = try manager.evaluate(expression, source: source, destination: dInstance,
                                             mapping: mapping, propertyMapping: propertyMapping, policy: self)
            let members = NSMigrationManager.objects(in: value)
            if relationship.isToMany {
                dInstance.setValue(relationship.isOrdered ? NSOrderedSet(array: members) as Any : Set(members) as Any,
                                   forKey: name)
            } else {
                dInstance.setValue(members.first, forKey: name)
            }
        }
    }

    /// Called once the relationships of every object of `mapping` are set. Does nothing
    /// by default.
    open func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    // MARK: - Validating and ending

    /// Validation of your own, before the destination is validated and saved. Does
    /// nothing by default.
    open func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Called last for each mapping, after the destination is saved. Does nothing by
    /// default.
    open func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    // MARK: - FUNCTION in value expressions

    /// The value of `FUNCTION($entityPolicy, "selector:", arguments…)` in one of the
    /// mapping's expressions. Override it to answer your selectors:
    ///
    /// ```swift
    /// override func performFunction(_ selector: Selector, with arguments: [Any?]) throws -> Any? {
    ///     switch selector.name {
    ///     case "fullNameFrom:last:":
    ///         return "\(arguments[0] ?? "") \(arguments[1] ?? "")"
    ///     default:
    ///         return try super.performFunction(selector, with: arguments)
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: `NSEntityMigrationPolicyError` (134170) naming the selector, by default.
    /// - Note: Apple parity: our addition. Apple sends the selector to the policy through
    ///   the Objective-C runtime, which Linux lacks: the expression is unchanged, the
    ///   method is reached through this override.
    open func performFunction(_ selector: Selector, with arguments: [Any?]) throws -> Any? {
        throw CoreDataError.make(
            NSEntityMigrationPolicyError,
            "\(type(of: self)) does not answer FUNCTION($entityPolicy, \"\(selector.name)\", …): override performFunction(_:with:) to answer it.")
    }
}

extension NSEntityMigrationPolicy: PredicateFunctionTarget {
    func predicateFunctionValue(selector: String, arguments: [Any?]) throws -> Any? {
        try performFunction(Selector(selector), with: arguments)
    }
}
