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
#endif
