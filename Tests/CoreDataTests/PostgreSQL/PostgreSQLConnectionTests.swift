import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite("PostgreSQL connection (libpq wrapper)")
struct PostgreSQLConnectionTests {
    @Test("typed parameters go to the server and come back as they were",
          .enabled(if: PostgreSQLTestDatabase.isAvailable, PostgreSQLTestDatabase.skipReason))
    func roundTrip() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try PostgreSQLConnection(connectionString: database.url.absoluteString)
        try connection.execute("CREATE TABLE t (i BIGINT, d DOUBLE PRECISION, s TEXT, b BYTEA, n NUMERIC)")
        let blob = Data([0, 1, 0xfe, 0xff, 0x5c, 0x78])
        try connection.execute("INSERT INTO t VALUES ($1, $2, $3, $4, $5)",
                               [.integer(Int64.min), .real(0.1 + 0.2), .text("é\u{0}x".replacingOccurrences(of: "\u{0}", with: "")),
                                .bytes(blob), .numeric("12345678901234567890.125")])
        try connection.execute("INSERT INTO t VALUES ($1, $2, $3, $4, $5)", [.null, .real(-.infinity), .text(""), .bytes(Data()), .null])
        let result = try connection.execute("SELECT i, d, s, b, n FROM t ORDER BY i NULLS LAST")
        #expect(result.rowCount == 2 && result.columnCount == 5)
        #expect(result.int64(0, 0) == Int64.min)
        #expect(result.double(0, 1) == 0.1 + 0.2)
        #expect(result.string(0, 2) == "éx")
        #expect(result.data(0, 3) == blob)
        #expect(result.string(0, 4) == "12345678901234567890.125")
        #expect(result.isNull(1, 0) && result.int64(1, 0) == nil)
        #expect(result.double(1, 1) == -.infinity)
        #expect(result.string(1, 2) == "" && result.data(1, 3) == Data())
    }

    @Test("a failed statement reports the server's SQLSTATE and message, and a transaction rolls back",
          .enabled(if: PostgreSQLTestDatabase.isAvailable, PostgreSQLTestDatabase.skipReason))
    func errors() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try PostgreSQLConnection(connectionString: database.url.absoluteString)
        try connection.execute("CREATE TABLE t (k BIGINT PRIMARY KEY)")
        #expect(throws: PostgreSQLError.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES (1)")
                try connection.execute("INSERT INTO t VALUES (1)")
            }
        }
        do {
            try connection.execute("INSERT INTO t VALUES (1)")
            try connection.execute("INSERT INTO t VALUES (1)")
            Issue.record("a duplicate key was accepted")
        } catch let error as PostgreSQLError {
            #expect(error.isUniqueViolation)
            #expect(error.message.contains("duplicate key"))
        }
        #expect(try connection.execute("SELECT count(*) FROM t").int64(0, 0) == 1)
        #expect(try connection.execute("UPDATE t SET k = k + 1").affectedRows == 1)
        #expect(!connection.inTransaction)
    }

    @Test("a server that cannot be reached fails the connection with libpq's message")
    func unreachable() throws {
        let folder = try TemporaryDirectory()
        let host = folder.url.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        do {
            _ = try PostgreSQLConnection(connectionString: "postgresql://nobody@/nothing?host=\(host)&connect_timeout=2")
            Issue.record("connected to nothing")
        } catch let error as PostgreSQLError {
            #expect(error.sqlState == nil && error.isConnectionFailure)
            #expect(error.message.contains("connect") || error.message.contains("socket"))
        }
    }
}
