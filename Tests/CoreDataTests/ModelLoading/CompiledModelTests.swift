import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CoreDataTestSupport

/// Compiled models (`.mom`/`.momd`, Apple's keyed archive), checked against what Xcode
/// wrote: each version equals its XML source.
@Suite("Compiled models: .mom, .momd, versionChecksum, model references")
struct CompiledModelTests {
    static let compiled = ["alemar11_CoreDataPlus__SampleModel", "alemar11_CoreDataPlus__SampleModel3"]

    /// Everything about an entity that the model file says, as comparable text.
    static func summary(_ model: NSManagedObjectModel) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for entity in model.entities {
            var lines = [
                "super=\(entity.superentity?.name ?? "-") abstract=\(entity.isAbstract) class=\(entity.managedObjectClassName ?? "")",
                "renaming=\(entity.renamingIdentifier ?? entity.name ?? "") modifier=\(entity.versionHashModifier ?? "-")",
                "unique=\(entity.uniquenessConstraints.map { $0.map { "\($0)" }.joined(separator: "+") }.sorted())",
                "indexes=\(entity.indexes.map { "\($0.name):" + $0.elements.map { "\($0.propertyName ?? "?")\($0.isAscending)" }.joined(separator: ",") }.sorted())",
                "hash=\(Fixtures.hex(entity.versionHash))",
            ]
            for property in entity.properties.filter({ $0.entity === entity }).sorted(by: { $0.name < $1.name }) {
                var line = "\(property.name) optional=\(property.isOptional) transient=\(property.isTransient) indexed=\(property.isIndexed)"
                line += " renaming=\(property.renamingIdentifier ?? property.name) hash=\(Fixtures.hex(property.versionHash))"
                switch property {
                case let attribute as NSAttributeDescription:
                    line += " type=\(attribute.attributeType.rawValue) default=\(attribute.defaultValue.map { "\($0)" } ?? "nil")"
                    line += " transformer=\(attribute.valueTransformerName ?? "-") external=\(attribute.allowsExternalBinaryDataStorage)"
                    line += " history=\(attribute.preservesValueInHistoryOnDeletion)"
                    line += " min=\(attribute.minimumValue.map { "\($0)" } ?? "-") max=\(attribute.maximumValue.map { "\($0)" } ?? "-")"
                case let relationship as NSRelationshipDescription:
                    line += " to=\(relationship.destinationEntity?.name ?? "?") inverse=\(relationship.inverseRelationship?.name ?? "-")"
                    line += " count=\(relationship.minCount)...\(relationship.maxCount) rule=\(relationship.deleteRule.rawValue) ordered=\(relationship.isOrdered)"
                default:
                    line += " \(type(of: property))"
                }
                lines.append(line)
            }
            result[entity.name ?? ""] = lines
        }
        return result
    }

    @Test("every version of both compiled .momd fixtures loads and equals its XML source, hashes equal to VersionInfo.plist",
          arguments: compiled)
    func compiledEqualsSource(_ name: String) throws {
        let momd = Fixtures.compiled.appendingPathComponent("\(name).momd")
        let versions = try CompiledModelFile.allModels(momd)
        let oracle = try Fixtures.compiledVersionHashes("\(name).momd")
        #expect(versions.count == 3)
        #expect(Set(versions.map(\.name)) == Set(oracle.keys))
        let sources = try ModelBundle.open(Fixtures.model("\(name).xcdatamodeld"))
        for (version, compiled) in versions {
            let source = try sources.model(forVersion: version)
            let ours = Self.summary(compiled), theirs = Self.summary(source)
            #expect(Set(ours.keys) == Set(theirs.keys), "\(version) entities")
            for (entity, lines) in theirs {
                #expect(ours[entity] == lines, "\(version).\(entity)")
            }
            #expect(compiled.versionIdentifiers == source.versionIdentifiers, "\(version) identifiers")
            #expect(compiled.entityVersionHashesByName == oracle[version], "\(version) hashes")
            #expect(compiled.versionChecksum == source.versionChecksum)
            try compiled.freeze()
        }
    }

    @Test("NSManagedObjectModel(contentsOf:) reads a .momd (its current version), a .mom and an .omo")
    func contentsOfCompiledURLs() throws {
        let momd = Fixtures.compiled.appendingPathComponent("alemar11_CoreDataPlus__SampleModel.momd")
        let current = try #require(NSManagedObjectModel(contentsOf: momd))
        #expect(Set(current.entitiesByName.keys) == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
        let v2 = try #require(NSManagedObjectModel(contentsOf: momd.appendingPathComponent("SampleModel2.mom")))
        #expect(v2.entitiesByName["LuxuryCar"]?.renamingIdentifier == "ExpensiveSportCar")
        #expect(v2.entitiesByName["Car"]?.indexes.map(\.name) == ["byMakerAndNumberPlate"])
        let omo = try #require(NSManagedObjectModel(contentsOf: momd.appendingPathComponent("SampleModel.omo")))
        #expect(omo.entityVersionHashesByName == current.entityVersionHashesByName)
        let person = try #require(current.entitiesByName["Person"])
        #expect(person.attributesByName["id"]?.preservesValueInHistoryOnDeletion == true)
        #expect(person.relationshipsByName["cars"]?.inverseRelationship?.name == "owner")
    }

    @Test("versionChecksum equals the checksums Xcode wrote in VersionInfo.plist, every version")
    func versionChecksum() throws {
        let url = Fixtures.compiled.appendingPathComponent("alemar11_CoreDataPlus__SampleModel3.momd/VersionInfo.plist")
        let info = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [String: Any])
        let checksums = try #require(info["NSManagedObjectModel_VersionChecksums"] as? [String: String])
        #expect(checksums.count == 3)
        let bundle = try ModelBundle.open(Fixtures.model("alemar11_CoreDataPlus__SampleModel3.xcdatamodeld"))
        for (version, checksum) in checksums {
            #expect(try bundle.model(forVersion: version).versionChecksum == checksum, "\(version)")
        }
    }

    @Test("a truncated, foreign or garbage .mom is a clear NSCocoaErrorDomain error, never a trap")
    func badCompiledModels() throws {
        let folder = try TemporaryDirectory()
        let good = try Data(contentsOf: Fixtures.compiled.appendingPathComponent("alemar11_CoreDataPlus__SampleModel.momd/SampleModel.mom"))
        let foreign = try NSKeyedArchiver.archivedData(withRootObject: NSString(string: "not a model"), requiringSecureCoding: false)
        let plist = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .binary, options: 0)
        var flipped = good
        flipped[flipped.count - 20] ^= 0xFF
        let cases: [(String, Data)] = [
            ("truncated", good.prefix(good.count / 2)), ("empty", Data()), ("garbage", Data((0..<400).map { UInt8($0 % 251) })),
            ("foreign archive", foreign), ("plain plist", plist), ("damaged trailer", flipped),
            ("text", Data("<model/>".utf8)),
        ]
        for (label, data) in cases {
            let url = folder.file("\(label.replacingOccurrences(of: " ", with: "_")).mom")
            try data.write(to: url)
            #expect(NSManagedObjectModel(contentsOf: url) == nil, "\(label)")
            do {
                _ = try NSManagedObjectModel.load(contentsOf: url)
                Issue.record("\(label) loaded")
            } catch let error as NSError {
                #expect(error.domain == NSCocoaErrorDomain, "\(label)")
                #expect(error.code == NSFileReadCorruptFileError, "\(label): \(error)")
                #expect(error.localizedDescription.contains(url.path), "\(label)")
            }
        }
    }

    @Test("a compiled model damaged byte by byte never traps: it loads or throws in NSCocoaErrorDomain")
    func damagedCompiledModels() throws {
        let source = Fixtures.compiled.appendingPathComponent("alemar11_CoreDataPlus__SampleModel.momd/SampleModel2.mom")
        let good = try Data(contentsOf: source)
        var random = SplitMix64(seed: 14)
        var loaded = 0, refused = 0
        for round in 0..<400 {
            var data = good
            if round % 4 == 3 {
                data = data.prefix(Int(random.next() % UInt64(data.count)))
            } else {
                for _ in 0...(round % 3) {
                    let index = Int(random.next() % UInt64(data.count))
                    data[index] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            do {
                let model = try CompiledModelReader.model(from: data, source: source)
                _ = model.entityVersionHashesByName
                _ = try? model.freeze()
                loaded += 1
            } catch let error as NSError {
                #expect(error.domain == NSCocoaErrorDomain)
                refused += 1
            }
        }
        #expect(loaded + refused == 400)
        #expect(refused > 0)
    }

    // MARK: - Finding compiled models

    @Test("NSManagedObjectModelReference resolves a file, a name in a bundle or a model by its version checksum")
    func modelReference() throws {
        let momd = Fixtures.compiled.appendingPathComponent("alemar11_CoreDataPlus__SampleModel3.momd")
        let v2 = try CompiledModelFile.loadVersion(momd.appendingPathComponent("SampleModel3_v2.mom"))
        let byFile = NSManagedObjectModelReference(fileURL: momd, versionChecksum: v2.versionChecksum)
        #expect(byFile.resolvedModel.entityVersionHashesByName == v2.entityVersionHashesByName)
        #expect(byFile.versionChecksum == "rzn6eNBLyn8k3AoC3kH3yymPT0vSUPaVcgi0v2SuHS8=")
        let byModel = NSManagedObjectModelReference(model: v2, versionChecksum: v2.versionChecksum)
        #expect(byModel.resolvedModel === v2)
        let bundle = try #require(Bundle(path: Fixtures.compiled.path))
        let byName = NSManagedObjectModelReference(
            name: "alemar11_CoreDataPlus__SampleModel3", in: bundle, versionChecksum: "HFFd7j8Z9/s0tJ1vqPzVSPX/pNYEbNAlXayypitIFow=")
        #expect(try byName.resolve().versionChecksum == "HFFd7j8Z9/s0tJ1vqPzVSPX/pNYEbNAlXayypitIFow=")
        let missing = NSManagedObjectModelReference(fileURL: momd, versionChecksum: "nope")
        #expect { try missing.resolve() } throws: { ($0 as NSError).code == NSManagedObjectModelReferenceNotFoundError }
    }

    @Test("a .momd is found by name where a source model would be, and merged for store metadata")
    func locatesCompiledModels() throws {
        let location = ModelLocator.Location(label: "fixtures", directory: Fixtures.compiled)
        let model = try ModelLocator.model(named: "alemar11_CoreDataPlus__SampleModel3", searching: [location])
        #expect(model.versionChecksum == "u970QgYhRHEJGIt0zQr1UhuZL2ZJ1KxBS+B7rkAx0ik=")
        let metadata = try Fixtures.storeMetadata("alemar11_CoreDataPlus__SampleModel_V2.sqlite")
        let bundle = try #require(Bundle(path: Fixtures.compiled.path))
        let merged = try #require(NSManagedObjectModel.mergedModel(from: [bundle], forStoreMetadata: metadata))
        #expect(merged.entitiesByName["LuxuryCar"] != nil)
    }
}
