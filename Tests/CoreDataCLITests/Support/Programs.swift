import CoreDataTestSupport
import Foundation
import Testing

/// The package's command-line programs, built beside this test bundle, run as
/// subprocesses: what a user runs, exit status and output included.
enum Programs {
    /// What a run printed and how it ended.
    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    /// The folder of the built products: CoreDataTestSupport's resource bundle, which
    /// holds the fixtures, sits there.
    static var productsFolder: URL { Fixtures.root.deletingLastPathComponent().deletingLastPathComponent() }

    /// The first of `names` built in the products folder.
    static func program(_ names: [String]) throws -> URL {
        for name in names {
            let url = productsFolder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw ProgramError(message: "none of \(names) is built in \(productsFolder.path); run `swift build --build-tests` first")
    }

    /// The `coredata` tool (its product is being renamed `coredata-cli`; either is found).
    static func coredata() throws -> URL { try program(["coredata-cli", "coredata"]) }

    /// The shopping-list demo.
    static func demo() throws -> URL { try program(["coredata-demo"]) }

    /// Runs `program` with `arguments`; `environment` replaces the whole environment when
    /// given; `wrapper` comes first on the command line (e.g. `setpriv … --`).
    static func run(
        _ program: URL, _ arguments: [String], environment: [String: String]? = nil, wrapper: [String] = []
    ) throws -> Run {
        let folder = try TemporaryDirectory()
        let outURL = folder.file("stdout"), errURL = folder.file("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        if let first = wrapper.first {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(wrapper.dropFirst()) + [program.path] + arguments
        } else {
            process.executableURL = program
            process.arguments = arguments
        }
        if let environment { process.environment = environment }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Run(status: process.terminationStatus,
                   output: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                   errors: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    struct ProgramError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// A folder's files: their names, bytes and modification dates (to prove a program wrote
/// nothing there, even when it runs as root, which ignores permission bits).
struct FolderState: Equatable {
    var files: [String: Data] = [:]
    var dates: [String: Date] = [:]

    init(_ folder: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let path = folder.appendingPathComponent(name).path
            files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
            dates[name] = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        }
    }
}

/// Makes a folder and its files read-only (0555 and 0444).
func makeReadOnly(_ folder: URL) throws {
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: folder.path + "/" + name)
    }
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
}

/// Running a program as another user (`nobody`), to prove it works in a folder it
/// cannot write: possible when the tests run as root and `setpriv` is installed.
enum OtherUser {
    static let setpriv = "/usr/bin/setpriv"

    /// The command-line prefix that runs a program as `nobody`.
    static let wrapper = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"]

    /// Whether `nobody` can run the built `coredata` tool here (root, setpriv, and the
    /// build folder readable by others).
    static let isAvailable: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: setpriv),
              let tool = try? Programs.coredata(),
              let run = try? Programs.run(tool, ["help"], wrapper: wrapper) else { return false }
        return run.status == 0
    }()
}
