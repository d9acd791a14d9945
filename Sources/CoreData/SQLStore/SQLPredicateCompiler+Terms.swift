import Foundation

// MARK: - Terms: what an expression is in SQL

extension SQLPredicateCompiler {
    /// What a comparison compares, as far as SQL is concerned.
    enum Kind: Equatable {
        case number, string, date, uuid
        /// Binary data stored inline (compared byte for byte, as `Data ==` does).
        case data
        /// A URI, stored as its absolute string.
        case uri
        /// A managed object (its `Z_PK`) of the inheritance root with this ID.
        case object(ObjectIdentifier)
        /// A value SQL cannot compare as memory does (transformables, external data…).
        case other
    }

    /// A compiled operand.
    enum Term {
        /// A Swift value, bound later as the comparison needs it (folded, by kind…).
        case constant(Any?)
        /// One SQL value per row.
        case scalar(String, Kind)
        /// The members of a to-many relationship (then `rest` of the key path).
        case toMany(ToMany)
    }

    struct ToMany {
        /// The SQL of the source object's `Z_PK` (NULL when a to-one on the way is nil).
        let source: String
        let sourceIsNullable: Bool
        let relationship: NSRelationshipDescription
        let rest: ArraySlice<String>
        /// The full key path, for error messages.
        let path: String
        /// The scope that owns the source alias.
        let scope: Scope
    }

    // MARK: - Expressions

    func term(_ expression: NSExpression, _ scope: Scope) throws -> Term {
        if isConstant(expression) {
            do {
                return .constant(try PredicateEvaluator(bindings: PredicateBindings([:]))
                    .value(of: expression, object: nil))
            } catch {
                throw StoreFetchUnsupported()
            }
        }
        switch expression.kind {
        case .evaluatedObject:
            return try keyPath([], from: scope, path: "SELF")
        case .variable(let name):
            return try keyPath([], from: variableScope(name, scope), path: "$" + name)
        case .keyPath(let operand, let path):
            let segments = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            switch operand.kind {
            case .evaluatedObject:
                return try keyPath(segments[...], from: scope, path: path)
            case .variable(let name):
                return try keyPath(segments[...], from: variableScope(name, scope), path: path)
            case .subquery(let collection, let variable, let predicate) where path == "@count":
                return try subqueryCount(collection, variable, predicate, scope)
            default:
                throw StoreFetchUnsupported()
            }
        case .function(let name, nil, let arguments):
            return try function(name, arguments, scope)
        default:
            throw StoreFetchUnsupported()
        }
    }

    /// Whether `expression` reads nothing from the row (so it is evaluated once, in Swift).
    func isConstant(_ expression: NSExpression) -> Bool {
        switch expression.kind {
        case .constant: return true
        case .aggregate(let items): return items.allSatisfy(isConstant)
        case .function(let name, nil, let arguments):
            return name != "random" && name != "random:" && arguments.allSatisfy(isConstant)
        default: return false
        }
    }

    private func variableScope(_ name: String, _ scope: Scope) throws -> Scope {
        var current: Scope? = scope
        while let candidate = current {
            if candidate.variable == name { return candidate }
            current = candidate.parent
        }
        throw StoreFetchUnsupported() // bound at evaluation time: memory reports it
    }

    // MARK: - Key paths

    /// Walks a key path from `scope`'s row: attributes end it, to-ones join, a to-many
    /// hands the rest to a subquery (or a collection operator).
    func keyPath(_ segments: ArraySlice<String>, from scope: Scope, path: String) throws -> Term {
        var alias = scope.alias
        var entity = scope.entity
        var nullable = false
        var index = segments.startIndex
        if index < segments.endIndex, segments[index] == "SELF" || segments[index] == "self" {
            index += 1
        }
        while index < segments.endIndex {
            let key = segments[index]
            let isLast = index == segments.endIndex - 1
            guard let property = entity.propertiesByName[key] else {
                if key.hasPrefix("@") { throw StoreFetchUnsupported() }
                // A sub-entity's property: memory answers per object.
                if entity.runtime.family.contains(where: { $0.propertiesByName[key] != nil }) {
                    throw StoreFetchUnsupported()
                }
                throw Self.unknownKeyError(key, entity)
            }
            if property.isTransient { throw StoreFetchUnsupported() }
            if let attribute = property as? NSAttributeDescription {
                guard isLast, let column = schema.attributeColumns[ObjectIdentifier(attribute)] else {
                    throw StoreFetchUnsupported()
                }
                return .scalar("\(alias).\(column)", Self.kind(of: attribute))
            }
            guard let relationship = property as? NSRelationshipDescription,
                  let destination = relationship.destinationEntity else {
                throw StoreFetchUnsupported()
            }
            if relationship.isToMany {
                let many = ToMany(source: "\(alias).Z_PK", sourceIsNullable: nullable,
                                  relationship: relationship, rest: segments[(index + 1)...],
                                  path: path, scope: scope)
                if let first = many.rest.first, first.hasPrefix("@") {
                    return try collectionOperator(many)
                }
                return .toMany(many)
            }
            guard let fk = schema.toOneColumns[ObjectIdentifier(relationship)]?.fk else {
                throw StoreFetchUnsupported()
            }
            if isLast {
                return .scalar("\(alias).\(fk)", .object(ObjectIdentifier(destination.runtime.root)))
            }
            alias = try join(scope, from: alias, fk: fk, to: destination)
            entity = destination
            nullable = true
            index += 1
        }
        return .scalar("\(alias).Z_PK", .object(ObjectIdentifier(entity.runtime.root)))
    }

    /// `LEFT JOIN <destination> jN ON jN.Z_PK = <alias>.<fk>`, once per path in a scope.
    private func join(_ scope: Scope, from alias: String, fk: String, to destination: NSEntityDescription) throws -> String {
        let key = alias + "." + fk
        if let existing = scope.joinAliases[key] { return existing }
        guard let t = schema.tableIndex(for: destination) else { throw StoreFetchUnsupported() }
        let joined = newAlias("j")
        scope.joins.append("LEFT JOIN \(schema.tables[t].name) \(joined) ON \(joined).Z_PK = \(key)")
        scope.joinAliases[key] = joined
        return joined
    }

    static func kind(of attribute: NSAttributeDescription) -> Kind {
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
             .doubleAttributeType, .floatAttributeType, .booleanAttributeType, .decimalAttributeType:
            return .number
        case .stringAttributeType: return .string
        case .dateAttributeType: return .date
        case .UUIDAttributeType: return .uuid
        case .binaryDataAttributeType: return attribute.allowsExternalBinaryDataStorage ? .other : .data
        case .URIAttributeType: return .uri
        default: return .other
        }
    }

    // MARK: - To-many members

    /// The members of a to-many relationship as a subquery scope: its FROM clause (without
    /// the scope's joins) and the condition tying members to the source row.
    func members(_ many: ToMany, variable: String?) throws -> (scope: Scope, from: String, correlation: String) {
        guard let destination = many.relationship.destinationEntity,
              let t = schema.tableIndex(for: destination) else { throw StoreFetchUnsupported() }
        let table = schema.tables[t].name
        let alias = newAlias("s")
        let scope = Scope(alias: alias, entity: destination, variable: variable, parent: many.scope)
        switch schema.toMany[ObjectIdentifier(many.relationship)] {
        case let .children(_, foreignKey, _)?:
            return (scope, "\(table) \(alias)", "\(alias).\(foreignKey) = \(many.source)")
        case let .join(index, sourceIsA)?:
            let join = schema.joinTables[index]
            let (source, member) = sourceIsA ? (join.columnA, join.columnB) : (join.columnB, join.columnA)
            let link = newAlias("k")
            return (scope, "\(join.name) \(link) JOIN \(table) \(alias) ON \(alias).Z_PK = \(link).\(member)",
                    "\(link).\(source) = \(many.source)")
        case nil:
            throw StoreFetchUnsupported()
        }
    }

    /// `SELECT … FROM <members> WHERE <correlation> AND <condition>`.
    func memberQuery(_ select: String, _ members: (scope: Scope, from: String, correlation: String),
                     where condition: String?) -> String {
        let from = ([members.from] + members.scope.joins).joined(separator: " ")
        let filter = condition.map { " AND \($0)" } ?? ""
        return "(SELECT \(select) FROM \(from) WHERE \(members.correlation)\(filter))"
    }

    /// `to-many.@count`, `.@sum.x`, `.@avg.x`, `.@min.x`, `.@max.x` as a correlated
    /// aggregate. A nil to-one before the to-many makes the whole value nil, as in memory.
    private func collectionOperator(_ many: ToMany) throws -> Term {
        let name = many.rest.first!
        let property = many.rest.dropFirst()
        let group = try members(many, variable: nil)
        let sql: String
        let kind: Kind
        if name == "@count" {
            guard property.isEmpty else { throw StoreFetchUnsupported() }
            sql = memberQuery("COUNT(*)", group, where: nil)
            kind = .number
        } else {
            guard !property.contains(where: { $0.hasPrefix("@") }),
                  case .scalar(let value, let valueKind) = try keyPath(property, from: group.scope, path: many.path)
            else { throw StoreFetchUnsupported() }
            switch (name, valueKind) {
            case ("@sum", .number): sql = memberQuery(dialect.total(value), group, where: nil)
            case ("@avg", .number): sql = memberQuery("AVG(\(value))", group, where: nil)
            case ("@min", .number), ("@min", .date), ("@min", .string):
                sql = memberQuery("MIN(\(value))", group, where: nil)
            case ("@max", .number), ("@max", .date), ("@max", .string):
                sql = memberQuery("MAX(\(value))", group, where: nil)
            default: throw StoreFetchUnsupported()
            }
            kind = name == "@sum" || name == "@avg" ? .number : valueKind
        }
        if many.sourceIsNullable {
            return .scalar("CASE WHEN \(many.source) IS NULL THEN NULL ELSE \(sql) END", kind)
        }
        return .scalar(sql, kind)
    }

    /// `SUBQUERY(to-many, $x, predicate).@count`: inside, both `$x.key` and a bare `key`
    /// read the member (memory evaluates the predicate with the member as the object).
    private func subqueryCount(_ collection: NSExpression, _ variable: String, _ predicate: NSPredicate,
                               _ scope: Scope) throws -> Term {
        guard case .toMany(let many) = try term(collection, scope), many.rest.isEmpty else {
            throw StoreFetchUnsupported()
        }
        let group = try members(many, variable: variable)
        let condition = try compile(predicate, group.scope)
        return .scalar(memberQuery("COUNT(*)", group, where: condition), .number)
    }

    // MARK: - Functions

    /// Arithmetic on row values: `+`, `-`, `*` on numbers (and dates ± seconds), `/` by a
    /// non-zero constant (as a real division, like `divide:by:`).
    private func function(_ name: String, _ arguments: [NSExpression], _ scope: Scope) throws -> Term {
        guard arguments.count == 2 else { throw StoreFetchUnsupported() }
        let a = try term(arguments[0], scope), b = try term(arguments[1], scope)
        guard let left = scalarForArithmetic(a), let right = scalarForArithmetic(b) else {
            throw StoreFetchUnsupported()
        }
        switch (name, left.kind, right.kind) {
        case ("add:to:", .number, .number), ("from:subtract:", .number, .number),
             ("multiply:by:", .number, .number):
            let op = name == "add:to:" ? "+" : name == "from:subtract:" ? "-" : "*"
            return .scalar("(\(left.sql) \(op) \(right.sql))", .number)
        case ("add:to:", .date, .number), ("add:to:", .number, .date), ("from:subtract:", .date, .number):
            return .scalar("(\(left.sql) \(name == "add:to:" ? "+" : "-") \(right.sql))", .date)
        case ("from:subtract:", .date, .date):
            return .scalar("(\(left.sql) - \(right.sql))", .number)
        case ("divide:by:", .number, .number):
            guard case .constant(let divisor) = b, case .number(let n) = PredicateValue.classify(divisor),
                  n.doubleValue != 0 else { throw StoreFetchUnsupported() }
            return .scalar("(CAST(\(left.sql) AS \(dialect.realType)) / \(right.sql))", .number)
        default:
            throw StoreFetchUnsupported()
        }
    }

    private func scalarForArithmetic(_ term: Term) -> (sql: String, kind: Kind)? {
        switch term {
        case .scalar(let sql, let kind): return (sql, kind)
        case .constant(let value):
            switch PredicateValue.classify(value) {
            case .number(let n): return (parameter(Self.binding(n)), .number)
            case .date(let d): return (parameter(.real(d.timeIntervalSinceReferenceDate)), .date)
            default: return nil
            }
        case .toMany: return nil
        }
    }

    static func binding(_ number: PredicateNumber) -> SQLBinding {
        switch number {
        case .int(let v): return .integer(v)
        case .double(let v): return .real(v)
        }
    }
}
