import Foundation

// MARK: - Registering a to-many fault's members

extension NSManagedObjectContext {
    /// The objects for the member keys a to-many fault read from `store`, in order: each
    /// registered object, or a new fault, as ``registeredObjectOrFault(entityID:pk:store:fallback:)``
    /// gives one key at a time, but with the registry searched once and written once for all
    /// of them, and each entity's class looked up once per run of members of that entity.
    ///
    /// A store that talks to contexts (`NSIncrementalStore`) hears of each registration, so
    /// its members go one at a time. A key listed twice (a damaged join table) gets one object.
    func registeredObjectsOrFaults(keys: [StoreKey], store: NSPersistentStore?,
                                   fallback: NSEntityDescription?) -> [NSManagedObject] {
        guard let store, let model, keys.count > 1, !store.talksToContexts else {
            return keys.compactMap {
                registeredObjectOrFault(entityID: $0.entityID, pk: $0.pk, store: store, fallback: fallback)
            }
        }
        let storeID = ObjectIdentifier(store)
        // The registry key of each member; a key whose entity is unknown (or whose primary
        // key is not positive) is skipped, as one key at a time skips it. Entities are
        // looked up once per run of one entity and not kept per key (each retain of an
        // entity takes the runtime's slow path).
        var registryKeys: [RegistryKey] = []
        registryKeys.reserveCapacity(keys.count)
        var skipped = 0
        var last: (entityID: Int, entity: NSEntityDescription?) = (-1, nil)
        for key in keys {
            if key.entityID != last.entityID { last = (key.entityID, model.entity(forID: key.entityID) ?? fallback) }
            if key.pk > 0, let entity = last.entity {
                registryKeys.append(RegistryKey(store: storeID, root: entity.runtime.rootID, pk: key.pk))
            } else {
                registryKeys.append(RegistryKey(store: storeID, root: storeID, pk: 0))
                skipped += 1
            }
        }
        let found = registry.objects(for: registryKeys)
        var objects: [NSManagedObject] = []
        objects.reserveCapacity(keys.count - skipped)
        var created: [NSManagedObject] = []
        created.reserveCapacity(keys.count - skipped)
        var createdKeys: [RegistryKey] = []
        createdKeys.reserveCapacity(keys.count - skipped)
        var createdIndex: [RegistryKey: NSManagedObject] = [:]
        last = (-1, nil)
        var type: NSManagedObject.Type = NSManagedObject.self
        for (i, key) in keys.enumerated() {
            let registryKey = registryKeys[i]
            if registryKey.pk == 0 { continue }
            if let object = found[i] {
                objects.append(object)
                continue
            }
            if let object = Self.created(registryKey, createdKeys, created, &createdIndex) {
                objects.append(object)
                continue
            }
            if key.entityID != last.entityID {
                last = (key.entityID, model.entity(forID: key.entityID) ?? fallback)
                type = last.entity!.runtime.objectClass
            }
            let object = makeUnregisteredFault(
                NSManagedObjectID(entity: last.entity!, store: store, reference: .permanent(key.pk)), of: type)
            object.context = self
            objects.append(object)
            created.append(object)
            createdKeys.append(registryKey)
            if !createdIndex.isEmpty { createdIndex[registryKey] = object }
        }
        if !created.isEmpty {
            let released = registry.insert(created, keys: createdKeys, retained: retainsRegisteredObjects)
            if !released.isEmpty { noteUnregistered(released) }
        }
        return objects
    }

    /// Up to this many new members, a repeated key is looked for by scanning; past it, in
    /// a dictionary (a to-many of thousands of members).
    private static let linearLimit = 32

    /// The fault already made in this pass for `key`, if any.
    private static func created(_ key: RegistryKey, _ keys: [RegistryKey], _ objects: [NSManagedObject],
                                _ index: inout [RegistryKey: NSManagedObject]) -> NSManagedObject? {
        if keys.count < linearLimit {
            for (i, other) in keys.enumerated() where other == key { return objects[i] }
            return nil
        }
        if index.isEmpty { for (i, other) in keys.enumerated() { index[other] = objects[i] } }
        return index[key]
    }
}
