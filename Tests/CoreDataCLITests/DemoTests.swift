import CoreDataTestSupport
import Foundation
import Testing

/// `coredata-demo`, run as the built program with a temporary home folder.
@Suite struct DemoTests {
    /// Runs the demo with only `PATH`, `HOME` = `home`, and `extra` in its environment, plus
    /// the sanitizers' options when the tests run under one (`scripts/sanitizers.sh`): a
    /// sanitized demo without them would report the Swift runtime's allocations as leaks.
    static func demo(_ arguments: [String], home: URL, _ extra: [String: String] = [:]) throws -> Programs.Run {
        var environment = ["PATH": "/usr/bin:/bin", "HOME": home.path]
        let sanitizerOptions = ["ASAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"]
        for (key, value) in ProcessInfo.processInfo.environment where sanitizerOptions.contains(key) {
            environment[key] = value
        }
        environment.merge(extra) { $1 }
        return try Programs.run(Programs.demo(), arguments, environment: environment)
    }

    @Test("keeps its store under $HOME/.local/share/coredata-demo, and what it adds persists")
    func home() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let store = folder.url.appendingPathComponent(".local/share/coredata-demo/DataModel.sqlite")
        let added = try Self.demo(["add", "Cheese", "3"], home: folder.url)
        #expect(added.status == 0, "\(added.errors)")
        #expect(added.output == "Added Cheese ×3.\n")
        #expect(FileManager.default.fileExists(atPath: store.path))
        let listed = try Self.demo(["list"], home: folder.url)
        #expect(listed.output.contains("[ ] Cheese ×3"), "\(listed.output)")
        let tour = try Self.demo([], home: folder.url)
        #expect(tour.output.hasPrefix("Store: \(store.path)\n"), "\(tour.output)")
    }

    @Test("$XDG_DATA_HOME comes before $HOME")
    func xdgDataHome() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let data = folder.file("data")
        let run = try Self.demo(["add", "Tea"], home: folder.file("home"), ["XDG_DATA_HOME": data.path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("coredata-demo/DataModel.sqlite").path))
        #expect(!FileManager.default.fileExists(atPath: folder.file("home").path))
    }

    @Test("a quantity that is not a whole number of at least 1 is an error, and nothing is stored",
          arguments: ["notanumber", "0", "-2", "1.5"])
    func badQuantity(_ quantity: String) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let run = try Self.demo(["add", "Cheese", quantity], home: folder.url)
        #expect(run.status == 2)
        #expect(run.errors.contains("'\(quantity)'"), "\(run.errors)")
        #expect(run.errors.contains("usage: coredata-demo"))
        #expect(run.output.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.file(".local").path), "the store was opened")
    }

    @Test("an unknown subcommand, or wrong arguments, print the usage and exit 2 without opening the store",
          arguments: [["frobnicate"], ["add"], ["buy"], ["list", "extra"], ["add", "a", "1", "2"]])
    func usage(_ arguments: [String]) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let run = try Self.demo(arguments, home: folder.url)
        #expect(run.status == 2)
        #expect(run.errors.contains("usage: coredata-demo"), "\(run.errors)")
        if arguments == ["frobnicate"] { #expect(run.errors.contains("unknown subcommand 'frobnicate'")) }
        #expect(!FileManager.default.fileExists(atPath: folder.file(".local").path), "the store was opened")
    }

    @Test("help prints the usage and succeeds; buying what is not on the list fails")
    func helpAndMissingItem() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let help = try Self.demo(["help"], home: folder.url)
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("usage: coredata-demo"))
        let buy = try Self.demo(["buy", "Caviar"], home: folder.url)
        #expect(buy.status == 1)
        #expect(buy.errors.contains("no item named Caviar"))
    }
}
