import Foundation

/// Files of this repository that tests read in place, found from this source file's path
/// (`Tests/CoreDataTestSupport/Repository.swift`), so neither the working directory nor
/// the checkout's location matters.
public enum Repository {
    /// The repository's root folder.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The demo's model, `Sources/coredata-demo/DataModel.xcdatamodeld` (the seeds' shopping
    /// list).
    public static var demoModel: URL {
        root.appendingPathComponent("Sources/coredata-demo/DataModel.xcdatamodeld")
    }
}
