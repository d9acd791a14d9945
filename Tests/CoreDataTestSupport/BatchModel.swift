import Foundation
import CoreData

/// The model of the batch request tests:
/// - `Quake` (`code` unique, `magnitude`, `place`, `time`, `count` defaulting to 0, `felt`,
///   mandatory `source` defaulting to "usgs"), with sub-entity `Aftershock` (`parentCode`);
/// - `Author` ⇄ `Book` (`Author.books` cascades, `Book.author` nullifies), `Book` ⇄ `Tag`
///   (many-to-many, nullify), `Shelf` → `Book` (`Shelf.books` nullifies, `Book.shelf`),
///   `Library` → `Member` (deny), `Owner` → `Pet` (nullify; `Pet.owner` is mandatory).
public enum BatchModel {
    public static func make() -> NSManagedObjectModel {
        let count = attribute("count", .integer64AttributeType)
        count.defaultValue = 0
        let source = attribute("source", .stringAttributeType, optional: false)
        source.defaultValue = "usgs"
        let quake = entity("Quake", [
            attribute("code", .stringAttributeType),
            attribute("magnitude", .doubleAttributeType),
            attribute("place", .stringAttributeType),
            attribute("time", .dateAttributeType),
            count,
            attribute("felt", .booleanAttributeType),
            source,
        ])
        quake.uniquenessConstraints = [["code"]]
        let aftershock = entity("Aftershock", [attribute("parentCode", .stringAttributeType)])
        quake.subentities = [aftershock]

        let author = entity("Author", [attribute("name", .stringAttributeType)])
        let book = entity("Book", [attribute("title", .stringAttributeType), attribute("pages", .integer32AttributeType)])
        let tag = entity("Tag", [attribute("label", .stringAttributeType)])
        let shelf = entity("Shelf", [attribute("name", .stringAttributeType)])
        let books = relationship("books", to: book, toMany: true)
        books.deleteRule = .cascadeDeleteRule
        let bookAuthor = relationship("author", to: author)
        bookAuthor.deleteRule = .nullifyDeleteRule
        connect(books, bookAuthor)
        let tags = relationship("tags", to: tag, toMany: true)
        let tagged = relationship("books", to: book, toMany: true)
        connect(tags, tagged)
        let shelfBooks = relationship("books", to: book, toMany: true)
        shelfBooks.deleteRule = .nullifyDeleteRule
        let bookShelf = relationship("shelf", to: shelf)
        connect(shelfBooks, bookShelf)
        author.properties += [books]
        book.properties += [bookAuthor, tags, bookShelf]
        tag.properties += [tagged]
        shelf.properties += [shelfBooks]

        let library = entity("Library", [attribute("name", .stringAttributeType)])
        let member = entity("Member", [attribute("name", .stringAttributeType)])
        let members = relationship("members", to: member, toMany: true)
        members.deleteRule = .denyDeleteRule
        let memberLibrary = relationship("library", to: library)
        connect(members, memberLibrary)
        library.properties += [members]
        member.properties += [memberLibrary]

        let owner = entity("Owner", [attribute("name", .stringAttributeType)])
        let pet = entity("Pet", [attribute("name", .stringAttributeType)])
        let pets = relationship("pets", to: pet, toMany: true)
        pets.deleteRule = .nullifyDeleteRule
        let petOwner = relationship("owner", to: owner)
        petOwner.isOptional = false
        connect(pets, petOwner)
        owner.properties += [pets]
        pet.properties += [petOwner]

        let model = NSManagedObjectModel()
        model.entities = [quake, aftershock, author, book, tag, shelf, library, member, owner, pet]
        return model
    }
}
