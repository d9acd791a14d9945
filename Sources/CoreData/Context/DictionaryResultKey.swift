import Foundation

/// A key of the dictionaries a `.dictionaryResultType` fetch returns: an immutable string
/// made once per fetch and shared by every row, whose hash is worked out once.
///
/// Linux Foundation's `NSString` hashes through CoreFoundation, which calls back into Swift
/// for the characters, on every insertion into every row's dictionary; this key answers
/// with the hash of the same characters, computed once. It behaves as the string it holds
/// everywhere else: readers look values up with ordinary strings (equal hashes, and
/// ``isEqual(_:)`` compares the characters), `allKeys` gives it as a `String`, and rows
/// bridge to `[String: Any]`.
final class DictionaryResultKey: NSString {
    private let text: String
    private let units: [unichar]
    private let storedHash: Int

    /// A key holding `text`.
    init(key text: String) {
        self.text = text
        let units = Array(text.utf16)
        self.units = units
        storedHash = NSString(string: text).hash
        super.init(characters: units, length: units.count)
    }

    required convenience init(string aString: String) { self.init(key: aString) }

    required convenience init?(coder: NSCoder) {
        guard let decoded = NSString(coder: coder) else { return nil }
        self.init(key: String(describing: decoded))
    }

    required convenience init(stringLiteral value: StaticString) { self.init(key: value.description) }

    required convenience init(extendedGraphemeClusterLiteral value: StaticString) {
        self.init(key: value.description)
    }

    required convenience init(unicodeScalarLiteral value: StaticString) { self.init(key: value.description) }

    // MARK: - The string

    override var length: Int { units.count }

    override func character(at index: Int) -> unichar { units[index] }

    override var hash: Int { storedHash }

    /// Immutable: a copy is the key itself (each row's dictionary copies its keys).
    override func copy(with zone: NSZone? = nil) -> Any { self }

    /// Equal to strings with the same characters (one existential cast, as `NSString`'s own
    /// `isEqual(_:)` makes: every lookup of a row's value by a string comes through here).
    override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSString else { return (object as? String) == text }
        if other === self { return true }
        if let key = other as? DictionaryResultKey { return key.text == text }
        return other.isEqual(to: text)
    }
}
