import CoreData

// The shopping list from Apple's "Setting up a Core Data stack", as a command-line
// program. Items persist in DataModel.sqlite under NSPersistentContainer's default
// directory ($XDG_DATA_HOME/coredata-demo, usually ~/.local/share/coredata-demo).
//
//   coredata-demo                 add a few items, list, delete one, save
//   coredata-demo add NAME [QTY]  add an item
//   coredata-demo list            list the items
//   coredata-demo buy NAME        mark an item purchased
//   coredata-demo delete NAME     delete an item
//   coredata-demo clear           delete every item

ShoppingItem.registerSubclass()
let stack = CoreDataStack.shared
let context = stack.persistentContainer.viewContext

func items() -> [ShoppingItem] {
    let request: NSFetchRequest<ShoppingItem> = ShoppingItem.fetchRequest()
    request.sortDescriptors = [NSSortDescriptor(key: "addedAt", ascending: true)]
    do {
        return try context.fetch(request)
    } catch {
        print("Failed to fetch items:", error.localizedDescription)
        return []
    }
}

func item(named name: String) -> ShoppingItem? {
    items().first { $0.name == name }
}

func add(_ name: String, quantity: Int64 = 1) {
    let item = ShoppingItem(context: context)
    item.name = name
    item.quantity = quantity
    item.addedAt = Date()
    stack.save()
    print("Added \(name) ×\(quantity).")
}

func list() {
    let all = items()
    print(all.isEmpty ? "The shopping list is empty." : "Shopping list (\(all.count)):")
    for item in all {
        print("  [\(item.purchased ? "x" : " ")] \(item.name ?? "?") ×\(item.quantity)")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case nil:
    print("Store: \(stack.persistentContainer.persistentStoreCoordinator.persistentStores.first?.url?.path ?? "?")")
    add("Milk", quantity: 2)
    add("Bread")
    add("Eggs", quantity: 12)
    list()
    if let bread = item(named: "Bread") {
        stack.delete(item: bread)
        print("Deleted Bread.")
    }
    list()
    print("Run coredata-demo list to see what persisted.")
case "add" where arguments.count >= 2:
    add(arguments[1], quantity: arguments.count > 2 ? Int64(arguments[2]) ?? 1 : 1)
case "list":
    list()
case "buy" where arguments.count == 2:
    guard let item = item(named: arguments[1]) else { print("No item named \(arguments[1])."); exit(1) }
    item.purchased = true
    stack.save()
    print("Bought \(arguments[1]).")
case "delete" where arguments.count == 2:
    guard let item = item(named: arguments[1]) else { print("No item named \(arguments[1])."); exit(1) }
    stack.delete(item: item)
    print("Deleted \(arguments[1]).")
case "clear":
    for item in items() { context.delete(item) }
    stack.save()
    print("Cleared the list.")
default:
    print("usage: coredata-demo [add NAME [QTY] | list | buy NAME | delete NAME | clear]")
    exit(2)
}
