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

    /// Calls `block` with each model a descriptor selects, in its order.
    ///
    /// - Note: Apple parity: the models are fetched at once, not `batchSize` at a time;
    ///   `allowEscapingMutations` is accepted and has no effect.
    public func enumerate<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int = 5000,
                                              allowEscapingMutations: Bool = false,
                                              block: (T) throws -> Void) throws {
        for model in try fetch(descriptor) { try block(model) }
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
