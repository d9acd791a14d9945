import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that expands SwiftData's macros.
@main
struct SwiftDataMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        ModelMacro.self,
        PersistedPropertyMacro.self,
        MarkerMacro.self,
        ModelActorMacro.self,
        SchemaMarkerMacro.self,
    ]
}
