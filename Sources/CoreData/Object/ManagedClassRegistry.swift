import Foundation

/// Finds the `NSManagedObject` subclass an entity names (`representedClassName`) and the
/// entity a subclass belongs to.
///
/// Lookup order for a class name: classes registered with `registerSubclass()` (or met
/// through `init(context:)`, `entity()`, `fetchRequest()`), by qualified then by simple
/// name; then `NSClassFromString` with the name as written, and qualified with the main
/// executable's module; else `NSManagedObject`. A leading `.` (Xcode's "current
/// module") is ignored.
final class ManagedClassRegistry: @unchecked Sendable {
    // @unchecked Sendable: every member is guarded by `lock`.
    static let shared = ManagedClassRegistry()

    private let lock = NSLock()
    private var byQualifiedName: [String: NSManagedObject.Type] = [:]
    private var bySimpleName: [String: NSManagedObject.Type] = [:]
    private var resolved: [String: NSManagedObject.Type] = [:]

    /// Classes already registered (`register` runs on every `init(context:)`).
    private var registered: Set<ObjectIdentifier> = []
    /// `entity(for:in:)` by class and model; emptied whenever a class is registered.
    private var entities: [EntityKey: WeakEntity] = [:]
    /// `EntityRuntime.objectClass` by entity; emptied whenever a class is registered.
    /// (Keyed by `EntityRuntime.serial`, which no other runtime ever reuses.)
    private var classes: [Int: NSManagedObject.Type] = [:]

    private struct EntityKey: Hashable {
        let type: ObjectIdentifier
        let model: ObjectIdentifier
    }

    private struct WeakEntity {
        weak var entity: NSEntityDescription?
        weak var model: NSManagedObjectModel?
    }

    func register(_ type: NSManagedObject.Type) {
        guard type != NSManagedObject.self else { return }
        lock.lock()
        let known = registered.contains(ObjectIdentifier(type))
        lock.unlock()
        if known { return }
        let qualified = String(reflecting: type)
        lock.lock()
        defer { lock.unlock() }
        registered.insert(ObjectIdentifier(type))
        if byQualifiedName[qualified] == nil {
            byQualifiedName[qualified] = type
            bySimpleName[Self.simpleName(of: type)] = type
            resolved.removeAll()
            entities.removeAll()
            classes.removeAll()
        }
    }

    /// Remembers a model a context uses, for `entity()` without a context (models loaded
    /// from files, merged or frozen are remembered by `LoadedModels` as they appear).
    func noteModel(_ model: NSManagedObjectModel) {
        LoadedModels.shared.note(model)
    }

    func resolve(_ className: String?) -> NSManagedObject.Type {
        guard var name = className, !name.isEmpty, name != "NSManagedObject" else { return NSManagedObject.self }
        if name.hasPrefix(".") { name.removeFirst() }
        lock.lock()
        defer { lock.unlock() }
        if let type = resolved[name] { return type }
        let simple = name.split(separator: ".").last.map(String.init) ?? name
        var type = byQualifiedName[name] ?? (name.contains(".") ? nil : bySimpleName[simple])
        if type == nil { type = NSClassFromString(name) as? NSManagedObject.Type }
        if type == nil, let module = Self.mainModuleName {
            type = NSClassFromString("\(module).\(simple)") as? NSManagedObject.Type
        }
        if type == nil { type = bySimpleName[simple] }
        let result = type ?? NSManagedObject.self
        resolved[name] = result
        return result
    }

    func entity(for type: NSManagedObject.Type, in model: NSManagedObjectModel) -> NSEntityDescription? {
        let key = EntityKey(type: ObjectIdentifier(type), model: ObjectIdentifier(model))
        lock.lock()
        let cached = entities[key]
        lock.unlock()
        if let cached, cached.model === model, let entity = cached.entity { return entity }
        let candidates = model.entities
        let entity = candidates.first { resolve($0.managedObjectClassName) == type }
            ?? candidates.first { $0.name == Self.simpleName(of: type) }
        // Only frozen models: an editable one may still gain or rename entities.
        if let entity, !model.isEditable {
            lock.lock()
            entities[key] = WeakEntity(entity: entity, model: model)
            lock.unlock()
        }
        return entity
    }

    /// The class of an entity's objects (see `resolve`), cached per entity.
    func objectClass(of runtime: EntityRuntime) -> NSManagedObject.Type {
        lock.lock()
        let cached = classes[runtime.serial]
        lock.unlock()
        if let cached { return cached }
        let type = resolve(runtime.entity.managedObjectClassName)
        lock.lock()
        classes[runtime.serial] = type
        lock.unlock()
        return type
    }

    /// The entity of `type` in the newest loaded model that has one (see `LoadedModels`).
    func entity(for type: NSManagedObject.Type) -> NSEntityDescription? {
        register(type)
        for model in LoadedModels.shared.all.reversed() {
            if let entity = entity(for: type, in: model) { return entity }
        }
        return nil
    }

    static func simpleName(of type: AnyClass) -> String {
        String(describing: type)
    }

    /// The module name of the main executable (its file name with `-` as `_`).
    static let mainModuleName: String? = {
        guard let name = Bundle.main.executableURL?.deletingPathExtension().lastPathComponent else { return nil }
        return name.replacingOccurrences(of: "-", with: "_")
    }()
}

extension EntityRuntime {
    /// The class of the entity's objects, resolved through `ManagedClassRegistry` (which
    /// can learn new classes after the model is frozen).
    var objectClass: NSManagedObject.Type {
        ManagedClassRegistry.shared.objectClass(of: self)
    }
}
