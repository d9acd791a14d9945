import CoreData

// The shopping list from Apple's "Setting up a Core Data stack", as a command-line
// program. Items persist in DataModel.sqlite under NSPersistentContainer's default
// directory: $XDG_DATA_HOME/coredata-demo, else $HOME/.local/share/coredata-demo.
//
//   coredata-demo                 add a few items, list, delete one, save
//   coredata-demo add NAME [QTY]  add an item (QTY: a whole number, 1 or more; default 1)
//   coredata-demo list            list the items
//   coredata-demo buy NAME        mark an item purchased
//   coredata-demo delete NAME     delete an item
//   coredata-demo clear           delete every item
//   coredata-demo help            print this usage
//
// The arguments are checked before the store is opened: a wrong command changes nothing.

/// What the command line asks for.
enum Command {
    case tour
    case add(name: String, quantity: Int64)
    case list
    case buy(name: String)
    case delete(name: String)
    case clear
    case help

    static let usage = "usage: coredata-demo [add NAME [QTY] | list | buy NAME | delete NAME | clear | help]"

    /// The command, or why the arguments are wrong.
    static func parse(_ arguments: [String]) -> Result<Command, UsageError> {
        guard let first = arguments.first else { return .success(.tour) }
        let rest = Array(arguments.dropFirst())
        func one(_ make: (String) -> Command) -> Result<Command, UsageError> {
            rest.count == 1 ? .success(make(rest[0])) : .failure(UsageError("\(first) takes one NAME"))
        }
        switch first {
        case "add":
            guard rest.count == 1 || rest.count == 2 else { return .failure(UsageError("add takes NAME and an optional QTY")) }
            guard rest.count == 2 else { return .success(.add(name: rest[0], quantity: 1)) }
            guard let quantity = Int64(rest[1]), quantity >= 1 else {
                return .failure(UsageError("QTY must be a whole number, 1 or more, not '\(rest[1])'"))
            }
            return .success(.add(name: rest[0], quantity: quantity))
        case "list", "clear":
            guard rest.isEmpty else { return .failure(UsageError("\(first) takes no arguments")) }
            return .success(first == "list" ? .list : .clear)
        case "buy": return one { .buy(name: $0) }
        case "delete": return one { .delete(name: $0) }
        case "help", "-h", "--help": return .success(.help)
        default: return .failure(UsageError("unknown subcommand '\(first)'"))
        }
    }
}

struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Writes a line to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

let command: Command
switch Command.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let parsed):
    command = parsed
case .failure(let error):
    printError("coredata-demo: \(error.message)\n\(Command.usage)")
    exit(2)
}
if case .help = command {
    print(Command.usage)
    exit(0)
}

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

switch command {
case .tour:
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
case .add(let name, let quantity):
    add(name, quantity: quantity)
case .list:
    list()
case .buy(let name):
    guard let item = item(named: name) else { printError("coredata-demo: no item named \(name)."); exit(1) }
    item.purchased = true
    stack.save()
    print("Bought \(name).")
case .delete(let name):
    guard let item = item(named: name) else { printError("coredata-demo: no item named \(name)."); exit(1) }
    stack.delete(item: item)
    print("Deleted \(name).")
case .clear:
    for item in items() { context.delete(item) }
    stack.save()
    print("Cleared the list.")
case .help:
    print(Command.usage)
}
