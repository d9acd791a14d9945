import Foundation

/// What a fetch request can return: managed objects, object IDs, dictionaries or counts.
///
/// As on Apple platforms it refines `NSObjectProtocol`, so `any NSFetchRequestResult`
/// answers `isEqual(_:)`, `hash` and `description`.
///
/// - Note: Apple parity: on Apple platforms this `@objc` protocol conforms to itself, so
///   `NSFetchRequest<NSFetchRequestResult>` is common code. A Swift protocol does not, so
///   our generic fetch types leave their parameter unconstrained; that spelling compiles.
public protocol NSFetchRequestResult: NSObjectProtocol {}

extension NSNumber: NSFetchRequestResult {}
extension NSDictionary: NSFetchRequestResult {}
extension NSManagedObjectID: NSFetchRequestResult {}
