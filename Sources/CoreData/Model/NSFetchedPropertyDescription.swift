import Foundation

/// A property whose value is the result of a fetch, evaluated lazily (`fetchedProperty` in
/// model files). It has no column in the store and no slot in the object.
///
/// ## Topics
/// - ``fetchRequest``
open class NSFetchedPropertyDescription: NSPropertyDescription, @unchecked Sendable {
    /// The fetch that produces the property's value.
    open var fetchRequest: NSFetchRequest<NSFetchRequestResult>? { willSet { assertEditable() } }

    public override init() { super.init() }

    /// The predicate as written in the model file, kept until a predicate parser exists.
    var predicateString: String?

    open override var description: String {
        super.description + ", fetchRequest \(fetchRequest.map { "\($0)" } ?? "nil")"
    }
}
