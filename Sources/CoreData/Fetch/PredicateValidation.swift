import Foundation

/// Checks a fetch request's predicate against its entity before any row is read: unknown keys and
/// to-many key paths used as one value (<doc:PredicateLanguage#To-many-key-paths>) are errors
/// whatever the store holds.
///
/// The SQL compiler finds these when it compiles; in memory they would only surface when
/// the evaluator reaches such a comparison for some object (never, in an empty store, or
/// when `OR` stops early). Checking first makes both back ends throw the same error for
/// the same request, as Apple's SQL store raises before it runs a statement.
enum PredicateValidation {
    /// What a key path reaches, as far as the check cares.
    private enum Reach { case value, collection, unknown }

    static func validate(_ predicate: NSPredicate, for entity: NSEntityDescription) throws {
        try check(predicate, entity, variable: nil)
    }

    private static func check(_ predicate: NSPredicate, _ entity: NSEntityDescription, variable: String?) throws {
        if let compound = predicate as? NSCompoundPredicate {
            for sub in compound.subpredicates { try check(sub, entity, variable: variable) }
            return
        }
        guard let p = predicate as? NSComparisonPredicate else { return }
        let left = try reach(p.leftExpression, entity, variable: variable)
        let right = try reach(p.rightExpression, entity, variable: variable)
        guard p.comparisonPredicateModifier == .direct else { return }
        let op = p.predicateOperatorType
        if left == .collection && right == .collection && (op == .equalTo || op == .notEqualTo) { return }
        if left == .collection, op != .contains { throw toMany(p.leftExpression) }
        if right == .collection, op != .in, op != .between { throw toMany(p.rightExpression) }
    }

    private static func toMany(_ expression: NSExpression) -> NSError {
        PredicateEvaluator.toMany(expression.keyPath).nsError
    }

    /// Walks the key paths of `expression` (and the predicates of its subqueries).
    private static func reach(_ expression: NSExpression, _ entity: NSEntityDescription, variable: String?) throws -> Reach {
        switch expression.kind {
        case .keyPath(let operand, let path):
            switch operand.kind {
            case .evaluatedObject: break
            case .variable(let name) where name == variable: break
            case .subquery:
                _ = try reach(operand, entity, variable: variable)
                return .unknown
            default: return .unknown
            }
            // A key with no dot (the common `ident == %lld`) needs no splitting.
            if !path.utf8.contains(UInt8(ascii: ".")) { return try walk([path], entity) }
            return try walk(path.split(separator: ".", omittingEmptySubsequences: false).map(String.init), entity)
        case .subquery(let collection, let name, let inner):
            guard case .keyPath(let operand, let path) = collection.kind, case .evaluatedObject = operand.kind,
                  let destination = destination(of: path, entity) else { return .unknown }
            try check(inner, destination, variable: name)
            return .collection
        case .function(_, _, let arguments):
            for argument in arguments { _ = try reach(argument, entity, variable: variable) }
            return .unknown
        default:
            return .unknown
        }
    }

    private static func walk(_ segments: [String], _ start: NSEntityDescription) throws -> Reach {
        var entity = start
        for (index, key) in segments.enumerated() {
            if key.hasPrefix("@") { return .value }
            if index == 0, key == "SELF" || key == "self" { continue }
            guard let property = entity.propertiesByName[key] else {
                if entity.runtime.family.contains(where: { $0.propertiesByName[key] != nil }) { return .unknown }
                throw PredicateEvaluationError.unknownKey(key, entityName: entity.name).nsError
            }
            guard let relationship = property as? NSRelationshipDescription,
                  let destination = relationship.destinationEntity else { return .unknown }
            if relationship.isToMany {
                let rest = segments.dropFirst(index + 1)
                return rest.first?.hasPrefix("@") == true ? .value : .collection
            }
            entity = destination
        }
        return .value
    }

    /// The destination entity of a plain to-many key path.
    private static func destination(of path: String, _ entity: NSEntityDescription) -> NSEntityDescription? {
        var current = entity
        for key in path.split(separator: ".") {
            guard let relationship = current.relationshipsByName[String(key)],
                  let destination = relationship.destinationEntity else { return nil }
            current = destination
        }
        return current
    }
}
