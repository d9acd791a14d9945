import Foundation

// MARK: - Compiled SELECTs, by predicate shape

/// Everything the SQL text of a fetch's SELECT depends on, for predicates of a common
/// shape: comparisons of a key path with a constant number, string or date (`==`, `!=`,
/// `<`, `<=`, `>`, `>=`), joined by AND, OR and NOT. The constants themselves are not part
/// of it: they are bound, so `NSPredicate(format: "ident == %lld", ident)` built per call
/// compiles once per entity, sort and column list, and SQLite's statement cache then finds
/// the prepared statement by its text.
///
/// For these shapes the SQL compiler's output is decided by the key paths, the operators,
/// the options and the constants' kinds, and it binds each constant once, in the order it
/// walks them: ``SQLiteStoreBackend/selectStatement(_:table:columns:)`` checks that on the
/// first compilation of a shape (the compiler's bindings must equal those computed here)
/// and otherwise never caches the shape.
struct SelectShape: Hashable {
    /// One node of a predicate, in the compiler's walking order.
    enum Token: Hashable {
        case and(Int)
        case or(Int)
        case not
        /// `keyPath op constant` (or `constant op keyPath` when `constantFirst`).
        case comparison(keyPath: String, operator: UInt, options: UInt, kind: ConstantKind, constantFirst: Bool)
    }

    enum ConstantKind: Hashable { case number, string, date }

    /// A sort key, as the ORDER BY clause spells it.
    struct Sort: Hashable {
        let keyPath: String
        let ascending: Bool
        let comparison: SortKey.Comparison
    }

    let entity: ObjectIdentifier
    let includesSubentities: Bool
    let columns: String
    let sorts: [Sort]
    let tokens: [Token]

    /// Hashes everything but the column list's text, of which only the length: a store
    /// passes one of a few lists per table (all its columns, or the key columns), so the
    /// entity and the length tell them apart, and hashing the full list (a hundred bytes and
    /// more) cost as much as the rest of the lookup. Equality still compares the text.
    func hash(into hasher: inout Hasher) {
        hasher.combine(entity)
        hasher.combine(includesSubentities)
        hasher.combine(columns.utf8.count)
        hasher.combine(sorts)
        hasher.combine(tokens)
    }

    /// A constant as the compiler binds it.
    struct Constant {
        let value: PredicateValue
        let options: NSComparisonPredicate.Options
    }

    /// The shape of a plan and the constants of its predicate in binding order; nil when the
    /// predicate is not of a cacheable shape.
    init?(_ plan: FetchPlan, columns: String, constants: inout [Constant]) {
        var tokens: [Token] = []
        if let predicate = plan.predicate {
            guard Self.walk(predicate, &tokens, &constants) else { return nil }
        }
        entity = ObjectIdentifier(plan.entity)
        includesSubentities = plan.includesSubentities
        self.columns = columns
        sorts = plan.sorts.map { Sort(keyPath: $0.keyPath, ascending: $0.ascending, comparison: $0.comparison) }
        self.tokens = tokens
    }

    private static func walk(_ predicate: NSPredicate, _ tokens: inout [Token], _ constants: inout [Constant]) -> Bool {
        if let comparison = predicate as? NSComparisonPredicate {
            return walk(comparison, &tokens, &constants)
        }
        guard let compound = predicate as? NSCompoundPredicate else { return false }
        let parts = compound.subpredicates
        switch compound.compoundPredicateType {
        case .and: tokens.append(.and(parts.count))
        case .or: tokens.append(.or(parts.count))
        case .not:
            guard parts.count == 1 else { return false }
            tokens.append(.not)
        }
        for part in parts {
            guard walk(part, &tokens, &constants) else { return false }
        }
        return true
    }

    private static func walk(_ p: NSComparisonPredicate, _ tokens: inout [Token], _ constants: inout [Constant]) -> Bool {
        guard p.comparisonPredicateModifier == .direct else { return false }
        switch p.predicateOperatorType {
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo: break
        default: return false
        }
        let constantFirst: Bool
        let path: String
        let raw: Any?
        switch (p.leftExpression.kind, p.rightExpression.kind) {
        case (.keyPath(let operand, let keyPath), .constant(let value)):
            guard case .evaluatedObject = operand.kind else { return false }
            (constantFirst, path, raw) = (false, keyPath, value)
        case (.constant(let value), .keyPath(let operand, let keyPath)):
            guard case .evaluatedObject = operand.kind else { return false }
            (constantFirst, path, raw) = (true, keyPath, value)
        default:
            return false
        }
        // Collection operators (`@count`, `@sum`…) are not simple key paths. (Scanning the
        // UTF-8 bytes: Foundation's `contains` on strings costs as much as the lookup saves.)
        if path.utf8.contains(UInt8(ascii: "@")) { return false }
        let value = PredicateValue.classify(raw)
        let kind: ConstantKind
        switch value {
        case .number: kind = .number
        case .string: kind = .string
        case .date: kind = .date
        default: return false
        }
        tokens.append(.comparison(keyPath: path, operator: p.predicateOperatorType.rawValue,
                                  options: p.options.rawValue, kind: kind, constantFirst: constantFirst))
        constants.append(Constant(value: value, options: p.options))
        return true
    }

    /// The bindings of `constants`, encoded as the compiler encodes them, then the limit
    /// and offset.
    static func bindings(_ constants: [Constant], limit: Int, offset: Int) -> [SQLBinding] {
        var result: [SQLBinding] = []
        result.reserveCapacity(constants.count + 2)
        for constant in constants {
            switch constant.value {
            case .number(let n): result.append(SQLPredicateCompiler.binding(n))
            case .string(let s):
                let folds = SQLPredicateCompiler.folds(constant.options)
                result.append(.text(folds ? PredicateStringFolding.fold(s, constant.options) : s))
            case .date(let d): result.append(.real(d.timeIntervalSinceReferenceDate))
            default: break
            }
        }
        result.append(.integer(Int64(limit > 0 ? limit : -1)))
        result.append(.integer(Int64(max(0, offset))))
        return result
    }
}

extension SQLBinding: Equatable {
    static func == (a: SQLBinding, b: SQLBinding) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.integer(x), .integer(y)): return x == y
        case let (.real(x), .real(y)): return x.bitPattern == y.bitPattern
        case let (.text(x), .text(y)): return x == y
        case let (.blob(x), .blob(y)): return x == y
        default: return false
        }
    }
}
