import Foundation

// MARK: - The context's lock and user info

extension NSManagedObjectContext {
    /// A dictionary of your own, kept with the context for its lifetime (Core Data never
    /// reads it).
    public var userInfo: NSMutableDictionary { userInfoStorage }

    /// Takes the context's recursive lock, waiting for it: the way confinement-era code
    /// kept other threads out of a context.
    ///
    /// - Note: Apple parity: deprecated, as on Apple; the lock excludes only other callers
    ///   of `lock()`/`tryLock()`, not blocks run by `perform`/`performAndWait` (use those).
    @available(*, deprecated, message: "Use a queue style context and performAndWait instead")
    public func lock() {
        contextLock.lock()
    }

    /// Releases the lock taken by ``lock()`` or a successful ``tryLock()``.
    @available(*, deprecated, message: "Use a queue style context and performAndWait instead")
    public func unlock() {
        contextLock.unlock()
    }

    /// Takes the context's lock if no other thread holds it; returns whether it did.
    @available(*, deprecated, message: "Use a queue style context and perform instead")
    public func tryLock() -> Bool {
        contextLock.try()
    }
}
