import Foundation

/// Hands a pending object ID to `NSManagedObject.init(entity:insertInto:)` on the current
/// thread, so that a context can build fetched objects through the one initializer every
/// subclass has (the `required` one) and get a fault instead of an insert.
enum FaultConstruction {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static func set(_ objectID: NSManagedObjectID) {
        pthread_setspecific(key, Unmanaged.passRetained(objectID).toOpaque())
    }

    /// The pending ID, consumed (nil when no context is building a fault).
    static func take() -> NSManagedObjectID? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        pthread_setspecific(key, nil)
        return Unmanaged<NSManagedObjectID>.fromOpaque(pointer).takeRetainedValue()
    }

    static func clear() {
        if let pointer = pthread_getspecific(key) {
            pthread_setspecific(key, nil)
            Unmanaged<NSManagedObjectID>.fromOpaque(pointer).release()
        }
    }
}
