import Foundation

// MARK: - Dictionary results

extension NSManagedObjectContext {
    /// The rows of a `.dictionaryResultType` request: the requested properties of each
    /// matching object, or, with `propertiesToGroupBy` or aggregate expression
    /// descriptions, one row per group; then `havingPredicate`, `returnsDistinctResults`,
    /// the sort descriptors (on the rows), offset and limit.
    ///
    /// Keys are the property names (key paths such as `"list.title"` as written, expression
    /// descriptions by their `name`); nil values are left out; to-one relationships give
    /// their destination's `NSManagedObjectID`, and so do `"objectID"` and an expression
    /// description over `NSExpression.expressionForEvaluatedObject()` for the object itself.
    ///
    /// Grouped and aggregated rows are computed by a SQL store in one `SELECT … GROUP BY`
    /// when it can answer as memory would (``fetchGroupsFromStore(_:entity:columns:groupBy:)``);
    /// otherwise the matching objects are fetched and grouped and aggregated in memory.
    ///
    /// - Note: Apple parity: `havingPredicate` is applied to the grouped rows in memory (Apple
    ///   compiles it to SQL `HAVING`); the rows are the same. Unsaved changes, `median:`,
    ///   `mode:`, `stddev:`, grouping by a relationship and stores without SQL take the
    ///   in-memory path, which honours unsaved changes as object fetches do.
    func fetchDictionaries<T>(_ request: NSFetchRequest<T>, entity: NSEntityDescription) throws -> [NSDictionary] {
        let columns = try resultColumns(request, entity: entity)
        let groupBy = try (request.propertiesToGroupBy ?? []).map { try column($0, entity: entity) }
        let aggregated = columns.contains(where: \.isAggregate)
        if !groupBy.isEmpty, let stray = columns.first(where: { !$0.isAggregate && !groupBy.contains($0) }) {
            throw CoreDataError.make(NSCoreDataError,
                "SELECT clauses in queries with GROUP BY components can only contain properties named in the GROUP BY or aggregate functions ('\(stray.name)' is neither).")
        }
        // Fetch the matching objects, sorted by the request when rows are one per object.
        let grouped = aggregated || !groupBy.isEmpty
        if !grouped, !request.returnsDistinctResults, request.havingPredicate == nil,
           let rows = try fetchDictionariesFromColumns(request, entity: entity, columns: columns) {
            return rows
        }
        var rows: [NSDictionary]
        if grouped, let stored = try fetchGroupsFromStore(request, entity: entity, columns: columns, groupBy: groupBy) {
            rows = stored
        } else {
            rows = try groupInMemory(request, entity: entity, columns: columns, groupBy: groupBy, grouped: grouped)
        }
        if let having = request.havingPredicate {
            rows = try rows.filter { try having.evaluateOrThrow(with: $0) }
        }
        if request.returnsDistinctResults {
            var seen: [NSDictionary] = []
            rows = rows.filter { row in
                if seen.contains(where: { $0.isEqual(row) }) { return false }
                seen.append(row)
                return true
            }
        }
        if grouped || request.returnsDistinctResults || request.havingPredicate != nil {
            if let descriptors = request.sortDescriptors, !descriptors.isEmpty {
                rows = Self.sort(rows, by: descriptors)
            }
            if request.fetchOffset > 0 { rows = Array(rows.dropFirst(request.fetchOffset)) }
            if request.fetchLimit > 0 { rows = Array(rows.prefix(request.fetchLimit)) }
        }
        return rows
    }

    /// The rows of a dictionary fetch from the matching objects: one per group of them
    /// (grouped, aggregated in memory) or one per object.
    private func groupInMemory<T>(_ request: NSFetchRequest<T>, entity: NSEntityDescription, columns: [ResultColumn],
                                  groupBy: [ResultColumn], grouped: Bool) throws -> [NSDictionary] {
        let objectsRequest = NSFetchRequest<NSManagedObject>()
        objectsRequest.entity = entity
        objectsRequest.predicate = request.predicate
        objectsRequest.includesSubentities = request.includesSubentities
        objectsRequest.includesPendingChanges = request.includesPendingChanges
        objectsRequest.affectedStores = request.affectedStores
        if !grouped && !request.returnsDistinctResults && request.havingPredicate == nil {
            objectsRequest.sortDescriptors = request.sortDescriptors
            objectsRequest.fetchLimit = request.fetchLimit
            objectsRequest.fetchOffset = request.fetchOffset
        } else if !grouped {
            objectsRequest.sortDescriptors = request.sortDescriptors
        }
        let objects = try fetchObjects(objectsRequest, entity: entity, faults: false)

        let rows: [NSDictionary]
        if grouped {
            var groups: [[NSManagedObject]] = []
            var index: [[AnyHashable]: Int] = [:]
            for object in objects {
                let key = try groupBy.map { try hashable($0.value(for: object)) }
                if let i = index[key] { groups[i].append(object) } else { index[key] = groups.count; groups.append([object]) }
            }
            if groupBy.isEmpty && groups.isEmpty { groups = [[]] } // aggregates over nothing: one row
            rows = try groups.map { group in try row(columns, group) }
        } else {
            rows = try objects.map { try row(columns, [$0]) }
        }
        return rows
    }

    /// The groups of a dictionary fetch computed by the store in SQL (`SELECT … GROUP BY`,
    /// ``AggregatingStoreBackend``), without fetching an object: when one SQL store answers
    /// the request, the context has no unsaved changes for the entity, and every column is a
    /// grouped attribute or an aggregate whose SQL value is the one memory computes
    /// (`count:` of any attribute; `sum:`, `average:` of integers and reals; `min:`, `max:`
    /// of integers, reals and dates; grouping by integers, Booleans, reals, dates and
    /// strings), attributes reached through to-one relationships included. Nil otherwise.
    private func fetchGroupsFromStore<T>(_ request: NSFetchRequest<T>, entity: NSEntityDescription,
                                         columns: [ResultColumn], groupBy: [ResultColumn]) throws -> [NSDictionary]? {
        guard let coordinator = persistentStoreCoordinator, !columns.isEmpty,
              !changes.hasChanges(inHierarchyOf: entity) else { return nil }
        // Each column as the store computes it, with the type of its attribute.
        var queryColumns: [(column: StoreAggregateQuery.Column, type: NSAttributeType)] = []
        for column in columns {
            guard let queryColumn = column.isAggregate ? Self.aggregateColumn(column, entity: entity)
                    : groupBy.contains(column) ? Self.groupedColumn(column, entity: entity) : nil else { return nil }
            queryColumns.append(queryColumn)
        }
        for column in groupBy where !columns.contains(column) {
            guard let queryColumn = Self.groupedColumn(column, entity: entity) else { return nil }
            queryColumns.append(queryColumn)
        }
        let stores = try coordinator.stores(for: entity, among: request.affectedStores)
        guard stores.count == 1, let store = stores.first else { return nil }
        if let predicate = request.predicate { try PredicateValidation.validate(predicate, for: entity) }
        let query = StoreAggregateQuery(
            plan: FetchPlan(entity: entity, includesSubentities: request.includesSubentities, predicate: request.predicate),
            columns: queryColumns.map(\.column))
        let answer: [[StoreAggregateValue]]?
        do {
            answer = try servingIfNeeded(coordinator, store) { try coordinator.fetchAggregates(query, in: store) }
        } catch is StoreFetchUnsupported {
            return nil
        }
        guard let answer else { return nil }
        return answer.map { values in
            let row = NSMutableDictionary()
            for (index, column) in columns.enumerated() {
                let value = Self.aggregateValue(values[index], queryColumns[index].column, type: queryColumns[index].type)
                if let converted = Self.convert(value, to: column.resultType) { row[column.name] = converted }
            }
            return row
        }
    }

    /// The attribute at the end of `keyPath` from `entity`, through to-one relationships only.
    private static func attribute(atKeyPath keyPath: String, of entity: NSEntityDescription) -> NSAttributeDescription? {
        let names = keyPath.split(separator: ".").map(String.init)
        guard let last = names.last else { return nil }
        var current = entity
        for name in names.dropLast() {
            guard let relationship = current.relationshipsByName[name], !relationship.isToMany, !relationship.isTransient,
                  let destination = relationship.destinationEntity else { return nil }
            current = destination
        }
        guard let attribute = current.attributesByName[last], !attribute.isTransient else { return nil }
        return attribute
    }

    private static let integerTypes: Set<NSAttributeType> = [.integer16AttributeType, .integer32AttributeType, .integer64AttributeType]
    private static let realTypes: Set<NSAttributeType> = [.doubleAttributeType, .floatAttributeType]

    /// A grouped column the store can read: an integer, Boolean, real, date or string
    /// attribute.
    private static func groupedColumn(_ column: ResultColumn, entity: NSEntityDescription)
        -> (column: StoreAggregateQuery.Column, type: NSAttributeType)? {
        guard column.expression == nil, let keyPath = column.keyPath,
              let attribute = attribute(atKeyPath: keyPath, of: entity) else { return nil }
        let type = attribute.attributeType
        let read: StoreAggregateQuery.Read
        if integerTypes.contains(type) || type == .booleanAttributeType {
            read = .integer
        } else if realTypes.contains(type) || type == .dateAttributeType {
            read = .real
        } else if type == .stringAttributeType {
            read = .text
        } else {
            return nil
        }
        return (.init(keyPath: keyPath, function: nil, read: read), type)
    }

    /// An aggregate column whose SQL value is memory's: `count:` of any attribute, `sum:` and
    /// `average:` of numbers, `min:` and `max:` of numbers and dates.
    private static func aggregateColumn(_ column: ResultColumn, entity: NSEntityDescription)
        -> (column: StoreAggregateQuery.Column, type: NSAttributeType)? {
        guard case .function(let name, nil, let arguments)? = column.expression?.kind, arguments.count == 1,
              case .keyPath(let operand, let keyPath) = arguments[0].kind, case .evaluatedObject = operand.kind,
              let attribute = attribute(atKeyPath: keyPath, of: entity) else { return nil }
        let type = attribute.attributeType
        let isInteger = integerTypes.contains(type), isReal = realTypes.contains(type)
        let computed: StoreAggregateQuery.Column
        switch name {
        case "count:":
            computed = .init(keyPath: keyPath, function: .count, read: .integer)
        case "sum:" where isInteger || isReal:
            computed = .init(keyPath: keyPath, function: .sum, read: isInteger ? .integer : .real)
        case "average:" where isInteger || isReal:
            computed = .init(keyPath: keyPath, function: .average, read: .real)
        case "min:" where isInteger || isReal || type == .dateAttributeType,
             "max:" where isInteger || isReal || type == .dateAttributeType:
            computed = .init(keyPath: keyPath, function: name == "min:" ? .min : .max, read: isInteger ? .integer : .real)
        default:
            return nil
        }
        return (computed, type)
    }

    /// A value the store computed as memory's aggregation gives it: counts and integers as
    /// integers, reals as `Double`, dates as `Date`, Booleans as `Bool`, NULL as nil.
    private static func aggregateValue(_ value: StoreAggregateValue, _ column: StoreAggregateQuery.Column,
                                       type: NSAttributeType) -> Any? {
        switch value {
        case .null: return nil
        case .integer(let number):
            if column.function == nil, type == .booleanAttributeType { return number != 0 }
            return number
        case .real(let number):
            if (column.function == nil || column.function == .min || column.function == .max), type == .dateAttributeType {
                return Date(timeIntervalSinceReferenceDate: number)
            }
            return number
        case .text(let text): return text
        }
    }

    /// One row per object, read straight from the store's columns when every column is a
    /// plain attribute, the context has no unsaved changes for the entity, and one store
    /// answers the whole request in SQL: no objects are built or registered, and no rows
    /// cached (as Apple's store does). Objects this context already holds realized are
    /// read from memory, as the object path reads them. Nil when the request needs the
    /// object path.
    private func fetchDictionariesFromColumns<T>(_ request: NSFetchRequest<T>, entity: NSEntityDescription,
                                                 columns: [ResultColumn]) throws -> [NSDictionary]? {
        guard let coordinator = persistentStoreCoordinator, !columns.isEmpty else { return nil }
        var attributes: [NSAttributeDescription] = []
        for column in columns {
            guard column.expression == nil, let key = column.keyPath, key != "self", key != "SELF",
                  let attribute = entity.attributesByName[key], !attribute.isTransient,
                  attribute.attributeType != .transformableAttributeType,
                  attribute.attributeType != .undefinedAttributeType,
                  attribute.attributeType != .objectIDAttributeType,
                  attribute.slotType != .box, attribute.slot >= 0 else { return nil }
            attributes.append(attribute)
        }
        if changes.hasChanges(inHierarchyOf: entity) { return nil }
        let stores = try coordinator.stores(for: entity, among: request.affectedStores)
        guard stores.count == 1, let store = stores.first else { return nil }
        if let predicate = request.predicate { try PredicateValidation.validate(predicate, for: entity) }
        let descriptors = (request.sortDescriptors ?? []).map(SortKeyResolver.keyed)
        let sorts = descriptors.compactMap(SortKeyResolver.sortKey(for:))
        guard sorts.count == descriptors.count else { return nil }
        let plan = FetchPlan(entity: entity, includesSubentities: request.includesSubentities,
                             predicate: request.predicate, sorts: sorts,
                             limit: request.fetchLimit, offset: request.fetchOffset)
        // One key object per column for the whole fetch, its hash worked out once, and each
        // row built in one call from its keys and value objects: no per-value bridging of
        // keys and values into the dictionary, no dictionary grown entry by entry.
        let keys: [NSObject] = columns.map { DictionaryResultKey(key: $0.name) }
        let resultTypes = columns.map(\.resultType)
        let slots = attributes.map(\.slot)
        let storeID = ObjectIdentifier(store)
        let lookUp = !registry.hasNoPermanentObjects
        var rows: [NSDictionary] = []
        let rowKeys = UnsafeMutablePointer<NSObject>.allocate(capacity: keys.count)
        let rowObjects = UnsafeMutablePointer<AnyObject>.allocate(capacity: keys.count)
        defer {
            rowKeys.deallocate()
            rowObjects.deallocate()
        }
        do {
            let answered = try servingIfNeeded(coordinator, store) { try coordinator.fetchColumns(plan, slots: slots, in: store) { entityID, pk, values in
                if lookUp, let rowEntity = model?.entity(forID: entityID),
                   let object = registry[RegistryKey(store: storeID, root: rowEntity.runtime.rootID, pk: pk)],
                   !object.isFault {
                    rows.append(try row(columns, [object]))
                    return
                }
                var count = 0
                for (index, attribute) in attributes.enumerated() {
                    guard let object = Self.resultObject(attribute, values.value(at: attribute.slot),
                                                         as: resultTypes[index]) else { continue }
                    (rowKeys + count).initialize(to: keys[index])
                    (rowObjects + count).initialize(to: object)
                    count += 1
                }
                rows.append(NSDictionary(objects: rowObjects, forKeys: rowKeys, count: count))
                rowKeys.deinitialize(count: count)
                rowObjects.deinitialize(count: count)
            } }
            return answered ? rows : nil
        } catch is StoreFetchUnsupported {
            return nil
        }
    }

    /// A column's value as the object a result dictionary holds (what `NSDictionary` makes of
    /// the Swift value: numbers as `NSNumber`, strings as `NSString`, ...), nil for NULL:
    /// numbers straight from the slot, anything else through ``convert(_:to:)``.
    private static func resultObject(_ attribute: NSAttributeDescription, _ value: SlotValue,
                                     as resultType: NSAttributeType) -> AnyObject? {
        if resultType == .undefinedAttributeType {
            switch value.type {
            case .null: return nil
            case .int64:
                switch attribute.attributeType {
                case .integer64AttributeType: return NSNumber(value: value.int64)
                case .integer32AttributeType: return NSNumber(value: Int32(truncatingIfNeeded: value.int64))
                case .integer16AttributeType: return NSNumber(value: Int16(truncatingIfNeeded: value.int64))
                default: break
                }
            case .double where attribute.attributeType == .doubleAttributeType:
                return NSNumber(value: value.double)
            default: break
            }
        }
        guard let swiftValue = attribute.swiftValue(of: value) else { return nil }
        guard let converted = resultType == .undefinedAttributeType
                ? swiftValue : convert(swiftValue, to: resultType) else { return nil }
        return converted as AnyObject
    }

    /// Sorts result rows: a descriptor whose key names a column (`"list.title"`, an
    /// expression description) reads that column; other keys are key paths into the row.
    static func sort(_ rows: [NSDictionary], by descriptors: [NSSortDescriptor]) -> [NSDictionary] {
        let order = rows.indices.sorted { i, j in
            for descriptor in descriptors {
                guard let keyed = descriptor as? KeyedSortDescriptor else { continue }
                func key(_ row: NSDictionary) -> Any? {
                    if let name = keyed.keyString, let value = row[name] { return value }
                    return keyed.value(of: row)
                }
                let result = keyed.compareValues(key(rows[i]), key(rows[j]))
                if result != .orderedSame { return result == .orderedAscending }
            }
            return i < j
        }
        return order.map { rows[$0] }
    }

    // MARK: - Columns

    /// One column of a dictionary result.
    struct ResultColumn: Equatable {
        let name: String
        /// A key path read from each object (nil for an expression description).
        let keyPath: String?
        let expression: NSExpression?
        let resultType: NSAttributeType

        var isAggregate: Bool {
            guard let expression, case .function(let name, nil, let arguments) = expression.kind,
                  arguments.count == 1 else { return false }
            return NSManagedObjectContext.aggregateFunctions.contains(name)
        }

        static func == (a: ResultColumn, b: ResultColumn) -> Bool {
            a.name == b.name && a.keyPath == b.keyPath
        }

        /// The column's value for one object (or the first object of a group).
        func value(for object: NSManagedObject?) throws -> Any? {
            guard let object else { return nil }
            if let keyPath {
                let value = NSExpression.plain(try KeyValueReader.value(forKeyPath: keyPath, of: object))
                return (value as? NSManagedObject)?.objectID ?? value
            }
            // An object (`expressionForEvaluatedObject()`, a to-one path) is given by its ID.
            let value = try expression?.value(with: object)
            return (value as? NSManagedObject)?.objectID ?? value
        }
    }

    static let aggregateFunctions: Set<String> = [
        "count:", "sum:", "min:", "max:", "average:", "median:", "mode:", "stddev:",
    ]

    /// Runs `body` with this context as the coordinator's requesting context when the
    /// store is an app's class or the context reads at a query generation; otherwise
    /// without, so that the SQLite store reads outside the coordinator's lock (as
    /// `CoordinatorObjectSource` does).
    private func servingIfNeeded<T>(_ coordinator: NSPersistentStoreCoordinator, _ store: NSPersistentStore,
                                    _ body: () throws -> T) rethrows -> T {
        guard store.readsForContexts || generationPin.isPinned else { return try body() }
        return try coordinator.serving(self, body)
    }

    private func resultColumns<T>(_ request: NSFetchRequest<T>, entity: NSEntityDescription) throws -> [ResultColumn] {
        guard let properties = request.propertiesToFetch else {
            return entity.runtime.slotProperties.compactMap { property in
                guard let attribute = property as? NSAttributeDescription, !attribute.isTransient else { return nil }
                return ResultColumn(name: attribute.name, keyPath: attribute.name, expression: nil, resultType: .undefinedAttributeType)
            }
        }
        return try properties.map { try column($0, entity: entity) }
    }

    /// A `propertiesToFetch` / `propertiesToGroupBy` element: a property name or key path,
    /// a property description, or an expression description.
    private func column(_ item: Any, entity: NSEntityDescription) throws -> ResultColumn {
        if let description = item as? NSExpressionDescription {
            guard let expression = description.expression else {
                throw CoreDataError.make(NSCoreDataError, "The expression description '\(description.name)' has no expression.")
            }
            if case .keyPath(let operand, let path) = expression.kind, case .evaluatedObject = operand.kind {
                return ResultColumn(name: description.name, keyPath: path, expression: nil, resultType: description.expressionResultType)
            }
            return ResultColumn(name: description.name, keyPath: nil, expression: expression, resultType: description.expressionResultType)
        }
        let name = (item as? String) ?? (item as? NSPropertyDescription)?.name
        if name == "objectID" {
            // Each object's ID, as an expression description over the evaluated object gives it.
            return ResultColumn(name: "objectID", keyPath: nil, expression: NSExpression.expressionForEvaluatedObject(),
                                resultType: .objectIDAttributeType)
        }
        guard let name, let first = name.split(separator: ".").first,
              entity.propertiesByName[String(first)] != nil else {
            throw CoreDataError.make(NSCoreDataError,
                "Invalid properties to fetch: \(item) is not a property of the entity \(entity.name ?? "?").")
        }
        if let relationship = entity.relationshipsByName[name], relationship.isToMany {
            throw CoreDataError.make(NSCoreDataError,
                "Invalid to many relationship in properties to fetch: '\(name)' (fetch its objects instead).")
        }
        return ResultColumn(name: name, keyPath: name, expression: nil, resultType: .undefinedAttributeType)
    }

    // MARK: - Rows

    private func row(_ columns: [ResultColumn], _ group: [NSManagedObject]) throws -> NSDictionary {
        let result = NSMutableDictionary()
        for column in columns {
            let value: Any?
            if column.isAggregate, case .function(let name, _, let arguments)? = column.expression?.kind {
                let values = try group.map { try arguments[0].value(with: $0) }.filter { !PredicateValue.isNull($0) }
                value = try PredicateFunctions.call(name, [values])
            } else {
                value = try column.value(for: group.first)
            }
            if let converted = Self.convert(value, to: column.resultType) { result[column.name] = converted }
        }
        return result
    }

    /// A result value as `expressionResultType` asks (numbers as NSNumber).
    static func convert(_ value: Any?, to type: NSAttributeType) -> Any? {
        guard let value = PredicateValue.unwrap(value) else { return nil }
        guard case .number(let number) = PredicateValue.classify(value) else { return value }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            if case .int(let i) = number { return NSNumber(value: i) }
            return NSNumber(value: Int64(number.doubleValue.rounded(.towardZero)))
        case .doubleAttributeType, .floatAttributeType: return NSNumber(value: number.doubleValue)
        case .decimalAttributeType: return NSDecimalNumber(value: number.doubleValue)
        case .booleanAttributeType: return NSNumber(value: number.doubleValue != 0)
        case .dateAttributeType: return Date(timeIntervalSinceReferenceDate: number.doubleValue)
        default:
            switch number {
            case .int(let i): return value is NSNumber ? value : NSNumber(value: i)
            case .double(let d): return value is NSNumber ? value : NSNumber(value: d)
            }
        }
    }

    /// A grouping key for a value (nil groups together).
    private func hashable(_ value: Any?) -> AnyHashable {
        guard let value = PredicateValue.unwrap(value) else { return AnyHashable(NSNull()) }
        switch PredicateValue.classify(value) {
        case .number(let n): return AnyHashable(n.doubleValue)
        case .string(let s): return AnyHashable(s)
        case .date(let d): return AnyHashable(d)
        default: return (value as? AnyHashable) ?? AnyHashable(ObjectIdentifier(value as AnyObject))
        }
    }
}
