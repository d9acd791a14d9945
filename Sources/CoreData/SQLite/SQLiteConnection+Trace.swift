import Foundation
internal import CCoreDataSQLite

// MARK: - Tracing

extension SQLiteConnection {
    /// Turns SQLite's statement trace (`SQLITE_TRACE_STMT`) on or off. While on, every
    /// statement SQLite starts running — from the cache or not — reaches
    /// ``statementObserver`` with its SQL text. Tests count statements with it (a fetch
    /// is one statement); it costs nothing when off.
    func installTrace(_ on: Bool) {
        guard on else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            return
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, _ in
            guard let context, let statement else { return 0 }
            let connection = Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue()
            let sql = sqlite3_sql(OpaquePointer(statement)).map { String(cString: $0) } ?? ""
            connection.statementObserver?(sql)
            return 0
        }, context)
    }
}
