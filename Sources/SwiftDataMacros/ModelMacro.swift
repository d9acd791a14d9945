import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Model`: makes a class a persistent model.
///
/// - member: the backing-data storage, `persistentBackingData`, `schemaMetadata` (the
///   key-path-to-name table with each property's `@Attribute`/`@Relationship` options),
///   `init(backingData:)`, and for class hierarchies `_swiftDataKeyPaths_<Class>` (the
///   class's properties rooted at any subclass) and `_swiftDataInheritedKeyPaths`;
/// - member attribute: `@_PersistedProperty` on every stored property that is not
///   `@Transient` (its reads and writes then go through the backing data);
/// - extension: the `PersistentModel` conformance.
///
/// A class that inherits its conformance from a `@Model` superclass (the compiler then
/// lists no missing conformance) is a subclass model: its members override the
/// superclass's (`persistentBackingData` hands the subclass's initial values to the
/// superclass's backing data), and its `schemaMetadata` lists only its own properties,
/// which the schema turns into a sub-entity of the superclass's entity.
public struct ModelMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: Syntax(node), message: ModelDiagnostic.notAClass))
            return []
        }
        let typeName = classDecl.name.trimmedDescription
        var entries: [String] = []
        var names: [String] = []
        var peerInits: [String] = []
        for member in classDecl.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  let property = PersistedProperty(variable) else { continue }
            if property.isLet {
                context.diagnose(Diagnostic(node: Syntax(variable), message: ModelDiagnostic.letProperty))
                continue
            }
            guard property.type != nil else {
                context.diagnose(Diagnostic(node: Syntax(variable), message: ModelDiagnostic.missingType(property.name)))
                continue
            }
            var metadata = "nil"
            if let attribute = variable.attribute(named: "Attribute") {
                metadata = "SwiftData.Schema.Attribute(\(attribute.arguments?.trimmedDescription ?? ""))"
            } else if let relationship = variable.attribute(named: "Relationship") {
                metadata = "SwiftData.Schema.Relationship(\(relationship.arguments?.trimmedDescription ?? ""))"
            }
            // The declaration's initial value becomes the attribute's default value (what a
            // lightweight migration fills an added required attribute with).
            var defaultValue = "nil"
            if let initial = property.initialValue, let type = property.type {
                defaultValue = "(\(initial) as \(type.trimmedDescription))"
            }
            entries.append(
                "SwiftData.Schema.PropertyMetadata(name: \"\(property.name)\", keypath: \\\(typeName).\(property.name), "
                    + "defaultValue: \(defaultValue), metadata: \(metadata))")
            names.append(property.name)
            peerInits.append("self._\(property.name) = SwiftData._SwiftDataNoValue()")
        }
        // `#Unique<T>([\.a], [\.b, \.c])` and `#Index<T>(...)` in the class body: their key
        // paths, rooted at this class, become the class's uniqueness constraints and indexes.
        var uniques: [String] = []
        var indexes: [String] = []
        for member in classDecl.memberBlock.members {
            guard let expansion = member.decl.as(MacroExpansionDeclSyntax.self) else { continue }
            let name = expansion.macroName.trimmedDescription
            guard name == "Unique" || name == "Index" else { continue }
            let groups = expansion.arguments.map { argument in
                argument.expression.trimmedDescription.rootingKeyPaths(at: typeName)
            }
            if name == "Unique" { uniques += groups } else { indexes += groups }
        }
        let metadataList = entries.isEmpty ? "[]" : "[\n" + entries.map { "        " + $0 }.joined(separator: ",\n") + "\n    ]"
        let access = classDecl.modifiers.contains { $0.name.tokenKind == .keyword(.public) || $0.name.tokenKind == .keyword(.open) } ? "public " : ""
        let isFinal = classDecl.modifiers.contains { $0.name.tokenKind == .keyword(.final) }
        // A subclass of a model: the conformance is inherited, so none is missing, and the
        // class names a superclass first in its inheritance clause.
        let firstInherited = classDecl.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription
        let isSubclass = protocols.isEmpty && firstInherited != nil
            && firstInherited != "PersistentModel" && firstInherited != "SwiftData.PersistentModel"
        // Static members a subclass must be able to override are `class` members.
        let typeMember = isSubclass ? "override class" : isFinal ? "static" : "class"
        var extra: [DeclSyntax] = []
        if !uniques.isEmpty || (!isFinal && !isSubclass) {
            extra.append("\(raw: access)\(raw: typeMember) var _swiftDataUniqueness: [[AnyKeyPath]] { [\(raw: uniques.joined(separator: ", "))] }")
        }
        if !indexes.isEmpty || (!isFinal && !isSubclass) {
            extra.append("\(raw: access)\(raw: typeMember) var _swiftDataIndexes: [[AnyKeyPath]] { [\(raw: indexes.joined(separator: ", "))] }")
        }
        // Key paths rooted at a subclass name properties a superclass declares (`\Sub.name`
        // is not `\Base.name`): each class that can have subclasses lists its properties
        // rooted at any subclass, and each subclass asks its superclass for them, so that
        // predicates and sorts on inherited properties become SQL too.
        let superName = firstInherited.flatMap { $0.split(separator: ".").last.map(String.init) } ?? ""
        if !isFinal {
            let own = names.map { "(\\Root.\($0), \"\($0)\")" }.joined(separator: ", ")
            let inherited = isSubclass ? " + \(firstInherited!)._swiftDataKeyPaths_\(superName)(rootedAt: root)" : ""
            extra.append("""
                \(raw: access)static func _swiftDataKeyPaths_\(raw: typeName)<Root: \(raw: typeName)>(rootedAt root: Root.Type) -> [(AnyKeyPath, String)] {
                    [\(raw: own)]\(raw: inherited)
                }
                """)
        }
        if isSubclass {
            extra.append("""
                \(raw: access)override class var _swiftDataInheritedKeyPaths: [(AnyKeyPath, String)] {
                    \(raw: firstInherited!)._swiftDataKeyPaths_\(raw: superName)(rootedAt: \(raw: typeName).self)
                }
                """)
        } else if !isFinal {
            extra.append("\(raw: access)class var _swiftDataInheritedKeyPaths: [(AnyKeyPath, String)] { [] }")
        }
        let storage: DeclSyntax = "@SwiftData.Transient private var _$backingData: SwiftData.BackingData = SwiftData.BackingData()"
        let schemaMetadata: DeclSyntax =
            "\(raw: access)\(raw: typeMember) var schemaMetadata: [SwiftData.Schema.PropertyMetadata] { \(raw: metadataList) }"
        if isSubclass {
            // `_$backingData` holds only the values the subclass's initializers set before
            // `super.init`; the superclass's backing data takes them on first use.
            return extra + [
                storage,
                """
                \(raw: access)override var persistentBackingData: SwiftData.BackingData {
                    get {
                        let data = super.persistentBackingData
                        data.adopt(_$backingData)
                        return data
                    }
                    set { super.persistentBackingData = newValue }
                }
                """,
                schemaMetadata,
                """
                \(raw: access)required init(backingData: SwiftData.BackingData) {
                    \(raw: peerInits.joined(separator: "\n    "))
                    // Declared initial values went into the box; the record's values win.
                    self._$backingData = SwiftData.BackingData()
                    super.init(backingData: backingData)
                }
                """,
            ]
        }
        return extra + [
            storage,
            """
            \(raw: access)var persistentBackingData: SwiftData.BackingData {
                get { _$backingData }
                set { _$backingData = newValue }
            }
            """,
            schemaMetadata,
            """
            \(raw: access)required init(backingData: SwiftData.BackingData) {
                self._$backingData = backingData
                \(raw: peerInits.joined(separator: "\n    "))
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard declaration.is(ClassDeclSyntax.self),
              let variable = member.as(VariableDeclSyntax.self),
              let property = PersistedProperty(variable), !property.isLet, property.type != nil,
              variable.attribute(named: "_PersistedProperty") == nil else { return [] }
        return ["@SwiftData._PersistedProperty"]
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ClassDeclSyntax.self), !protocols.isEmpty else { return [] }
        let list = protocols.map(\.trimmedDescription).joined(separator: ", ")
        return [try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: list) {}")]
    }
}

/// A stored property `@Model` persists: one binding, a name, no accessors but observers,
/// not static, not `@Transient`.
struct PersistedProperty {
    let name: String
    let type: TypeSyntax?
    let isLet: Bool
    /// The initial value written in the declaration, if any.
    let initialValue: String?

    init?(_ variable: VariableDeclSyntax) {
        guard variable.bindings.count == 1, let binding = variable.bindings.first,
              let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { return nil }
        if variable.modifiers.contains(where: {
            $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
                || $0.name.tokenKind == .keyword(.lazy)
        }) { return nil }
        if variable.attribute(named: "Transient") != nil { return nil }
        if let accessors = binding.accessorBlock {
            switch accessors.accessors {
            case .getter: return nil
            case .accessors(let list):
                for accessor in list {
                    let kind = accessor.accessorSpecifier.tokenKind
                    if kind != .keyword(.willSet) && kind != .keyword(.didSet) { return nil }
                }
            }
        }
        let name = identifier.identifier.trimmedDescription
        if name.hasPrefix("_") { return nil }
        self.name = name.replacingBackticks()
        self.type = binding.typeAnnotation?.type.trimmed
        self.isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        self.initialValue = binding.initializer?.value.trimmedDescription
    }
}

extension VariableDeclSyntax {
    /// The attribute `@name` or `@SwiftData.name` on this declaration.
    func attribute(named name: String) -> AttributeSyntax? {
        for element in attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            let written = attribute.attributeName.trimmedDescription
            if written == name || written == "SwiftData.\(name)" { return attribute }
        }
        return nil
    }
}

extension String {
    func replacingBackticks() -> String { filter { $0 != "`" } }

    /// The text with every key path that omits its root (`\.name`) rooted at `type`.
    func rootingKeyPaths(at type: String) -> String {
        var result = ""
        var previousWasBackslash = false
        for character in self {
            if previousWasBackslash, character == "." { result += type }
            result.append(character)
            previousWasBackslash = character == "\\"
        }
        return result
    }
}

enum ModelDiagnostic: DiagnosticMessage {
    case notAClass
    case notAnActor
    case letProperty
    case missingType(String)

    var message: String {
        switch self {
        case .notAClass: "@Model can only be applied to a class"
        case .notAnActor: "@ModelActor can only be applied to an actor"
        case .letProperty: "@Model persists only 'var' properties; make this a 'var' or mark it @Transient"
        case .missingType(let name): "@Model needs the type of '\(name)' written out (e.g. 'var \(name): String')"
        }
    }
    var diagnosticID: MessageID {
        switch self {
        case .notAClass: MessageID(domain: "SwiftData", id: "notAClass")
        case .notAnActor: MessageID(domain: "SwiftData", id: "notAnActor")
        case .letProperty: MessageID(domain: "SwiftData", id: "letProperty")
        case .missingType: MessageID(domain: "SwiftData", id: "missingType")
        }
    }
    var severity: DiagnosticSeverity { .error }
}
