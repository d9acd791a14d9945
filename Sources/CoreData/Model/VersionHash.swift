import Foundation

/// Entity and property version hashes, byte for byte as Apple's Core Data computes them.
///
/// Every hash is a SHA-256 digest (32 bytes). Integers are little-endian, strings are
/// their UTF-8 bytes with no terminator or length prefix, and an absent optional string
/// contributes nothing.
///
/// **Property** (`NSPropertyDescription`):
/// `name` · `UInt16 flags` (1 optional, 2 transient, 4 read-only) · `versionHashModifier`.
///
/// **Attribute**: SHA-256 of
/// `property hash` · `Int32 attributeType` · `0x01` if it allows external binary storage
/// · `0x01` if it preserves its value in history on deletion.
/// A derived attribute is read-only and hashes, on top of that,
/// its derivation expression text. A composite attribute hashes its flattened elements'
/// hashes, sorted by name.
///
/// **Relationship**: SHA-256 of
/// `property hash` · destination entity name · inverse name (left out when the
/// relationship is its own inverse) · `Int32 maxCount` · `Int32 minCount` ·
/// `UInt16 1` if ordered.
///
/// **Entity**: SHA-256 of
/// `name` · `UInt8 isAbstract` · the superentity's hash (if any) · the hash of every
/// non-transient attribute and relationship, inherited ones included, sorted by name ·
/// `versionHashModifier` · each uniqueness constraint's property names joined with `.`,
/// the joined strings sorted.
///
/// Class names, user info, default values, validation rules, indexes, renaming
/// identifiers and fetched properties do not take part.
///
/// The rules were checked against every hash Apple wrote in the fixtures: the three
/// CoreDataPlus compiled models' `VersionInfo.plist` and the `NSStoreModelVersionHashes`
/// of all eight fixture stores (44 entity hashes: 18 + 26, all equal).
///
/// - Note: Apple parity: derived and composite attribute hashes follow the same recipe but
///   no fixture written by Apple covers them, so they are unverified. A derived attribute's
///   expression is hashed as written in the model file, where Apple hashes the parsed
///   expression's `predicateFormat`; the two agree for simple key paths and functions.
enum VersionHash {
    /// The entity's version hash (what store metadata records under its name).
    static func entity(_ entity: NSEntityDescription) -> Data {
        var visiting = Set<ObjectIdentifier>()
        return Data(entityDigest(entity, visiting: &visiting))
    }

    /// The property's version hash.
    static func property(_ property: NSPropertyDescription) -> Data {
        Data(propertyDigest(property))
    }

    // MARK: - Entities

    private static func entityDigest(
        _ entity: NSEntityDescription, visiting: inout Set<ObjectIdentifier>
    ) -> [UInt8] {
        var hasher = SHA256()
        hasher.update((entity.name ?? "").utf8)
        hasher.update([entity.isAbstract ? 1 : 0])
        // A cycle cannot come out of the loader; a hand-built one must not recurse forever.
        if visiting.insert(ObjectIdentifier(entity)).inserted {
            if let parent = entity.superentity {
                hasher.update(entityDigest(parent, visiting: &visiting))
            }
            visiting.remove(ObjectIdentifier(entity))
        }
        let hashed = entity.properties
            .filter { ($0 is NSAttributeDescription || $0 is NSRelationshipDescription) && !$0.isTransient }
            .sorted { compareNames($0.name, $1.name) }
        for property in hashed {
            hasher.update(propertyDigest(property))
        }
        if let modifier = entity.versionHashModifier {
            hasher.update(modifier.utf8)
        }
        let constraints = entity.uniquenessConstraints
            .map { constraint in constraint.map(constraintElementName).joined(separator: ".") }
            .sorted(by: compareNames)
        for constraint in constraints where !constraint.isEmpty {
            hasher.update(constraint.utf8)
        }
        return hasher.finalize()
    }

    private static func constraintElementName(_ element: Any) -> String {
        if let property = element as? NSPropertyDescription { return property.name }
        return element as? String ?? "\(element)"
    }

    /// Core Data sorts properties with a plain, case-sensitive comparison of their names.
    static func compareNames(_ a: String, _ b: String) -> Bool {
        a.utf16.lexicographicallyPrecedes(b.utf16)
    }

    // MARK: - Properties

    private static func propertyDigest(_ property: NSPropertyDescription) -> [UInt8] {
        switch property {
        case let composite as NSCompositeAttributeDescription:
            return compositeDigest(composite)
        case let attribute as NSAttributeDescription:
            return attributeDigest(attribute)
        case let relationship as NSRelationshipDescription:
            return relationshipDigest(relationship)
        default:
            return baseDigest(property, readOnly: false)
        }
    }

    private static func baseDigest(_ property: NSPropertyDescription, readOnly: Bool) -> [UInt8] {
        var flags: UInt16 = 0
        if property.isOptional { flags |= 1 }
        if property.isTransient { flags |= 2 }
        if readOnly { flags |= 4 }
        var hasher = SHA256()
        hasher.update(property.name.utf8)
        hasher.update(littleEndian(flags))
        if let modifier = property.versionHashModifier {
            hasher.update(modifier.utf8)
        }
        return hasher.finalize()
    }

    private static func attributeDigest(_ attribute: NSAttributeDescription) -> [UInt8] {
        let derivation = attribute.derivationExpressionString
        var hasher = SHA256()
        hasher.update(baseDigest(attribute, readOnly: derivation != nil))
        hasher.update(littleEndian(Int32(truncatingIfNeeded: attribute.attributeType.rawValue)))
        if attribute.allowsExternalBinaryDataStorage { hasher.update([1]) }
        if attribute.preservesValueInHistoryOnDeletion { hasher.update([1]) }
        let digest = hasher.finalize()
        guard let derivation else { return digest }
        var derived = SHA256()
        derived.update(digest)
        derived.update(derivation.utf8)
        return derived.finalize()
    }

    private static func compositeDigest(_ composite: NSCompositeAttributeDescription) -> [UInt8] {
        let elements = composite.flattenedElements
            .filter { !$0.isTransient }
            .sorted { compareNames($0.name, $1.name) }
        var hasher = SHA256()
        if elements.isEmpty {
            hasher.update(attributeDigest(composite))
        }
        for element in elements {
            hasher.update(propertyDigest(element))
        }
        return hasher.finalize()
    }

    private static func relationshipDigest(_ relationship: NSRelationshipDescription) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(baseDigest(relationship, readOnly: false))
        if let destination = relationship.destinationEntity?.name ?? relationship.destinationEntityName {
            hasher.update(destination.utf8)
        }
        if let inverse = inverseNameForHash(relationship) {
            hasher.update(inverse.utf8)
        }
        hasher.update(littleEndian(Int32(truncatingIfNeeded: relationship.maxCount)))
        hasher.update(littleEndian(Int32(truncatingIfNeeded: relationship.minCount)))
        if relationship.isOrdered { hasher.update(littleEndian(UInt16(1))) }
        return hasher.finalize()
    }

    /// The inverse's name, unless the relationship is its own inverse; an inherited
    /// relationship whose topmost declaration is its own inverse leaves it out too.
    private static func inverseNameForHash(_ relationship: NSRelationshipDescription) -> String? {
        let inverse: NSRelationshipDescription? = relationship.inverseRelationship
        let inverseName = inverse?.name ?? relationship.inverseRelationshipName
        guard let inverseName else { return nil }
        if let inverse {
            if inverse === relationship { return nil }
        } else if isUnresolvedSelfInverse(relationship, inverseName: inverseName) {
            return nil
        }
        var topmost: NSRelationshipDescription?
        var ancestor = relationship.entity?.superentity
        while let current = ancestor {
            if let found = current.relationshipsByName[relationship.name] { topmost = found }
            ancestor = current.superentity
        }
        if let topmost, let topInverse = topmost.inverseRelationship, topInverse === topmost {
            return nil
        }
        return inverseName
    }

    /// Before resolution: the inverse names this very relationship on its own entity.
    private static func isUnresolvedSelfInverse(
        _ relationship: NSRelationshipDescription, inverseName: String
    ) -> Bool {
        guard inverseName == relationship.name, let owner = relationship.entity?.name else { return false }
        let destination = relationship.destinationEntity?.name ?? relationship.destinationEntityName
        return destination == owner
    }

    // MARK: - Bytes

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
