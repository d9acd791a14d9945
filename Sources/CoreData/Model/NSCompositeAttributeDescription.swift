import Foundation

/// An attribute made of named sub-attributes, stored together (Xcode 15's composite
/// attributes). Elements may themselves be composites.
///
/// ```swift
/// let street = NSAttributeDescription()
/// street.name = "street"
/// street.attributeType = .stringAttributeType
/// let address = NSCompositeAttributeDescription()
/// address.name = "address"
/// address.elements = [street]
/// ```
///
/// - Note: Apple parity: the model loader keeps composites nested, as Apple's model does;
///   the element hierarchy is available through ``elements``.
///
/// ## Topics
/// - ``elements``
open class NSCompositeAttributeDescription: NSAttributeDescription, @unchecked Sendable {
    /// The sub-attributes, in the order the model declares them.
    open var elements: [NSAttributeDescription] = [] { willSet { assertEditable() } }

    public override init() {
        super.init()
        attributeType = .compositeAttributeType
    }

    // MARK: - Copying and archiving

    override func makeEmptyCopy() -> NSPropertyDescription { NSCompositeAttributeDescription() }

    /// The copy has copies of the elements.
    override func copyProperties(to copy: NSPropertyDescription) {
        super.copyProperties(to: copy)
        guard let copy = copy as? NSCompositeAttributeDescription else { return }
        copy.elements = elements.compactMap { $0.copy() as? NSAttributeDescription }
    }

    /// Archives the composite: the attribute's fields and its elements.
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(elements, forKey: "NSElements")
    }

    /// Reads a composite attribute archived by ``encode(with:)``.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        elements = coder.decodeObjectIfPresent(forKey: "NSElements") as? [NSAttributeDescription] ?? []
    }

    /// Every non-composite element, nested composites expanded in place.
    var flattenedElements: [NSAttributeDescription] {
        elements.flatMap { element -> [NSAttributeDescription] in
            if let nested = element as? NSCompositeAttributeDescription { return nested.flattenedElements }
            return [element]
        }
    }
}
