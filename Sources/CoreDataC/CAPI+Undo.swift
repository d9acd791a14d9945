import CCoreDataAPI
import CoreData

// MARK: - Undo and redo
//
// A context records undo only while it has an `UndoManager` (nil by default, as on iOS);
// `cd_context_set_undo_enabled` gives it one or takes it away.

@c @implementation public func cd_context_set_undo_enabled(_ ctx: OpaquePointer?, _ enabled: Int32) -> Int32 {
    capi {
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        try box.run {
            let context = box.context
            if enabled != 0 {
                if context.undoManager == nil { context.undoManager = UndoManager() }
            } else {
                context.undoManager = nil
            }
        }
    }
}

@c @implementation public func cd_context_undo(_ ctx: OpaquePointer?) -> Int32 {
    capi {
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        try box.run {
            let context = box.context
            let manager = try undoManager(of: context)
            context.processPendingChanges()
            guard manager.canUndo else { throw CAPIError(.notFound, "There is nothing to undo.") }
            context.undo()
        }
    }
}

@c @implementation public func cd_context_redo(_ ctx: OpaquePointer?) -> Int32 {
    capi {
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        try box.run {
            let context = box.context
            let manager = try undoManager(of: context)
            context.processPendingChanges()
            guard manager.canRedo else { throw CAPIError(.notFound, "There is nothing to redo.") }
            context.redo()
        }
    }
}

/// The context's undo manager, when undo is enabled and no nested group is open (where
/// Apple's `undo` raises).
private func undoManager(of context: NSManagedObjectContext) throws -> UndoManager {
    guard let manager = context.undoManager else {
        throw CAPIError(.unsupported, "Undo is not enabled for this context: call cd_context_set_undo_enabled(ctx, 1) first.")
    }
    guard manager.groupingLevel <= 1 else {
        throw CAPIError(.misuse, "Undo was called with nested undo groups open.")
    }
    return manager
}
