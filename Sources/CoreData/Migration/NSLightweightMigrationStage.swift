import Foundation

/// A stage of model versions that follow each other by lightweight migration: a store
/// written with any of them is migrated, version by version, by inferred mappings.
///
/// The versions are named by their ``NSManagedObjectModel/versionChecksum``. The version
/// after the stage's last one is the first model of the next stage, or the store's
/// destination model.
///
/// ```swift
/// let upToV2 = NSLightweightMigrationStage([v1.versionChecksum])
/// upToV2.label = "V1 to V2: add the rating attribute"
/// ```
///
/// ## Topics
/// - ``init(_:)``
/// - ``versionChecksums``
open class NSLightweightMigrationStage: NSMigrationStage, @unchecked Sendable {
    // @unchecked Sendable: immutable after init but for the inherited label (see NSMigrationStage).

    /// The checksums of the model versions this stage migrates from, oldest first.
    open private(set) var versionChecksums: [String]

    /// A stage of the model versions with these checksums, oldest first.
    ///
    /// - Note: Apple parity: a checksum is looked up among the models of the stages'
    ///   references, the destination model's bundle (`.xcdatamodeld`, `.momd`) and the
    ///   main bundle's model files.
    public init(_ checksums: [String]) {
        versionChecksums = checksums
        super.init()
    }
}
