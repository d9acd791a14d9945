#ifndef CCOREDATASQLITE_SHIM_H
#define CCOREDATASQLITE_SHIM_H
/* The system SQLite, as one Clang module. SQLITE_TRANSIENT is a cast macro that
 * Swift cannot import, so it is re-exported as a function. */
#include <sqlite3.h>

static inline sqlite3_destructor_type cdsqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
static inline sqlite3_destructor_type cdsqlite_static(void) {
    return SQLITE_STATIC;
}
/* sqlite3_db_config is variadic, which Swift cannot call: the integer-flag form, with the
 * flag's new value read back into *result (may be NULL). */
static inline int cdsqlite_db_config_flag(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}
#endif
