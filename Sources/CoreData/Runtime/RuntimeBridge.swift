import Foundation
internal import CCoreDataRuntime

/// Wires the runtime shim to Swift once per process: reference counting for the object
/// references and boxes that slots hold, and the callback that fills a firing fault.
///
/// The runtime knows objects only as opaque owners; the layer above says what firing means
/// by handing ``install(fulfil:)`` a C function that receives the owner given to
/// ``ObjectSlots/setOwner(_:)``.
enum RuntimeBridge {
    /// What fills a firing fault: called with the slot block's owner; returns whether the
    /// slots were filled (false leaves the object a fault).
    typealias Fulfil = @convention(c) (UnsafeMutableRawPointer) -> Bool

    /// Makes the runtime retain and release the Swift objects its slots hold. Touched by
    /// every slot block and row before it takes a reference.
    static let referencesRetained: Bool = {
        cdr_set_reference_callbacks(
            { pointer in if let pointer { _ = Unmanaged<AnyObject>.fromOpaque(pointer).retain() } },
            { pointer in if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() } }
        )
        return true
    }()

    /// A strong reference to the object at `pointer`, unless the object has begun to
    /// deinitialize (nil then). What a weak reference's load does, for holders that keep a
    /// plain pointer instead of a weak reference (which costs the object a side table) and
    /// hear of the object's end from its `deinit`, under the holder's lock.
    ///
    /// `pointer` must name a live allocation: the object not yet deinitialized, or inside its
    /// `deinit` (whose memory stays until `deinit` returns).
    @inline(__always)
    static func tryRetain<T: AnyObject>(_ pointer: UnsafeMutableRawPointer, as type: T.Type) -> T? {
        guard cdr_try_retain(pointer) else { return nil }
        return Unmanaged<T>.fromOpaque(pointer).takeRetainedValue()
    }

    /// Installs the fulfil function. Call once (later calls replace it).
    static func install(fulfil: Fulfil) {
        cdr_set_fulfil_callback({ _, owner, info in
            guard let owner, let info else { return 1 }
            let fulfil = unsafeBitCast(info, to: Fulfil.self)
            return fulfil(owner) ? 0 : 1
        }, unsafeBitCast(fulfil, to: UnsafeMutableRawPointer.self))
    }
}
