import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// A connection that breaks after COMMIT was sent and before its reply came back: the
/// server may have committed. The wrapper asks it (after reconnecting) and answers with the
/// truth, so a save that committed is not reported as failed and then saved twice.
@Suite("PostgreSQL: a commit whose reply is lost",
       .enabled(if: PostgreSQLTestDatabase.isAvailable, PostgreSQLTestDatabase.skipReason))
struct LostCommitReplyTests {
    /// Shuts the connection's socket right after COMMIT went out: the server still reads and
    /// runs the COMMIT (it arrived before the end of the stream), but its reply is lost.
    static func loseTheReply(_ socket: Int32) { _ = shutdown(socket, Int32(SHUT_RDWR)) }

    @Test("a transaction that committed is reported committed though COMMIT's reply was lost")
    func committedDespiteLostReply() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try PostgreSQLConnection(connectionString: database.url.absoluteString)
        try connection.execute("CREATE TABLE t (k BIGINT PRIMARY KEY)")
        // A reply that reached our socket before the shutdown is still read (the server beat
        // the hook, on a loaded machine): that commit is plainly reported, with no reconnect.
        // Try again until one reply is lost; every commit must be there exactly once.
        var attempts = 0, lost = false
        while !lost && attempts < 20 {
            attempts += 1
            let before = connection.backendPID
            connection.afterSendingCommit = Self.loseTheReply
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES (\(attempts))")
            }
            connection.afterSendingCommit = nil
            // Lost: it reconnected to ask, so a new backend serves the connection.
            lost = connection.backendPID != before
            #expect(connection.isHealthy)
        }
        #expect(lost, "the server answered COMMIT before the socket closed, \(attempts) times")
        #expect(try database.rows("SELECT k FROM t ORDER BY k") == (1...attempts).map { ["\($0)"] })
    }

    @Test("a transaction the server refused at COMMIT is reported failed though the reply was lost")
    func abortedWithLostReply() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try PostgreSQLConnection(connectionString: database.url.absoluteString)
        // Checked at COMMIT, so COMMIT itself fails.
        try connection.execute("CREATE TABLE t (k BIGINT, UNIQUE (k) DEFERRABLE INITIALLY DEFERRED)")
        connection.afterSendingCommit = Self.loseTheReply
        #expect(throws: PostgreSQLError.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES (1), (1)")
            }
        }
        connection.afterSendingCommit = nil
        #expect(connection.isHealthy && !connection.inTransaction)
        #expect(try database.rows("SELECT count(*) FROM t") == [["0"]])
    }

    @Test("a commit still running on the old backend is ended there, then reported as it ended")
    func stillCommitting() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try PostgreSQLConnection(connectionString: database.url.absoluteString)
        // A trigger run at COMMIT that sleeps: when the client asks, the transaction is still in
        // progress on its old backend.
        try connection.execute("CREATE TABLE t (k BIGINT)")
        try connection.execute("""
            CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS
            $$ BEGIN PERFORM pg_sleep(20); RETURN NULL; END $$
            """)
        try connection.execute("""
            CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON t DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW EXECUTE FUNCTION slow()
            """)
        connection.afterSendingCommit = Self.loseTheReply
        do {
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES (1)")
            }
            Issue.record("a commit ended before it finished was reported committed")
        } catch let error as PostgreSQLError {
            // The old backend was ended, so the outcome is known: not committed. Without
            // ending it, the answer would still be "in progress" and the error would say so.
            #expect(error.isConnectionFailure)
            #expect(!error.message.contains("is not known"))
        }
        connection.afterSendingCommit = nil
        // Ended: no backend of this database sleeps in the trigger any more.
        #expect(try database.rows("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'") == [["0"]])
        #expect(try database.rows("SELECT count(*) FROM t") == [["0"]])
    }

    @Test("a context's save whose COMMIT reply is lost succeeds once: nothing saved twice, the next save works")
    func contextSave() throws {
        let database = try PostgreSQLTestDatabase()
        let container = NSPersistentContainer(name: "Shop", managedObjectModel: TestModel.make())
        let description = NSPersistentStoreDescription(url: database.url)
        description.type = NSPostgreSQLStoreType
        container.persistentStoreDescriptions = [description]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        let connection = try #require((store.backend as? PostgreSQLStoreBackend)?.connection)

        let context = container.viewContext
        let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
        item.setValue("Milk", forKey: "name")
        connection.afterSendingCommit = Self.loseTheReply
        try context.save()
        connection.afterSendingCommit = nil
        #expect(!context.hasChanges && !item.objectID.isTemporaryID)

        item.setValue("Oat milk", forKey: "name")
        try context.save()
        #expect(try database.rows("SELECT ZNAME, Z_OPT FROM ZSHOPPINGITEM") == [["Oat milk", "2"]])
    }
}
