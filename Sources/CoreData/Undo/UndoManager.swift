import Foundation

/// Records operations so that they can be undone and redone, in groups: Apple's
/// `UndoManager`, which Foundation on Linux does not have.
///
/// ```swift
/// let undoManager = UndoManager()
/// context.undoManager = undoManager
/// item.setValue("Milk", forKey: "name")
/// context.undo()                       // name is back to what it was
/// context.redo()                       // and "Milk" again
/// ```
///
/// Actions are closures registered with ``registerUndo(withTarget:handler:)``. While an
/// undo runs, what the actions register goes to the redo stack, and the other way round.
/// With ``groupsByEvent`` (the default) a group opens by itself at the first registration;
/// a managed object context closes it at `processPendingChanges()` (the end of its event).
///
/// - Note: Apple parity: Linux has no run loop events or selectors, so groups opened by
///   event are closed by the owning context's `processPendingChanges()` (or by `undo()`,
///   or by ``endUndoGrouping()``), and only the closure form of registration exists.
///
/// ## Topics
/// ### Registering
/// - ``registerUndo(withTarget:handler:)``
/// - ``disableUndoRegistration()``
/// - ``enableUndoRegistration()``
/// ### Grouping
/// - ``beginUndoGrouping()``
/// - ``endUndoGrouping()``
/// - ``groupsByEvent``
/// - ``groupingLevel``
/// ### Undoing and redoing
/// - ``undo()``
/// - ``redo()``
/// - ``undoNestedGroup()``
/// - ``canUndo``
/// - ``canRedo``
/// - ``levelsOfUndo``
/// - ``removeAllActions()``
open class UndoManager: NSObject {
    /// One recorded action, or a nested group of them.
    private indirect enum Entry {
        case action(target: AnyObject, handler: (AnyObject) -> Void)
        case group(Group)
    }

    private final class Group {
        var entries: [Entry] = []
        var actionName = ""

        var isEmpty: Bool {
            entries.allSatisfy { if case let .group(group) = $0 { return group.isEmpty } else { return false } }
        }

        func removeActions(withTarget target: AnyObject) {
            entries.removeAll {
                switch $0 {
                case let .action(actionTarget, _): return actionTarget === target
                case let .group(group): group.removeActions(withTarget: target); return false
                }
            }
        }
    }

    private var undoStack: [Group] = []
    private var redoStack: [Group] = []
    /// The open groups, outermost first.
    private var openGroups: [Group] = []
    private var openGroup: Group? { openGroups.last }
    private var disableCount = 0
    /// Whether the current top-level group was opened by the first registration of an
    /// event (and so is closed by ``endEventGroup()``).
    private(set) var eventGroupIsOpen = false

    /// Whether a group opens by itself at the first registration (default true).
    open var groupsByEvent = true
    /// How many top-level groups the undo stack keeps; 0 means no limit.
    open var levelsOfUndo = 0 {
        didSet { trim(&undoStack); trim(&redoStack) }
    }
    /// Whether ``undo()`` is running: what is registered meanwhile goes to the redo stack.
    open private(set) var isUndoing = false
    /// Whether ``redo()`` is running: what is registered meanwhile goes to the undo stack, and
    /// the redo stack is kept.
    open private(set) var isRedoing = false
    /// How deeply groups are nested now (0: no group open).
    open private(set) var groupingLevel = 0

    public override init() { super.init() }

    // MARK: - Registering

    /// Records a closure that undoes an operation; it runs with `target` during `undo()`.
    ///
    /// - Note: Apple parity: registering with no group open and `groupsByEvent` false
    ///   traps, as Apple raises `NSInternalInconsistencyException`.
    open func registerUndo<TargetType: AnyObject>(withTarget target: TargetType,
                                                  handler: @escaping (TargetType) -> Void) {
        guard isUndoRegistrationEnabled else { return }
        if openGroup == nil {
            guard groupsByEvent else {
                coreDataMisuse("undo: NSUndoManager is in invalid state, must begin a group before registering undo")
            }
            beginUndoGrouping()
            eventGroupIsOpen = true
        }
        if !isUndoing && !isRedoing && !redoStack.isEmpty { redoStack.removeAll() }
        openGroup?.entries.append(.action(target: target, handler: { handler($0 as! TargetType) }))
    }

    /// Whether registrations are recorded: false between ``disableUndoRegistration()`` and the
    /// matching ``enableUndoRegistration()``.
    open var isUndoRegistrationEnabled: Bool { disableCount == 0 }

    /// Stops recording until the matching ``enableUndoRegistration()`` (calls nest).
    open func disableUndoRegistration() { disableCount += 1 }

    /// Ends one ``disableUndoRegistration()``; recording resumes when every one is ended.
    ///
    /// - Note: Apple parity: an unbalanced call traps, as Apple raises.
    open func enableUndoRegistration() {
        guard disableCount > 0 else {
            coreDataMisuse("-[NSUndoManager enableUndoRegistration]: Unbalanced call to enableUndoRegistration")
        }
        disableCount -= 1
    }

    // MARK: - Grouping

    /// Opens a group: everything registered until the matching ``endUndoGrouping()`` is
    /// undone by one `undo()`.
    open func beginUndoGrouping() {
        let group = Group()
        if let parent = openGroup { parent.entries.append(.group(group)) }
        openGroups.append(group)
        groupingLevel += 1
    }

    /// Closes the innermost group; a closed top-level group joins the undo stack (or the
    /// redo stack while undoing), unless it recorded nothing.
    open func endUndoGrouping() {
        guard let group = openGroups.popLast() else {
            coreDataMisuse("endUndoGrouping called with no matching begin")
        }
        groupingLevel -= 1
        guard openGroup == nil else { return }
        eventGroupIsOpen = false
        guard !group.isEmpty else { return }
        if isUndoing {
            redoStack.append(group)
            trim(&redoStack)
        } else {
            undoStack.append(group)
            trim(&undoStack)
        }
    }

    /// Closes the group that the first registration of an event opened (a context calls
    /// this at the end of its event, `processPendingChanges()`).
    open func endEventGroup() {
        if eventGroupIsOpen, groupingLevel == 1 { endUndoGrouping() }
    }

    private func trim(_ stack: inout [Group]) {
        if levelsOfUndo > 0, stack.count > levelsOfUndo { stack.removeFirst(stack.count - levelsOfUndo) }
    }

    // MARK: - Undoing and redoing

    /// Whether ``undo()`` has something to undo: a group on the undo stack, or an event group
    /// still open with registrations in it.
    open var canUndo: Bool {
        !undoStack.isEmpty || (openGroup.map { groupingLevel == 1 && !$0.isEmpty } ?? false)
    }

    /// Whether ``redo()`` has something to redo. Any new registration outside undo and redo
    /// empties the redo stack.
    open var canRedo: Bool { !redoStack.isEmpty }

    /// Closes the event group if one is open, then undoes the last top-level group.
    ///
    /// - Note: Apple parity: calling it inside an explicit, unclosed group traps, as Apple
    ///   raises.
    open func undo() {
        if groupingLevel == 1, groupsByEvent { endUndoGrouping() }
        guard groupingLevel == 0 else {
            coreDataMisuse("undo was called with too many nested undo groups")
        }
        guard let group = undoStack.popLast() else { return }
        isUndoing = true
        defer { isUndoing = false }
        run(group)
    }

    /// Redoes the last undone group.
    open func redo() {
        guard groupingLevel == 0 else {
            coreDataMisuse("redo was called with too many nested undo groups")
        }
        guard let group = redoStack.popLast() else { return }
        isRedoing = true
        defer { isRedoing = false }
        run(group)
    }

    /// Undoes the last top-level group, without closing an event group first.
    ///
    /// - Note: Apple parity: undoing a nested group inside an open group is not
    ///   supported; it traps.
    open func undoNestedGroup() {
        guard groupingLevel == 0 else {
            coreDataMisuse("undoNestedGroup is only supported with no undo group open")
        }
        undo()
    }

    /// Runs a group's actions last-first, collecting what they register into one new
    /// group (on the redo stack when undoing, on the undo stack when redoing).
    private func run(_ group: Group) {
        let saved = (openGroups, groupingLevel, eventGroupIsOpen)
        let collecting = Group()
        collecting.actionName = group.actionName
        openGroups = [collecting]
        groupingLevel = 1
        perform(group)
        (openGroups, groupingLevel, eventGroupIsOpen) = saved
        guard !collecting.isEmpty else { return }
        if isUndoing {
            redoStack.append(collecting)
            trim(&redoStack)
        } else {
            undoStack.append(collecting)
            trim(&undoStack)
        }
    }

    private func perform(_ group: Group) {
        for entry in group.entries.reversed() {
            switch entry {
            case let .action(target, handler): handler(target)
            case let .group(nested): perform(nested)
            }
        }
    }

    // MARK: - Clearing

    /// Empties both stacks and closes any open group.
    open func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        openGroups.removeAll()
        groupingLevel = 0
        eventGroupIsOpen = false
    }

    /// Removes every action registered with `target`.
    open func removeAllActions(withTarget target: Any) {
        let object = target as AnyObject
        for group in undoStack + redoStack { group.removeActions(withTarget: object) }
        undoStack.removeAll { $0.isEmpty }
        redoStack.removeAll { $0.isEmpty }
    }

    // MARK: - Action names

    /// Names the current group (for a menu item such as "Undo Typing").
    open func setActionName(_ actionName: String) {
        (openGroup ?? undoStack.last)?.actionName = actionName
    }

    /// The action name of the group ``undo()`` would undo; empty when it has none.
    open var undoActionName: String { undoStack.last?.actionName ?? "" }
    /// The action name of the group ``redo()`` would redo; empty when it has none.
    open var redoActionName: String { redoStack.last?.actionName ?? "" }
    /// A menu title for undo: "Undo" followed by ``undoActionName`` when there is one.
    open var undoMenuItemTitle: String { undoMenuTitle(forUndoActionName: undoActionName) }
    /// A menu title for redo: "Redo" followed by ``redoActionName`` when there is one.
    open var redoMenuItemTitle: String { redoMenuTitle(forUndoActionName: redoActionName) }

    /// The undo menu title for an action name: "Undo" alone, or "Undo <name>".
    ///
    /// - Note: Apple parity: English only; Apple localizes the word.
    open func undoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Undo" : "Undo \(actionName)"
    }

    /// The redo menu title for an action name: "Redo" alone, or "Redo <name>".
    ///
    /// - Note: Apple parity: English only; Apple localizes the word.
    open func redoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Redo" : "Redo \(actionName)"
    }
}
