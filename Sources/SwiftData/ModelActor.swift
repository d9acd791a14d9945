import CoreData

/// An executor that owns a ``ModelContext``: code isolated to it may use the context and
/// its models.
public protocol ModelExecutor: Executor {
    /// The context the executor's jobs use.
    var modelContext: ModelContext { get }
}

/// A ``ModelExecutor`` that runs one job at a time, in order, as a context needs.
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}

/// An actor whose work runs on its model context's queue, so that its context and the
/// models it fetches are used by one job at a time: the way to work with models off the
/// main actor. Write `@ModelActor` rather than conforming by hand.
///
/// ```swift
/// @ModelActor
/// actor TripImporter {
///     func importTrips(_ names: [String]) throws {
///         for name in names { modelContext.insert(Trip(name: name, start: .now)) }
///         try modelContext.save()
///     }
/// }
/// let importer = TripImporter(modelContainer: container)
/// try await importer.importTrips(["Alps", "Coast"])
/// ```
///
/// Models are not `Sendable`: pass a model's ``PersistentModel/persistentModelID`` between
/// actors and look the model up on the other side (``subscript(id:as:)``). Using a model of
/// one context in another traps with a message saying so.
public protocol ModelActor: Actor {
    /// The container the actor's context reads and writes.
    nonisolated var modelContainer: ModelContainer { get }
    /// The executor the actor runs on, which owns its context.
    nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
    /// The actor runs on its model executor.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        guard let serial = modelExecutor as? any SerialExecutor else {
            fatalError("SwiftData: a ModelActor's modelExecutor must be a SerialModelExecutor")
        }
        return serial.asUnownedSerialExecutor()
    }

    /// The actor's context.
    public var modelContext: ModelContext { modelExecutor.modelContext }

    /// The model with an identifier, as `T`, from the actor's context; nil when the
    /// identifier is not of a `T` or its record does not exist.
    public subscript<T: PersistentModel>(id: PersistentIdentifier, as as: T.Type) -> T? {
        if let registered: T = modelContext.registeredModel(for: id) { return registered }
        guard let objectID = id.objectID,
              let object = try? modelContext.managedObjectContext.existingObject(with: objectID) else { return nil }
        return modelContext.anyModel(for: object) as? T
    }
}

/// The executor `@ModelActor` gives an actor: each job runs on the queue of the context's
/// Core Data context (its `perform`), one at a time.
///
/// - Note: Apple parity: Apple's class is open for subclassing; this one is `final`.
public final class DefaultSerialModelExecutor: @unchecked Sendable, SerialModelExecutor {
    // @unchecked Sendable: `modelContext` is only used by jobs, which run one at a time on
    // the context's own queue.

    /// The context the executor's jobs use.
    public let modelContext: ModelContext

    /// An executor over `modelContext`, which jobs then use on its queue.
    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
    }

    /// Runs `job` on the context's queue, after the jobs enqueued before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        modelContext.managedObjectContext.perform {
            job.runSynchronously(on: executor)
        }
    }

    /// The executor as the runtime holds it.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}

/// Makes an actor a ``ModelActor``: adds `modelContainer`, `modelExecutor` (a
/// ``DefaultSerialModelExecutor`` over a new context) and `init(modelContainer:)`.
@attached(member, names: named(modelExecutor), named(modelContainer), named(init))
@attached(extension, conformances: ModelActor)
public macro ModelActor() = #externalMacro(module: "SwiftDataMacros", type: "ModelActorMacro")
