import Foundation

extension PredicateParser {

    // MARK: - Arithmetic

    /// `additive`: the whole expression grammar. With a `seed`, the leftmost atom is an
    /// already parsed parenthesised expression.
    mutating func parseExpression(seed: NSExpression? = nil) throws -> NSExpression {
        var result = try parseMultiplicative(seed: seed)
        while isSymbol("+") || isSymbol("-") {
            let name = isSymbol("+") ? "add:to:" : "from:subtract:"
            advance()
            result = Self.function(name, [result, try parseMultiplicative(seed: nil)])
        }
        return result
    }

    private mutating func parseMultiplicative(seed: NSExpression?) throws -> NSExpression {
        var result = try parsePower(seed: seed)
        while isSymbol("*") || isSymbol("/") {
            let name = isSymbol("*") ? "multiply:by:" : "divide:by:"
            advance()
            result = Self.function(name, [result, try parsePower(seed: nil)])
        }
        return result
    }

    private mutating func parsePower(seed: NSExpression?) throws -> NSExpression {
        var result = try parseUnary(seed: seed)
        while isSymbol("**") {
            advance()
            result = Self.function("raise:toPower:", [result, try parseUnary(seed: nil)])
        }
        return result
    }

    private mutating func parseUnary(seed: NSExpression?) throws -> NSExpression {
        if seed == nil, isSymbol("-") {
            advance()
            try enter()
            defer { depth -= 1 }
            let operand = try parseUnary(seed: nil)
            if case .constant(let value) = operand.kind,
               case .number(let n) = PredicateValue.classify(value), !(value is Bool)
            {
                switch n {
                case .int(let i) where i != .min: return NSExpression(forConstantValue: Int(-i))
                default: return NSExpression(forConstantValue: -n.doubleValue)
                }
            }
            return Self.function("from:subtract:", [NSExpression(forConstantValue: 0), operand])
        }
        return try parsePostfix(seed: seed)
    }

    static func function(_ name: String, _ arguments: [NSExpression]) -> NSExpression {
        NSExpression(kind: .function(name: name, operand: nil, arguments: arguments))
    }

    // MARK: - Key paths and indexes

    private mutating func parsePostfix(seed: NSExpression?) throws -> NSExpression {
        var result = try seed ?? parseAtom()
        while true {
            if isSymbol(".") {
                advance()
                let key: String
                switch current.kind {
                case .identifier(let name, _): key = name
                case .atKey(let name): key = "@" + name
                case .keyword:
                    throw error("reserved word \(describe(current)) used as a key; "
                        + "escape it with '#'")
                default: throw error("expected a key after '.', found \(describe(current))")
                }
                advance()
                result = Self.appendKey(key, to: result)
            } else if isSymbol("[") {
                advance()
                try enter()
                let index: NSExpression
                switch current.kind {
                case .keyword(let word) where ["FIRST", "LAST", "SIZE"].contains(word):
                    advance()
                    index = NSExpression(forConstantValue: word)
                default: index = try parseExpression()
                }
                try expectSymbol("]", "to close the index")
                depth -= 1
                result = Self.function("objectFrom:withIndex:", [result, index])
            } else {
                return result
            }
        }
    }

    static func appendKey(_ key: String, to base: NSExpression) -> NSExpression {
        switch base.kind {
        case .keyPath(let operand, let path):
            return NSExpression(kind: .keyPath(operand: operand, path: path + "." + key))
        default:
            return NSExpression(kind: .keyPath(operand: base, path: key))
        }
    }

    // MARK: - Atoms

    private mutating func parseAtom() throws -> NSExpression {
        let token = current
        switch token.kind {
        case .integer(let value):
            advance()
            if let int = Int(exactly: value) { return NSExpression(forConstantValue: int) }
            return NSExpression(forConstantValue: value)
        case .double(let value):
            advance()
            return NSExpression(forConstantValue: value)
        case .string(let value):
            advance()
            return NSExpression(forConstantValue: value)
        case .variable(let name):
            advance()
            if isSymbol(":=") {
                advance()
                return NSExpression(kind: .assignment(variable: name, value: try parseExpression()))
            }
            return NSExpression(forVariable: name)
        case .specifier(let conversion):
            advance()
            return try bindArgument(conversion, token: token)
        case .atKey(let name):
            advance()
            return NSExpression(forKeyPath: "@" + name)
        case .identifier(let name, let escaped):
            advance()
            if !escaped, isSymbol("(") { return try parseCall(name, token: token) }
            return NSExpression(forKeyPath: name)
        case .keyword(let word):
            return try parseKeywordAtom(word, token: token)
        case .symbol("{"):
            advance()
            try enter()
            var items: [NSExpression] = []
            if !isSymbol("}") {
                items.append(try parseExpression())
                while isSymbol(",") {
                    advance()
                    items.append(try parseExpression())
                }
            }
            try expectSymbol("}", "to close the aggregate")
            depth -= 1
            return NSExpression(forAggregate: items)
        case .symbol("("):
            advance()
            try enter()
            let inner = try parseExpression()
            try expectSymbol(")", "to close the parenthesis")
            depth -= 1
            return inner
        case .end:
            throw error("missing operand: expected an expression, found the end of the string")
        default:
            throw error("expected an expression, found \(describe(token))")
        }
    }

    private mutating func parseKeywordAtom(
        _ word: String, token: PredicateToken
    ) throws -> NSExpression {
        switch word {
        // Apple's parser makes these NSNumbers (printed 1 and 0), not Swift Bools.
        case "TRUE", "YES": advance(); return NSExpression(forConstantValue: NSNumber(value: true))
        case "FALSE", "NO": advance(); return NSExpression(forConstantValue: NSNumber(value: false))
        case "NULL", "NIL": advance(); return NSExpression(forConstantValue: nil)
        case "SELF": advance(); return NSExpression.expressionForEvaluatedObject()
        case "ANYKEY": advance(); return NSExpression.expressionForAnyKey()
        case "SUBQUERY":
            advance()
            try enter()
            try expectSymbol("(", "after SUBQUERY")
            let collection = try parseExpression()
            try expectSymbol(",", "after the SUBQUERY collection")
            guard case .variable(let variable) = current.kind else {
                throw error("expected a $variable as the second SUBQUERY argument, found "
                    + describe(current))
            }
            advance()
            try expectSymbol(",", "after the SUBQUERY variable")
            guard case .predicate(let predicate) = try parseOr(allowBare: false) else {
                throw error("expected a predicate in SUBQUERY")
            }
            try expectSymbol(")", "to close SUBQUERY")
            depth -= 1
            return NSExpression(forSubquery: collection, usingIteratorVariable: variable,
                                predicate: predicate)
        case "CAST":
            advance()
            try enter()
            try expectSymbol("(", "after CAST")
            let value = try parseExpression()
            try expectSymbol(",", "after the CAST value")
            let typeToken = current
            guard case .constant(let typeValue) = try parseExpression().kind,
                  let type = typeValue as? String
            else { throw error("expected a class name string in CAST", at: typeToken) }
            guard PredicateFunctions.castTypes.contains(type) else {
                throw error("unsupported CAST type '\(type)' (expected NSDate, NSNumber, "
                    + "NSString or NSDecimalNumber)", at: typeToken)
            }
            try expectSymbol(")", "to close CAST")
            depth -= 1
            let cast = Self.function("castObject:toType:",
                                     [value, NSExpression(forConstantValue: type)])
            // A constant CAST folds to its value, so `CAST(123, "NSDate")` (how dates
            // print) parses back to an equal date constant.
            if case .constant(let constant) = value.kind {
                do {
                    return NSExpression(forConstantValue: try PredicateFunctions.call(
                        "castObject:toType:", [constant, type]))
                } catch {
                    throw self.error("\(error)", at: token)
                }
            }
            return cast
        case "AND", "OR", "NOT":
            throw error("missing operand: expected an expression, found '\(word)'")
        case "FETCH":
            advance()
            try enter()
            try expectSymbol("(", "after FETCH")
            let request = try parseExpression()
            try expectSymbol(",", "after the FETCH request")
            let context = try parseExpression()
            try expectSymbol(",", "after the FETCH context")
            let flagToken = current
            let flag = try parseExpression()
            try expectSymbol(")", "to close FETCH")
            depth -= 1
            guard case .constant(let value) = flag.kind,
                  let countOnly = (value as? NSNumber)?.boolValue ?? (value as? Bool) else {
                throw error("FETCH needs YES or NO as its third argument (count only)", at: flagToken)
            }
            return NSFetchRequestExpression.expression(forFetch: request, context: context, countOnly: countOnly)
        default:
            throw error("reserved word '\(word)' cannot be used as a key path; "
                + "escape it as #\(word.lowercased())")
        }
    }

    // MARK: - Calls

    /// `FUNCTION(receiver, 'selector', args…)`, `TERNARY(predicate, a, b)`, or a built-in
    /// `name(args…)`.
    private mutating func parseCall(_ name: String, token: PredicateToken) throws -> NSExpression {
        advance()  // (
        try enter()
        defer { depth -= 1 }
        let upper = name.uppercased()
        if upper == "TERNARY" {
            guard case .predicate(let condition) = try parseOr(allowBare: false) else {
                throw error("expected a predicate in TERNARY")
            }
            try expectSymbol(",", "after the TERNARY predicate")
            let yes = try parseExpression()
            try expectSymbol(",", "after the TERNARY true expression")
            let no = try parseExpression()
            try expectSymbol(")", "to close TERNARY")
            return NSExpression(forConditional: condition, trueExpression: yes,
                                falseExpression: no)
        }
        var arguments: [NSExpression] = []
        if !isSymbol(")") {
            arguments.append(try parseExpression())
            while isSymbol(",") {
                advance()
                arguments.append(try parseExpression())
            }
        }
        try expectSymbol(")", "to close the argument list of \(name)")
        if upper == "FUNCTION" {
            // The selector is a string, or bare as Apple prints it (`FUNCTION(SELF, foo: )`).
            var selectorName: String?
            if arguments.count >= 2 {
                switch arguments[1].kind {
                case .constant(let selector as String): selectorName = selector
                case .keyPath(let operand, let path) where path.contains(":"):
                    if case .evaluatedObject = operand.kind { selectorName = path }
                default: break
                }
            }
            guard let selectorName, !selectorName.isEmpty else {
                throw error("FUNCTION needs a receiver and a selector name string", at: token)
            }
            return NSExpression(forFunction: arguments[0], selectorName: selectorName,
                                arguments: Array(arguments.dropFirst(2)))
        }
        guard let selector = PredicateFunctions.selector(
            forCallNamed: name, argumentCount: arguments.count)
        else {
            let spelled = name + String(repeating: ":", count: max(arguments.count, 0))
            throw error("Unable to parse function name '\(spelled)' into supported selector "
                + "(unknown function or wrong number of arguments)", at: token)
        }
        return Self.function(selector, arguments)
    }

    // MARK: - Format arguments

    /// Binds the next argument to `%@`, `%K` or a printf conversion.
    private mutating func bindArgument(
        _ conversion: String, token: PredicateToken
    ) throws -> NSExpression {
        guard argumentIndex < arguments.count else {
            throw error("missing argument for %\(conversion) (only \(arguments.count) given)",
                        at: token)
        }
        let argument = arguments[argumentIndex]
        argumentIndex += 1
        let value = PredicateArgument.normalize(argument)
        // The conversion's last letter, read as a byte (comparing `Character`s costs more
        // than the rest of binding a plain number).
        let kind = conversion.utf8.last ?? UInt8(ascii: "@")
        switch kind {
        case UInt8(ascii: "K"):
            guard case .string(let path) = PredicateValue.classify(value), !path.isEmpty else {
                throw error("%K needs a key path string argument, not "
                    + PredicateValue.describe(value), at: token)
            }
            return NSExpression(forKeyPath: path)
        case UInt8(ascii: "@"), UInt8(ascii: "c"), UInt8(ascii: "p"):
            if let value, PlainValue(value) == nil, let expression = value as? NSExpression { return expression }
            return NSExpression(forConstantValue: value)
        case UInt8(ascii: "s"), UInt8(ascii: "S"):
            guard case .string = PredicateValue.classify(value) else {
                throw error("%\(conversion) needs a string argument, not "
                    + PredicateValue.describe(value), at: token)
            }
            return NSExpression(forConstantValue: value)
        default:
            guard case .number(let n) = PredicateValue.classify(value) else {
                throw error("%\(conversion) needs a number argument, not "
                    + PredicateValue.describe(value), at: token)
            }
            return NSExpression(forConstantValue: n.anyValue)
        }
    }
}
