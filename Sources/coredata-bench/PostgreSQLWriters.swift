import CoreData

/// The writer-process rows (issue 16: throughput with 1, 2 and 4 writers): P child processes
/// (`coredata-bench --pg-writer ours|raw URL FIRST COUNT`) each insert their share of the N
/// records into one database at once, in saves of ``PostgreSQLBench/writerBatch`` records.
/// Each child opens its store, says `ready`, starts when the parent says `go`, and says `done`
/// when its last save has returned: the time is the wall time from `go` to the last `done`, so
/// opening the stores is not counted, and neither is `Process.waitUntilExit()`, which on Linux
/// polls every 50 ms (it rounded every row up to a multiple of 0.05 s).
extension PostgreSQLBench {
    func writers(_ processes: Int) -> Workload {
        Workload(
            key: "pg_writers_\(processes)", title: "PostgreSQL: \(processes) writer process\(processes == 1 ? "" : "es")",
            ops: bench.n, unit: "rows", target: nil,
            rawDescription: "the same processes through libpq: per batch of \(Self.writerBatch), keys reserved, then prepared INSERTs in BEGIN … COMMIT",
            ours: { [self] clock in
                try emptyRecords()
                try runWriters("ours", oursURL, processes, clock)
                return Outcome(checksum: try contents(oursURL), ops: bench.n)
            },
            raw: { [self] clock, _ in
                try runWriters("raw", rawURL, processes, clock)
                return Outcome(checksum: try contents(rawURL), ops: bench.n)
            })
    }

    private func runWriters(_ side: String, _ url: URL, _ processes: Int, _ clock: Stopwatch) throws {
        let share = (bench.n + processes - 1) / processes
        var children: [(process: Process, input: Pipe, output: Pipe)] = []
        defer { for child in children where child.process.isRunning { child.process.terminate() } }
        for index in 0..<processes {
            let first = index * share, count = max(0, min(share, bench.n - first))
            let process = Process(), input = Pipe(), output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            process.arguments = ["--pg-writer", side, url.absoluteString, String(first), String(count)]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            children.append((process, input, output))
        }
        for child in children {
            let line = Self.readLine(child.output.fileHandleForReading)
            guard line == "ready" else { throw BenchError("a \(side) writer did not start: \(line ?? "no output")") }
        }
        clock.start()
        for child in children { child.input.fileHandleForWriting.write(Data("go\n".utf8)) }
        let finished = children.map { Self.readLine($0.output.fileHandleForReading) == "done" }
        clock.stop()
        for child in children { child.process.waitUntilExit() }
        for (child, done) in zip(children, finished) where !done || child.process.terminationStatus != 0 {
            throw BenchError("a \(side) writer exited with status \(child.process.terminationStatus) before its last save")
        }
    }

    /// One line from a pipe, without its newline (nil at end of file).
    static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            let chunk = handle.readData(ofLength: 1)
            guard let byte = chunk.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    /// The child's side: opens the store, says `ready`, waits for `go`, writes its records, says `done`.
    static func writerChild(_ arguments: [String]) throws {
        guard arguments.count == 4, let url = URL(string: arguments[1]),
              let first = Int(arguments[2]), let count = Int(arguments[3]) else {
            throw BenchError("usage: coredata-bench --pg-writer ours|raw URL FIRST COUNT")
        }
        let bench = Bench(n: first + count, directory: FileManager.default.temporaryDirectory, budget: 0)
        let postgres = PostgreSQLBench(bench: bench, server: url)
        let batches = stride(from: first, to: first + count, by: writerBatch).map { $0..<min($0 + writerBatch, first + count) }
        func start() {
            FileHandle.standardOutput.write(Data("ready\n".utf8))
            _ = Swift.readLine()
        }
        if arguments[0] == "ours" {
            let container = try openContainer(url, model: bench.model)
            let context = container.newBackgroundContext()
            try context.performAndWait {
                start()
                for batch in batches {
                    try postgres.insertRecords(batch, into: context)
                    context.reset()
                }
            }
            FileHandle.standardOutput.write(Data("done\n".utf8))
        } else {
            let writer = try RawRecordWriter(RawPostgreSQL(url: url.absoluteString))
            start()
            for batch in batches { try writer.insert(batch, bench.data) }
            FileHandle.standardOutput.write(Data("done\n".utf8))
        }
    }
}
