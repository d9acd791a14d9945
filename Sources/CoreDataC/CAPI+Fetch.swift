import CCoreDataAPI
@_spi(CAPI) import CoreData
import Foundation

// MARK: - Fetch requests

@c @implementation public func cd_fetch_request_create(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ entity: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        out.pointee = retained(FetchRequestBox(entityName: try requireString(entity, "entity")))
    }
}

@c @implementation public func cd_fetch_request_release(_ request: OpaquePointer?) {
    release(request, as: FetchRequestBox.self)
}

@c @implementation public func cd_fetch_request_set_predicate(
    _ request: OpaquePointer?, _ format: UnsafePointer<CChar>?, _ arguments: OpaquePointer?
) -> Int32 {
    capi {
        let box = try handle(request, as: FetchRequestBox.self, "request")
        let values = try arguments.map { try handle($0, as: ArgumentsBox.self, "arguments").values } ?? []
        guard let format else {
            box.request.predicate = nil
            return
        }
        box.request.predicate = try NSPredicate.throwingParse(format: try utf8String(format, "format"), arguments: values)
    }
}

@c @implementation public func cd_fetch_request_add_sort(
    _ request: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ ascending: Int32
) -> Int32 {
    capi {
        let box = try handle(request, as: FetchRequestBox.self, "request")
        let key = try requireString(key, "key")
        box.sortKeys.append(key)
        box.request.sortDescriptors = (box.request.sortDescriptors ?? [])
            + [NSSortDescriptor(key: key, ascending: ascending != 0)]
    }
}

@c @implementation public func cd_fetch_request_set_limit(_ request: OpaquePointer?, _ limit: Int) -> Int32 {
    capi {
        let box = try handle(request, as: FetchRequestBox.self, "request")
        guard limit >= 0 else { throw CAPIError(.range, "The limit is too large.") }
        box.request.fetchLimit = limit
    }
}

@c @implementation public func cd_fetch_request_set_offset(_ request: OpaquePointer?, _ offset: Int) -> Int32 {
    capi {
        let box = try handle(request, as: FetchRequestBox.self, "request")
        guard offset >= 0 else { throw CAPIError(.range, "The offset is too large.") }
        box.request.fetchOffset = offset
    }
}

@c @implementation public func cd_fetch_request_set_result_type(_ request: OpaquePointer?, _ resultType: Int32) -> Int32 {
    capi {
        let box = try handle(request, as: FetchRequestBox.self, "request")
        guard [0, 1, 2, 4].contains(resultType) else {
            throw CAPIError(.range, "\(resultType) is not a cd_result_type.")
        }
        box.request.resultType = NSFetchRequestResultType(rawValue: UInt(resultType))
    }
}

@c @implementation public func cd_fetch_request_add_property(
    _ request: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let box = try handle(request, as: FetchRequestBox.self, "request")
        let key = try requireString(key, "key")
        box.request.propertiesToFetch = (box.request.propertiesToFetch ?? []) + [key]
    }
}

// MARK: - Running requests

/// Checks a request against the context's model: the entity, sort key paths and
/// dictionary properties must exist (the Swift API traps or ignores otherwise).
func validate(_ box: FetchRequestBox, in context: NSManagedObjectContext) throws {
    let name = box.request.entityName ?? ""
    guard let entity = NSEntityDescription.entity(forEntityName: name, in: context) else {
        throw CAPIError(.notFound, "The model has no entity named \(name).")
    }
    for key in box.sortKeys {
        var current: NSEntityDescription? = entity
        let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (position, part) in parts.enumerated() {
            guard let property = current?.propertiesByName[part] else {
                throw CAPIError(.notFound, "The sort key \(key) names no property of \(current?.name ?? name) (\"\(part)\").")
            }
            if let relationship = property as? NSRelationshipDescription {
                guard !relationship.isToMany, position < parts.count - 1 else {
                    throw CAPIError(.type, "The sort key \(key) ends at or goes through a to-many relationship; sort by an attribute.")
                }
                current = relationship.destinationEntity
            } else if position < parts.count - 1 {
                throw CAPIError(.type, "The sort key \(key) goes through the attribute \(part).")
            }
        }
    }
    for case let key as String in box.request.propertiesToFetch ?? [] where entity.propertiesByName[key] == nil {
        throw CAPIError(.notFound, "The property \(key) to fetch is not a property of \(name).")
    }
}

@c @implementation public func cd_context_fetch(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ request: OpaquePointer?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        let requestBox = try handle(request, as: FetchRequestBox.self, "request")
        let rows = try box.run { () throws -> ResultBox.Rows in
            try validate(requestBox, in: box.context)
            let results = try box.context.fetch(requestBox.request)
            switch requestBox.request.resultType {
            case .countResultType:
                return .count((results.first as? NSNumber)?.intValue ?? 0)
            case .managedObjectIDResultType:
                return .objectIDs(results.compactMap { $0 as? NSManagedObjectID })
            case .dictionaryResultType:
                return .dictionaries(results.compactMap { ($0 as? NSDictionary).map(stringKeyed) })
            default:
                return .objects(results.compactMap { $0 as? NSManagedObject })
            }
        }
        out.pointee = retained(ResultBox(rows: rows, contextBox: box))
    }
}

/// A dictionary result with String keys.
private func stringKeyed(_ dictionary: NSDictionary) -> [String: Any] {
    var result: [String: Any] = [:]
    for (key, value) in dictionary {
        if let key = key as? String { result[key] = value } else { result["\(key)"] = value }
    }
    return result
}

@c @implementation public func cd_context_count(
    _ out: UnsafeMutablePointer<Int>?, _ ctx: OpaquePointer?, _ request: OpaquePointer?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(ctx, as: ContextBox.self, "ctx")
        let requestBox = try handle(request, as: FetchRequestBox.self, "request")
        out.pointee = try box.run {
            try validate(requestBox, in: box.context)
            return try box.context.count(for: requestBox.request)
        }
    }
}
