import Foundation

/// Entity and property version hashes. PLACEHOLDER until the model-loading work lands.
enum VersionHash {
    static func entity(_ entity: NSEntityDescription) -> Data { Data() }
    static func property(_ property: NSPropertyDescription) -> Data { Data() }
}
