import Foundation
import Testing
@testable import CoreData

private final class Box { var value = 0 }

@Suite struct UndoManagerTests {
    private func set(_ box: Box, _ value: Int, _ manager: UndoManager) {
        let old = box.value
        manager.registerUndo(withTarget: box) { [unowned manager] box in self.set(box, old, manager) }
        box.value = value
    }

    @Test("undo reverses a group, redo replays it; registering anew clears redo")
    func undoRedo() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let box = Box()
        manager.beginUndoGrouping()
        set(box, 1, manager)
        set(box, 2, manager)
        manager.endUndoGrouping()
        #expect(manager.canUndo && !manager.canRedo)
        manager.undo()
        #expect(box.value == 0)
        #expect(manager.canRedo && !manager.canUndo)
        manager.redo()
        #expect(box.value == 2)
        manager.undo()
        manager.beginUndoGrouping()
        set(box, 5, manager)
        manager.endUndoGrouping()
        #expect(!manager.canRedo)
    }

    @Test("groupsByEvent opens a group at the first registration; undo closes it")
    func eventGroup() {
        let manager = UndoManager()
        let box = Box()
        set(box, 1, manager)
        #expect(manager.groupingLevel == 1)
        set(box, 2, manager)
        manager.undo()
        #expect(box.value == 0)
        #expect(manager.groupingLevel == 0)
    }

    @Test("nested groups undo as one; levelsOfUndo drops the oldest; disabled registration records nothing")
    func nestingLevelsAndDisabling() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.levelsOfUndo = 2
        let box = Box()
        for value in 1...3 {
            manager.beginUndoGrouping()
            manager.beginUndoGrouping()
            set(box, value, manager)
            manager.endUndoGrouping()
            manager.endUndoGrouping()
        }
        manager.undo(); manager.undo()
        #expect(box.value == 1)
        #expect(!manager.canUndo)
        manager.disableUndoRegistration()
        manager.beginUndoGrouping()
        set(box, 9, manager)
        manager.endUndoGrouping()
        manager.enableUndoRegistration()
        #expect(!manager.canUndo)
        manager.setActionName("Typing")
        manager.removeAllActions()
        #expect(!manager.canRedo && !manager.canUndo)
    }

    @Test("action names title the menu items")
    func actionNames() {
        let manager = UndoManager()
        let box = Box()
        set(box, 1, manager)
        manager.setActionName("Rename")
        manager.endUndoGrouping()
        #expect(manager.undoMenuItemTitle == "Undo Rename")
        manager.undo()
        #expect(manager.redoActionName == "Rename")
    }
}
