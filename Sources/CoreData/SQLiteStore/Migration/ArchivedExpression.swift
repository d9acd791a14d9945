import Foundation

/// Reads an `NSExpression` that Apple's Foundation archived with `NSKeyedArchiver`, as
/// Xcode keeps the expressions of a mapping model (`valueexpressiondata`,
/// `sourceexpressiondata` in `xcmapping.xml`).
///
/// Apple archives one class per expression kind, with these keys:
/// `NSConstantValueExpression` (`NSConstantValue`), `NSSelfExpression`,
/// `NSVariableExpression` (`NSVariable`), `NSKeyPathSpecifierExpression` (`NSKeyPath`),
/// `NSFunctionExpression` and its subclass `NSKeyPathExpression` (`NSOperand`,
/// `NSSelectorName`, `NSArguments`; a key path is `valueForKeyPath:` with one key path
/// specifier argument), `NSAggregateExpression` (`NSCollection`). Every class also
/// writes `NSExpressionType`.
enum ArchivedExpression {
    /// The expression archived in `data`, or nil when it is not one this reader knows.
    static func decode(_ data: Data) -> NSExpression? {
        guard let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        for name in ["NSConstantValueExpression", "NSSelfExpression", "NSVariableExpression",
                     "NSKeyPathSpecifierExpression", "NSFunctionExpression", "NSKeyPathExpression",
                     "NSAggregateExpression"] {
            unarchiver.setClass(Node.self, forClassName: name)
        }
        defer { unarchiver.finishDecoding() }
        let root = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? Node
        return unarchiver.error == nil ? root?.expression : nil
    }

    /// One archived expression, decoded whatever its class (the keys say which it is).
    final class Node: NSObject, NSCoding {
        /// The expression, nil when the archive holds something this reader doesn't know.
        let expression: NSExpression?
        /// The key path of an `NSKeyPathSpecifierExpression`.
        let keyPathSpecifier: String?

        init?(coder: NSCoder) {
            // Only keys that are there are read: reading a missing key is a decoding error.
            func object(_ key: String) -> Any? { coder.containsValue(forKey: key) ? coder.decodeObject(forKey: key) : nil }
            let type = coder.containsValue(forKey: "NSExpressionType") ? coder.decodeInteger(forKey: "NSExpressionType") : -1
            var specifier: String?
            if let variable = object("NSVariable") as? String {
                expression = NSExpression(forVariable: variable)
            } else if let keyPath = object("NSKeyPath") as? String {
                specifier = keyPath
                expression = NSExpression(forConstantValue: keyPath)
            } else if let selector = object("NSSelectorName") as? String {
                expression = Self.function(selector, operand: object("NSOperand"), arguments: object("NSArguments"))
            } else if coder.containsValue(forKey: "NSCollection") {
                let items = PredicateValue.collectionElements(object("NSCollection")) ?? []
                let expressions = items.compactMap { ($0 as? Node)?.expression }
                expression = expressions.count == items.count ? NSExpression(forAggregate: expressions) : nil
            } else if coder.containsValue(forKey: "NSConstantValue") {
                let value = object("NSConstantValue")
                expression = value is Node ? nil : NSExpression(forConstantValue: value)
            } else if type == 1 {
                expression = NSExpression.expressionForEvaluatedObject()
            } else if type == 0 {
                expression = NSExpression(forConstantValue: nil)
            } else {
                expression = nil
            }
            keyPathSpecifier = specifier
            super.init()
        }

        func encode(with coder: NSCoder) {}

        /// A function expression: a key path when it is `valueForKeyPath:` of one specifier,
        /// a built-in function when its receiver is not an expression (Apple archives the
        /// class that implements built-ins), else `FUNCTION(receiver, selector, …)`.
        private static func function(_ selector: String, operand: Any?, arguments: Any?) -> NSExpression? {
            let items = PredicateValue.collectionElements(arguments) ?? []
            let nodes = items.compactMap { $0 as? Node }
            guard nodes.count == items.count else { return nil }
            let argumentExpressions = nodes.compactMap(\.expression)
            guard argumentExpressions.count == nodes.count else { return nil }
            guard let receiver = (operand as? Node)?.expression else {
                return PredicateFunctions.isBuiltin(selector)
                    ? NSExpression(forFunction: selector, arguments: argumentExpressions) : nil
            }
            if selector == "valueForKeyPath:", nodes.count == 1, let path = nodes[0].keyPathSpecifier {
                if case .keyPath(let inner, let head) = receiver.kind {
                    return NSExpression(kind: .keyPath(operand: inner, path: head + "." + path))
                }
                return NSExpression(kind: .keyPath(operand: receiver, path: path))
            }
            return NSExpression(forFunction: receiver, selectorName: selector, arguments: argumentExpressions)
        }
    }
}
