import Foundation

/// The `NSExpression.ExpressionType` of an ``NSFetchRequestExpression`` (raw value 50).
public let NSFetchRequestExpressionType: NSExpression.ExpressionType = .fetchRequest

/// An expression whose value is the result of running a fetch request in a managed object
/// context: the fetched objects (or object IDs, dictionaries), or only their count.
///
/// Use it where a predicate needs the result of another fetch, for example the objects
/// whose name appears among another entity's names:
///
/// ```swift
/// let banned = NSFetchRequest<NSDictionary>(entityName: "BannedName")
/// banned.resultType = .dictionaryResultType
/// banned.propertiesToFetch = ["name"]
/// let names = NSFetchRequestExpression.expression(
///     forFetch: NSExpression(forConstantValue: banned),
///     context: NSExpression(forConstantValue: context), countOnly: false)
/// let request = NSFetchRequest<NSManagedObject>(entityName: "User")
/// request.predicate = NSPredicate(format: "NOT (name IN %@.name)", names)
/// ```
///
/// Evaluating it evaluates ``requestExpression`` (an `NSFetchRequest`) and
/// ``contextExpression`` (an `NSManagedObjectContext`), then runs `fetch(_:)`, or
/// `count(for:)` when ``isCountOnlyRequest``, in that context. `expressionValue(with:context:)`
/// answers nil when the fetch fails.
///
/// - Note: Apple parity: Apple's SQLite store compiles the fetch into a SQL subquery; here a
///   predicate holding one is evaluated in memory, for every store type, with the same
///   result.
///
/// ## Topics
/// - ``expression(forFetch:context:countOnly:)``
/// - ``requestExpression``
/// - ``contextExpression``
/// - ``isCountOnlyRequest``
open class NSFetchRequestExpression: NSExpression {
    /// An expression that runs the fetch request `fetch` evaluates to in the context
    /// `context` evaluates to; with `countFlag` it answers the count of the results.
    open class func expression(forFetch fetch: NSExpression, context: NSExpression,
                               countOnly countFlag: Bool) -> NSExpression {
        NSFetchRequestExpression(kind: .fetchRequest(request: fetch, context: context, countOnly: countFlag))
    }

    /// The expression that evaluates to the fetch request.
    open var requestExpression: NSExpression {
        if case .fetchRequest(let request, _, _) = kind { return request }
        return NSExpression(forConstantValue: nil)
    }

    /// The expression that evaluates to the managed object context.
    open var contextExpression: NSExpression {
        if case .fetchRequest(_, let context, _) = kind { return context }
        return NSExpression(forConstantValue: nil)
    }

    /// Whether evaluating answers the number of results (`count(for:)`) rather than the
    /// results (`fetch(_:)`).
    open var isCountOnlyRequest: Bool {
        if case .fetchRequest(_, _, let countOnly) = kind { return countOnly }
        return false
    }
}

/// What a ``NSFetchRequestExpression``'s context evaluates to: `NSManagedObjectContext`
/// conforms, in the Context layer.
protocol FetchExpressionRunning: AnyObject {
    /// The results of `request` (an `NSFetchRequest`) as an array, or their count as an
    /// `NSNumber` when `countOnly`.
    func runFetchExpression(_ request: Any?, countOnly: Bool) throws -> Any
}
