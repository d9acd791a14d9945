import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads Xcode's mapping model source, `Foo.xcmappingmodel/xcmapping.xml`.
///
/// The file is a Core Data XML store of Xcode's own editing objects: one
/// `XDDEVMAPPINGMODEL` (the paths of the two model versions, its `entitymappings`), an
/// `XDDEVENTITYMAPPING` per entity mapping (`name`, `sourcename`, `destinationname`,
/// `mappingnumber`, `migrationpolicyclassname`, `sourcefilterpredicatestring`,
/// `autogenerateexpression`, `userinfodata`, its `attributemappings` and
/// `relationshipmappings`), and an `XDDEVATTRIBUTEMAPPING` or `XDDEVRELATIONSHIPMAPPING`
/// per property mapping (`name`, `sourcekeypath`, `sourcemappingname`,
/// `autogenerateexpression`, `valueexpressiondata`, `userinfodata`).
///
/// Expressions are read from their archives (``ArchivedExpression``); those left to Xcode
/// and not archived are built as Xcode builds them: every object of the source
/// entity matching the filter predicate; `$source.<name>` for an attribute; the manager's
/// `destinationInstancesForEntityMappingNamed:sourceInstances:` (when the file names a
/// mapping) or `destinationInstancesForSourceRelationshipNamed:sourceInstances:` for a
/// relationship.
enum MappingModelFile {
    /// One `<object>` of the file.
    struct Object {
        var type: String
        var attributes: [String: String] = [:]
        var relationships: [String: [String]] = [:]

        func string(_ name: String) -> String? {
            attributes[name].flatMap { $0.isEmpty ? nil : $0 }
        }

        func flag(_ name: String) -> Bool {
            guard let text = attributes[name]?.lowercased() else { return false }
            return text == "1" || text == "yes" || text == "true"
        }

        func data(_ name: String) -> Data? {
            string(name).flatMap { Data(base64Encoded: $0, options: .ignoreUnknownCharacters) }
        }
    }

    /// The parsed file: its objects by id, and its mapping model object.
    struct Contents {
        let url: URL
        let objects: [String: Object]
        let root: Object
    }

    // MARK: - Loading

    /// The mapping model of the file at `url`, built against the two model versions the
    /// file names.
    ///
    /// - Throws: `NSMigrationMissingMappingModelError` (134140) saying why.
    static func load(_ url: URL) throws -> NSMappingModel {
        let contents = try parse(url)
        guard let source = model(recordedAt: contents.root.string("sourcemodelpath"), near: contents.url),
              let destination = model(recordedAt: contents.root.string("destinationmodelpath"), near: contents.url)
        else {
            throw failure(url, "the models it maps (\(contents.root.string("sourcemodelpath") ?? "none") and "
                + "\(contents.root.string("destinationmodelpath") ?? "none")) cannot be found")
        }
        return try build(contents, source: source, destination: destination)
    }

    /// The first mapping model file in `directories` (and their SwiftPM `*.resources`
    /// folders) that maps `source` to `destination`; files that do not parse or do not
    /// match are skipped.
    static func find(in directories: [URL], source: NSManagedObjectModel,
                     destination: NSManagedObjectModel) -> NSMappingModel? {
        locate(in: directories, source: source, destination: destination)?.1
    }

    /// ``find(in:source:destination:)``, with the file the mapping model was read from.
    static func locate(in directories: [URL], source: NSManagedObjectModel,
                       destination: NSManagedObjectModel) -> (URL, NSMappingModel)? {
        for url in files(in: directories) {
            guard let contents = try? parse(url) else { continue }
            // A file whose recorded models can be read must have been made for these two.
            if let recorded = model(recordedAt: contents.root.string("sourcemodelpath"), near: url),
               recorded.entityVersionHashesByName != source.entityVersionHashesByName { continue }
            if let recorded = model(recordedAt: contents.root.string("destinationmodelpath"), near: url),
               recorded.entityVersionHashesByName != destination.entityVersionHashesByName { continue }
            guard let mapping = try? build(contents, source: source, destination: destination),
                  mapping.matches(source: source, destination: destination) else { continue }
            return (url, mapping)
        }
        return nil
    }

    /// Every `*.xcmappingmodel` folder directly inside `directories` or their
    /// `*.resources` folders, in name order.
    static func files(in directories: [URL]) -> [URL] {
        let fileManager = FileManager.default
        var folders: [URL] = []
        for directory in directories {
            folders.append(directory)
            let names = (try? fileManager.contentsOfDirectory(atPath: directory.path)) ?? []
            folders += names.sorted().filter { $0.hasSuffix(".resources") }.map { directory.appendingPathComponent($0) }
        }
        var seen = Set<String>()
        var result: [URL] = []
        for folder in folders where seen.insert(folder.standardizedFileURL.path).inserted {
            let names = (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() where (name as NSString).pathExtension.lowercased() == "xcmappingmodel" {
                result.append(folder.appendingPathComponent(name))
            }
        }
        return result
    }

    // MARK: - Parsing

    static func parse(_ url: URL) throws -> Contents {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw failure(url, "there is no such file")
        }
        let xmlURL = isDirectory.boolValue ? url.appendingPathComponent("xcmapping.xml") : url
        guard let data = FileManager.default.contents(atPath: xmlURL.path) else {
            throw failure(url, "\(xmlURL.lastPathComponent) cannot be read")
        }
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        guard parser.parse(), reader.sawDatabase else {
            throw failure(url, "it is not a mapping model file (line \(parser.lineNumber): "
                + "\(parser.parserError?.localizedDescription ?? "no <database> element"))")
        }
        guard let root = reader.objects.values.first(where: { $0.type == "XDDEVMAPPINGMODEL" }) else {
            throw failure(url, "it holds no XDDEVMAPPINGMODEL object")
        }
        return Contents(url: url, objects: reader.objects, root: root)
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var objects: [String: Object] = [:]
        var sawDatabase = false
        private var current: (id: String, object: Object)?
        private var attributeName: String?
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes: [String: String] = [:]) {
            switch elementName {
            case "database":
                sawDatabase = true
            case "object":
                current = (attributes["id"] ?? "", Object(type: (attributes["type"] ?? "").uppercased()))
            case "attribute" where current != nil:
                attributeName = attributes["name"]?.lowercased()
                text = ""
            case "relationship" where current != nil:
                if let name = attributes["name"]?.lowercased() {
                    let refs = (attributes["idrefs"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
                    current?.object.relationships[name] = refs
                }
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if attributeName != nil { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?) {
            switch elementName {
            case "attribute":
                if let name = attributeName { current?.object.attributes[name] = text }
                attributeName = nil
            case "object":
                if let current { objects[current.id] = current.object }
                current = nil
            default:
                break
            }
        }
    }

    // MARK: - Building

    static func build(_ contents: Contents, source: NSManagedObjectModel,
                      destination: NSManagedObjectModel) throws -> NSMappingModel {
        let sources = source.entitiesByName, destinations = destination.entitiesByName
        let entityObjects = (contents.root.relationships["entitymappings"] ?? [])
            .compactMap { contents.objects[$0] }
            .sorted { Int($0.string("mappingnumber") ?? "") ?? 0 < Int($1.string("mappingnumber") ?? "") ?? 0 }
        var mappings: [NSEntityMapping] = []
        for object in entityObjects {
            let mapping = NSEntityMapping()
            let sourceName = object.string("sourcename"), destinationName = object.string("destinationname")
            let sourceEntity = sourceName.flatMap { sources[$0] }
            let destinationEntity = destinationName.flatMap { destinations[$0] }
            if let sourceName, sourceEntity == nil {
                throw failure(contents.url, "an entity mapping reads \(sourceName), which the source model does not have")
            }
            if let destinationName, destinationEntity == nil {
                throw failure(contents.url, "an entity mapping writes \(destinationName), which the destination model does not have")
            }
            mapping.name = object.string("name")
                ?? ((sourceName != nil && destinationName != nil) ? "\(sourceName!)To\(destinationName!)"
                    : destinationName ?? sourceName ?? "")
            mapping.sourceEntityName = sourceName
            mapping.destinationEntityName = destinationName
            mapping.sourceEntityVersionHash = sourceEntity?.versionHash
            mapping.destinationEntityVersionHash = destinationEntity?.versionHash
            mapping.entityMigrationPolicyClassName = object.string("migrationpolicyclassname")
            mapping.userInfo = userInfo(object.data("userinfodata"))
            mapping.mappingType = mappingType(object.string("mappingtypename"), source: sourceEntity,
                                              destination: destinationEntity,
                                              hasPolicy: mapping.entityMigrationPolicyClassName != nil)
            if let sourceName {
                if let written = try expression(object, "sourceexpressiondata", in: contents.url,
                                                 label: "the source expression of \(mapping.name!)") {
                    mapping.sourceExpression = written
                } else {
                    mapping.sourceExpression = NSEntityMapping.defaultSourceExpression(
                        entityName: sourceName, predicate: object.string("sourcefilterpredicatestring"))
                }
            }
            var attributes: [NSPropertyMapping] = [], relationships: [NSPropertyMapping] = []
            for (key, isRelationship) in [("attributemappings", false), ("relationshipmappings", true)] {
                for id in object.relationships[key] ?? [] {
                    guard let property = contents.objects[id], let name = property.string("name") else { continue }
                    let propertyMapping = NSPropertyMapping()
                    propertyMapping.name = name
                    propertyMapping.userInfo = userInfo(property.data("userinfodata"))
                    if let written = try expression(property, "valueexpressiondata", in: contents.url,
                                                    label: "the value expression of \(mapping.name!).\(name)") {
                        propertyMapping.valueExpression = written
                        if isRelationship { relationships.append(propertyMapping) } else { attributes.append(propertyMapping) }
                        continue
                    }
                    let keyPath = property.string("sourcekeypath") ?? name
                    if isRelationship {
                        if let through = property.string("sourcemappingname") {
                            propertyMapping.valueExpression = NSExpression(
                                forFunction: NSExpression(forVariable: "manager"),
                                selectorName: "destinationInstancesForEntityMappingNamed:sourceInstances:",
                                arguments: [NSExpression(forConstantValue: through), MappingInference.sourceValue(keyPath)])
                        } else if sourceEntity?.relationshipsByName[keyPath] != nil {
                            propertyMapping.valueExpression = MappingInference.relationshipValue(keyPath)
                        }
                        relationships.append(propertyMapping)
                    } else {
                        if sourceEntity?.attributesByName[keyPath] != nil || property.string("sourcekeypath") != nil {
                            propertyMapping.valueExpression = MappingInference.sourceValue(keyPath)
                        }
                        attributes.append(propertyMapping)
                    }
                }
            }
            mapping.attributeMappings = attributes
            mapping.relationshipMappings = relationships
            mappings.append(mapping)
        }
        guard !mappings.isEmpty else { throw failure(contents.url, "it holds no entity mapping") }
        return NSMappingModel(entityMappings: mappings)
    }

    /// The archived expression an object keeps under `key`: nil when there is none, or
    /// when it cannot be read but Xcode may regenerate it (`autogenerateexpression`).
    ///
    /// - Throws: when an expression written by hand cannot be read.
    private static func expression(_ object: Object, _ key: String, in url: URL, label: String) throws -> NSExpression? {
        guard let data = object.data(key) else { return nil }
        if let expression = ArchivedExpression.decode(data) { return expression }
        if object.flag("autogenerateexpression") { return nil }
        throw failure(url, "\(label) is an archived NSExpression this reader does not know")
    }

    private static func mappingType(_ written: String?, source: NSEntityDescription?,
                                    destination: NSEntityDescription?, hasPolicy: Bool) -> NSEntityMappingType {
        switch written?.lowercased() {
        case "custom": return .customEntityMappingType
        case "add": return .addEntityMappingType
        case "remove": return .removeEntityMappingType
        case "copy": return .copyEntityMappingType
        case "transform": return .transformEntityMappingType
        default: break
        }
        guard let source else { return .addEntityMappingType }
        guard let destination else { return .removeEntityMappingType }
        if hasPolicy { return .customEntityMappingType }
        return source.versionHash == destination.versionHash && source.name == destination.name
            ? .copyEntityMappingType : .transformEntityMappingType
    }

    /// A user info dictionary archived by Xcode (nil when absent or unreadable).
    private static func userInfo(_ data: Data?) -> [AnyHashable: Any]? {
        guard let data else { return nil }
        if let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
           plist["$archiver"] == nil {
            return plist
        }
        let object = try? NSKeyedUnarchiver.unarchivedObject(
            ofClasses: [NSDictionary.self, NSString.self, NSNumber.self, NSArray.self], from: data)
        return (object as? NSDictionary).map { dictionary in
            var result: [AnyHashable: Any] = [:]
            for (key, value) in dictionary { if let key = key as? AnyHashable { result[key] = value } }
            return result
        }
    }

    // MARK: - Models named by the file

    /// The model at a path the file recorded, tried as written, then against each folder
    /// above the mapping model (with the whole path and with its last one or two parts).
    static func model(recordedAt path: String?, near mappingURL: URL) -> NSManagedObjectModel? {
        guard let path, !path.isEmpty else { return nil }
        let parts = path.split(separator: "/").map(String.init)
        var tails = [path]
        if parts.count >= 2 { tails.append(parts.suffix(2).joined(separator: "/")) }
        if let last = parts.last { tails.append(last) }
        var candidates: [URL] = path.hasPrefix("/") ? [URL(fileURLWithPath: path)] : []
        var folder = mappingURL.deletingLastPathComponent()
        for _ in 0..<6 {
            for tail in tails { candidates.append(folder.appendingPathComponent(tail)) }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        for candidate in candidates where FileManager.default.fileExists(atPath: candidate.path) {
            if let model = try? NSManagedObjectModel.load(contentsOf: candidate) { return model }
        }
        return nil
    }

    static func failure(_ url: URL, _ reason: String) -> NSError {
        CoreDataError.make(
            NSMigrationMissingMappingModelError,
            "The mapping model at \(url.path) cannot be used: \(reason).",
            userInfo: [NSFilePathErrorKey: url.path, NSURLErrorKey: url])
    }
}
