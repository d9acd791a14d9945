import Foundation

/// The store types a coordinator can add: the built-in SQLite, in-memory and PostgreSQL stores, and the
/// classes apps register with `NSPersistentStoreCoordinator.registerStoreClass(_:forStoreType:)`.
///
/// Process-wide, as Apple's registry is (a class method registers for every coordinator).
enum StoreTypeRegistry {
    /// How a type's stores are made.
    enum Kind {
        case sqlite
        case inMemory
        case postgreSQL
        /// A registered class (checked to be an `NSPersistentStore` subclass when a store of
        /// the type is added, as Apple checks).
        case registered(AnyClass)
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var classes: [String: AnyClass] = [:]

    /// The kind of store for a type string, or nil for a type nobody registered.
    static func kind(of type: String) -> Kind? {
        switch type {
        case NSSQLiteStoreType: return .sqlite
        case NSInMemoryStoreType: return .inMemory
        case NSPostgreSQLStoreType: return .postgreSQL
        default:
            lock.lock()
            defer { lock.unlock() }
            return classes[type].map(Kind.registered)
        }
    }

    /// Registers `storeClass` for `type`; nil unregisters the type. The built-in types
    /// cannot be replaced.
    static func register(_ storeClass: AnyClass?, for type: String) {
        guard type != NSSQLiteStoreType, type != NSInMemoryStoreType, type != NSPostgreSQLStoreType else { return }
        lock.lock()
        defer { lock.unlock() }
        classes[type] = storeClass
    }

    /// Every registered type with its class, the built-in types included (their class is
    /// `NSPersistentStore`).
    static var all: [String: AnyClass] {
        lock.lock()
        defer { lock.unlock() }
        var result = classes
        result[NSSQLiteStoreType] = NSPersistentStore.self
        result[NSInMemoryStoreType] = NSPersistentStore.self
        result[NSPostgreSQLStoreType] = NSPersistentStore.self
        return result
    }

    /// A class wrapped in an `NSValue` (objCType `#`), as Apple's `registeredStoreTypes`
    /// hands them out; ``storeClass(in:)`` reads it back.
    static func value(for storeClass: AnyClass) -> NSValue {
        var pointer = unsafeBitCast(storeClass, to: UnsafeRawPointer.self)
        return withUnsafePointer(to: &pointer) { NSValue(bytes: $0, objCType: "#") }
    }

    /// The class an ``value(for:)`` value holds.
    static func storeClass(in value: NSValue) -> AnyClass? {
        guard String(cString: value.objCType) == "#" else { return nil }
        var pointer: UnsafeRawPointer?
        value.getValue(&pointer)
        return pointer.map { unsafeBitCast($0, to: AnyClass.self) }
    }
}
