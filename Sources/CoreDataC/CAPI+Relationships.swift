import CCoreDataAPI
@_spi(CAPI) import CoreData
import Foundation

// MARK: - Objects: relationships
//
// Writes go through `checkedSetValue(_:forKey:)`, which checks the destination's entity
// and context (instead of trapping) and keeps inverses in step.

/// The relationship named `key`, checked to be to-one or to-many.
func relationship(_ key: String, of object: NSManagedObject, toMany: Bool) throws -> NSRelationshipDescription {
    guard let relationship = try property(key, of: object) as? NSRelationshipDescription,
          relationship.isToMany == toMany else {
        throw CAPIError(.type, "\(object.entity.name ?? "?").\(key) is not a to-\(toMany ? "many" : "one") relationship.")
    }
    return relationship
}

/// The current members of a to-many relationship.
func members(_ key: String, of object: NSManagedObject) throws -> [NSManagedObject] {
    switch try object.throwingValue(forKey: key) {
    case let set as Set<NSManagedObject>: return Array(set)
    case let ordered as NSOrderedSet: return ordered.array.compactMap { $0 as? NSManagedObject }
    case nil: return []
    case let other?: throw CAPIError(.type, "The to-many relationship \(key) holds \(type(of: other)).")
    }
}

/// Writes new members into a to-many relationship, keeping its ordered or unordered kind.
func setMembers(_ members: [NSManagedObject], _ relationship: NSRelationshipDescription,
                of object: NSManagedObject) throws {
    let value: Any = relationship.isOrdered ? NSOrderedSet(array: members) : Set(members)
    try object.throwingSetValue(value, forKey: relationship.name)
}

@c @implementation public func cd_object_get_to_one(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(object, as: ObjectBox.self, "object")
        let key = try requireString(key, "key")
        let destination = try box.run { object -> NSManagedObject in
            _ = try relationship(key, of: object, toMany: false)
            guard let destination = try object.throwingValue(forKey: key) as? NSManagedObject else {
                throw CAPIError(.null, "\(object.entity.name ?? "?").\(key) is null.")
            }
            return destination
        }
        guard let contextBox = box.contextBox else { throw CAPIError(.misuse, "The object's context was released.") }
        out.pointee = retained(ObjectBox(object: destination, contextBox: contextBox))
    }
}

@c @implementation public func cd_object_set_to_one(
    _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ destination: OpaquePointer?
) -> Int32 {
    capi {
        let box = try handle(object, as: ObjectBox.self, "object")
        let key = try requireString(key, "key")
        let target = try destination.map { try handle($0, as: ObjectBox.self, "destination").object }
        try box.run { object in
            _ = try relationship(key, of: object, toMany: false)
            try object.throwingSetValue(target, forKey: key)
        }
    }
}

@c @implementation public func cd_object_to_many_count(
    _ out: UnsafeMutablePointer<Int>?, _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(object, as: ObjectBox.self, "object")
        let key = try requireString(key, "key")
        out.pointee = try box.run { object in
            _ = try relationship(key, of: object, toMany: true)
            return try members(key, of: object).count
        }
    }
}

@c @implementation public func cd_object_to_many_add(
    _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ member: OpaquePointer?
) -> Int32 {
    capi {
        let box = try handle(object, as: ObjectBox.self, "object")
        let key = try requireString(key, "key")
        let member = try handle(member, as: ObjectBox.self, "member").object
        try box.run { object in
            let relationship = try relationship(key, of: object, toMany: true)
            let current = try members(key, of: object)
            if current.contains(where: { $0 === member }) { return }
            try setMembers(current + [member], relationship, of: object)
        }
    }
}

@c @implementation public func cd_object_to_many_remove(
    _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ member: OpaquePointer?
) -> Int32 {
    capi {
        let box = try handle(object, as: ObjectBox.self, "object")
        let key = try requireString(key, "key")
        let member = try handle(member, as: ObjectBox.self, "member").object
        try box.run { object in
            let relationship = try relationship(key, of: object, toMany: true)
            let current = try members(key, of: object)
            guard current.contains(where: { $0 === member }) else { return }
            try setMembers(current.filter { $0 !== member }, relationship, of: object)
        }
    }
}

@c @implementation public func cd_object_copy_to_many(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(object, as: ObjectBox.self, "object")
        let key = try requireString(key, "key")
        let list = try box.run { object in
            _ = try relationship(key, of: object, toMany: true)
            return try members(key, of: object)
        }
        guard let contextBox = box.contextBox else { throw CAPIError(.misuse, "The object's context was released.") }
        out.pointee = retained(ResultBox(rows: .objects(list), contextBox: contextBox))
    }
}
