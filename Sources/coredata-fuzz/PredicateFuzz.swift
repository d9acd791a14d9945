import Foundation
// NSPredicate.throwingParse (SPI CAPI): the throwing twin of NSPredicate(format:), which
// traps on a malformed format as Apple raises.
@_spi(CAPI) import CoreData

/// The predicate parser: any text either parses or is refused with an error; a predicate
/// that parses prints a format that parses again to the same format (the printer and the
/// parser agree). Apple does not promise that round trip, and its spelling of `FUNCTION(…)`
/// (the selector unquoted, which we print too) does not parse back: those are left out.
enum PredicateFuzz {
    static func run(_ data: Data) {
        guard let format = String(data: data, encoding: .utf8),
              let predicate = try? NSPredicate.throwingParse(format: format, arguments: []) else { return }
        let printed = predicate.description
        if printed.contains("FUNCTION(") { return }
        do {
            let again = try NSPredicate.throwingParse(format: printed, arguments: [])
            if again.description != printed {
                fatalError("predicate: '\(format)' prints '\(printed)', which prints '\(again.description)'")
            }
        } catch {
            fatalError("predicate: '\(format)' prints '\(printed)', which does not parse: \(error)")
        }
    }
}
