import CCoreDataAPI
@testable import CoreDataC
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

/// The status codes: every value of the header's `cd_status` enum has a text of its own in
/// `cd_status_string`, no other code has one, and every Core Data error code the Swift API
/// can throw is in the enum (the library returns only listed codes).
@Suite struct CAPIStatusTests {
    static let root = Repository.root

    /// The enumerators of `cd_status` in include/coredata.h, by name.
    static func headerStatuses() throws -> [String: Int32] {
        let header = try String(contentsOf: root.appendingPathComponent("include/coredata.h"), encoding: .utf8)
        let start = try #require(header.range(of: "typedef enum cd_status {"))
        let end = try #require(header.range(of: "} cd_status;", range: start.upperBound..<header.endIndex))
        var statuses: [String: Int32] = [:]
        for line in header[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            let value = parts[1].prefix { $0 == " " || $0.isNumber }.trimmingCharacters(in: .whitespaces)
            guard name.hasPrefix("CD_"), let number = Int32(value) else { continue }
            statuses[name] = number
        }
        return statuses
    }

    @Test("each cd_status has its own text, and codes outside the enum have none")
    func statusStrings() throws {
        let statuses = try Self.headerStatuses()
        #expect(statuses.count > 70)
        #expect(statuses["CD_KEY_VALUE_VALIDATION"] == 1024)
        let listed = Set(statuses.values)
        #expect(listed.count == statuses.count, "two enumerators share a value")
        var texts: [String: Int32] = [:]
        for code in Int32(-10)...Int32(140_000) {
            let text = String(cString: cd_status_string(code))
            if listed.contains(code) {
                #expect(text != "unknown status", "cd_status_string(\(code)) has no text")
                #expect(texts[text] == nil, "\(code) and \(texts[text] ?? 0) share the text \"\(text)\"")
                texts[text] = code
            } else {
                #expect(text == "unknown status", "\(code) has a text but is not in the header's enum")
            }
        }
    }

    @Test("every Core Data error code of the Swift API is a cd_status")
    func coreDataCodesAreListed() throws {
        let source = try String(contentsOf: Self.root.appendingPathComponent("Sources/CoreData/Support/CoreDataErrors.swift"), encoding: .utf8)
        let listed = Set(try Self.headerStatuses().values)
        var seen = 0
        for line in source.split(separator: "\n") where line.hasPrefix("public let NS") && line.contains("Error = ") {
            let name = line.dropFirst("public let ".count).prefix { $0 != " " }
            let code = try #require(Int32(line.split(separator: "=").last!.trimmingCharacters(in: .whitespaces)))
            #expect(listed.contains(code), "\(name) (\(code)) is not in coredata.h's cd_status enum")
            seen += 1
        }
        #expect(seen > 40)
    }
}

/// Hostile input through the C API without a sanitizer: the library answers a status
/// where it used to abort or change data silently.
@Suite struct CAPIHostileInputTests {
    static let harnessModel = CAPIStatusTests.root
        .appendingPathComponent("Tests/CAPIHarness/Harness.xcdatamodeld").path

    /// An in-memory container of the harness model, a background context and an Item.
    final class Stack {
        var container: OpaquePointer?
        var context: OpaquePointer?
        var item: OpaquePointer?

        init(store: String? = nil) throws {
            let flags = store == nil ? UInt32(CD_OPEN_IN_MEMORY.rawValue) : 0
            try #require(cd_container_open(&container, CAPIHostileInputTests.harnessModel, store, flags) == 0,
                         "\(String(cString: cd_last_error_message()))")
            try #require(cd_container_new_background_context(&context, container) == 0)
        }

        func insertItem() throws -> OpaquePointer? {
            var item: OpaquePointer?
            try #require(cd_context_insert(&item, context, "Item") == 0)
            try #require(cd_object_set_text(item, "name", "Item") == 0)
            return item
        }

        deinit {
            cd_context_release(context)
            cd_container_release(container)
        }
    }

    @Test("blob lengths no allocation can hold return CD_RANGE with a message")
    func hugeBlobLengths() throws {
        let stack = try Stack()
        let item = try stack.insertItem()
        defer { cd_object_release(item) }
        let bytes: [UInt8] = [1, 2, 3]
        var arguments: OpaquePointer?
        #expect(cd_arguments_create(&arguments) == 0)
        defer { cd_arguments_release(arguments) }
        // size_t SIZE_MAX arrives as -1; Int.max / 2 fits an Int but no malloc.
        for length in [-1, Int.min, Int.max, Int.max / 2] {
            #expect(cd_object_set_blob(item, "photo", bytes, length) == Int32(CD_RANGE.rawValue), "length \(length)")
            #expect(String(cString: cd_last_error_message()).contains("length"))
            #expect(cd_arguments_add_blob(arguments, bytes, length) == Int32(CD_RANGE.rawValue), "length \(length)")
        }
        var isNull: Int32 = 0
        #expect(cd_object_is_null(&isNull, item, "photo") == 0)
        #expect(isNull == 1)
    }

    @Test("a transformable attribute reads and writes the bytes its transformer stores")
    func transformableBytes() throws {
        let folder = try TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let store = folder.file("store.sqlite").path
        let tags = ["red", "green"] as NSArray
        let archive = try NSKeyedArchiver.archivedData(withRootObject: tags, requiringSecureCoding: false)
        do {
            let stack = try Stack(store: store)
            let item = try stack.insertItem()
            defer { cd_object_release(item) }
            let status = archive.withUnsafeBytes { cd_object_set_blob(item, "tags", $0.baseAddress, $0.count) }
            #expect(status == 0, "\(String(cString: cd_last_error_message()))")
            #expect(cd_context_save(stack.context) == 0, "\(String(cString: cd_last_error_message()))")
        }
        let stack = try Stack(store: store)
        var request: OpaquePointer?
        var result: OpaquePointer?
        var item: OpaquePointer?
        #expect(cd_fetch_request_create(&request, "Item") == 0)
        defer { cd_fetch_request_release(request) }
        try #require(cd_context_fetch(&result, stack.context, request) == 0)
        defer { cd_fetch_result_release(result) }
        try #require(cd_fetch_result_object_at(&item, result, 0) == 0)
        defer { cd_object_release(item) }
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        try #require(cd_object_get_blob(&bytes, &length, item, "tags") == 0, "\(String(cString: cd_last_error_message()))")
        defer { cd_blob_free(bytes) }
        let stored = Data(bytes: try #require(bytes), count: length)
        let decoded = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSString.self], from: stored)
        #expect(decoded as? NSArray == tags)

        // As text, a decoded value has no form the header promises: CD_TYPE, not a debug
        // description.
        var rows: OpaquePointer?
        #expect(cd_fetch_request_set_result_type(request, Int32(CD_RESULT_DICTIONARIES.rawValue)) == 0)
        #expect(cd_fetch_request_add_property(request, "tags") == 0)
        try #require(cd_context_fetch(&rows, stack.context, request) == 0, "\(String(cString: cd_last_error_message()))")
        defer { cd_fetch_result_release(rows) }
        var text: UnsafeMutablePointer<CChar>?
        let status = cd_fetch_result_copy_text(&text, rows, 0, "tags")
        defer { cd_string_free(text) }
        #expect(status == Int32(CD_TYPE.rawValue), "\(text.map { String(cString: $0) } ?? String(cString: cd_last_error_message()))")
    }
}

/// Text the C API cannot hand over whole: a Swift string holding a NUL character is
/// refused (CD_TYPE) rather than cut short at the NUL by `strdup`.
@Suite struct CAPITextTests {
    @Test("text holding a NUL character is refused as CD_TYPE, not cut short")
    func textWithNUL() throws {
        #expect(throws: Never.self) { free(try ownedCString("before after")) }
        do {
            free(try ownedCString("before\u{0}after"))
            Issue.record("a string with a NUL became a C string")
        } catch let error as CAPIError {
            #expect(error.status == Int32(CD_TYPE.rawValue))
            #expect(error.message.contains("NUL character at byte 6"))
        }
    }
}

/// Dates as text (`cd_fetch_result_copy_text`): ISO 8601 in the proleptic Gregorian
/// calendar, fractions kept, far years refused.
@Suite struct CAPIDateTextTests {
    @Test("dates print in ISO 8601 with their fraction, proleptic Gregorian, years 0000-9999")
    func iso8601Text() throws {
        let cases: [(Double, String)] = [
            (0, "1970-01-01T00:00:00Z"),
            (-1, "1969-12-31T23:59:59Z"),
            (-0.5, "1969-12-31T23:59:59.5Z"),
            (1_700_000_000, "2023-11-14T22:13:20Z"),
            (1_700_000_000.123456, "2023-11-14T22:13:20.123456Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (-12_219_292_800, "1582-10-15T00:00:00Z"),
            (-12_219_292_801, "1582-10-14T23:59:59Z"),
            (-62_135_596_801, "0000-12-31T23:59:59Z"),
            (-62_167_219_200, "0000-01-01T00:00:00Z"),
            (253_402_300_799, "9999-12-31T23:59:59Z"),
        ]
        for (seconds, text) in cases {
            #expect(try iso8601(Date(timeIntervalSince1970: seconds)) == text, "\(seconds)")
        }
        for seconds in [-62_167_219_201, 253_402_300_800, 1e300, -1e300] {
            #expect(throws: CAPIError.self, "\(seconds)") { try iso8601(Date(timeIntervalSince1970: seconds)) }
        }
    }
}
