import Foundation

/// One `coredata` subcommand. To add one (for example `query`), write a type conforming
/// to this protocol in its own file and list it in ``Subcommands/all``.
protocol Subcommand {
    /// The word typed after `coredata`.
    static var name: String { get }
    /// One line for the overall usage text.
    static var summary: String { get }
    /// The subcommand's own usage line(s), without the leading `coredata`.
    static var usage: String { get }
    /// Runs with the arguments after the subcommand's name; returns the exit status.
    /// Throw ``UsageError`` for bad arguments (exit 2); any other error exits 1.
    static func run(_ arguments: [String]) throws -> Int32
}

/// Bad command-line arguments: the tool prints the message and the usage, exits 2.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Exit statuses of the tool.
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
}

enum Subcommands {
    static var all: [any Subcommand.Type] {
        [InfoCommand.self, ModelCommand.self, CountCommand.self, QueryCommand.self, ShowCommand.self, HistoryCommand.self,
         MigrateCommand.self,
         CheckCommand.self, DiffCommand.self, ExportCommand.self, ImportCommand.self]
    }

    static var usage: String {
        var text = "usage: coredata <subcommand> [arguments]\n\nsubcommands:\n"
        for command in all {
            text += "  \(command.name.padding(toLength: 10, withPad: " ", startingAt: 0))\(command.summary)\n"
        }
        text += "\nRun 'coredata help <subcommand>' for details."
        return text
    }

    static func run(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            printError(usage)
            return ExitStatus.usage
        }
        if first == "help" || first == "--help" || first == "-h" {
            if arguments.count > 1, let command = all.first(where: { $0.name == arguments[1] }) {
                print("usage: coredata \(command.usage)")
            } else {
                print(usage)
            }
            return ExitStatus.success
        }
        guard let command = all.first(where: { $0.name == first }) else {
            printError("coredata: unknown subcommand '\(first)'\n\n\(usage)")
            return ExitStatus.usage
        }
        do {
            return try command.run(Array(arguments.dropFirst()))
        } catch let error as UsageError {
            printError("coredata \(command.name): \(error.message)\nusage: coredata \(command.usage)")
            return ExitStatus.usage
        } catch {
            printError("coredata \(command.name): \(error.localizedDescription)")
            return ExitStatus.failure
        }
    }
}

/// Writes a line to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
