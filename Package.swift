// swift-tools-version:6.1
// OpenCoreData: Apple's Core Data API on Linux, over the system SQLite, with a C ABI.
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "OpenCoreData",
    products: [
        .library(name: "CoreData", targets: ["CoreData"]),
        .executable(name: "coredata-demo", targets: ["coredata-demo"]),
        // The command-line tool. SwiftPM allows one product per name, and "coredata" belongs
        // to the C library below, so the tool's product is "coredata-cli" (`swift run
        // coredata-cli model ...`); it still calls itself `coredata` in its usage text, the
        // name to install it under (see README "Command-line tool").
        .executable(name: "coredata-cli", targets: ["coredata-cli"]),
        // The C API: include/coredata.h over a shared library. The product's name gives the
        // file its name: `swift build --product coredata` makes libcoredata.so, the library
        // that `-lcoredata` and coredata.pc expect. scripts/install-capi.sh installs it.
        .library(name: "coredata", type: .dynamic, targets: ["CoreDataC"]),
        .executable(name: "coredata-bench", targets: ["coredata-bench"]),
        // The fuzz targets (issue 17): fuzzes when scripts/fuzz.sh links it with libFuzzer,
        // else replays its corpus and past crashes (Tests/Fuzz), as CI does.
        .executable(name: "coredata-fuzz", targets: ["coredata-fuzz"]),
        // Apple's SwiftData API (`@Model`, `ModelContainer`, `ModelContext`, `#Predicate`
        // fetches) over the CoreData module and the same store files.
        .library(name: "SwiftData", targets: ["SwiftData"]),
        .executable(name: "swiftdata-bench", targets: ["swiftdata-bench"]),
    ],
    dependencies: [
        // The DocC plugin: `swift package generate-documentation --target CoreData` builds the
        // catalog Sources/CoreData/CoreData.docc. A command plugin only: nothing of it is linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The `@Model` macro's compiler plugin (Swift 6.3's syntax library). Only
        // SwiftSyntax, SwiftSyntaxMacros and SwiftCompilerPlugin are built.
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        // The runtime shim: KVC slot storage, fault state, dirty bits, snapshots (C, private).
        .target(
            name: "CCoreDataRuntime",
            path: "CModules/CCoreDataRuntime",
            exclude: ["tests"],
            cSettings: [.define("_GNU_SOURCE")],
            linkerSettings: [.linkedLibrary("bsd")]
        ),
        // The system libsqlite3.
        .systemLibrary(
            name: "CCoreDataSQLite",
            path: "CModules/CCoreDataSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The system zlib: raw DEFLATE, the compression of a store's Z_MODELCACHE.
        .systemLibrary(
            name: "CCoreDataZlib",
            path: "CModules/CCoreDataZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The system libpq, PostgreSQL's C client: the PostgreSQL store's connection (a
        // synchronous client, as the coordinator's store calls are synchronous).
        .systemLibrary(
            name: "CCoreDataLibPQ",
            path: "CModules/CCoreDataLibPQ",
            providers: [.apt(["libpq-dev"])]
        ),
        // The Core Data API, with Apple's names.
        .target(
            name: "CoreData",
            dependencies: ["CCoreDataRuntime", "CCoreDataSQLite", "CCoreDataZlib", "CCoreDataLibPQ"]
        ),
        // The public C header, as a module so that CoreDataC's `@c @implementation`
        // functions are checked against its prototypes (the header drift check).
        .systemLibrary(name: "CCoreDataAPI", path: "include"),
        // The C API's implementation: `@c` functions over the Swift API.
        .target(
            name: "CoreDataC",
            dependencies: ["CoreData", "CCoreDataAPI"],
            exclude: ["exports.map"]
        ),
        // The seeds' shopping list, as a command-line program.
        .executableTarget(
            name: "coredata-demo",
            dependencies: ["CoreData"],
            resources: [.copy("DataModel.xcdatamodeld")]
        ),
        .executableTarget(name: "coredata-cli", dependencies: ["CoreData"]),
        // Our stack against raw SQLite, same work, same process (README "Performance").
        // The heap counter of the benchmark's memory rows (glibc's mallinfo2).
        .target(name: "CCoreDataBench", path: "CModules/CCoreDataBench"),
        .executableTarget(
            name: "coredata-bench",
            dependencies: ["CoreData", "CCoreDataSQLite", "CCoreDataBench", "CCoreDataLibPQ"],
            exclude: ["README.md"]
        ),
        // The fuzzing driver: libFuzzer's when linked with it, else a replay of files.
        .target(name: "CCoreDataFuzz", path: "CModules/CCoreDataFuzz"),
        .executableTarget(
            name: "coredata-fuzz",
            dependencies: ["CoreData", "CoreDataC", "CCoreDataAPI", "CCoreDataFuzz"]
        ),
        // The compiler plugin behind `@Model`, `@Attribute`, `@Relationship`, `@Transient`.
        .macro(
            name: "SwiftDataMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        // Apple's SwiftData API over the CoreData module.
        .target(
            name: "SwiftData",
            dependencies: ["CoreData", "SwiftDataMacros"]
        ),
        // SwiftData against our Core Data API, same work, same process.
        .executableTarget(name: "swiftdata-bench", dependencies: ["SwiftData", "CoreData"]),
        // What the test targets share: the fixture files (models and stores written by
        // Xcode and Apple's Core Data, each with its provenance in Fixtures/README.md),
        // temporary folders removed when released, model builders and stacks.
        .target(
            name: "CoreDataTestSupport",
            dependencies: ["CoreData", "CCoreDataSQLite", "CCoreDataLibPQ"],
            path: "Tests/CoreDataTestSupport",
            resources: [.copy("Fixtures")]
        ),
        // A test-only SQLite file layer that fails, or loses power, at a chosen write, sync,
        // truncate or delete (issue 17: crash points, a full disk). Linked by tests only.
        .target(
            name: "CCoreDataCrashVFS",
            dependencies: ["CCoreDataSQLite"],
            path: "Tests/CCoreDataCrashVFS"
        ),
        .testTarget(
            name: "CoreDataTests",
            dependencies: ["CoreData", "CoreDataTestSupport", "CCoreDataCrashVFS"]
        ),
        .testTarget(
            name: "SwiftDataTests",
            dependencies: ["SwiftData", "CoreData", "CoreDataTestSupport"]
        ),
        // The command-line programs (`coredata-cli`, `coredata-demo`), run as built, as
        // subprocesses.
        .testTarget(
            name: "CoreDataCLITests",
            dependencies: ["CoreData", "CoreDataTestSupport"]
        ),
        // The C API called from Swift (status table, hostile input, text forms); the C harness
        // of every function (Tests/CAPIHarness) runs under sanitizers in .ci/capi.sh.
        .testTarget(
            name: "CAPITests",
            dependencies: ["CoreDataC", "CoreDataTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
