import Foundation

// MARK: - Fetched properties

extension NSManagedObject {
    /// A fetched property's value: its fetch request run the first time it is read, with
    /// `$FETCH_SOURCE` bound to this object and `$FETCHED_PROPERTY` to the property, then
    /// kept (as Apple keeps it) until the object is refreshed or turned into a fault.
    /// An array of the fetched objects; empty when the fetch fails.
    func fetchedValue(_ property: NSFetchedPropertyDescription) -> [Any] {
        guard let context, let template = property.fetchRequest else { return [] }
        let request = NSFetchRequest<NSFetchRequestResult>()
        if let entity = template.entity { request.entity = entity }
        else if let name = template.entityName { request.entity = context.model?.entitiesByName[name] }
        request.predicate = template.predicate?.withSubstitutionVariables(
            ["FETCH_SOURCE": self, "FETCHED_PROPERTY": property])
        request.sortDescriptors = template.sortDescriptors
        request.fetchLimit = template.fetchLimit
        request.resultType = template.resultType
        let result = (try? context.fetch(request)) ?? []
        storage.loading.setBoxed(result, at: property.slot)
        return result
    }
}
