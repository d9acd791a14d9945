import Foundation

/// Carries a value across a queue hop that the caller already serialises (a context's
/// queue, a store added in the background): the compiler cannot see that guarantee.
struct UncheckedSendableBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
