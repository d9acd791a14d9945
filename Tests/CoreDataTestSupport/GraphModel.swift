import Foundation
import CoreData

/// Every kind of relationship, for graph tests:
/// - Folder.parent ↔ Folder.children: reflexive one-to-many, ordered, Cascade (children)
/// - Folder.notes ↔ Note.folder: one-to-many, Nullify; Note.folder is No Action
/// - Note.tags ↔ Tag.notes: many-to-many, tags ordered; Tag.notes is Deny
/// - Tag.broader ↔ Tag.narrower: reflexive many-to-many
/// - Note.attachment ↔ Attachment.note: one-to-one, Cascade from the note; Attachment is
///   abstract with sub-entities ImageAttachment and FileAttachment
public enum GraphModel {
    public static func make() -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = optional
            return attribute
        }
        func relationship(_ name: String, _ destination: NSEntityDescription, toMany: Bool,
                          rule: NSDeleteRule = .nullifyDeleteRule, ordered: Bool = false) -> NSRelationshipDescription {
            let relationship = NSRelationshipDescription()
            relationship.name = name
            relationship.destinationEntity = destination
            relationship.maxCount = toMany ? 0 : 1
            relationship.deleteRule = rule
            relationship.isOrdered = ordered
            return relationship
        }
        func pair(_ a: NSRelationshipDescription, _ b: NSRelationshipDescription) {
            a.inverseRelationship = b
            b.inverseRelationship = a
        }
        func entity(_ name: String, _ type: NSManagedObject.Type? = nil) -> NSEntityDescription {
            let entity = NSEntityDescription()
            entity.name = name
            if let type { entity.managedObjectClassName = String(reflecting: type) }
            return entity
        }
        let folder = entity("Folder", Folder.self), note = entity("Note", Note.self)
        let tag = entity("Tag", GraphTag.self), attachment = entity("Attachment")
        let image = entity("ImageAttachment"), file = entity("FileAttachment")
        attachment.isAbstract = true
        attachment.subentities = [image, file]

        let parent = relationship("parent", folder, toMany: false)
        let children = relationship("children", folder, toMany: true, rule: .cascadeDeleteRule, ordered: true)
        pair(parent, children)
        let notes = relationship("notes", note, toMany: true)
        let noteFolder = relationship("folder", folder, toMany: false, rule: .noActionDeleteRule)
        pair(notes, noteFolder)
        let tags = relationship("tags", tag, toMany: true, ordered: true)
        let tagNotes = relationship("notes", note, toMany: true, rule: .denyDeleteRule)
        pair(tags, tagNotes)
        let broader = relationship("broader", tag, toMany: true)
        let narrower = relationship("narrower", tag, toMany: true)
        pair(broader, narrower)
        let noteAttachment = relationship("attachment", attachment, toMany: false, rule: .cascadeDeleteRule)
        let attachmentNote = relationship("note", note, toMany: false)
        pair(noteAttachment, attachmentNote)

        folder.properties = [attribute("name", .stringAttributeType), parent, children, notes]
        note.properties = [attribute("title", .stringAttributeType), noteFolder, tags, noteAttachment]
        tag.properties = [attribute("name", .stringAttributeType), tagNotes, broader, narrower]
        attachment.properties = [attribute("fileName", .stringAttributeType), attachmentNote]
        image.properties = [attribute("width", .integer64AttributeType)]
        file.properties = [attribute("size", .integer64AttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [folder, note, tag, attachment, image, file]
        return model
    }
}

public final class Folder: NSManagedObject {
    @Managed public var name: String?
    @Managed public var parent: Folder?
    @Managed public var children: NSOrderedSet
    @Managed public var notes: Set<Note>
}

public final class Note: NSManagedObject {
    @Managed public var title: String?
    @Managed public var folder: Folder?
    @Managed public var tags: [GraphTag]
    @Managed public var attachment: NSManagedObject?
    public var preparedForDeletion = 0
    public override func prepareForDeletion() { preparedForDeletion += 1 }
}

/// Generated-accessor style, written with the live proxies (Linux has no code generation).
extension Note {
    public func addToTags(_ value: GraphTag) { mutableOrderedSetValue(forKey: "tags").add(value) }
    public func removeFromTags(_ value: GraphTag) { mutableOrderedSetValue(forKey: "tags").remove(value) }
    public func insertIntoTags(_ value: GraphTag, at index: Int) { mutableOrderedSetValue(forKey: "tags").insert(value, at: index) }
}

public final class GraphTag: NSManagedObject {
    @Managed public var name: String?
    @Managed public var notes: NSSet
}

extension GraphTag {
    public func addToNotes(_ value: Note) { mutableSetValue(forKey: "notes").add(value) }
    public func removeFromNotes(_ value: Note) { mutableSetValue(forKey: "notes").remove(value) }
}

extension TestStack {
    /// A stack over ``GraphModel``.
    public static func graph(_ storeType: String) throws -> TestStack {
        try TestStack(storeType: storeType, model: GraphModel.make())
    }
}
