import Foundation

extension NSManagedObjectModel {
    // MARK: - The model a store keeps

    /// Reads the model that the SQLite store at `url` keeps in its `Z_MODELCACHE` table
    /// (``init(cachedInStoreAt:)`` for a file URL).
    ///
    /// - Throws: `NSFileReadNoSuchFileError` (260) when there is no file at `url`;
    ///   `NSPersistentStoreInvalidTypeError` (134000) when the file is not a store or keeps
    ///   no model; `NSFileReadCorruptFileError` (259) when the cached model does not decode.
    convenience init(cachedInSQLiteStoreAt url: URL) throws {
        self.init()
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CoreDataError.make(
                CocoaError.Code.fileReadNoSuchFile.rawValue, "There is no store at \(url.path).",
                userInfo: [NSURLErrorKey: url, NSFilePathErrorKey: url.path])
        }
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection.openForReading(path: url.path, busyTimeout: 5)
        } catch {
            throw CoreDataError.make(
                NSPersistentStoreInvalidTypeError, "The file at \(url.path) is not a SQLite store: \(error)",
                userInfo: [NSURLErrorKey: url, NSFilePathErrorKey: url.path])
        }
        do {
            _ = try SQLiteModelCache.read(from: connection, url: url, into: self)
            adoptRecordedHashesOfDerivedEntities((try? SQLiteMetadata.read(from: connection)) ?? [:])
        } catch let error as NSError where error.domain == NSCocoaErrorDomain {
            throw error
        } catch {
            throw CoreDataError.make(
                NSPersistentStoreInvalidTypeError, "The file at \(url.path) is not a Core Data store: \(error)",
                userInfo: [NSURLErrorKey: url, NSFilePathErrorKey: url.path])
        }
    }

    /// Entities with a derived attribute (their own or inherited) take the version hash the
    /// store's metadata records for them: our recipe for a derived attribute's hash is not
    /// verified against Apple's (see ``VersionHash``), and a store written by Apple with such
    /// a model would otherwise be refused by the very model it cached. Every other entity
    /// keeps the hash we compute, so a cache that does not match its store is still refused.
    private func adoptRecordedHashesOfDerivedEntities(_ metadata: [String: Any]) {
        guard let recorded = metadata[NSStoreModelVersionHashesKey] as? [String: Any] else { return }
        for entity in entities where entity.properties.contains(where: { $0 is NSDerivedAttributeDescription }) {
            if let name = entity.name, let hash = recorded[name] as? Data { entity.hashRecordedByStore = hash }
        }
    }
}
