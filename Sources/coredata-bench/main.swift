import CCoreDataSQLite
import CoreData

// coredata-bench: our Core Data stack against raw SQLite, same work, same process.
//
//   swift run -c release coredata-bench [N] [--runs K] [--json] [--budget SECONDS]
//                                       [--only key,key,...] [--dir PATH] [--insert-1m]
//                                       [--postgres URL]
//
// Each workload runs through our public API and through SQLite's C API, one warm-up run
// and then K measured runs (median reported). Each run checks that both sides read or
// wrote the same data; a mismatch exits with status 1. Timing never fails the program.
// See Sources/coredata-bench/README.md.

BenchModel.register()
let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "--memory-probe", arguments.count >= 3 {
    do {
        try MemoryProbe.probe(side: arguments[1], path: arguments[2], model: BenchModel.make())
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("memory probe: \(BenchError.describe(error))\n".utf8))
        exit(1)
    }
}

if arguments.first == "--pg-writer" {
    do {
        try PostgreSQLBench.writerChild(Array(arguments.dropFirst()))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("pg writer: \(BenchError.describe(error))\n".utf8))
        exit(1)
    }
}

struct Options {
    var n = 100_000
    var runs = 5
    var json = false
    var budget = 3.0
    var only: Set<String>?
    var directory: URL?
    /// The opt-in `insert_1m` row: the insert workload again at N = 1 000 000.
    var millionInsert = false
    /// The PostgreSQL server of the `pg_*` rows: `--postgres URL`, else
    /// `COREDATA_BENCH_POSTGRES_URL`, else the tests' `COREDATA_TEST_POSTGRES_URL`.
    var postgres: URL? = ["COREDATA_BENCH_POSTGRES_URL", "COREDATA_TEST_POSTGRES_URL"]
        .lazy.compactMap { ProcessInfo.processInfo.environment[$0] }.first { !$0.isEmpty }.flatMap(URL.init(string:))

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--json": json = true
            case "--runs": runs = max(1, Int(iterator.next() ?? "") ?? runs)
            case "--budget": budget = Double(iterator.next() ?? "") ?? budget
            case "--only": only = Set((iterator.next() ?? "").split(separator: ",").map(String.init))
            case "--dir": directory = iterator.next().map { URL(fileURLWithPath: $0) }
            case "--insert-1m": millionInsert = true
            case "--postgres": postgres = iterator.next().flatMap(URL.init(string:))
            case "-h", "--help":
                print("usage: coredata-bench [N] [--runs K] [--json] [--budget SECONDS] [--only key,...] [--dir PATH] [--insert-1m] [--postgres URL]")
                exit(0)
            default:
                if let value = Int(argument.replacingOccurrences(of: "_", with: "")), value > 0 { n = value }
                else { FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8)); exit(2) }
            }
        }
    }
}

let options = Options(arguments)
let directory = options.directory
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("coredata-bench-\(getpid())")
try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

func progress(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

let bench = Bench(n: options.n, directory: directory, budget: options.budget)
var results: [WorkloadResult] = []
var failures: [String] = []

func selected(_ key: String) -> Bool { options.only?.contains(key) ?? true }

/// Runs a workload: a warm-up, then `runs` measured runs (only one unmeasured run when
/// it is needed as set-up but not selected).
@MainActor
func run(_ workload: Workload, setUpOnly: Bool = false) throws {
    let measured = setUpOnly ? 0 : options.runs
    var ours: [Double] = [], raw: [Double] = [], done: [Int] = []
    var verified = true
    for index in 0...measured {
        let oursClock = Stopwatch(), rawClock = Stopwatch()
        let mine = try workload.ours(oursClock)
        let theirs = try workload.raw(rawClock, mine.ops)
        if mine.checksum != theirs.checksum || mine.ops != theirs.ops {
            verified = false
            failures.append("\(workload.key) run \(index): ours \(mine.checksum) (\(mine.ops) ops) ≠ raw \(theirs.checksum) (\(theirs.ops) ops)")
        }
        let label = index == 0 ? "warm-up" : "run \(index)/\(measured)"
        progress("  " + pad(workload.key, 18, left: true) + pad(label, 9, left: true)
                 + String(format: " ours %8.4f s  raw %8.4f s  ", oursClock.elapsed, rawClock.elapsed)
                 + "(\(mine.ops) \(workload.unit))" + (mine.checksum == theirs.checksum ? "" : "  MISMATCH"))
        if index > 0 {
            ours.append(oursClock.elapsed / Double(max(1, mine.ops)))
            raw.append(rawClock.elapsed / Double(max(1, theirs.ops)))
            done.append(mine.ops)
        }
    }
    guard !setUpOnly else { return }
    results.append(WorkloadResult(
        key: workload.key, title: workload.title, ops: workload.ops, unit: workload.unit,
        target: workload.target, ours: median(ours) * Double(workload.ops), raw: median(raw) * Double(workload.ops),
        measuredOps: done.min() ?? 0, verified: verified))
}

struct MemoryResult {
    var ours: MemoryProbe.Report
    var raw: MemoryProbe.Report
    var rawRowBytes: Double
    var oursPerObject: Double { Double(ours.peakDelta) / Double(max(1, ours.count)) }
    var rawPerRow: Double { Double(raw.peakDelta) / Double(max(1, raw.count)) }
    /// The goal: 2 × the raw row size + 64 bytes per object.
    var targetBytes: Double { 2 * rawRowBytes + 64 }
    var ratio: Double { oursPerObject / rawRowBytes }
    var targetRatio: Double { targetBytes / rawRowBytes }
    var met: Bool { oursPerObject <= targetBytes }
    /// Heap bytes per object still in use after `reset()` (ours) or dropping the rows (raw).
    var oursAfterReset: Double { Double(ours.heapAfterRelease) / Double(max(1, ours.count)) }
    var rawAfterRelease: Double { Double(raw.heapAfterRelease) / Double(max(1, raw.count)) }
    /// The goal after `reset()`: back near zero, at most 16 bytes per object let go of more
    /// than the raw side keeps (SQLite's page cache stays with each open connection).
    static let resetMarginBytes = 16.0
    var resetTargetBytes: Double { max(0, rawAfterRelease) + Self.resetMarginBytes }
    var resetMet: Bool { oursAfterReset <= resetTargetBytes }
}
var memory: MemoryResult?

progress("coredata-bench: N = \(options.n), \(options.runs) runs after a warm-up, files in \(directory.path)")
do {
    try run(bench.insert, setUpOnly: !selected("insert"))
    try bench.alignRawWithOurs()
    for workload in [bench.faultFetch, bench.faultKeysFetch, bench.faultFire, bench.fullFetch, bench.keyValueFetch, bench.dictionaryFetch,
                     bench.twoContexts] where selected(workload.key) {
        try run(workload)
    }
    if selected("existing_object") {
        try run(bench.existingObject(keys: bench.randomKeys("Z_PK", count: bench.lookups, seed: 1)))
    }
    if selected("fetch_by_key") {
        try run(bench.keyFetch(idents: bench.randomKeys("ZIDENT", count: bench.lookups, seed: 2)))
    }
    if selected("fetch_beginswith") { try run(bench.prefixFetch) }
    if selected("memory") {
        progress("  memory: child processes")
        let ours = try MemoryProbe.run(side: "ours", path: bench.oursPath)
        let raw = try MemoryProbe.run(side: "raw", path: bench.rawPath)
        if ours.count != raw.count || ours.checksumSum != raw.checksumSum || ours.checksumRows != raw.checksumRows {
            failures.append("memory: ours loaded \(ours.count) rows, raw \(raw.count), checksums differ")
        }
        memory = MemoryResult(ours: ours, raw: raw, rawRowBytes: try MemoryProbe.rawRowBytes(path: bench.rawPath))
    }
    if selected("to_many") {
        try bench.setUpFamilies()
        try run(bench.traversal)
    }
    if selected("update") { try run(bench.update) }
    if selected("delete") {
        let oursTemplate = directory.appendingPathComponent("ours-template.sqlite").path
        let rawTemplate = directory.appendingPathComponent("raw-template.sqlite").path
        try RawDatabase(path: bench.oursPath).backup(to: oursTemplate)
        try RawDatabase(path: bench.rawPath).backup(to: rawTemplate)
        try run(bench.delete(oursTemplate: oursTemplate, rawTemplate: rawTemplate))
    }
    if selected("batch_insert") || selected("batch_update") || selected("batch_delete") {
        try run(bench.batchInsert(bench.recordDictionaries()), setUpOnly: !selected("batch_insert"))
        if selected("batch_update") { try run(bench.batchUpdate) }
        if selected("batch_delete") {
            let oursTemplate = directory.appendingPathComponent("ours-batch-template.sqlite").path
            let rawTemplate = directory.appendingPathComponent("raw-batch-template.sqlite").path
            try RawDatabase(path: bench.oursBatchPath).backup(to: oursTemplate)
            try RawDatabase(path: bench.rawBatchPath).backup(to: rawTemplate)
            try run(bench.batchDelete(oursTemplate: oursTemplate, rawTemplate: rawTemplate))
        }
    }
    let postgresKeys = ["pg_insert", "pg_fetch", "pg_writers_1", "pg_writers_2", "pg_writers_4"]
    if postgresKeys.contains(where: selected) {
        if let server = options.postgres {
            let postgres = PostgreSQLBench(bench: bench, server: server)
            progress("  PostgreSQL rows: databases \(postgres.oursURL.lastPathComponent), \(postgres.rawURL.lastPathComponent)")
            try postgres.setUp()
            defer { postgres.tearDown() }
            try run(postgres.insert, setUpOnly: !selected("pg_insert"))
            if selected("pg_fetch") { try run(postgres.fetch) }
            for processes in [1, 2, 4] where selected("pg_writers_\(processes)") { try run(postgres.writers(processes)) }
        } else {
            progress("  PostgreSQL rows SKIPPED: no server (--postgres URL, or COREDATA_BENCH_POSTGRES_URL; scripts/postgres.sh start prints one)")
        }
    }
    if options.millionInsert {
        let big = Bench(n: 1_000_000, directory: directory.appendingPathComponent("1m"), budget: options.budget)
        try FileManager.default.createDirectory(at: big.directory, withIntermediateDirectories: true)
        progress("  insert_1m: N = 1 000 000")
        try run(big.insertWorkload(key: "insert_1m", title: "insert 1 000 000 + save()"))
    }
} catch {
    failures.append("error: \(BenchError.describe(error))")
}
if options.directory == nil { try? FileManager.default.removeItem(at: directory) }

// MARK: - Report

func rate(_ ops: Int, _ seconds: Double) -> String {
    let perSecond = Double(ops) / seconds
    if perSecond >= 1e6 { return String(format: "%.2f M", perSecond / 1e6) }
    if perSecond >= 1e3 { return String(format: "%.1f k", perSecond / 1e3) }
    return String(format: "%.1f", perSecond)
}

func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let count = text.count
    if count >= width { return text }
    let fill = String(repeating: " ", count: width - count)
    return left ? text + fill : fill + text
}

if options.json {
    var entries: [[String: Any]] = results.map { result in
        var entry: [String: Any] = [
            "key": result.key, "title": result.title, "ops": result.ops, "unit": result.unit,
            "ours_s": result.ours, "raw_s": result.raw, "ratio": result.ratio,
            "ours_ops_per_s": Double(result.ops) / result.ours, "raw_ops_per_s": Double(result.ops) / result.raw,
            "measured_ops": result.measuredOps, "extrapolated": result.extrapolated, "verified": result.verified,
        ]
        entry["target"] = result.target ?? NSNull()
        entry["met"] = result.met ?? NSNull()
        return entry
    }
    if let memory {
        entries.append([
            "key": "memory", "title": "memory: N realized objects", "ops": memory.ours.count, "unit": "objects",
            "ours_bytes_per_object": memory.oursPerObject, "raw_row_bytes": memory.rawRowBytes,
            "raw_struct_bytes_per_row": memory.rawPerRow, "ours_resident_delta": memory.ours.residentDelta,
            "ratio": memory.ratio, "target": memory.targetRatio, "target_bytes_per_object": memory.targetBytes,
            "met": memory.met, "verified": memory.ours.checksumSum == memory.raw.checksumSum,
        ])
        entries.append([
            "key": "memory_after_reset", "title": "memory left after reset()", "ops": memory.ours.count,
            "unit": "objects", "ours_bytes_per_object": memory.oursAfterReset,
            "raw_bytes_per_row": memory.rawAfterRelease, "target_bytes_per_object": memory.resetTargetBytes,
            "met": memory.resetMet, "verified": memory.ours.checksumSum == memory.raw.checksumSum,
        ])
    }
    let document: [String: Any] = [
        "n": options.n, "runs": options.runs, "budget_s": options.budget,
        "sqlite": String(cString: sqlite3_libversion()), "results": entries, "failures": failures,
    ]
    let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
    print(String(decoding: data, as: UTF8.self))
} else {
    print("")
    print("coredata-bench  N = \(options.n)  median of \(options.runs) run(s) after a warm-up  SQLite \(String(cString: sqlite3_libversion()))")
    print("")
    print(pad("workload", 38, left: true) + pad("ops", 9) + pad("ours s", 12) + pad("raw s", 10)
          + pad("ours/s", 11) + pad("raw/s", 11) + pad("ours/raw", 10) + pad("target", 8) + "  ")
    for result in results {
        let status = result.met.map { $0 ? "ok" : "MISS" } ?? ""
        print(pad(result.title, 38, left: true) + pad("\(result.ops)", 9)
              + pad(String(format: "%.4f", result.ours) + (result.extrapolated ? "*" : ""), 12)
              + pad(String(format: "%.4f", result.raw), 10)
              + pad(rate(result.ops, result.ours), 11) + pad(rate(result.ops, result.raw), 11)
              + pad(String(format: "%.2f×", result.ratio), 10)
              + pad(result.target.map { String(format: "≤ %.1f×", $0) } ?? "—", 8) + "  " + status
              + (result.verified ? "" : "  MISMATCH"))
    }
    if let memory {
        print(pad("memory: N realized objects", 38, left: true) + pad("\(memory.ours.count)", 9)
              + pad(String(format: "%.0f B", memory.oursPerObject), 12)
              + pad(String(format: "%.0f B", memory.rawRowBytes), 10)
              + pad("", 22)
              + pad(String(format: "%.2f×", memory.ratio), 10)
              + pad(String(format: "≤ %.2f×", memory.targetRatio), 8) + "  " + (memory.met ? "ok" : "MISS"))
        print(String(format: "  memory: ours %.0f B/object peak (%.0f B resident), goal 2 × %.0f B raw row + 64 = %.0f B; raw rows held as Swift structs: %.0f B/row",
                     memory.oursPerObject, Double(memory.ours.residentDelta) / Double(max(1, memory.ours.count)),
                     memory.rawRowBytes, memory.targetBytes, memory.rawPerRow))
        print(pad("memory left after reset()", 38, left: true) + pad("\(memory.ours.count)", 9)
              + pad(String(format: "%.0f B", memory.oursAfterReset), 12)
              + pad(String(format: "%.0f B", memory.rawAfterRelease), 10)
              + pad("", 32)
              + pad(String(format: "≤ %.0f B", memory.resetTargetBytes), 8) + "  " + (memory.resetMet ? "ok" : "MISS"))
        print("  memory left: heap bytes in use (mallinfo2) per object after context.reset(), raw: after dropping the rows; goal: raw + 16 B (both keep SQLite's page cache)")
    }
    if results.contains(where: { $0.key == "two_contexts" }) {
        print("  two_contexts: both columns are our stack (2 background contexts at once, 1 alone); 1.0× is fully parallel")
    }
    if results.contains(where: \.extrapolated) {
        print("  * time budget (\(options.budget) s per run) reached: measured on fewer operations, scaled to all of them")
    }
}

if !failures.isEmpty {
    FileHandle.standardError.write(Data(("verification FAILED:\n" + failures.map { "  " + $0 }.joined(separator: "\n") + "\n").utf8))
    exit(1)
}
