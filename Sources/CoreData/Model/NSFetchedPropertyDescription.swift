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

    // MARK: - Copying and archiving

    override func makeEmptyCopy() -> NSPropertyDescription { NSFetchedPropertyDescription() }

    /// The copy has its own copy of the fetch request.
    override func copyProperties(to copy: NSPropertyDescription) {
        super.copyProperties(to: copy)
        guard let copy = copy as? NSFetchedPropertyDescription else { return }
        copy.fetchRequest = fetchRequest?.copy() as? NSFetchRequest<NSFetchRequestResult>
        copy.predicateString = predicateString
    }

    /// Archives the fetched property: the property's fields and its fetch request.
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        if let fetchRequest { coder.encode(FetchRequestArchive(fetchRequest), forKey: "NSFetchRequest") }
        coder.encode(predicateString, forKey: "NSPredicateString")
    }

    /// Reads a fetched property archived by ``encode(with:)``.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        fetchRequest = (coder.decodeObjectIfPresent(forKey: "NSFetchRequest") as? FetchRequestArchive)?.request
        predicateString = coder.decodeObjectIfPresent(forKey: "NSPredicateString") as? String
    }

    /// The predicate as written in the model file, kept until a predicate parser exists.
    var predicateString: String?

    open override var description: String {
        super.description + ", fetchRequest \(fetchRequest.map { "\($0)" } ?? "nil")"
    }
}
