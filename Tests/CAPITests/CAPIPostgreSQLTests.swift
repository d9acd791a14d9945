import CCoreDataAPI
@testable import CoreDataC
import CoreDataTestSupport
import Foundation
import Testing

/// `cd_container_open` with a `postgresql://` URI opens the PostgreSQL store.
@Suite struct CAPIPostgreSQLTests {
    @Test("a postgresql:// store_path opens a PostgreSQL store: what one container saves, another counts",
          .enabled(if: PostgreSQLTestDatabase.isAvailable, PostgreSQLTestDatabase.skipReason))
    func postgresURI() throws {
        let database = try PostgreSQLTestDatabase()
        let uri = database.url.absoluteString
        var writer: OpaquePointer?
        try #require(cd_container_open(&writer, CAPIReadOnlyTests.modelPath, uri, 0) == 0,
                     "\(String(cString: cd_last_error_message()))")
        defer { cd_container_release(writer) }
        var context: OpaquePointer?
        try #require(cd_container_new_background_context(&context, writer) == 0)
        defer { cd_context_release(context) }
        try CAPIReadOnlyTests.insert("Milk", into: context)
        try CAPIReadOnlyTests.insert("Bread", into: context)
        try #require(cd_context_save(context) == 0, "\(String(cString: cd_last_error_message()))")
        #expect(try database.rows("SELECT ZNAME FROM ZSHOPPINGITEM ORDER BY ZNAME") == [["Bread"], ["Milk"]])

        var reader: OpaquePointer?
        try #require(cd_container_open(&reader, CAPIReadOnlyTests.modelPath, uri, 0) == 0,
                     "\(String(cString: cd_last_error_message()))")
        defer { cd_container_release(reader) }
        var readerContext: OpaquePointer?
        try #require(cd_container_new_background_context(&readerContext, reader) == 0)
        defer { cd_context_release(readerContext) }
        var request: OpaquePointer?
        try #require(cd_fetch_request_create(&request, "ShoppingItem") == 0)
        defer { cd_fetch_request_release(request) }
        var count = 0
        try #require(cd_context_count(&count, readerContext, request) == 0)
        #expect(count == 2)
    }

    @Test("a postgresql:// store_path whose server is not there answers CD_STORE_OPEN with libpq's reason")
    func serverDown() throws {
        let folder = try TemporaryDirectory()
        let host = folder.url.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        var container: OpaquePointer?
        let status = cd_container_open(&container, CAPIReadOnlyTests.modelPath,
                                       "postgresql://nobody@/shop?host=\(host)&connect_timeout=2", 0)
        #expect(status == Int32(CD_STORE_OPEN.rawValue))
        #expect(container == nil)
        #expect(String(cString: cd_last_error_message()).contains("PostgreSQL"))
    }
}
