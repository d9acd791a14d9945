import CoreData

/// Makes a class a persistent model: every stored property that is not `@Transient` is
/// stored in the model context's store, and the class conforms to ``PersistentModel``.
///
/// ```swift
/// @Model
/// final class Trip {
///     var name: String
///     var start: Date
///     @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
///     init(name: String, start: Date) { self.name = name; self.start = start }
/// }
/// ```
///
/// The macro writes the schema metadata (each property's name and key path, with its
/// `@Attribute` or `@Relationship` options), the backing-data storage and
/// `init(backingData:)`; the class's own initializers stay as written.
///
/// A `@Model` class may subclass another `@Model` class (list both in the schema): the
/// subclass becomes a sub-entity of its superclass's entity, stored in the same table,
/// and fetching the superclass returns instances of the subclass too.
///
/// ```swift
/// @Model class Trip { var name: String; init(name: String) { self.name = name } }
/// @Model class BusinessTrip: Trip {
///     var perdiem: Double
///     init(name: String, perdiem: Double) { self.perdiem = perdiem; super.init(name: name) }
/// }
/// let container = try ModelContainer(for: Trip.self, BusinessTrip.self)
/// ```
///
/// - Note: Apple parity: the class does not become `Observable` (no observation registrar
///   is generated yet).
@attached(member, conformances: PersistentModel, names: named(_$backingData), named(persistentBackingData), named(schemaMetadata),
          named(init(backingData:)), named(_swiftDataUniqueness), named(_swiftDataIndexes),
          named(_swiftDataInheritedKeyPaths), arbitrary)
@attached(memberAttribute)
@attached(extension, conformances: PersistentModel)
public macro Model() = #externalMacro(module: "SwiftDataMacros", type: "ModelMacro")

/// Added by `@Model` to each persisted stored property: its reads and writes go through the
/// model's backing data. Not written by hand.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_))
public macro _PersistedProperty() = #externalMacro(module: "SwiftDataMacros", type: "PersistedPropertyMacro")

/// Tunes how `@Model` stores an attribute: uniqueness, external storage, a transient value,
/// the name it had in an earlier schema (`originalName:`), a version-hash modifier.
///
/// ```swift
/// @Attribute(.unique) var code: String
/// @Attribute(.externalStorage) var photo: Data?
/// @Attribute(originalName: "title") var name: String
/// ```
@attached(peer)
public macro Attribute(
    _ options: Schema.Attribute.Option...,
    originalName: String? = nil,
    hashModifier: String? = nil
) = #externalMacro(module: "SwiftDataMacros", type: "MarkerMacro")

/// Tunes a relationship of a `@Model` class: its delete rule, its inverse, and the counts a
/// to-many relationship must hold.
///
/// ```swift
/// @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
/// ```
@attached(peer)
public macro Relationship(
    _ options: Schema.Relationship.Option...,
    deleteRule: Schema.Relationship.DeleteRule = .nullify,
    minimumModelCount: Int? = 0,
    maximumModelCount: Int? = 0,
    originalName: String? = nil,
    inverse: AnyKeyPath? = nil,
    hashModifier: String? = nil
) = #externalMacro(module: "SwiftDataMacros", type: "MarkerMacro")

/// Keeps a stored property of a `@Model` class out of the store: it lives only in the
/// instance and needs an initial value.
@attached(peer)
public macro Transient() = #externalMacro(module: "SwiftDataMacros", type: "MarkerMacro")

/// Declares, inside a `@Model` class, sets of properties whose values together must be
/// unique across the class's records (the entity's uniqueness constraints): inserting a
/// record with the same values updates the existing one.
///
/// ```swift
/// @Model final class Person {
///     #Unique<Person>([\.email], [\.givenName, \.familyName])
///     var email: String
///     var givenName: String
///     var familyName: String
///     ...
/// }
/// ```
@freestanding(declaration)
public macro Unique<T: PersistentModel>(_ constraints: [PartialKeyPath<T>]...) =
    #externalMacro(module: "SwiftDataMacros", type: "SchemaMarkerMacro")

/// Declares, inside a `@Model` class, the store indexes of the class's records: one index
/// per list of properties (the entity's fetch indexes).
///
/// ```swift
/// @Model final class Trip {
///     #Index<Trip>([\.name], [\.start, \.end])
///     ...
/// }
/// ```
@freestanding(declaration)
public macro Index<T: PersistentModel>(_ indices: [PartialKeyPath<T>]...) =
    #externalMacro(module: "SwiftDataMacros", type: "SchemaMarkerMacro")

/// The zero-size value `@Model` stores beside each persisted property, so that the compiler's
/// check that an initializer sets every property still applies. Not used by hand.
public struct _SwiftDataNoValue: Sendable {
    /// Creates the placeholder.
    public init() {}
}
