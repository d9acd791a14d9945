internal import CCoreDataRuntime

extension RowValues {
    /// Copies the values of `slots` (payloads included) from a row of the same layout.
    func copy(_ slots: some Sequence<Int32>, from row: borrowing RowValues) {
        for slot in slots {
            if let value = cdr_row_get(row.handle, slot) { _ = cdr_row_set(handle, slot, value) }
        }
    }

    /// Copies every slot of a row of the same layout.
    func copyAll(from row: borrowing RowValues) {
        copy(0..<min(count, row.count), from: row)
    }
}
