import Foundation

/// The arguments after a subcommand's name, checked against what the subcommand accepts:
/// positional arguments, options that take a value (`--model X`, or `--model=X`) and flags
/// (`--json`). `-h`/`--help` are the caller's to look for first.
struct CommandArguments {
    /// The arguments that are not options, in order.
    private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments`; an option or flag not in `options`/`flags`, an option without
    /// its value, or more positionals than `maxPositionals` is a ``UsageError``.
    init(_ arguments: [String], options: Set<String> = [], flags allowedFlags: Set<String> = [],
         maxPositionals: Int = 1) throws {
        let split = arguments.flatMap { argument -> [String] in
            guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return [argument] }
            return [String(argument[..<equals]), String(argument[argument.index(after: equals)...])]
        }
        var index = 0
        while index < split.count {
            let argument = split[index]
            if options.contains(argument) {
                index += 1
                guard index < split.count else { throw UsageError("\(argument) needs a value") }
                values[argument] = split[index]
            } else if allowedFlags.contains(argument) {
                flags.insert(argument)
            } else if argument.hasPrefix("-") && argument != "-" {
                throw UsageError("unknown option '\(argument)'")
            } else {
                guard positionals.count < maxPositionals else { throw UsageError("unexpected argument '\(argument)'") }
                positionals.append(argument)
            }
            index += 1
        }
    }

    /// The value given to `option`, if any.
    func value(_ option: String) -> String? { values[option] }

    /// Whether `flag` was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The positional argument at `index`, or a ``UsageError`` saying `missing`.
    func positional(_ index: Int, missing: String) throws -> String {
        guard index < positionals.count else { throw UsageError("missing \(missing)") }
        return positionals[index]
    }

    /// The value of `option` as a whole number of at least `minimum`.
    func number(_ option: String, minimum: Int = 0) throws -> Int? {
        guard let text = values[option] else { return nil }
        guard let number = Int(text), number >= minimum else {
            throw UsageError("\(option) needs a whole number of at least \(minimum), not '\(text)'")
        }
        return number
    }
}

/// Prints `usage` and returns true when the arguments ask for help.
func printedHelp(_ arguments: [String], usage: String) -> Bool {
    guard arguments.contains("-h") || arguments.contains("--help") else { return false }
    print("usage: coredata \(usage)")
    return true
}
