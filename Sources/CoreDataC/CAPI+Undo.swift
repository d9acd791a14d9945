import CCoreDataAPI
import CoreData

// MARK: - Undo and redo
//
// The Swift API has no `UndoManager` yet (issue 4 adds it with `context.undoManager`,
// `undo()` and `redo()`). Until then these entry points validate their arguments and
// answer CD_UNSUPPORTED, so the ABI is stable and callers can already handle the status.
// Wiring them up is three lines each once `context.undoManager` exists:
//   enabled: box.context.undoManager = enabled != 0 ? UndoManager() : nil
//   undo:    guard manager.canUndo else CD_NOTFOUND; box.context.undo()

private func undoUnavailable() -> CAPIError {
    CAPIError(.unsupported, "Undo is not available in this build: the Swift API has no UndoManager yet.")
}

@c @implementation public func cd_context_set_undo_enabled(_ ctx: OpaquePointer?, _ enabled: Int32) -> Int32 {
    capi {
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        try box.run { throw undoUnavailable() }
    }
}

@c @implementation public func cd_context_undo(_ ctx: OpaquePointer?) -> Int32 {
    capi {
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        try box.run { throw undoUnavailable() }
    }
}

@c @implementation public func cd_context_redo(_ ctx: OpaquePointer?) -> Int32 {
    capi {
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        try box.run { throw undoUnavailable() }
    }
}
