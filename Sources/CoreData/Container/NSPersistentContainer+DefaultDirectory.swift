import Foundation

/// Gives `NSPersistentContainer` Apple's class property `defaultDirectoryURL` beside its
/// overridable class method `defaultDirectoryURL()`.
///
/// Apple's container has both: the method comes from Objective-C and the property from
/// Swift's overlay, a separate module. One Swift module cannot declare a property and a
/// method without arguments of the same name in one type, so the property lives in this
/// protocol's extension; `NSPersistentContainer` conforms, and code never names the
/// protocol.
public protocol _PersistentContainerDefaultDirectory: AnyObject {
    /// The container's class method (``NSPersistentContainer/defaultDirectoryURL()``).
    static func defaultDirectoryURL() -> URL
}

extension _PersistentContainerDefaultDirectory {
    /// The folder where the container's stores live by default: what the class method
    /// `defaultDirectoryURL()` answers, a subclass's override included.
    ///
    /// ```swift
    /// let url = NSPersistentContainer.defaultDirectoryURL.appendingPathComponent("Shop.sqlite")
    /// ```
    public static var defaultDirectoryURL: URL { defaultDirectoryURL() }
}

extension NSPersistentContainer: _PersistentContainerDefaultDirectory {}
