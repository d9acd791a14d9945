// The `coredata` command-line tool: looks at Core Data files from the shell.
//
// Usage: coredata <subcommand> [arguments]
// Each subcommand lives in its own file and is listed in `Subcommands.all`.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
exit(Subcommands.run(arguments))
