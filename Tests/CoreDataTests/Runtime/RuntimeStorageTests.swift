import Foundation
import Testing
@testable import CoreData

/// The Swift owners of the runtime shim's slot blocks and rows: values keep every byte,
/// to-one keys keep entity and key, and slot blocks hold only their declared types.
///
/// (`#expect` cannot take a non-copyable receiver, so results are read into locals first.)
@Suite struct RuntimeStorageTests {
    static func layout() -> RuntimeLayout {
        let layout = RuntimeLayout(entityName: "Item")
        _ = layout.addSlot(key: "name", type: .text)
        _ = layout.addSlot(key: "count", type: .int64)
        _ = layout.addSlot(key: "owner", type: .object)
        return layout
    }

    @Test("text with an embedded NUL keeps every byte in a row and in a slot block")
    func embeddedNUL() {
        let text = "a\u{0}b\u{0}"
        let row = RowValues(count: 3)
        let written = row.setText(text, at: 0)
        let inRow = (row.value(at: 0).string, row.value(at: 0).bytes.count)
        #expect(written && inRow.0 == text && inRow.1 == 4)
        let slots = ObjectSlots(realizedOf: Self.layout())
        let copied = slots.loading.copy(row.value(at: 0), at: 0)
        let inSlots = slots.value(at: 0).string
        let equal = slots.value(at: 0).isEqual(to: row.value(at: 0))
        #expect(copied && inSlots == text && equal)
    }

    @Test("a row's to-one reference keeps its entity number and key, and compares by both")
    func storeKeys() {
        let row = RowValues(count: 2)
        row.setKey(StoreKey(entityID: 3, pk: 42), at: 0)
        row.setKey(StoreKey(entityID: 4, pk: 42), at: 1)
        let first = row.storeKey(at: 0)
        let sameAsOther = row.value(at: 0).isEqual(to: row.value(at: 1))
        #expect(first == StoreKey(entityID: 3, pk: 42) && !sameAsOther)
        let copy = RowValues(count: 1)
        copy.copy(row.value(at: 1), at: 0)
        let copied = copy.storeKey(at: 0)
        #expect(copied == StoreKey(entityID: 4, pk: 42))
        row.setInt64(42, at: 1)
        let integer = row.storeKey(at: 1)
        #expect(integer == nil, "an integer is not a reference")
    }

    @Test("a slot block refuses a value of another type than its slot's; a row takes any")
    func slotTypes() {
        let slots = ObjectSlots(realizedOf: Self.layout())
        let results = (slots.setInt64(1, at: 0), slots.setText("x", at: 0), slots.setText("x", at: 1),
                       slots.setInt64(1, at: 7), slots.value(at: 7).isNull)
        #expect(!results.0 && results.1 && !results.2)
        #expect(!results.3 && results.4, "out of range: refused, and reads as NULL")
        let row = RowValues(count: 1)
        let anyType = row.setInt64(1, at: 0) && row.setText("x", at: 0)
        #expect(anyType)
    }

    @Test("writes mark slots dirty; loads do not; turning into a fault clears both")
    func dirtyBits() {
        let slots = ObjectSlots(realizedOf: Self.layout())
        slots.loading.setInt64(5, at: 1)
        let afterLoad = slots.hasDirty
        slots.setInt64(6, at: 1)
        let afterWrite = (slots.isDirty(at: 1), slots.isEventDirty(at: 1), slots.isDirty(at: 0))
        slots.clearEventDirty()
        let afterEvent = (slots.hasDirty, slots.hasEventDirty)
        slots.turnIntoFault()
        let afterFault = (slots.faultState == .fault, slots.hasDirty, slots.value(at: 1).isNull)
        #expect(!afterLoad)
        #expect(afterWrite.0 && afterWrite.1 && !afterWrite.2)
        #expect(afterEvent.0 && !afterEvent.1)
        #expect(afterFault.0 && !afterFault.1 && afterFault.2)
    }

    @Test("a to-one slot retains its object, gives it back, and releases it when cleared")
    func references() {
        final class Member {}
        let slots = ObjectSlots(realizedOf: Self.layout())
        weak var weakMember: Member?
        do {
            let member = Member()
            weakMember = member
            slots.setObject(member, at: 2)
        }
        #expect(weakMember != nil, "the slot keeps its object alive")
        let givesItBack = slots.value(at: 2).object(as: Member.self) === weakMember
        #expect(givesItBack)
        slots.setObject(nil, at: 2)
        #expect(weakMember == nil, "clearing the slot releases it")
    }
}
