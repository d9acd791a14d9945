import CCoreDataAPI
@_spi(CAPI) import CoreData
import Foundation

// MARK: - Objects: identity and state

@c @implementation public func cd_object_release(_ object: OpaquePointer?) {
    release(object, as: ObjectBox.self)
}

@c @implementation public func cd_object_copy_id(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ object: OpaquePointer?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(object, as: ObjectBox.self, "object")
        out.pointee = retained(ObjectIDBox(try box.run { $0.objectID }))
    }
}

@c @implementation public func cd_object_copy_entity_name(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ object: OpaquePointer?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(object, as: ObjectBox.self, "object")
        out.pointee = try ownedCString(try box.run { $0.entity.name ?? "" })
    }
}

@c @implementation public func cd_object_state(
    _ out: UnsafeMutablePointer<UInt32>?, _ object: OpaquePointer?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(object, as: ObjectBox.self, "object")
        out.pointee = try box.run { object in
            var flags: UInt32 = 0
            if object.isInserted { flags |= UInt32(CD_OBJECT_INSERTED.rawValue) }
            if object.isUpdated { flags |= UInt32(CD_OBJECT_UPDATED.rawValue) }
            if object.isDeleted { flags |= UInt32(CD_OBJECT_DELETED.rawValue) }
            if object.isFault { flags |= UInt32(CD_OBJECT_FAULT.rawValue) }
            return flags
        }
    }
}

@c @implementation public func cd_object_equal(
    _ out: UnsafeMutablePointer<Int32>?, _ a: OpaquePointer?, _ b: OpaquePointer?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let first = try handle(a, as: ObjectBox.self, "a")
        let second = try handle(b, as: ObjectBox.self, "b")
        out.pointee = first.object === second.object ? 1 : 0
    }
}

@c @implementation public func cd_object_hash(_ out: UnsafeMutablePointer<UInt64>?, _ object: OpaquePointer?) -> Int32 {
    capi {
        let out = try requireOut(out)
        // The identity of the Swift object, not of the handle: every handle of one object
        // boxes the same instance (cd_object_equal compares the same way).
        let box = try handle(object, as: ObjectBox.self, "object")
        out.pointee = UInt64(UInt(bitPattern: ObjectIdentifier(box.object).hashValue))
    }
}

// MARK: - Object IDs

@c @implementation public func cd_object_id_release(_ objectID: OpaquePointer?) {
    release(objectID, as: ObjectIDBox.self)
}

@c @implementation public func cd_object_id_copy_uri(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ objectID: OpaquePointer?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(objectID, as: ObjectIDBox.self, "object_id")
        out.pointee = try ownedCString(box.uri)
    }
}

@c @implementation public func cd_object_id_is_temporary(
    _ out: UnsafeMutablePointer<Int32>?, _ objectID: OpaquePointer?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        out.pointee = try handle(objectID, as: ObjectIDBox.self, "object_id").objectID.isTemporaryID ? 1 : 0
    }
}

@c @implementation public func cd_object_id_equal(
    _ out: UnsafeMutablePointer<Int32>?, _ a: OpaquePointer?, _ b: OpaquePointer?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let first = try handle(a, as: ObjectIDBox.self, "a")
        let second = try handle(b, as: ObjectIDBox.self, "b")
        out.pointee = first.objectID == second.objectID && first.storeIdentifier == second.storeIdentifier ? 1 : 0
    }
}
