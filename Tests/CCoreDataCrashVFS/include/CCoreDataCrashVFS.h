/* A test-only SQLite file layer (VFS) that injects failures at a chosen I/O point (issue 17).
 *
 * cdcrash_install() registers it once as the process's default VFS, over the real default
 * ("unix"). Every file passes straight through, except files whose path starts with an
 * armed prefix (a test's own temporary folder): for those, each write, sync, truncate and
 * delete is an "I/O point", numbered from 1 since the prefix was armed, and the plan decides
 * what happens at point N:
 *
 *   CDCRASH_COUNT      nothing; only counts (to learn how many points one save has);
 *   CDCRASH_ERROR      point N fails with an I/O error, once; later points succeed;
 *   CDCRASH_CRASH      point N and every later point fail: the process "died" at N, and
 *                      what it wrote before N stays (as after kill -9);
 *   CDCRASH_POWERLOSS  as CDCRASH_CRASH, and cdcrash_disarm() then undoes every write and
 *                      truncate not made durable by a sync of its file before N (as after a
 *                      power cut): unsynced bytes are lost, as the disk would lose them;
 *   CDCRASH_FULL       from point N on, every write fails with SQLITE_FULL (a full disk)
 *                      until the prefix is disarmed; syncs, truncates and deletes work.
 *
 * Only a test process links this module: the library never does.
 */
#ifndef CCOREDATACRASHVFS_H
#define CCOREDATACRASHVFS_H

#include <stdint.h>

/** What an armed prefix does at its chosen I/O point. */
typedef enum cdcrash_mode {
    CDCRASH_COUNT = 0,
    CDCRASH_ERROR = 1,
    CDCRASH_CRASH = 2,
    CDCRASH_POWERLOSS = 3,
    CDCRASH_FULL = 4,
} cdcrash_mode;

/** Registers the VFS as the default, once (later calls do nothing). @return SQLITE_OK or an error */
int cdcrash_install(void);

/**
 * Arms @p prefix (an absolute path; files whose path starts with it are watched) with
 * @p mode at I/O point @p point (1-based; ignored for CDCRASH_COUNT). The count starts at 0.
 * Arming an armed prefix again replaces its plan (count from 0, nothing to undo) and keeps
 * watching the files already open under it: arm with CDCRASH_COUNT, open the store, then
 * arm with the real plan just before the operation under test.
 * @return 0, or -1 when one armed prefix would contain another, or all slots are taken
 */
int cdcrash_arm(const char *prefix, int mode, int64_t point);

/** I/O points seen under @p prefix since it was armed (the chosen one included); -1 if not armed. */
int64_t cdcrash_points(const char *prefix);

/** Whether the chosen point was reached under @p prefix (1), not yet (0), or not armed (-1). */
int cdcrash_triggered(const char *prefix);

/** Files under @p prefix that SQLite has open right now; -1 if not armed. */
int cdcrash_open_files(const char *prefix);

/**
 * Disarms @p prefix. For CDCRASH_POWERLOSS after the point was reached, first undoes, newest
 * first, every write and truncate that no sync made durable; call it only once every
 * connection to those files is closed (see cdcrash_open_files()).
 * @return 0, -1 when not armed, or -2 when a file could not be restored
 */
int cdcrash_disarm(const char *prefix);

#endif
