/// Stops the program for a programmer error where Apple's Core Data raises an
/// Objective-C exception (an unknown key, a model mutated after use, ...).
///
/// Every API that takes run-time input and can reach this has a throwing twin, which the
/// C API uses, so no trap crosses the FFI boundary.
func coreDataMisuse(
    _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) -> Never {
    // fatalError, not preconditionFailure: the message (Apple's wording) must survive in
    // release builds, where preconditionFailure drops it.
    fatalError("CoreData: \(message())", file: file, line: line)
}

/// An error thrown by the throwing twins of trapping APIs; `nsError` is what the C API
/// reports.
struct MisuseError: Error, CustomStringConvertible {
    let nsError: NSError
    var description: String { nsError.localizedDescription }
}

import Foundation
