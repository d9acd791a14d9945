import Foundation
import CoreData

/// The models of the merge-policy tests, built in code so that the test processes and the
/// writer program (`conflict-writer`) build identical models (same version hashes) for
/// one store file.
public enum ConflictModels {
    /// Notes, their owners, tags and entries:
    ///
    /// - `Note`: `title`, `body` (strings), `count` (Int64), `owner` → `Person` (to-one,
    ///   inverse `Person.notes`), `tags` ↔ `Tag.notes` (many-to-many), `entries` → `Entry`
    ///   (one-to-many, cascade, inverse `Entry.note`);
    /// - `Person`: `name`; `Tag`: `name`; `Entry`: `text`.
    public static func notes() -> NSManagedObjectModel {
        let note = entity("Note", [
            attribute("title", .stringAttributeType), attribute("body", .stringAttributeType),
            attribute("count", .integer64AttributeType),
        ])
        let person = entity("Person", [attribute("name", .stringAttributeType)])
        let tag = entity("Tag", [attribute("name", .stringAttributeType)])
        let entry = entity("Entry", [attribute("text", .stringAttributeType)])
        let owner = relationship("owner", to: person), notes = relationship("notes", to: note, toMany: true)
        connect(owner, notes)
        let tags = relationship("tags", to: tag, toMany: true), tagged = relationship("notes", to: note, toMany: true)
        connect(tags, tagged)
        let entries = relationship("entries", to: entry, toMany: true), entryNote = relationship("note", to: note)
        entries.deleteRule = .cascadeDeleteRule
        connect(entries, entryNote)
        note.properties += [owner, tags, entries]
        person.properties += [notes]
        tag.properties += [tagged]
        entry.properties += [entryNote]
        let model = NSManagedObjectModel()
        model.entities = [note, person, tag, entry]
        return model
    }

    /// The shared counters of the multi-process test, for `slots` writing contexts in all:
    ///
    /// - `Counter`: `name`, `total` (every context increments it), `c0` … `c<slots-1>`
    ///   (context *i* alone increments `c<i>`), `lastEditor` → `Editor` (to-one, every
    ///   context points it at itself), `entries` → `Entry` (one-to-many, one entry per
    ///   increment, inverse `Entry.counter`);
    /// - `Editor`: `name`, `edits` (its own context increments it), `counters`;
    /// - `Entry`: `writer`, `number`.
    public static func counters(slots: Int) -> NSManagedObjectModel {
        var counterAttributes = [attribute("name", .stringAttributeType), attribute("total", .integer64AttributeType)]
        counterAttributes += (0..<slots).map { attribute("c\($0)", .integer64AttributeType) }
        let counter = entity("Counter", counterAttributes)
        let editor = entity("Editor", [attribute("name", .stringAttributeType), attribute("edits", .integer64AttributeType)])
        let entry = entity("Entry", [attribute("writer", .stringAttributeType), attribute("number", .integer64AttributeType)])
        let lastEditor = relationship("lastEditor", to: editor), counters = relationship("counters", to: counter, toMany: true)
        connect(lastEditor, counters)
        let entries = relationship("entries", to: entry, toMany: true), entryCounter = relationship("counter", to: counter)
        connect(entries, entryCounter)
        counter.properties += [lastEditor, entries]
        editor.properties += [counters]
        entry.properties += [entryCounter]
        for attribute in counterAttributes + editor.properties.compactMap({ $0 as? NSAttributeDescription })
        where attribute.attributeType == .integer64AttributeType {
            attribute.defaultValue = 0
        }
        let model = NSManagedObjectModel()
        model.entities = [counter, editor, entry]
        return model
    }

    /// The merge policies by the names the writer program takes on its command line.
    public static let policies: [String: NSMergePolicy] = [
        "error": .error, "storeTrump": .mergeByPropertyStoreTrump, "objectTrump": .mergeByPropertyObjectTrump,
        "overwrite": .overwrite, "rollback": .rollback,
    ]

    /// Inserts, into `context` (without saving), the note every merge-policy test starts
    /// from: "Draft" / "Text" / count 1, owned by Ann, tagged red, with one entry "first".
    /// Call it on the context's queue; the model is ``notes()``.
    @discardableResult
    public static func insertDraftNote(into context: NSManagedObjectContext) -> NSManagedObject {
        let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
        note.setValuesForKeys(["title": "Draft", "body": "Text", "count": Int64(1)])
        let ann = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
        ann.setValue("Ann", forKey: "name")
        note.setValue(ann, forKey: "owner")
        let red = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        red.setValue("red", forKey: "name")
        note.mutableSetValue(forKey: "tags").add(red)
        let entry = NSEntityDescription.insertNewObject(forEntityName: "Entry", into: context)
        entry.setValue("first", forKey: "text")
        entry.setValue(note, forKey: "note")
        return note
    }
}
