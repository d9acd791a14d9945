import CCoreDataAPI
@testable import CoreDataC
import CoreDataTestSupport
import Foundation
import Testing

/// `CD_OPEN_READ_ONLY` on a SQLite store: it goes through the same Swift path as
/// `NSPersistentStoreDescription.isReadOnly`, which writes nothing in or beside the store.
/// (The tests run as root, which ignores permission bits: the folder's files, bytes and
/// dates are compared before and after.)
@Suite struct CAPIReadOnlyTests {
    static let modelPath = Repository.demoModel.path

    /// The folder's files with their bytes and modification dates.
    static func state(_ folder: URL) throws -> [String: [String]] {
        var state: [String: [String]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let path = folder.appendingPathComponent(name).path
            let date = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            state[name] = [try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString(),
                           "\(date?.timeIntervalSinceReferenceDate ?? 0)"]
        }
        return state
    }

    static func insert(_ name: String, into context: OpaquePointer?) throws {
        var item: OpaquePointer?
        try #require(cd_context_insert(&item, context, "ShoppingItem") == 0)
        defer { cd_object_release(item) }
        try #require(cd_object_set_text(item, "name", name) == 0)
        try #require(cd_object_set_date(item, "addedAt", 0) == 0)
    }

    @Test("CD_OPEN_READ_ONLY reads what the store's -wal holds in a read-only folder, writes nothing, and a save answers CD_STORE_SAVE")
    func readOnlyWritesNothing() throws {
        let folder = try TemporaryDirectory()
        let work = folder.file("work"), shipped = folder.file("shipped")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: shipped, withIntermediateDirectories: true)

        // A store whose last save is still in its -wal: copied while the writer is open.
        let source = work.appendingPathComponent("List.sqlite").path
        var writer: OpaquePointer?
        try #require(cd_container_open(&writer, Self.modelPath, source, 0) == 0, "\(String(cString: cd_last_error_message()))")
        var writing: OpaquePointer?
        try #require(cd_container_new_background_context(&writing, writer) == 0)
        try Self.insert("Milk", into: writing)
        try Self.insert("Bread", into: writing)
        try #require(cd_context_save(writing) == 0, "\(String(cString: cd_last_error_message()))")
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: shipped.path + "/List.sqlite" + suffix)
        }
        cd_context_release(writing)
        cd_container_release(writer)
        let wal = try FileManager.default.attributesOfItem(atPath: shipped.path + "/List.sqlite-wal")[.size] as? Int
        try #require((wal ?? 0) > 0, "the -wal must hold the save for this test to mean anything")
        for name in try FileManager.default.contentsOfDirectory(atPath: shipped.path) {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: shipped.path + "/" + name)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: shipped.path)
        let before = try Self.state(shipped)

        var container: OpaquePointer?
        let store = shipped.path + "/List.sqlite"
        try #require(cd_container_open(&container, Self.modelPath, store, UInt32(CD_OPEN_READ_ONLY.rawValue)) == 0,
                     "\(String(cString: cd_last_error_message()))")
        var context: OpaquePointer?
        try #require(cd_container_new_background_context(&context, container) == 0)
        var request: OpaquePointer?
        try #require(cd_fetch_request_create(&request, "ShoppingItem") == 0)
        var count = 0
        #expect(cd_context_count(&count, context, request) == 0)
        #expect(count == 2)
        cd_fetch_request_release(request)

        try Self.insert("Cheese", into: context)
        #expect(cd_context_save(context) == Int32(CD_STORE_SAVE.rawValue))
        #expect(String(cString: cd_last_error_message()).contains(store))
        cd_context_release(context)
        cd_container_release(container)
        #expect(try Self.state(shipped) == before)
    }
}
