import Foundation

/// What a store's `Z_MODELCACHE` row holds, the same for every engine: the model's keyed
/// archive (the `.mom` format) compressed with raw DEFLATE, as Apple's Core Data writes it.
/// The engines own the table and its reads (``SQLiteModelCache``, ``PostgreSQLModelCache``);
/// this is the one place that encodes and decodes the row.
enum ModelCacheContent {
    /// The row's bytes for `model`.
    static func encode(_ model: NSManagedObjectModel) -> Data {
        RawDeflate.compress(CompiledModelWriter.archive(model))
    }

    /// The model in a row's bytes (`nil` when the store has no row), decoded into `model`.
    /// `store` names the store in errors ("the store at /path", "the PostgreSQL store at
    /// postgresql://…") and `userInfo` goes with them.
    ///
    /// - Throws: `NSPersistentStoreInvalidTypeError` (134000) when there is no cached model,
    ///   `NSFileReadCorruptFileError` (259) when it does not decode.
    static func decode(_ compressed: Data?, store: String, source: URL, userInfo: [String: Any],
                       into model: NSManagedObjectModel) throws -> NSManagedObjectModel {
        guard let compressed, !compressed.isEmpty else {
            throw CoreDataError.make(
                NSPersistentStoreInvalidTypeError,
                "The \(store) keeps no model in Z_MODELCACHE; open it with the model it was written with.",
                userInfo: userInfo)
        }
        let archive: Data
        do {
            archive = try RawDeflate.decompress(compressed)
        } catch {
            throw CoreDataError.make(
                NSFileReadCorruptFileError, "The model cached in the \(store) is damaged: \(error)", userInfo: userInfo)
        }
        return try CompiledModelReader.model(from: archive, source: source, into: model)
    }
}
