import Foundation

extension NSManagedObjectModel {
    // MARK: - Loading model files

    /// Loads the model at `url`: a compiled model (`.momd` folder: its current version;
    /// `.mom` file), a `.xcdatamodeld` bundle (its current version), a single
    /// `.xcdatamodel` version folder, or a compiled-model URL that does not exist but has a
    /// model source beside it.
    ///
    /// Linux has no model compiler, so the XML sources Xcode writes are read directly.
    /// The URL an Apple app builds for its compiled model works unchanged when the source
    /// bundle ships beside it:
    ///
    /// ```swift
    /// // Finds DataModel.xcdatamodeld next to where DataModel.momd would be.
    /// let url = Bundle.main.url(forResource: "DataModel", withExtension: "momd")
    ///     ?? Bundle.main.bundleURL.appendingPathComponent("DataModel.momd")
    /// let model = NSManagedObjectModel(contentsOf: url)
    /// ```
    ///
    /// The rules, in full:
    /// - `Foo.xcdatamodeld`: the current version — `.xccurrentversion` if it names one,
    ///   else the only version, else the last version in numeric-aware name order.
    /// - `Foo.xcdatamodel` (or any folder holding a `contents` file): that version.
    /// - `Foo.momd` or `Foo.mom`, existing or not: `Foo.xcdatamodeld` or `Foo.xcdatamodel`
    ///   in the same folder (`.momd` tries the bundle first, `.mom` the single version
    ///   first); `Bar.momd/Foo.mom` means version `Foo` of `Bar.xcdatamodeld` beside the
    ///   `.momd`.
    ///
    /// Returns `nil` if the model can't be loaded; `load(contentsOf:)` says why.
    ///
    /// - Note: Apple parity: Apple reads compiled `.mom`/`.momd` files only; we read those
    ///   too (Apple's keyed archive; an `.omo` is read from the `.mom` beside it) and also
    ///   the Xcode sources, to which a compiled-model URL that does not exist is mapped.
    public convenience init?(contentsOf url: URL) {
        self.init()
        do {
            if CompiledModelFile.exists(url) {
                _ = try CompiledModelFile.load(url, into: self)
                LoadedModels.shared.note(self)
                return
            }
            let (bundle, version) = try ModelBundle.resolve(url)
            guard let versionURL = bundle.url(forVersion: version) else { return nil }
            try ModelLoader.populate(self, fromVersionAt: versionURL)
            bundleURL = bundle.url
            LoadedModels.shared.note(self)
        } catch {
            return nil
        }
    }

    /// The throwing twin of ``init(contentsOf:)``, for callers that report why a model
    /// did not load (the persistent container, the C API, the `coredata` tool).
    ///
    /// - Throws: An `NSError` in `NSCocoaErrorDomain` whose description names the file,
    ///   the entity and the property: `NSFileReadNoSuchFileError` (260) when nothing is
    ///   found, `NSFileReadCorruptFileError` (259) for malformed XML or the legacy binary
    ///   format, `NSManagedObjectValidationError` for an invalid model.
    @_spi(Tools) public static func load(contentsOf url: URL) throws -> NSManagedObjectModel {
        if CompiledModelFile.exists(url) {
            let model = try CompiledModelFile.load(url)
            LoadedModels.shared.note(model)
            return model
        }
        let (bundle, version) = try ModelBundle.resolve(url)
        let model = try bundle.model(forVersion: version)
        LoadedModels.shared.note(model)
        return model
    }

    // MARK: - Merging

    /// The union of the current models found in `bundles` (the main bundle when `nil`).
    ///
    /// Each bundle is searched as `ModelLocator.models(in:)` describes, which includes
    /// the SwiftPM resource bundles next to a Linux executable. Returns `nil` when two
    /// models declare the same entity name.
    ///
    /// - Note: Apple parity: models that fail to load are skipped, as Apple skips files
    ///   it can't read; load them with `load(contentsOf:)` to see the error.
    public class func mergedModel(from bundles: [Bundle]?) -> NSManagedObjectModel? {
        NSManagedObjectModel(byMerging: ModelLocator.models(in: bundles ?? [Bundle.main]))
    }

    /// The model, among every version of every model in `bundles`, whose entity hashes
    /// match the store `metadata`; `nil` if none does.
    public class func mergedModel(
        from bundles: [Bundle]?, forStoreMetadata metadata: [String: Any]
    ) -> NSManagedObjectModel? {
        for bundleURL in ModelLocator.modelURLs(in: bundles ?? [Bundle.main]) {
            if CompiledModelFile.exists(bundleURL) {
                let versions = (try? CompiledModelFile.allModels(bundleURL)) ?? []
                for (_, model) in versions.reversed()
                where model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) {
                    return model
                }
                continue
            }
            guard let bundle = try? ModelBundle.open(bundleURL),
                  let versions = try? bundle.allModels() else { continue }
            for (_, model) in versions.reversed()
            where model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) {
                return model
            }
        }
        return nil
    }

    // MARK: - Templates

    /// A copy of the template named `name`, or `nil` if there is none.
    ///
    /// - Note: Apple parity: substitution variables are not applied yet (predicates from
    ///   model files are kept as text until the predicate parser lands); the copy carries
    ///   the template's predicate unchanged.
    public func fetchRequestFromTemplate(
        withName name: String, substitutionVariables variables: [String: Any]
    ) -> NSFetchRequest<NSFetchRequestResult>? {
        guard let template = fetchRequestTemplate(forName: name) else { return nil }
        let copy = NSFetchRequest<NSFetchRequestResult>(entityName: template.entityName ?? "")
        if let entity = template.entity { copy.entity = entity }
        copy.predicate = template.predicate?.withSubstitutionVariables(variables)
        copy.sortDescriptors = template.sortDescriptors
        copy.fetchLimit = template.fetchLimit
        copy.fetchOffset = template.fetchOffset
        copy.fetchBatchSize = template.fetchBatchSize
        copy.resultType = template.resultType
        copy.returnsObjectsAsFaults = template.returnsObjectsAsFaults
        copy.includesPendingChanges = template.includesPendingChanges
        copy.includesSubentities = template.includesSubentities
        copy.includesPropertyValues = template.includesPropertyValues
        copy.returnsDistinctResults = template.returnsDistinctResults
        copy.shouldRefreshRefetchedObjects = template.shouldRefreshRefetchedObjects
        copy.propertiesToFetch = template.propertiesToFetch
        copy.relationshipKeyPathsForPrefetching = template.relationshipKeyPathsForPrefetching
        return copy
    }
}
