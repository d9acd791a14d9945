import CCoreDataAPI
import Foundation

/// The C API: an input is a program of C calls on one in-memory container of the C harness's
/// model (List, Item, abstract Person, Shopper), decoded byte by byte: which call, on which
/// of eight object slots, with which entity, key, text, number or predicate. Every call must
/// return a status, never crash, whatever the order (deleted objects, reset contexts, wrong
/// keys and types, malformed predicates, undo without changes).
enum CAPIFuzz {
    static let modelPath: String = {
        let root = ProcessInfo.processInfo.environment["COREDATA_FUZZ_ROOT"] ?? FileManager.default.currentDirectoryPath
        return URL(fileURLWithPath: root).appendingPathComponent("Tests/CAPIHarness/Harness.xcdatamodeld").path
    }()

    static let entities = ["List", "Item", "Shopper", "Person", "Nope", ""]
    static let keys = ["name", "title", "quantity", "price", "done", "addedAt", "photo", "uid", "amount",
                       "link", "list", "items", "pinned", "owner", "lists", "budget", "i16", "nope"]

    /// Reads the input's bytes one decision at a time; zeros once it is used up.
    struct Reader {
        let bytes: [UInt8]
        var position = 0
        var isAtEnd: Bool { position >= bytes.count }
        mutating func byte() -> UInt8 {
            defer { position += 1 }
            return position < bytes.count ? bytes[position] : 0
        }
        mutating func pick<T>(_ choices: [T]) -> T { choices[Int(byte()) % choices.count] }
        mutating func int64() -> Int64 {
            var value: UInt64 = 0
            for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
            return Int64(bitPattern: value)
        }
        mutating func text() -> String {
            var bytes: [UInt8] = []
            for _ in 0..<Int(byte() % 24) { bytes.append(byte()) }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    static func run(_ data: Data) {
        var container: OpaquePointer?
        guard cd_container_open(&container, modelPath, nil, UInt32(CD_OPEN_IN_MEMORY.rawValue)) == 0 else {
            fatalError("capi: the harness model does not open at \(modelPath)")
        }
        var context: OpaquePointer?
        _ = cd_container_view_context(&context, container)
        var slots = [OpaquePointer?](repeating: nil, count: 8)
        var reader = Reader(bytes: Array(data))
        while !reader.isAtEnd {
            let slot = Int(reader.byte() % 8)
            switch reader.byte() % 16 {
            case 0:
                cd_object_release(slots[slot])
                slots[slot] = nil
                _ = cd_context_insert(&slots[slot], context, reader.pick(entities))
            case 1: _ = cd_object_set_text(slots[slot], reader.pick(keys), reader.text())
            case 2: _ = cd_object_set_int64(slots[slot], reader.pick(keys), reader.int64())
            case 3: _ = cd_object_set_double(slots[slot], reader.pick(keys), Double(bitPattern: UInt64(bitPattern: reader.int64())))
            case 4: _ = cd_object_set_to_one(slots[slot], reader.pick(keys), slots[Int(reader.byte() % 8)])
            case 5: _ = cd_object_to_many_add(slots[slot], reader.pick(keys), slots[Int(reader.byte() % 8)])
            case 6: _ = cd_context_delete(context, slots[slot])
            case 7: _ = cd_context_save(context)
            case 8: _ = cd_context_rollback(context)
            case 9: fetch(context, entity: reader.pick(entities), format: reader.text(), argument: reader.int64())
            case 10: _ = cd_context_set_undo_enabled(context, Int32(reader.byte() % 2))
            case 11: _ = reader.byte() % 2 == 0 ? cd_context_undo(context) : cd_context_redo(context)
            case 12:
                var bytes: [UInt8] = []
                for _ in 0..<Int(reader.byte()) { bytes.append(reader.byte()) }
                _ = cd_object_set_blob(slots[slot], reader.pick(keys), bytes, bytes.count)
            case 13: read(slots[slot], key: reader.pick(keys))
            case 14: _ = cd_object_set_null(slots[slot], reader.pick(keys))
            default:
                if reader.byte() % 4 == 0 {
                    // Reset forgets every object: release the handles first, as the header asks.
                    for index in slots.indices { cd_object_release(slots[index]); slots[index] = nil }
                    _ = cd_context_reset(context)
                } else {
                    _ = cd_object_to_many_remove(slots[slot], reader.pick(keys), slots[Int(reader.byte() % 8)])
                }
            }
        }
        for object in slots { cd_object_release(object) }
        cd_context_release(context)
        cd_container_release(container)
    }

    static func fetch(_ context: OpaquePointer?, entity: String, format: String, argument: Int64) {
        var request: OpaquePointer?, arguments: OpaquePointer?, result: OpaquePointer?
        guard cd_fetch_request_create(&request, entity) == 0 else { return }
        _ = cd_arguments_create(&arguments)
        _ = cd_arguments_add_int64(arguments, argument)
        _ = cd_fetch_request_set_predicate(request, format.isEmpty ? nil : format, arguments)
        if cd_context_fetch(&result, context, request) == 0 {
            var count = 0
            _ = cd_fetch_result_count(&count, result)
            for index in 0..<min(count, 4) {
                var object: OpaquePointer?
                if cd_fetch_result_object_at(&object, result, index) == 0 { read(object, key: "name") }
                cd_object_release(object)
            }
        }
        cd_fetch_result_release(result)
        cd_arguments_release(arguments)
        cd_fetch_request_release(request)
    }

    static func read(_ object: OpaquePointer?, key: String) {
        var text: UnsafeMutablePointer<CChar>?
        if cd_object_get_text(&text, object, key) == 0 { cd_string_free(text) }
        var number: Int64 = 0
        _ = cd_object_get_int64(&number, object, key)
        var count = 0
        _ = cd_object_to_many_count(&count, object, key)
        var state: UInt32 = 0
        _ = cd_object_state(&state, object)
    }
}
