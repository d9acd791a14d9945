@_spi(Tools) @_spi(CAPI) import CoreData
import Foundation
import Synchronization

// MARK: - Opaque handles
//
// Every `cd_*` handle is an `Unmanaged.passRetained` pointer to a subclass of `CAPIHandle`.
// `_release` functions balance that retain. Entry points turn a pointer back into its box
// with `handle(_:as:)`, which also checks the box's class, so a handle of another type
// (an easy mistake through an FFI) is reported as CD_MISUSE instead of crashing.

/// The base class of every handle box.
class CAPIHandle {
    /// The C name of the handle type, for messages ("cd_context").
    class var typeName: String { "handle" }
}

/// Gives C a +1 reference to a box.
func retained(_ box: CAPIHandle) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(box).toOpaque())
}

/// The box behind a handle, or a CD_MISUSE error for NULL or a handle of another type.
func handle<T: CAPIHandle>(_ pointer: OpaquePointer?, as _: T.Type,
                           _ name: StaticString = "handle") throws -> T {
    guard let pointer else {
        throw CAPIError(.misuse, "\(name) is NULL (expected a \(T.typeName)).")
    }
    let box = Unmanaged<CAPIHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    guard let typed = box as? T else {
        throw CAPIError(.misuse, "\(name) is a \(type(of: box).typeName), not a \(T.typeName).")
    }
    return typed
}

/// Balances the retain of `retained(_:)`; NULL is a no-op. A handle of the wrong type is
/// ignored rather than released (a release function has no status to report it).
func release<T: CAPIHandle>(_ pointer: OpaquePointer?, as _: T.Type) {
    guard let pointer else { return }
    let unmanaged = Unmanaged<CAPIHandle>.fromOpaque(UnsafeRawPointer(pointer))
    guard unmanaged.takeUnretainedValue() is T else { return }
    unmanaged.release()
}

/// Writes a value through an output pointer, or fails with CD_MISUSE when it is NULL.
func requireOut<T>(_ out: UnsafeMutablePointer<T>?, _ name: StaticString = "out") throws
    -> UnsafeMutablePointer<T> {
    guard let out else { throw CAPIError(.misuse, "\(name) is NULL.") }
    return out
}

/// A C string argument as a Swift string: CD_MISUSE when it is NULL, CD_TYPE when it is not
/// valid UTF-8 (`String(cString:)` would replace the bad bytes, silently changing the text).
func requireString(_ pointer: UnsafePointer<CChar>?, _ name: StaticString) throws -> String {
    guard let pointer else { throw CAPIError(.misuse, "\(name) is NULL.") }
    return try utf8String(pointer, name)
}

/// A file path argument: as `requireString`, and CD_MISUSE for "" (which
/// `URL(fileURLWithPath:)` would take as the current directory).
func requirePath(_ pointer: UnsafePointer<CChar>?, _ name: StaticString) throws -> String {
    let path = try requireString(pointer, name)
    guard !path.isEmpty else { throw CAPIError(.misuse, "\(name) is empty; pass a path.") }
    return path
}

/// A non-NULL C string as a Swift string, or CD_TYPE naming the first byte that is not
/// valid UTF-8.
func utf8String(_ pointer: UnsafePointer<CChar>, _ name: StaticString) throws -> String {
    if let string = String(validatingCString: pointer) { return string }
    let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var offset = 0
    parsing: while true {
        switch parser.parseScalar(from: &iterator) {
        case .valid(let scalar): offset += scalar.count
        case .error, .emptyInput: break parsing
        }
    }
    let byte = offset < bytes.count ? String(bytes[offset], radix: 16, uppercase: true) : "?"
    throw CAPIError(.type, "\(name) is not valid UTF-8 (byte \(offset) is 0x\(byte)); text must be UTF-8.")
}

/// A copy of `length` bytes from C: CD_RANGE for a length that does not fit an `Int` (a
/// `size_t` above `PTRDIFF_MAX`, such as `SIZE_MAX`) or that this process cannot
/// allocate, CD_MISUSE for NULL bytes with a length. `Data(bytes:count:)` would abort.
func copiedBytes(_ bytes: UnsafeRawPointer?, _ length: Int) throws -> Data {
    guard length >= 0 else {
        throw CAPIError(.range, "length \(UInt(bitPattern: length)) is larger than any block of memory (at most \(Int.max) bytes).")
    }
    guard length > 0 else { return Data() }
    guard let bytes else { throw CAPIError(.misuse, "bytes is NULL but length is \(length).") }
    guard let copy = malloc(length) else {
        throw CAPIError(.range, "length \(length) is more bytes than this process can allocate.")
    }
    copy.copyMemory(from: bytes, byteCount: length)
    return Data(bytesNoCopy: copy, count: length, deallocator: .free)
}

/// A new C string owned by the caller (freed with `cd_string_free`), or CD_TYPE for text
/// holding a NUL character, which a C string would cut short.
func ownedCString(_ string: String) throws -> UnsafeMutablePointer<CChar> {
    if let offset = string.utf8.firstIndex(of: 0) {
        let position = string.utf8.distance(from: string.utf8.startIndex, to: offset)
        throw CAPIError(.type, "The text holds a NUL character at byte \(position), which a C string cannot carry.")
    }
    guard let copy = strdup(string) else { throw CAPIError(.nomem, "Out of memory.") }
    return copy
}

// MARK: - Boxes

/// `cd_container`: an `NSPersistentContainer` with its loaded store.
final class ContainerBox: CAPIHandle {
    // `container` is immutable; `viewContextBox` is behind a mutex: any thread may use it.
    override class var typeName: String { "cd_container" }
    let container: NSPersistentContainer
    /// The handle box of the view context, shared by every `cd_container_view_context`
    /// (weak: it lives as long as C holds a handle to it).
    private let viewContextBox = Mutex<WeakContextBox>(WeakContextBox())

    init(container: NSPersistentContainer) {
        self.container = container
    }

    /// The view context's box: the existing one, or a new one.
    func viewContext() -> ContextBox {
        viewContextBox.withLock { weak in
            if let box = weak.box { return box }
            let box = ContextBox(context: container.viewContext, container: container)
            weak.box = box
            return box
        }
    }
}

struct WeakContextBox: @unchecked Sendable {
    // @unchecked Sendable: only touched inside ContainerBox's mutex.
    weak var box: ContextBox?
}

/// `cd_context`: a managed object context and the container it needs.
final class ContextBox: CAPIHandle, @unchecked Sendable {
    // @unchecked Sendable: the context is only used through `run`, on its own queue.
    override class var typeName: String { "cd_context" }
    let context: NSManagedObjectContext
    /// Keeps the coordinator and model alive as long as the context.
    let container: NSPersistentContainer

    init(context: NSManagedObjectContext, container: NSPersistentContainer) {
        self.context = context
        self.container = container
    }

    /// Runs `body` on the context's queue (Core Data's `performAndWait`). The view context
    /// belongs to the main thread: from any other thread it fails with CD_MISUSE rather
    /// than wait for a main queue that a C program never drains.
    func run<T>(_ body: () throws -> T) throws -> T {
        try checkMainThread(context.concurrencyType == .mainQueueConcurrencyType, "view context")
        return try context.performAndWait(body)
    }
}

/// CD_MISUSE when something of the view context (`what`) is used off the main thread.
func checkMainThread(_ ofViewContext: Bool, _ what: StaticString) throws {
    guard ofViewContext, !Thread.isMainThread else { return }
    throw CAPIError(.misuse, "The \(what) was used from a thread other than the main thread; use it from the main thread, or use cd_container_new_background_context().")
}

/// `cd_object`: a managed object and (weakly) the context handle it came through.
final class ObjectBox: CAPIHandle {
    override class var typeName: String { "cd_object" }
    let object: NSManagedObject
    /// Weak so that releasing the context is detected: the object then answers CD_MISUSE.
    weak var contextBox: ContextBox?

    init(object: NSManagedObject, contextBox: ContextBox) {
        self.object = object
        self.contextBox = contextBox
    }

    /// Runs `body` with the object on its context's queue.
    func run<T>(_ body: (NSManagedObject) throws -> T) throws -> T {
        guard let contextBox else {
            throw CAPIError(.misuse, "The object's context was released; objects are usable only while a handle to their context is alive.")
        }
        return try contextBox.run {
            guard object.managedObjectContext === contextBox.context else {
                throw CAPIError(.misuse, "The object is no longer registered in its context (the context was reset, or the object was deleted and saved).")
            }
            return try body(object)
        }
    }
}

/// `cd_object_id`: an immutable, thread-safe object ID.
///
/// An ID refers to its store weakly: once the container is released, the ID alone would
/// answer a URI without its store ("x-coredata:///Item/p1") and compare equal to the same
/// key of another store. The box keeps what identifies it, taken while the store lives.
final class ObjectIDBox: CAPIHandle {
    override class var typeName: String { "cd_object_id" }
    let objectID: NSManagedObjectID
    /// `objectID.uriRepresentation()`, as text.
    let uri: String
    /// The identifier of the ID's store (nil for a temporary ID).
    let storeIdentifier: String?

    init(_ objectID: NSManagedObjectID) {
        self.objectID = objectID
        uri = objectID.uriRepresentation().absoluteString
        storeIdentifier = objectID.persistentStore?.identifier
    }
}

/// `cd_fetch_request`: a request being configured (one thread at a time).
final class FetchRequestBox: CAPIHandle {
    override class var typeName: String { "cd_fetch_request" }
    let request: NSFetchRequest<NSFetchRequestResult>
    /// The sort keys as given, checked against the model when the request runs.
    var sortKeys: [String] = []
    init(entityName: String) {
        request = NSFetchRequest<NSFetchRequestResult>(entityName: entityName)
    }
}

/// `cd_arguments`: predicate format arguments, built by calls instead of C varargs.
final class ArgumentsBox: CAPIHandle {
    override class var typeName: String { "cd_arguments" }
    var values: [Any] = []
}

/// `cd_fetch_result`: the rows of a fetch, or the members of a to-many relationship.
final class ResultBox: CAPIHandle {
    override class var typeName: String { "cd_fetch_result" }
    enum Rows {
        case objects([NSManagedObject])
        case objectIDs([NSManagedObjectID])
        case dictionaries([[String: Any]])
        case count(Int)
    }
    let rows: Rows
    weak var contextBox: ContextBox?
    /// Whether the rows came from the view context, whose results belong to the main
    /// thread as the context does (kept apart from `contextBox`, which may be released).
    let ofViewContext: Bool

    init(rows: Rows, contextBox: ContextBox) {
        self.rows = rows
        self.contextBox = contextBox
        ofViewContext = contextBox.context.concurrencyType == .mainQueueConcurrencyType
    }

    /// The results, checked for the thread: CD_MISUSE for results of the view context
    /// read off the main thread, as the context's own calls answer.
    static func checked(_ pointer: OpaquePointer?) throws -> ResultBox {
        let box = try handle(pointer, as: ResultBox.self, "result")
        try checkMainThread(box.ofViewContext, "result of the view context")
        return box
    }

    var count: Int {
        switch rows {
        case .objects(let objects): objects.count
        case .objectIDs(let ids): ids.count
        case .dictionaries(let rows): rows.count
        case .count: 1
        }
    }
}
