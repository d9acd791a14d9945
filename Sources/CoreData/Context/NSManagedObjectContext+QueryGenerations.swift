import Foundation

/// Which query generation a context reads at.
struct GenerationPin {
    enum State {
        /// Reads the newest data (the default).
        case unpinned
        /// Pins itself to the newest generation at its next read.
        case current
        /// Reads at this generation.
        case pinned(QueryGeneration)
    }
    var state = State.unpinned
    /// Above zero while the context saves: saving reads the newest rows.
    var suspended = 0

    /// Whether the context reads (or will read, at its next read) at a generation.
    var isPinned: Bool {
        if case .unpinned = state { return false }
        return true
    }
}

// MARK: - Query generations

extension NSManagedObjectContext: QueryGenerationReading {
    /// The token of the query generation this context reads at, or nil when it reads the
    /// newest data (an unpinned context, every child context, a context whose stores keep
    /// no generations). Hand it to another context of the same coordinator with
    /// ``setQueryGenerationFrom(_:)`` to have both read the same snapshot.
    ///
    /// A context pinned to ``NSQueryGenerationToken/current`` takes its generation at its
    /// next read; asking for its token counts as that read.
    ///
    /// - Note: Apple parity: declared in an extension, so not overridable.
    public var queryGenerationToken: NSQueryGenerationToken? {
        guard parentContext == nil, let coordinator = persistentStoreCoordinator,
              let generation = coordinator.performAndWait({ queryGenerationForReading(in: coordinator) }) else { return nil }
        return NSQueryGenerationToken(kind: .generation(generation))
    }

    /// Pins the context to a query generation, so that its fetches and faults read one
    /// snapshot of the stores whatever other contexts, coordinators and processes save
    /// meanwhile, or unpins it.
    ///
    /// - `nil`: unpinned, the context reads the newest data (the default).
    /// - ``NSQueryGenerationToken/current``: the context pins itself to the newest
    ///   generation at its next fetch or fault.
    /// - another context's ``queryGenerationToken``: the context reads at that context's
    ///   generation.
    ///
    /// A pinned context moves to the newest generation (at its next read) when it saves,
    /// merges changes (``mergeChanges(fromContextDidSave:)``,
    /// ``mergeChanges(fromRemoteContextSave:into:)``, automatic merges) or resets. Objects
    /// it registered keep the values they had: refresh them (``refreshAllObjects()``) or
    /// fetch again to see the new generation. Generations need SQLite stores in WAL mode
    /// (the default); with other stores the context reads unpinned.
    ///
    /// ```swift
    /// try viewContext.setQueryGenerationFrom(.current)
    /// ```
    ///
    /// Setting a token on a child context stops the program, as Apple raises (children read
    /// through their parent's generation).
    ///
    /// - Throws: `NSPersistentStoreOperationError` when the context has no coordinator, when
    ///   the token's generation belongs to another coordinator, or when it no longer exists
    ///   (a token decoded after its generation ended).
    ///
    /// - Note: Apple parity: declared in an extension, so not overridable.
    public func setQueryGenerationFrom(_ generation: NSQueryGenerationToken?) throws {
        guard let generation else {
            generationPin.state = .unpinned
            return
        }
        if parentContext != nil {
            coreDataMisuse("Query generations cannot be set on a child context; it reads through its parent's generation.")
        }
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The context has no persistent store coordinator to read a query generation from.")
        }
        // From now on the coordinator asks its contexts which generation they read at.
        coordinator.performAndWait { coordinator.hasPinnedContexts = true }
        switch generation.kind {
        case .current:
            generationPin.state = .current
        case .generation(let pinned):
            guard pinned.coordinator === coordinator else {
                throw CoreDataError.make(NSPersistentStoreOperationError,
                    "The query generation token belongs to another persistent store coordinator.")
            }
            generationPin.state = .pinned(pinned)
        case .expired:
            throw CoreDataError.make(NSPersistentStoreOperationError,
                "The query generation token names a generation that no longer exists.")
        }
    }

    /// The generation to read at now; a context pinned to the current generation takes it
    /// here (see ``QueryGenerationReading``).
    func queryGenerationForReading(in coordinator: NSPersistentStoreCoordinator) -> QueryGeneration? {
        guard generationPin.suspended == 0 else { return nil }
        switch generationPin.state {
        case .unpinned:
            return nil
        case .pinned(let generation):
            return generation
        case .current:
            guard let generation = try? coordinator.makeQueryGeneration() else {
                // No store keeps generations: read unpinned, as Apple's contexts do.
                generationPin.state = .unpinned
                return nil
            }
            generationPin.state = .pinned(generation)
            return generation
        }
    }

    /// After a save, a merge or a reset: a pinned context takes the newest generation at
    /// its next read.
    func advanceQueryGeneration() {
        if case .pinned = generationPin.state { generationPin.state = .current }
    }
}
