import Foundation

// MARK: - Registering the keys a fetch or a to-many fault read

extension NSManagedObjectContext {
    /// The objects for the keys a to-many fault (or a fetch without property values:
    /// `includesPropertyValues = false`, batched fetches, object-ID results) read from
    /// `store`, in order: each registered object, or a new fault, as
    /// ``registeredObjectOrFault(entityID:pk:store:fallback:)`` gives one key at a time, but
    /// with the registry searched once and written once for all of them, and each entity
    /// looked up once per run of keys of that entity. Keys of an entity the model does not
    /// know (and no `fallback`) are left out.
    ///
    /// A store that talks to contexts (`NSIncrementalStore`) hears of each registration, so
    /// its keys go one at a time. With `keysMayRepeat` (a to-many's members: a damaged join
    /// table can list one twice) a repeated key gets one object.
    func registeredObjectsOrFaults(keys: [StoreKey], store: NSPersistentStore?, fallback: NSEntityDescription?,
                                   keysMayRepeat: Bool) -> [NSManagedObject] {
        guard let store, let model, keys.count > 1, !store.talksToContexts else {
            return keys.compactMap {
                registeredObjectOrFault(entityID: $0.entityID, pk: $0.pk, store: store, fallback: fallback)
            }
        }
        // Keys come in runs of one entity: each run's entity is looked up once, and not kept
        // per key (each retain of an entity takes the runtime's slow path).
        var run: (id: Int, entity: NSEntityDescription?) = (-1, nil)
        func entity(_ id: Int) -> NSEntityDescription? {
            if id != run.id { run = (id, model.entity(forID: id) ?? fallback) }
            return run.entity
        }
        let known = keys.filter { $0.pk > 0 && entity($0.entityID) != nil }
        let storeID = ObjectIdentifier(store)
        var registryKeys: [RegistryKey] = []
        registryKeys.reserveCapacity(known.count)
        var root: (id: Int, root: ObjectIdentifier) = (-1, storeID)
        for key in known {
            if key.entityID != root.id { root = (key.entityID, entity(key.entityID)!.runtime.rootID) }
            registryKeys.append(RegistryKey(store: storeID, root: root.root, pk: key.pk))
        }
        return registerFetched(registryKeys, store: store, keysMayRepeat: keysMayRepeat,
                               entity: { entity(known[$0].entityID)! })
    }

    /// Up to this many new members, a repeated key is looked for by scanning; past it, in
    /// a dictionary (a to-many of thousands of members).
    private static let linearLimit = 32

    /// The fault already made in this pass for `key`, if any.
    static func created(_ key: RegistryKey, _ keys: [RegistryKey], _ objects: [NSManagedObject],
                                _ index: inout [RegistryKey: NSManagedObject]) -> NSManagedObject? {
        if keys.count < linearLimit {
            for (i, other) in keys.enumerated() where other == key { return objects[i] }
            return nil
        }
        if index.isEmpty { for (i, other) in keys.enumerated() { index[other] = objects[i] } }
        return index[key]
    }
}
