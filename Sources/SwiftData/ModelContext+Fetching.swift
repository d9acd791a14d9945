import CoreData

extension ModelContext {
    /// The models a descriptor selects, in its order.
    ///
    /// The predicate and sort descriptors run in the store's SQL when they translate (see
    /// ``FetchDescriptor``); otherwise the models of the class are loaded and filtered,
    /// sorted and windowed in memory with the predicate's own evaluation, so the result is
    /// the same either way.
    ///
    /// - Throws: Core Data's `NSError` from the store, or the predicate's evaluation error.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        let plan = FetchPlan(descriptor, in: self)
        let objects = try managedObjectContext.fetch(plan.request)
        var models = objects.map { model(for: $0, as: T.self) }
        guard plan.inMemory else { return models }
        if let predicate = descriptor.predicate {
            models = try models.filter { try predicate.evaluate($0) }
        }
        if !descriptor.sortBy.isEmpty {
            models = Self.sorted(models, by: descriptor.sortBy)
        }
        let offset = min(max(descriptor.fetchOffset ?? 0, 0), models.count)
        var window = Array(models[offset...])
        if let limit = descriptor.fetchLimit, limit > 0, window.count > limit {
            window = Array(window[..<limit])
        }
        return window
    }

    /// How many models a descriptor selects (its limit and offset apply).
    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        let plan = FetchPlan(descriptor, in: self)
        if plan.inMemory { return try fetch(descriptor).count }
        return try managedObjectContext.count(for: plan.request)
    }

    /// The identifiers of the models a descriptor selects, in its order.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier] {
        try fetch(descriptor).map(\.persistentModelID)
    }

    /// The models a descriptor selects, in its order, made `batchSize` at a time as the
    /// collection is read: the rows' keys are read at once, each batch's values with one
    /// statement when the batch is first reached.
    ///
    /// When the predicate or an order has no store translation, every model is read first
    /// (memory filters them), and the collection then hands them out.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>,
                                          batchSize: Int) throws -> FetchResultsCollection<T> {
        let objects = try batchedObjects(descriptor, batchSize: batchSize)
        switch objects {
        case .models(let models):
            return FetchResultsCollection(count: models.count, batchSize: batchSize) { Array(models[$0]) }
        case .faults(let faults):
            return FetchResultsCollection(count: faults.count, batchSize: batchSize) { [self] range in
                faults[range].map { model(for: $0, as: T.self) }
            }
        }
    }

    /// The identifiers of the models a descriptor selects, in its order, as a collection
    /// read `batchSize` at a time.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>,
                                                     batchSize: Int) throws -> FetchResultsCollection<PersistentIdentifier> {
        let identifiers = try fetchIdentifiers(descriptor)
        return FetchResultsCollection(count: identifiers.count, batchSize: batchSize) { Array(identifiers[$0]) }
    }

    /// Calls `block` with each model a descriptor selects, in its order, `batchSize` models
    /// at a time: each batch's values are read with one statement, and once the block has
    /// seen a batch, the batch's models it left unchanged let go of their values (they
    /// read them again if used later), so memory holds about one batch.
    ///
    /// With `allowEscapingMutations` true, every model of the enumeration keeps its values.
    ///
    /// - Note: Apple parity: changes the block makes stay pending in the context (to be
    ///   saved or rolled back) whatever `allowEscapingMutations` says.
    public func enumerate<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int = 5000,
                                              allowEscapingMutations: Bool = false,
                                              block: (T) throws -> Void) throws {
        let batchSize = max(batchSize, 1)
        switch try batchedObjects(descriptor, batchSize: batchSize) {
        case .models(let models):
            for model in models { try block(model) }
        case .faults(let faults):
            var start = 0
            while start < faults.count {
                let batch = faults[start..<min(start + batchSize, faults.count)]
                for object in batch { try block(model(for: object, as: T.self)) }
                if !allowEscapingMutations {
                    for object in batch where !object.hasChanges && !object.isFault {
                        managedObjectContext.refresh(object, mergeChanges: false)
                    }
                }
                start += batchSize
            }
        }
    }

    /// What a batched fetch starts from: faults whose values load a batch at a time, or,
    /// when memory must filter or order them, the finished models.
    private enum BatchedObjects<T> {
        case faults([NSManagedObject])
        case models([T])
    }

    private func batchedObjects<T: PersistentModel>(_ descriptor: FetchDescriptor<T>,
                                                    batchSize: Int) throws -> BatchedObjects<T> {
        let plan = FetchPlan(descriptor, in: self)
        if plan.inMemory { return .models(try fetch(descriptor)) }
        plan.request.fetchBatchSize = max(batchSize, 1)
        return .faults(try managedObjectContext.fetch(plan.request))
    }

    static func sorted<T>(_ models: [T], by descriptors: [SortDescriptor<T>]) -> [T] {
        // Stable: equal models keep the store's order.
        models.enumerated().sorted { a, b in
            for descriptor in descriptors {
                switch descriptor.compare(a.element, b.element) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return a.offset < b.offset
        }.map(\.element)
    }
}

/// The Core Data request of a fetch descriptor, and whether part of the work is left for
/// memory (a predicate or sort descriptor with no store translation).
struct FetchPlan<T: PersistentModel> {
    let request: NSFetchRequest<NSManagedObject>
    let inMemory: Bool

    init(_ descriptor: FetchDescriptor<T>, in context: ModelContext) {
        let request = NSFetchRequest<NSManagedObject>()
        request.entity = context.container.entityDescription(for: T.self)
        request.includesPendingChanges = descriptor.includePendingChanges
        var inMemory = false
        if let predicate = descriptor.predicate {
            // `$0 is Sub && …`: read `Sub`'s entity (its rows and its sub-entities' rows).
            let narrowed = PredicateTranslator.narrowing(predicate)
            if let translated = PredicateTranslator.translate(predicate, narrowedTo: narrowed) {
                request.predicate = translated
                if let narrowed { request.entity = context.container.entityDescription(for: narrowed) }
            } else {
                inMemory = true
            }
        }
        var sorts: [NSSortDescriptor] = []
        for sort in descriptor.sortBy {
            guard let keyPath = sort.keyPath,
                  let property = KeyPathTable.shared.property(keyPath),
                  case .attribute = property.kind, !property.isArchived else {
                inMemory = true
                break
            }
            sorts.append(NSSortDescriptor(key: property.name, ascending: sort.order == .forward))
        }
        let prefetched = descriptor.relationshipKeyPathsForPrefetching.compactMap { KeyPathTable.shared.property($0)?.name }
        if !prefetched.isEmpty { request.relationshipKeyPathsForPrefetching = prefetched }
        if !inMemory {
            request.sortDescriptors = sorts
            if let limit = descriptor.fetchLimit, limit > 0 { request.fetchLimit = limit }
            if let offset = descriptor.fetchOffset, offset > 0 { request.fetchOffset = offset }
        }
        self.request = request
        self.inMemory = inMemory
    }
}
