import Foundation

// MARK: - Tracking the context's changes

extension FetchedResultsCore {
    /// A change event of the context: objects that changed are matched again against the
    /// request, the results are sorted and cut into sections again, and the delegate hears
    /// what changed.
    func contextDidChange(_ notification: Notification) {
        guard let old = layout, let entity, let delegate, let view = delegateView else { return }
        let info = notification.userInfo ?? [:]
        func objects(_ key: String) -> [NSManagedObject] {
            (info[key] as? Set<NSManagedObject>).map(Array.init) ?? []
        }
        var members = old.objects
        var removed = Set<ObjectIdentifier>()
        var changed = Set<ObjectIdentifier>()
        var joined: [NSManagedObject] = []
        var joinedIDs = Set<ObjectIdentifier>()
        for object in objects(NSDeletedObjectsKey) + objects(NSInvalidatedObjectsKey) where old.contains(object) {
            removed.insert(ObjectIdentifier(object))
        }
        let touched = objects(NSInsertedObjectsKey) + objects(NSUpdatedObjectsKey) + objects(NSRefreshedObjectsKey)
        for object in touched where belongs(object, to: entity) {
            let id = ObjectIdentifier(object)
            guard !removed.contains(id) else { continue }
            if matches(object) {
                if old.contains(object) {
                    changed.insert(id)
                } else if joinedIDs.insert(id).inserted {
                    joined.append(object)
                }
            } else if old.contains(object) {
                removed.insert(id)
            }
        }
        guard !removed.isEmpty || !changed.isEmpty || !joined.isEmpty else { return }
        members.removeAll { removed.contains(ObjectIdentifier($0)) }
        // Old members first, in their old order: the stable sort keeps ties where they were.
        let descriptors = (request.sortDescriptors ?? []).map(SortKeyResolver.keyed)
        let sorted = SortKeyResolver.sorted(members + joined, by: descriptors)
        let new: FetchedResultsLayout
        do {
            new = try FetchedResultsLayout.grouping(sorted, sectionNameKeyPath: sectionNameKeyPath,
                                                    indexTitle: indexTitle(forSectionName:))
        } catch {
            // Apple logs this and leaves the results as they were.
            FileHandle.standardError.write(Data("CoreData: error: (NSFetchedResultsController) \(error)\n".utf8))
            return
        }
        layout = new
        saveCache()
        report(FetchedResultsChanges(from: old, to: new, updated: changed), old: old, new: new,
               to: delegate, view: view)
    }

    /// Whether an object is of the request's entity (or a subentity, when included).
    private func belongs(_ object: NSManagedObject, to entity: NSEntityDescription) -> Bool {
        request.includesSubentities ? object.entity.isKindOf(entity: entity) : object.entity === entity
    }

    /// Whether a live object of the context satisfies the request's predicate. An object
    /// the predicate cannot be evaluated on does not match.
    private func matches(_ object: NSManagedObject) -> Bool {
        guard object.managedObjectContext === context, !object.isDeleted else { return false }
        guard let predicate = request.predicate else { return true }
        return (try? PredicateSupport.evaluate(predicate, with: object)) ?? false
    }

    /// Tells the delegate, the first way it implements: a snapshot, an ID difference (for
    /// a controller without sections), or each change between will-change and did-change.
    private func report(_ changes: FetchedResultsChanges, old: FetchedResultsLayout, new: FetchedResultsLayout,
                        to delegate: any NSFetchedResultsControllerDelegate,
                        view: NSFetchedResultsController<NSFetchRequestResult>) {
        reachedDefaultCallback = false
        delegate.controller(view, didChangeContentWith: snapshot(of: new))
        guard reachedDefaultCallback else { return }
        if sectionNameKeyPath == nil {
            reachedDefaultCallback = false
            let difference = new.objects.map(\.objectID).difference(from: old.objects.map(\.objectID))
            delegate.controller(view, didChangeContentWith: difference.inferringMoves())
            guard reachedDefaultCallback else { return }
        }
        guard !changes.isEmpty else { return }
        delegate.controllerWillChangeContent(view)
        for change in changes.sections {
            delegate.controller(view, didChange: change.section, atSectionIndex: change.index, for: change.type)
        }
        for change in changes.objects {
            delegate.controller(view, didChange: change.object, at: change.indexPath, for: change.type,
                                newIndexPath: change.newIndexPath)
        }
        delegate.controllerDidChangeContent(view)
    }
}
