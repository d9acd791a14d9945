// coredata-fuzz: the fuzz targets of issue 17, one program. `--target=NAME` picks one:
//   predicate   NSPredicate(format:) parsing, and re-parsing what the predicate prints
//   model-xml   Xcode model files (`contents` XML) loaded into a model
//   compiled-model  compiled models (`.mom` keyed archives) loaded into a model
//   store       SQLite store files (mutated real stores) opened read-only and read through
//   capi        sequences of C API calls on an in-memory container, decoded from the input
// Linked with libFuzzer (scripts/fuzz.sh) it fuzzes; built plainly it replays the files and
// folders on its command line (the seed corpus in Tests/Fuzz, and every crash ever found),
// which CI runs as a regression check. libFuzzer ignores arguments that start with "--".
import CCoreDataFuzz
import Foundation

/// The fuzz targets by name: each runs one input and must never crash, whatever the bytes.
let targets: [(name: String, run: (Data) -> Void)] = [
    ("predicate", PredicateFuzz.run), ("model-xml", ModelXMLFuzz.run), ("compiled-model", CompiledModelFuzz.run),
    ("store", StoreFileFuzz.run), ("capi", CAPIFuzz.run),
]

let requested = CommandLine.arguments.first { $0.hasPrefix("--target=") }.map { String($0.dropFirst("--target=".count)) }
guard let chosen = targets.first(where: { $0.name == requested }) else {
    let names = targets.map(\.name).joined(separator: ", ")
    FileHandle.standardError.write(Data("usage: coredata-fuzz --target=NAME [libFuzzer options | files and folders to replay]\n  targets: \(names)\n".utf8))
    exit(2)
}

/// The chosen target, for the C callback (which cannot capture).
nonisolated(unsafe) var runTarget: (Data) -> Void = chosen.run

exit(cdfuzz_main(CommandLine.argc, CommandLine.unsafeArgv) { bytes, count in
    runTarget(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
})
