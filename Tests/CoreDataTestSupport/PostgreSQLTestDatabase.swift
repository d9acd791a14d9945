import Foundation
import Testing
import CCoreDataLibPQ

/// A fresh, empty database on the test cluster (`COREDATA_TEST_POSTGRES_URL`, which
/// `scripts/postgres.sh start` prints and `.ci/run` exports), dropped when the last reference
/// goes away: each test gets its own, so tests run in parallel without sharing tables.
///
/// ```swift
/// @Test(.enabled(if: PostgreSQLTestDatabase.isAvailable, PostgreSQLTestDatabase.skipReason))
/// func saves() throws {
///     let database = try PostgreSQLTestDatabase()
///     try coordinator.addPersistentStore(type: .postgresql, at: database.url)
/// }
/// ```
///
/// Talks to the server through libpq directly, independent of the code under test.
public final class PostgreSQLTestDatabase: @unchecked Sendable {
    // @unchecked Sendable: immutable after init; libpq connections are made per call.

    /// The cluster's URL, or nil when no cluster was given to the tests.
    public static let serverURL: URL? = {
        guard let text = ProcessInfo.processInfo.environment["COREDATA_TEST_POSTGRES_URL"],
              !text.isEmpty else { return nil }
        return URL(string: text)
    }()

    /// Whether PostgreSQL tests can run.
    public static var isAvailable: Bool { serverURL != nil }

    /// Why PostgreSQL tests are skipped, printed by Swift Testing beside each skipped test.
    public static let skipReason: Comment =
        "PostgreSQL tests skipped: COREDATA_TEST_POSTGRES_URL is not set (start a cluster with `eval \"$(scripts/postgres.sh start)\"`)"

    /// The database's name (`cd_test_<uuid>`).
    public let name: String
    /// A `postgresql://` URL naming the database.
    public let url: URL

    public struct RawError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Creates the database.
    public init() throws {
        guard let server = Self.serverURL else { throw RawError(description: "\(Self.skipReason)") }
        name = "cd_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        url = Self.url(server, database: name)
        try Self.run("CREATE DATABASE \(name)", on: server)
    }

    deinit {
        if let server = Self.serverURL { _ = try? Self.run("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", on: server) }
    }

    /// `server` with its database name replaced.
    public static func url(_ server: URL, database: String) -> URL {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false)!
        components.path = "/" + database
        return components.url!
    }

    /// Every row of a query on this database, each value as text or nil.
    public func rows(_ sql: String) throws -> [[String?]] {
        try Self.run(sql, on: url)
    }

    /// A connection of its own to the database, kept open until released: for a test that
    /// holds a transaction (and its locks) open while the code under test runs.
    ///
    /// ```swift
    /// let session = try database.session()
    /// try session.run("BEGIN")
    /// try session.run("SELECT * FROM ZNOTE WHERE Z_PK = 1 FOR UPDATE")
    /// ```
    public final class Session: @unchecked Sendable {
        // @unchecked Sendable: used by one thread at a time (the test's).
        private let conn: OpaquePointer

        init(_ url: URL) throws {
            guard let conn = PQconnectdb(url.absoluteString) else { throw RawError(description: "libpq: no memory") }
            guard PQstatus(conn) == CONNECTION_OK else {
                let message = String(cString: PQerrorMessage(conn))
                PQfinish(conn)
                throw RawError(description: message)
            }
            self.conn = conn
        }

        deinit { PQfinish(conn) }

        /// Runs `sql`; returns its rows as text.
        @discardableResult
        public func run(_ sql: String) throws -> [[String?]] {
            try PostgreSQLTestDatabase.run(sql, connection: conn)
        }
    }

    /// A new ``Session`` on this database.
    public func session() throws -> Session {
        try Session(url)
    }

    /// Runs `sql` on the database `url` names; returns its rows as text.
    @discardableResult
    public static func run(_ sql: String, on url: URL) throws -> [[String?]] {
        guard let conn = PQconnectdb(url.absoluteString) else { throw RawError(description: "libpq: no memory") }
        defer { PQfinish(conn) }
        guard PQstatus(conn) == CONNECTION_OK else {
            throw RawError(description: String(cString: PQerrorMessage(conn)))
        }
        return try run(sql, connection: conn)
    }

    private static func run(_ sql: String, connection conn: OpaquePointer) throws -> [[String?]] {
        guard let result = PQexec(conn, sql) else { throw RawError(description: String(cString: PQerrorMessage(conn))) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else {
            throw RawError(description: String(cString: PQresultErrorMessage(result)) + " in " + sql)
        }
        var rows: [[String?]] = []
        for r in 0..<PQntuples(result) {
            rows.append((0..<PQnfields(result)).map { c in
                PQgetisnull(result, r, c) != 0 ? nil : String(cString: PQgetvalue(result, r, c))
            })
        }
        return rows
    }
}
