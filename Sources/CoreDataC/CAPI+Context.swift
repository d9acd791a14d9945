import CCoreDataAPI
@_spi(CAPI) import CoreData
import Foundation

// MARK: - Contexts

@c @implementation public func cd_context_release(_ ctx: OpaquePointer?) {
    release(ctx, as: ContextBox.self)
}

@c @implementation public func cd_context_perform_and_wait(
    _ ctx: OpaquePointer?, _ fn: cd_context_fn?, _ payload: UnsafeMutableRawPointer?
) -> Int32 {
    capi {
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        guard let fn else { throw CAPIError(.misuse, "fn is NULL.") }
        try box.run { fn(ctx, payload) }
    }
}

@c @implementation public func cd_context_insert(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?,
    _ entity: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        let name = try requireString(entity, "entity")
        let object = try box.run { () throws -> NSManagedObject in
            guard let description = NSEntityDescription.entity(forEntityName: name, in: box.context) else {
                throw CAPIError(.notFound, "The model has no entity named \(name).")
            }
            if description.isAbstract {
                throw CAPIError(.misuse, "The entity \(name) is abstract: insert one of its sub-entities.")
            }
            return NSEntityDescription.insertNewObject(forEntityName: name, into: box.context)
        }
        out.pointee = retained(ObjectBox(object: object, contextBox: box))
    }
}

@c @implementation public func cd_context_delete(_ ctx: OpaquePointer?, _ object: OpaquePointer?) -> Int32 {
    capi {
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        let objectBox = try handle(object, as: ObjectBox.self, "object")
        try box.run {
            let object = objectBox.object
            guard object.managedObjectContext === box.context else {
                throw CAPIError(.misuse, "The object belongs to another context (or none): delete it through its own context.")
            }
            if !object.isInserted { try object.throwingFireFault() }
            box.context.delete(object)
        }
    }
}

@c @implementation public func cd_context_save(_ ctx: OpaquePointer?) -> Int32 {
    capi {
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        try box.run {
            if box.context.hasChanges { try box.context.save() }
        }
    }
}

@c @implementation public func cd_context_rollback(_ ctx: OpaquePointer?) -> Int32 {
    capi {
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        try box.run { box.context.rollback() }
    }
}

@c @implementation public func cd_context_reset(_ ctx: OpaquePointer?) -> Int32 {
    capi {
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        try box.run { box.context.reset() }
    }
}

@c @implementation public func cd_context_has_changes(
    _ out: UnsafeMutablePointer<Int32>?, _ ctx: OpaquePointer?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        out.pointee = try box.run { box.context.hasChanges } ? 1 : 0
    }
}

@c @implementation public func cd_context_object_with_id(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ objectID: OpaquePointer?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        let idBox = try handle(objectID, as: ObjectIDBox.self, "object_id")
        let object = try box.run { try box.context.existingObject(with: idBox.objectID) }
        out.pointee = retained(ObjectBox(object: object, contextBox: box))
    }
}
