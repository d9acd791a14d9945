import CCoreDataAPI
import CoreDataC
import CoreDataTestSupport
import Foundation
import Testing

/// The C API called from Swift through the public header: misuse paths answer a status
/// and a message instead of trapping. The full ABI coverage is the C harness
/// (Tests/CAPIHarness, run by .ci/capi.sh under AddressSanitizer).
@Suite struct CAPITests {
    static let modelPath = Repository.demoModel.path

    @Test("NULL handles return CD_MISUSE with a message")
    func nullHandles() {
        #expect(cd_context_save(nil) == Int32(CD_MISUSE.rawValue))
        #expect(String(cString: cd_last_error_message()).contains("NULL"))
        var object: OpaquePointer?
        #expect(cd_context_insert(&object, nil, "ShoppingItem") == Int32(CD_MISUSE.rawValue))
        #expect(object == nil)
    }

    @Test("an in-memory container inserts, reads back and counts")
    func roundTrip() throws {
        var container: OpaquePointer?
        #expect(cd_container_open(&container, Self.modelPath, nil, UInt32(CD_OPEN_IN_MEMORY.rawValue)) == 0,
                "\(String(cString: cd_last_error_message()))")
        defer { cd_container_release(container) }
        var context: OpaquePointer?
        #expect(cd_container_new_background_context(&context, container) == 0)
        defer { cd_context_release(context) }
        var item: OpaquePointer?
        #expect(cd_context_insert(&item, context, "ShoppingItem") == 0)
        defer { cd_object_release(item) }
        #expect(cd_object_set_text(item, "name", "Milk") == 0)
        #expect(cd_object_set_text(item, "quantity", "2") == Int32(CD_TYPE.rawValue))
        #expect(cd_object_set_int64(item, "nope", 1) == Int32(CD_NOTFOUND.rawValue))
        #expect(cd_object_set_date(item, "addedAt", 0) == 0)
        #expect(cd_context_save(context) == 0, "\(String(cString: cd_last_error_message()))")
        var request: OpaquePointer?
        #expect(cd_fetch_request_create(&request, "ShoppingItem") == 0)
        defer { cd_fetch_request_release(request) }
        #expect(cd_fetch_request_set_predicate(request, "name ==", nil) == Int32(CD_FORMATTING.rawValue))
        var count = 0
        #expect(cd_context_count(&count, context, request) == 0)
        #expect(count == 1)
    }
}
