import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@ModelActor`: gives an actor its container, an executor over a new model context, and
/// `init(modelContainer:)`; conforms it to `ModelActor`.
public struct ModelActorMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let actorDecl = declaration.as(ActorDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: Syntax(node), message: ModelDiagnostic.notAnActor))
            return []
        }
        let access = actorDecl.modifiers.contains {
            $0.name.tokenKind == .keyword(.public) || $0.name.tokenKind == .keyword(.open)
        } ? "public " : ""
        return [
            "\(raw: access)nonisolated let modelExecutor: any SwiftData.ModelExecutor",
            "\(raw: access)nonisolated let modelContainer: SwiftData.ModelContainer",
            """
            \(raw: access)init(modelContainer: SwiftData.ModelContainer) {
                let modelContext = SwiftData.ModelContext(modelContainer)
                self.modelExecutor = SwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                self.modelContainer = modelContainer
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ActorDeclSyntax.self), !protocols.isEmpty else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): SwiftData.ModelActor {}")]
    }
}
