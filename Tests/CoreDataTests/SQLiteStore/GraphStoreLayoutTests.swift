import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct GraphStoreLayoutTests {
    @Test("every relationship kind gets the column and join-table names of Core Data's store format")
    func columnNames() throws {
        let stack = try TestStack.graph(NSSQLiteStoreType)
        let note = stack.insert("Note") as! Note
        let folder = stack.insert("Folder") as! Folder
        note.folder = folder
        let tag = stack.insert("Tag") as! GraphTag
        note.addToTags(tag)
        note.attachment = stack.insert("ImageAttachment")
        try stack.context.save()
        let db = try RawDatabase(stack.directory.appendingPathComponent("Test.sqlite"))
        // Z_ENT: Attachment 1 (FileAttachment 2, ImageAttachment 3), Folder 4, Note 5, Tag 6.
        #expect(try db.scalar("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Note'") as? Int64 == 5)
        #expect(Set(try db.columns("ZNOTE").keys).isSuperset(of: ["ZFOLDER", "ZATTACHMENT", "Z1_ATTACHMENT"]))
        #expect(Set(try db.columns("ZFOLDER").keys).isSuperset(of: ["ZPARENT", "Z_FOK_PARENT"]))
        #expect(Set(try db.columns("ZATTACHMENT").keys).isSuperset(of: ["ZNOTE", "ZWIDTH", "ZSIZE", "Z_ENT"]))
        #expect(Set(try db.columns("Z_5TAGS").keys) == ["Z_5NOTES", "Z_6TAGS", "Z_FOK_6TAGS"])
        #expect(Set(try db.columns("Z_6BROADER").keys) == ["Z_6BROADER", "Z_6NARROWER"])
        #expect(try db.scalar("SELECT Z1_ATTACHMENT FROM ZNOTE") as? Int64 == 3)
        #expect(try db.scalar("SELECT Z_ENT FROM ZATTACHMENT") as? Int64 == 3)
        #expect(try db.scalar("SELECT COUNT(*) FROM Z_5TAGS WHERE Z_FOK_6TAGS IS NOT NULL") as? Int64 == 1)
    }
}
