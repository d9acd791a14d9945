import CCoreDataAPI
@_spi(CAPI) import CoreData
import Foundation

// MARK: - Status codes and the thread-local last error
//
// Every entry point that returns a status runs its body through `capi`, which catches
// every Swift error: a `CAPIError` carries its own status, an `NSError` in
// NSCocoaErrorDomain keeps its code when the header lists it (Core Data's codes are the C
// status codes; see CAPI+Statuses.swift), anything else is CD_ERROR. The message goes to thread-local storage for
// `cd_last_error_message()`. No Swift trap is reachable: the entry points validate
// handles, keys and types before calling APIs that would trap.

/// An API-level failure with a `cd_status` and a message.
struct CAPIError: Error {
    enum Code: Int32 {
        case error = 1, misuse = 2, nomem = 3, notFound = 4, type = 5, range = 6, null = 7
        case unsupported = 8
    }
    let status: Int32
    let message: String
    init(_ code: Code, _ message: String) {
        self.status = code.rawValue
        self.message = message
    }
}

/// The failure details of one thread, kept in a pthread key.
final class ErrorState {
    var status: Int32 = 0
    var domain = ""
    var key: String?
    /// The message as a C string, owned here and replaced on the next failure.
    var message: UnsafeMutablePointer<CChar>?

    func set(status: Int32, domain: String, message: String, key: String?) {
        self.status = status
        self.domain = domain
        self.key = key
        free(self.message)
        self.message = strdup(message)
    }

    func clear() {
        guard status != 0 || message != nil else { return }
        status = 0
        domain = ""
        key = nil
        free(message)
        message = nil
    }

    deinit { free(message) }
}

private let errorKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { pointer in
        if let pointer { Unmanaged<ErrorState>.fromOpaque(pointer).release() }
    }
    return key
}()

/// This thread's error state (created on first use).
func currentErrorState() -> ErrorState {
    if let pointer = pthread_getspecific(errorKey) {
        return Unmanaged<ErrorState>.fromOpaque(pointer).takeUnretainedValue()
    }
    let state = ErrorState()
    pthread_setspecific(errorKey, Unmanaged.passRetained(state).toOpaque())
    return state
}

let capiErrorDomain = "CDErrorDomain"

/// Runs an entry point's body: CD_OK on success, else the failure's status, recorded for
/// `cd_last_error_message()`.
func capi(_ body: () throws -> Void) -> Int32 {
    let state = currentErrorState()
    do {
        try body()
        state.clear()
        return 0
    } catch {
        let (status, domain, message, key) = describe(error)
        state.set(status: status, domain: domain, message: message, key: key)
        return status
    }
}

/// The status, domain, message and validation key of any error.
func describe(_ error: Error) -> (Int32, String, String, String?) {
    if let error = error as? CAPIError {
        return (error.status, capiErrorDomain, error.message, nil)
    }
    let nsError = error as NSError
    let key = nsError.userInfo[NSValidationKeyErrorKey] as? String
    let message = nsError.localizedDescription
    guard nsError.domain == NSCocoaErrorDomain else {
        return (CAPIError.Code.error.rawValue, nsError.domain, "\(message) (\(nsError.domain) \(nsError.code))", key)
    }
    switch nsError.code {
    case 4: // NSFileNoSuchFileError
        return (CAPIError.Code.notFound.rawValue, nsError.domain, message, key)
    case let code where code >= 256 && Int32(exactly: code).map { statusTexts[$0] != nil } == true:
        return (Int32(code), nsError.domain, message, key)
    default:
        // A code the header does not list: every status a call returns is a cd_status.
        return (CAPIError.Code.error.rawValue, nsError.domain, "\(message) (NSCocoaErrorDomain \(nsError.code))", key)
    }
}

/// A pointer to static text.
func staticText(_ text: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
}

// MARK: - Entry points

@c @implementation public func cd_libversion_number() -> Int64 {
    Int64(CD_VERSION_NUMBER)
}

@c @implementation public func cd_libversion() -> UnsafePointer<CChar>? {
    staticText("0.1.0")
}

@c @implementation public func cd_last_error_message() -> UnsafePointer<CChar>? {
    if let message = currentErrorState().message { return UnsafePointer(message) }
    return staticText("")
}

@c @implementation public func cd_last_error_code() -> Int32 {
    currentErrorState().status
}

// MARK: - Error details handle

/// `cd_error`: a copy of one thread's last failure.
final class ErrorBox: CAPIHandle {
    override class var typeName: String { "cd_error" }
    let status: Int32
    let domain: UnsafeMutablePointer<CChar>?
    let message: UnsafeMutablePointer<CChar>?
    let key: UnsafeMutablePointer<CChar>?

    init(_ state: ErrorState) {
        status = state.status
        domain = strdup(state.domain)
        message = strdup(state.message.map { String(cString: $0) } ?? "")
        key = state.key.flatMap { strdup($0) }
    }

    deinit {
        free(domain)
        free(message)
        free(key)
    }
}

/// Copying leaves the last error as it is (reading it is not a new call's outcome); only a
/// NULL `out` replaces it, with its own CD_MISUSE and message.
@c @implementation public func cd_last_error_copy(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    let state = currentErrorState()
    guard let out else {
        let misuse = CAPIError.Code.misuse.rawValue
        state.set(status: misuse, domain: capiErrorDomain, message: "out is NULL (cd_last_error_copy needs somewhere to put the copy).", key: nil)
        return misuse
    }
    out.pointee = retained(ErrorBox(state))
    return 0
}

@c @implementation public func cd_error_code(_ error: OpaquePointer?) -> Int32 {
    guard let box = try? handle(error, as: ErrorBox.self) else { return CAPIError.Code.misuse.rawValue }
    return box.status
}

@c @implementation public func cd_error_domain(_ error: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let box = try? handle(error, as: ErrorBox.self), let text = box.domain else { return staticText("") }
    return UnsafePointer(text)
}

@c @implementation public func cd_error_message(_ error: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let box = try? handle(error, as: ErrorBox.self), let text = box.message else { return staticText("") }
    return UnsafePointer(text)
}

@c @implementation public func cd_error_key(_ error: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let box = try? handle(error, as: ErrorBox.self), let text = box.key else { return nil }
    return UnsafePointer(text)
}

@c @implementation public func cd_error_release(_ error: OpaquePointer?) {
    release(error, as: ErrorBox.self)
}

// MARK: - Memory

@c @implementation public func cd_string_free(_ string: UnsafeMutablePointer<CChar>?) {
    free(string)
}

@c @implementation public func cd_blob_free(_ blob: UnsafeMutableRawPointer?) {
    free(blob)
}
