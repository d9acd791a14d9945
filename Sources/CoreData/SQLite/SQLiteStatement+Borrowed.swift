import Foundation
internal import CCoreDataSQLite

extension SQLiteStatement {
    /// Binds UTF-8 bytes without copying them (`SQLITE_STATIC`): the caller keeps them
    /// alive and unchanged until the statement is stepped and reset, or bound again.
    func bindBorrowedText(_ index: Int32, _ bytes: UnsafeRawPointer?, count: Int) throws {
        guard let bytes, count > 0 else {
            try bindText(index, nil, count: 0)
            return
        }
        let rc = sqlite3_bind_text(handle, index, bytes.assumingMemoryBound(to: CChar.self), Int32(count), nil)
        if rc != SQLITE_OK { try bindText(index, bytes.assumingMemoryBound(to: CChar.self), count: count) }
    }
}

extension SQLiteStatement {
    /// Sets every parameter back to NULL (dropping borrowed bytes).
    func clearBindings() {
        sqlite3_clear_bindings(handle)
    }
}
