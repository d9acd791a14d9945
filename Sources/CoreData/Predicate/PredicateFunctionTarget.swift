import Foundation

/// An object that answers `FUNCTION(target, "selector:", arguments…)` in an expression:
/// Linux has no Objective-C runtime to send `selector` to `target`, so the target itself
/// maps selector names to code.
///
/// The migration manager and entity migration policies conform (in the Migration layer):
/// their value expressions call `FUNCTION($manager, …)` and `FUNCTION($entityPolicy, …)`.
protocol PredicateFunctionTarget: AnyObject {
    /// The value of calling the method named `selector` (Objective-C spelling, colons
    /// included) with `arguments`; throws when the target has no such method.
    func predicateFunctionValue(selector: String, arguments: [Any?]) throws -> Any?
}
