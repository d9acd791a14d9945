import Foundation
@_spi(Tools) import CoreData

// Model builders in code, for tests that describe their own entities, and the fixture
// models the SQLite store tests open.

/// An attribute description.
public func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true, indexed: Bool = false, transient: Bool = false) -> NSAttributeDescription {
    let a = NSAttributeDescription()
    a.name = name
    a.attributeType = type
    a.isOptional = optional
    a.isIndexed = indexed
    a.isTransient = transient
    return a
}

/// An entity description with `properties`.
public func entity(_ name: String, _ properties: [NSPropertyDescription] = [], abstract: Bool = false) -> NSEntityDescription {
    let e = NSEntityDescription()
    e.name = name
    e.isAbstract = abstract
    e.properties = properties
    return e
}

/// A relationship; call `connect` afterwards to set inverses.
public func relationship(_ name: String, to destination: NSEntityDescription, toMany: Bool = false, ordered: Bool = false) -> NSRelationshipDescription {
    let r = NSRelationshipDescription()
    r.name = name
    r.destinationEntity = destination
    r.maxCount = toMany ? 0 : 1
    r.isOrdered = ordered
    return r
}

/// Makes `a` and `b` each other's inverse.
public func connect(_ a: NSRelationshipDescription, _ b: NSRelationshipDescription) {
    a.inverseRelationship = b
    b.inverseRelationship = a
}

/// Freezes a model as a coordinator does.
@discardableResult
public func freeze(_ model: NSManagedObjectModel) -> NSManagedObjectModel {
    _ = NSPersistentStoreCoordinator(managedObjectModel: model)
    return model
}

public enum Models {
    /// A model exercising every feature of the SQLite layout:
    /// Author 1, Book 2, Item 3, Message 4 (SystemMessage 5, TextMessage 6), Shelf 7.
    public static func library() -> NSManagedObjectModel {
        let author = entity("Author", [attribute("name", .stringAttributeType)])
        let book = entity("Book", [attribute("title", .stringAttributeType, indexed: true)])
        let shelf = entity("Shelf", [attribute("label", .stringAttributeType)])
        let message = entity("Message", [attribute("sentAt", .dateAttributeType)])
        let text = entity("TextMessage", [attribute("text", .stringAttributeType)])
        let system = entity("SystemMessage", [attribute("text", .stringAttributeType)])
        message.subentities = [text, system]
        let item = entity("Item", [
            attribute("int16", .integer16AttributeType), attribute("int32", .integer32AttributeType),
            attribute("int64", .integer64AttributeType), attribute("double", .doubleAttributeType),
            attribute("float", .floatAttributeType), attribute("flag", .booleanAttributeType),
            attribute("string", .stringAttributeType), attribute("date", .dateAttributeType),
            attribute("decimal", .decimalAttributeType), attribute("binary", .binaryDataAttributeType),
            attribute("uuid", .UUIDAttributeType), attribute("uri", .URIAttributeType),
            attribute("transformable", .transformableAttributeType),
            attribute("scratch", .stringAttributeType, transient: true),
        ])
        let books = relationship("books", to: book, toMany: true, ordered: true)
        let authors = relationship("authors", to: author, toMany: true)
        connect(books, authors)
        let shelfBooks = relationship("books", to: book, toMany: true, ordered: true)
        let bookShelf = relationship("shelf", to: shelf)
        connect(shelfBooks, bookShelf)
        let lastMessage = relationship("lastMessage", to: message)
        author.properties += [books]
        book.properties += [authors, bookShelf, lastMessage]
        shelf.properties += [shelfBooks]
        let model = NSManagedObjectModel()
        model.entities = [author, book, shelf, message, text, system, item]
        return freeze(model)
    }

    /// CoreDataPlus SampleModel (version 1), from
    /// Fixtures/models/alemar11_CoreDataPlus__SampleModel.xcdatamodeld/SampleModel.xcdatamodel.
    public static func sampleModelV1() throws -> NSManagedObjectModel {
        // Loaded from the Xcode bundle: its version hashes equal the ones Apple wrote into
        // the store's metadata, which the store checks on open.
        let bundle = try ModelBundle.open(Fixtures.model("alemar11_CoreDataPlus__SampleModel.xcdatamodeld"))
        return freeze(try bundle.model(forVersion: "SampleModel"))
    }

    /// objcio Moody (first version), from
    /// Fixtures/models/objcio_core-data__Migrations_Moody.xcdatamodeld/Moody.xcdatamodel.
    public static func moody() throws -> NSManagedObjectModel {
        let bundle = try ModelBundle.open(Fixtures.model("objcio_core-data__Migrations_Moody.xcdatamodeld"))
        return freeze(try bundle.model(forVersion: "Moody"))
    }
}
