import Foundation

/// One step of a staged migration: the common base of ``NSLightweightMigrationStage`` and
/// ``NSCustomMigrationStage``, which an ``NSStagedMigrationManager`` runs in order.
///
/// ## Topics
/// - ``label``
open class NSMigrationStage: NSObject, @unchecked Sendable {
    // @unchecked Sendable: a stage is configured before its manager is handed to a store
    // and only read afterwards, on the thread that adds the store (as on Apple).

    /// A name for the stage, for logs and error messages.
    open var label: String!

    /// A stage without a label.
    public override init() {
        super.init()
    }
}
