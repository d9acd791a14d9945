/// A Swift value that has no slot type of its own (transformable and undefined attributes,
/// fetched-property results, a to-one destination known only by object ID), held in a
/// ``SlotType/box`` slot.
final class ValueBox {
    let value: Any
    init(_ value: Any) { self.value = value }
}
