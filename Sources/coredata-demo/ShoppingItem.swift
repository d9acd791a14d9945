import CoreData

/// The model's `ShoppingItem` entity, with typed properties through `@Managed` (Linux's
/// replacement for `@NSManaged`).
final class ShoppingItem: NSManagedObject {
    @Managed var name: String?
    @Managed var quantity: Int64
    @Managed var purchased: Bool
    @Managed var addedAt: Date?

    @nonobjc class func fetchRequest() -> NSFetchRequest<ShoppingItem> {
        NSFetchRequest<ShoppingItem>(entityName: "ShoppingItem")
    }
}
