import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// Archives `object` with `NSKeyedArchiver` and reads it back with `NSKeyedUnarchiver`, as
/// Apple code does.
private func roundTrip<T>(_ object: T) throws -> T {
    let data = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    return try #require(unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? T)
}

/// Archives a fetch request's fields with `NSKeyedArchiver` and reads them back, the way
/// Linux allows (its archiver cannot name the generic `NSFetchRequest` class).
private func roundTrip<ResultType>(_ request: NSFetchRequest<ResultType>) throws -> NSFetchRequest<ResultType> {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    request.encode(with: archiver)
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
    unarchiver.requiresSecureCoding = false
    return try #require(NSFetchRequest<ResultType>(coder: unarchiver))
}

/// The library model with every kind of description and setting a model can archive.
private func richModel() -> NSManagedObjectModel {
    let model = Models.library().copy() as! NSManagedObjectModel  // library() is frozen; its copy is editable
    let book = model.entitiesByName["Book"]!
    let title = book.propertiesByName["title"]!
    title.isOptional = false
    title.userInfo = ["hint": "shown in lists"]
    title.versionHashModifier = "v2"
    title.setValidationPredicates([NSPredicate(format: "length >= 2")], withValidationWarnings: ["too short"])
    let price = attribute("price", .decimalAttributeType)
    price.defaultValue = NSDecimalNumber(string: "9.99")
    let authorCount = NSDerivedAttributeDescription()
    authorCount.name = "authorCount"
    authorCount.attributeType = .integer64AttributeType
    authorCount.derivationExpression = NSExpression(format: "authors.@count")
    let sameShelf = NSFetchedPropertyDescription()
    sameShelf.name = "sameShelf"
    let sameShelfRequest = NSFetchRequest<NSFetchRequestResult>(entityName: "Book")
    sameShelfRequest.predicate = NSPredicate(format: "shelf == $FETCH_SOURCE.shelf")
    sameShelf.fetchRequest = sameShelfRequest
    book.properties += [price, authorCount, sameShelf]
    book.indexes = [NSFetchIndexDescription(name: "byTitle", elements: [
        NSFetchIndexElementDescription(property: title, collationType: .binary),
    ])]
    book.uniquenessConstraints = [["title"]]
    book.userInfo = ["table": "books"]
    model.setEntities([book, model.entitiesByName["Author"]!], forConfigurationName: "Reading")
    let template = NSFetchRequest<NSFetchRequestResult>(entityName: "Book")
    template.predicate = NSPredicate(format: "title BEGINSWITH[c] $PREFIX")
    template.sortDescriptors = [NSSortDescriptor(key: "title", ascending: false)]
    template.fetchLimit = 10
    model.setFetchRequestTemplate(template, forName: "BooksByPrefix")
    model.versionIdentifiers = ["2.0"]
    return model
}

@Suite struct ModelArchivingTests {
    @Test("a model round-trips through NSKeyedArchiver with its entities, references, templates and version hashes")
    func modelRoundTrip() throws {
        let model = richModel()
        let decoded = try roundTrip(model)
        #expect(decoded.isEditable)
        #expect(decoded.entityVersionHashesByName == model.entityVersionHashesByName)
        #expect(Set(decoded.entitiesByName.keys) == Set(model.entitiesByName.keys))
        #expect(decoded.versionIdentifiers == ["2.0"])
        #expect(decoded.entities(forConfigurationName: "Reading")?.compactMap(\.name).sorted() == ["Author", "Book"])

        let book = try #require(decoded.entitiesByName["Book"])
        let shelf = try #require(decoded.entitiesByName["Shelf"])
        #expect(book.userInfo?["table"] as? String == "books")
        let bookShelf = try #require(book.relationshipsByName["shelf"])
        #expect(bookShelf.destinationEntity === shelf)
        #expect(bookShelf.inverseRelationship === shelf.relationshipsByName["books"])
        #expect(shelf.relationshipsByName["books"]?.isOrdered == true)
        let message = try #require(decoded.entitiesByName["Message"])
        #expect(decoded.entitiesByName["TextMessage"]?.superentity === message)
        #expect(decoded.entitiesByName["TextMessage"]?.propertiesByName["sentAt"] != nil)

        let title = try #require(book.attributesByName["title"])
        #expect(!title.isOptional && title.isIndexed)
        #expect(title.userInfo?["hint"] as? String == "shown in lists")
        #expect(title.validationPredicates.first?.description == "length >= 2")
        #expect(title.validationWarnings.first as? String == "too short")
        #expect((book.attributesByName["price"]?.defaultValue as? NSDecimalNumber) == NSDecimalNumber(string: "9.99"))
        let derived = try #require(book.attributesByName["authorCount"] as? NSDerivedAttributeDescription)
        #expect(derived.derivationExpression?.description == "authors.@count")
        let fetched = try #require(book.propertiesByName["sameShelf"] as? NSFetchedPropertyDescription)
        #expect(fetched.fetchRequest?.entity === book)
        #expect(book.indexes.first?.elements.first?.property === title)
        #expect(book.indexes.first?.entity === book)
        #expect(book.uniquenessConstraints.first?.first as? String == "title")

        let template = try #require(decoded.fetchRequestTemplate(forName: "BooksByPrefix"))
        #expect(template.entity === book)
        #expect(template.predicate == NSPredicate(format: "title BEGINSWITH[c] $PREFIX"))
        #expect(template.sortDescriptors == [NSSortDescriptor(key: "title", ascending: false)])
        #expect(template.fetchLimit == 10)
    }

    @Test("a decoded model opens a store and its template and derived attribute work", arguments: allStoreTypes)
    func decodedModelWorks(storeType: String) throws {
        let decoded = try roundTrip(richModel())
        let stack = try TestStack(storeType: storeType, model: decoded)
        let author = stack.insert("Author", ["name": "Le Guin"])
        let book = stack.insert("Book", ["title": "Earthsea"])
        book.mutableSetValue(forKey: "authors").add(author)
        stack.insert("Book", ["title": "Dune"])
        try stack.context.save()
        #expect((book.value(forKey: "authorCount") as? NSNumber)?.intValue == 1)
        #expect(book.value(forKey: "price") as? NSDecimalNumber == NSDecimalNumber(string: "9.99"))
        let request = try #require(decoded.fetchRequestFromTemplate(withName: "BooksByPrefix",
                                                                    substitutionVariables: ["PREFIX": "ear"]))
        let found = try stack.context.fetch(request) as? [NSManagedObject]
        #expect(found?.compactMap { $0.value(forKey: "title") as? String } == ["Earthsea"])
    }

    @Test("an entity and its properties archive alone; the relationships find their destinations in the model that takes them")
    func entityRoundTrip() throws {
        let model = Models.library()
        let author = try #require(model.entitiesByName["Author"])
        let decoded = try roundTrip(author)
        #expect(decoded.name == "Author")
        #expect(decoded.managedObjectModel == nil)
        let books = try #require(decoded.relationshipsByName["books"])
        #expect(books.isToMany && books.isOrdered)
        #expect(books.entity === decoded)

        let book = try roundTrip(try #require(model.entitiesByName["Book"]))
        let other = NSManagedObjectModel()
        other.entities = [decoded, book]
        _ = try #require(book.relationshipsByName["shelf"]) // names Shelf, which this model lacks
        book.properties = book.properties.filter { $0.name != "shelf" && $0.name != "lastMessage" }
        freeze(other)
        #expect(books.destinationEntity === book)
        #expect(books.inverseRelationship === book.relationshipsByName["authors"])
    }

    @Test("an archived fetch request keeps its predicate, sort order and options and fetches the same objects",
          arguments: allStoreTypes)
    func fetchRequestRoundTrip(storeType: String) throws {
        let stack = try TestStack(storeType: storeType)
        for (name, quantity) in [("Apples", 3), ("Bread", 1), ("Cheese", 5)] {
            stack.insert("ShoppingItem", ["name": name, "quantity": quantity])
        }
        try stack.context.save()
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        request.predicate = NSPredicate(format: "quantity > %d", 1)
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false, selector: Selector("caseInsensitiveCompare:"))]
        request.fetchLimit = 5
        request.fetchBatchSize = 2
        request.returnsObjectsAsFaults = false
        request.relationshipKeyPathsForPrefetching = ["list"]
        let decoded = try roundTrip(request)
        #expect(decoded.entityName == "ShoppingItem")
        #expect(decoded.predicate == request.predicate)
        #expect(decoded.sortDescriptors == request.sortDescriptors)
        #expect(decoded.sortDescriptors?.first?.selector == Selector("caseInsensitiveCompare:"))
        #expect(decoded.fetchLimit == 5 && decoded.fetchBatchSize == 2)
        #expect(decoded.returnsObjectsAsFaults == false && decoded.includesPendingChanges)
        #expect(decoded.relationshipKeyPathsForPrefetching == ["list"])
        let names = try stack.context.fetch(decoded).compactMap { $0.value(forKey: "name") as? String }
        #expect(names == ["Cheese", "Apples"])

        let total = NSExpressionDescription()
        total.name = "total"
        total.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "quantity")])
        total.resultType = .integer64
        let sums = NSFetchRequest<NSDictionary>(entityName: "ShoppingItem")
        sums.resultType = .dictionaryResultType
        sums.propertiesToFetch = [total]
        let decodedSums = try roundTrip(sums)
        let column = try #require(decodedSums.propertiesToFetch?.first as? NSExpressionDescription)
        #expect(column.expressionResultType == .integer64AttributeType)
        let rows = try stack.context.fetch(decodedSums)
        #expect((rows.first?["total"] as? NSNumber)?.intValue == 9)
    }

    @Test("fetch indexes archive their elements by property name, kind and order")
    func fetchIndexRoundTrip() throws {
        let element = NSFetchIndexElementDescription(property: attribute("name", .stringAttributeType), collationType: .rTree)
        element.isAscending = false
        let index = NSFetchIndexDescription(name: "byName", elements: [element])
        index.partialIndexPredicate = NSPredicate(format: "name != nil")
        let decoded = try roundTrip(index)
        #expect(decoded.name == "byName")
        #expect(decoded.partialIndexPredicate == index.partialIndexPredicate)
        let decodedElement = try #require(decoded.elements.first)
        #expect(decodedElement.propertyName == "name")
        #expect(decodedElement.collationType == .rTree && !decodedElement.isAscending)
        #expect(decodedElement.indexDescription === decoded)
    }
}
