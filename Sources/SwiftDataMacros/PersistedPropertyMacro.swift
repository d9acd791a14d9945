import SwiftSyntax
import SwiftSyntaxMacros

/// `@_PersistedProperty` (added by `@Model`): turns a stored property into accessors over the
/// model's backing data (`persistentBackingData`, which a subclass model overrides), with an
/// init accessor so that the class's own initializers (and
/// the declaration's initial value) write through too, and a zero-size peer `_name` that
/// the init accessor initializes, so the compiler still insists every property is set.
public struct PersistedPropertyMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self),
              let property = PersistedProperty(variable) else { return [] }
        let key = property.name
        return [
            """
            @storageRestrictions(initializes: _\(raw: key), accesses: _$backingData)
            init(initialValue) {
                _$backingData.setValue(initialValue, forKey: "\(raw: key)")
                _\(raw: key) = SwiftData._SwiftDataNoValue()
            }
            """,
            """
            get {
                persistentBackingData.getValue(forKey: "\(raw: key)")
            }
            """,
            """
            set {
                persistentBackingData.setValue(newValue, forKey: "\(raw: key)", of: self)
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self),
              let property = PersistedProperty(variable) else { return [] }
        return ["@SwiftData.Transient private var _\(raw: property.name): SwiftData._SwiftDataNoValue"]
    }
}

/// `@Attribute`, `@Relationship`, `@Transient`: markers that expand to nothing; `@Model`
/// reads their arguments into `schemaMetadata`.
public struct MarkerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

/// `#Unique` and `#Index`: expand to nothing; `@Model` reads their key paths from the class
/// body.
public struct SchemaMarkerMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
