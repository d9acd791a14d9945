import Foundation

extension NSManagedObjectModel {
    // MARK: - Checksums

    /// A Base64 digest of the model's entity version hashes: what Xcode's model compiler
    /// records for each version in a `.momd`'s `VersionInfo.plist`, and what a store's
    /// metadata keeps under `NSStoreModelVersionChecksumKey`.
    ///
    /// It is the SHA-256 of every entity's ``NSEntityDescription/versionHash``, in entity-name
    /// order, so two models have the same checksum exactly when their entities have the same
    /// names and hashes.
    ///
    /// ```swift
    /// let model = NSManagedObjectModel(contentsOf: modelURL)!
    /// let reference = NSManagedObjectModelReference(model: model,
    ///                                               versionChecksum: model.versionChecksum)
    /// ```
    public var versionChecksum: String {
        var hasher = SHA256()
        for (_, hash) in sortedEntityHashes() { hasher.update(hash) }
        return Data(hasher.finalize()).base64EncodedString()
    }

    private func sortedEntityHashes() -> [(String, Data)] {
        entityVersionHashesByName.sorted { VersionHash.compareNames($0.key, $1.key) }.map { ($0.key, $0.value) }
    }
}
