/* The crash-point VFS of the reliability tests: see include/CCoreDataCrashVFS.h. A shim in
 * the usual shape (SQLite's vfstrace and multiplex extensions are the same pattern): each
 * open file is our header followed by the real VFS's file, and every method forwards to the
 * real one after asking the armed plan whether this I/O point fails. */
#define _POSIX_C_SOURCE 200809L
#include "CCoreDataCrashVFS.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_PLANS = 64, MAX_PREFIX = 1024 };
enum io_kind { IO_WRITE, IO_SYNC, IO_TRUNCATE, IO_DELETE };

/* What the power cut undoes: the file's bytes [offset, offset + length) and size before one
 * write or truncate. length -1 marks an entry made durable by a sync (or a deleted file).
 * The file is known by its identity as well as its path: a file renamed over it, or deleted
 * and created anew beside SQLite, is another file, which the entry must not touch. */
typedef struct undo_entry {
    char *path;
    dev_t device;
    ino_t inode;
    sqlite3_int64 offset;
    sqlite3_int64 length;
    sqlite3_int64 old_size;
    unsigned char *bytes;
} undo_entry;

typedef struct plan {
    int armed;
    unsigned generation;
    char prefix[MAX_PREFIX];
    size_t prefix_length;
    int mode;
    int64_t point;
    int64_t count;
    int triggered;
    int open_files;
    undo_entry *undo;
    size_t undo_count, undo_capacity;
} plan;

typedef struct crash_file {
    sqlite3_file base;
    int plan;              /* index in plans, or -1: pass straight through */
    unsigned generation;   /* the plan's generation when the file opened */
    char *path;
    sqlite3_file *real;    /* right after this struct */
} crash_file;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static plan plans[MAX_PLANS];
static sqlite3_vfs *real_vfs;
static sqlite3_vfs crash_vfs;

/* ---- plans (called with the lock held) ---- */

static int plan_for_path(const char *path) {
    if (path == NULL) return -1;
    for (int i = 0; i < MAX_PLANS; i++) {
        if (plans[i].armed && strncmp(path, plans[i].prefix, plans[i].prefix_length) == 0) return i;
    }
    return -1;
}

static int plan_named(const char *prefix) {
    for (int i = 0; i < MAX_PLANS; i++) {
        if (plans[i].armed && strcmp(plans[i].prefix, prefix) == 0) return i;
    }
    return -1;
}

static void drop_undo(plan *p, const char *path) {
    for (size_t i = 0; i < p->undo_count; i++) {
        undo_entry *entry = &p->undo[i];
        if (entry->length >= 0 && strcmp(entry->path, path) == 0) {
            free(entry->bytes);
            entry->bytes = NULL;
            entry->length = -1;
        }
    }
}

static void free_undo(plan *p) {
    for (size_t i = 0; i < p->undo_count; i++) {
        free(p->undo[i].path);
        free(p->undo[i].bytes);
    }
    free(p->undo);
    p->undo = NULL;
    p->undo_count = p->undo_capacity = 0;
}

/* The plan's verdict on one I/O point: SQLITE_OK to perform it, else the error to return. */
static int verdict(plan *p, enum io_kind kind) {
    static const int errors[] = {SQLITE_IOERR_WRITE, SQLITE_IOERR_FSYNC, SQLITE_IOERR_TRUNCATE, SQLITE_IOERR_DELETE};
    int dead = p->mode == CDCRASH_CRASH || p->mode == CDCRASH_POWERLOSS;
    if (dead && p->triggered) return errors[kind];
    p->count += 1;
    if (p->mode == CDCRASH_COUNT || p->count < p->point) return SQLITE_OK;
    if (p->count == p->point) p->triggered = 1;
    switch (p->mode) {
    case CDCRASH_FULL: return kind == IO_WRITE ? SQLITE_FULL : SQLITE_OK;
    case CDCRASH_ERROR: return p->count == p->point ? errors[kind] : SQLITE_OK;
    default: return errors[kind];
    }
}

/* The live plan of an open file, or NULL (not watched, or its plan was disarmed since). */
static plan *live_plan(crash_file *file) {
    if (file->plan < 0) return NULL;
    plan *p = &plans[file->plan];
    return p->armed && p->generation == file->generation ? p : NULL;
}

/* Records what a write of [offset, offset + length) or a truncate to offset (length -1)
 * would lose, for the power cut. */
static int record_undo(plan *p, crash_file *file, sqlite3_int64 offset, sqlite3_int64 length) {
    sqlite3_int64 size = 0;
    int rc = file->real->pMethods->xFileSize(file->real, &size);
    if (rc != SQLITE_OK) return rc;
    sqlite3_int64 end = length < 0 ? size : offset + length;
    sqlite3_int64 kept = offset >= size ? 0 : (end < size ? end : size) - offset;
    if (p->undo_count == p->undo_capacity) {
        size_t capacity = p->undo_capacity ? p->undo_capacity * 2 : 64;
        undo_entry *grown = realloc(p->undo, capacity * sizeof *grown);
        if (grown == NULL) return SQLITE_NOMEM;
        p->undo = grown;
        p->undo_capacity = capacity;
    }
    struct stat info;
    if (stat(file->path, &info) != 0) return SQLITE_IOERR_FSTAT;
    undo_entry entry = {strdup(file->path), info.st_dev, info.st_ino, offset, kept, size, kept > 0 ? malloc((size_t)kept) : NULL};
    if (entry.path == NULL || (kept > 0 && entry.bytes == NULL)) {
        free(entry.path);
        free(entry.bytes);
        return SQLITE_NOMEM;
    }
    if (kept > 0) {
        rc = file->real->pMethods->xRead(file->real, entry.bytes, (int)kept, offset);
        if (rc != SQLITE_OK) {
            free(entry.path);
            free(entry.bytes);
            return rc;
        }
    }
    p->undo[p->undo_count++] = entry;
    return SQLITE_OK;
}

/* ---- file methods ---- */

static int file_close(sqlite3_file *base) {
    crash_file *file = (crash_file *)base;
    int rc = file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
    pthread_mutex_lock(&lock);
    plan *p = live_plan(file);
    if (p != NULL) p->open_files -= 1;
    pthread_mutex_unlock(&lock);
    free(file->path);
    file->path = NULL;
    return rc;
}

static int file_read(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
    crash_file *file = (crash_file *)base;
    return file->real->pMethods->xRead(file->real, buffer, amount, offset);
}

static int file_write(sqlite3_file *base, const void *buffer, int amount, sqlite3_int64 offset) {
    crash_file *file = (crash_file *)base;
    if (file->plan < 0) return file->real->pMethods->xWrite(file->real, buffer, amount, offset);
    pthread_mutex_lock(&lock);
    plan *p = live_plan(file);
    int rc = p ? verdict(p, IO_WRITE) : SQLITE_OK;
    if (rc == SQLITE_OK && p && p->mode == CDCRASH_POWERLOSS) rc = record_undo(p, file, offset, amount);
    if (rc == SQLITE_OK) rc = file->real->pMethods->xWrite(file->real, buffer, amount, offset);
    pthread_mutex_unlock(&lock);
    return rc;
}

static int file_truncate(sqlite3_file *base, sqlite3_int64 size) {
    crash_file *file = (crash_file *)base;
    if (file->plan < 0) return file->real->pMethods->xTruncate(file->real, size);
    pthread_mutex_lock(&lock);
    plan *p = live_plan(file);
    int rc = p ? verdict(p, IO_TRUNCATE) : SQLITE_OK;
    if (rc == SQLITE_OK && p && p->mode == CDCRASH_POWERLOSS) rc = record_undo(p, file, size, -1);
    if (rc == SQLITE_OK) rc = file->real->pMethods->xTruncate(file->real, size);
    pthread_mutex_unlock(&lock);
    return rc;
}

static int file_sync(sqlite3_file *base, int flags) {
    crash_file *file = (crash_file *)base;
    if (file->plan < 0) return file->real->pMethods->xSync(file->real, flags);
    pthread_mutex_lock(&lock);
    plan *p = live_plan(file);
    int rc = p ? verdict(p, IO_SYNC) : SQLITE_OK;
    if (rc == SQLITE_OK) rc = file->real->pMethods->xSync(file->real, flags);
    if (rc == SQLITE_OK && p && p->mode == CDCRASH_POWERLOSS) drop_undo(p, file->path);
    pthread_mutex_unlock(&lock);
    return rc;
}

static int file_size(sqlite3_file *base, sqlite3_int64 *size) {
    crash_file *file = (crash_file *)base;
    return file->real->pMethods->xFileSize(file->real, size);
}

static int file_lock(sqlite3_file *base, int level) {
    crash_file *file = (crash_file *)base;
    return file->real->pMethods->xLock(file->real, level);
}

static int file_unlock(sqlite3_file *base, int level) {
    crash_file *file = (crash_file *)base;
    return file->real->pMethods->xUnlock(file->real, level);
}

static int file_check_reserved(sqlite3_file *base, int *out) {
    crash_file *file = (crash_file *)base;
    return file->real->pMethods->xCheckReservedLock(file->real, out);
}

static int file_control(sqlite3_file *base, int op, void *argument) {
    crash_file *file = (crash_file *)base;
    return file->real->pMethods->xFileControl(file->real, op, argument);
}

static int file_sector_size(sqlite3_file *base) {
    crash_file *file = (crash_file *)base;
    return file->real->pMethods->xSectorSize(file->real);
}

static int file_device_characteristics(sqlite3_file *base) {
    crash_file *file = (crash_file *)base;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int file_shm_map(sqlite3_file *base, int region, int size, int extend, void volatile **out) {
    crash_file *file = (crash_file *)base;
    return file->real->pMethods->xShmMap(file->real, region, size, extend, out);
}

static int file_shm_lock(sqlite3_file *base, int offset, int count, int flags) {
    crash_file *file = (crash_file *)base;
    return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static void file_shm_barrier(sqlite3_file *base) {
    crash_file *file = (crash_file *)base;
    file->real->pMethods->xShmBarrier(file->real);
}

static int file_shm_unmap(sqlite3_file *base, int delete_flag) {
    crash_file *file = (crash_file *)base;
    return file->real->pMethods->xShmUnmap(file->real, delete_flag);
}

/* No memory-mapped reads: every read goes through xRead (a NULL page tells SQLite so). */
static int file_fetch(sqlite3_file *base, sqlite3_int64 offset, int amount, void **out) {
    (void)base; (void)offset; (void)amount;
    *out = NULL;
    return SQLITE_OK;
}

static int file_unfetch(sqlite3_file *base, sqlite3_int64 offset, void *page) {
    (void)base; (void)offset; (void)page;
    return SQLITE_OK;
}

static const sqlite3_io_methods methods_v1 = {
    1, file_close, file_read, file_write, file_truncate, file_sync, file_size, file_lock,
    file_unlock, file_check_reserved, file_control, file_sector_size, file_device_characteristics,
    NULL, NULL, NULL, NULL, NULL, NULL,
};

static const sqlite3_io_methods methods_v3 = {
    3, file_close, file_read, file_write, file_truncate, file_sync, file_size, file_lock,
    file_unlock, file_check_reserved, file_control, file_sector_size, file_device_characteristics,
    file_shm_map, file_shm_lock, file_shm_barrier, file_shm_unmap, file_fetch, file_unfetch,
};

/* ---- VFS methods ---- */

static int vfs_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *base, int flags, int *out_flags) {
    (void)vfs;
    crash_file *file = (crash_file *)base;
    memset(file, 0, sizeof *file);
    file->real = (sqlite3_file *)&file[1];
    file->plan = -1;
    if (name != NULL) {
        file->path = strdup(name);
        if (file->path == NULL) return SQLITE_NOMEM;
    }
    int rc = real_vfs->xOpen(real_vfs, name, file->real, flags, out_flags);
    if (rc != SQLITE_OK || file->real->pMethods == NULL) {
        free(file->path);
        file->path = NULL;
        return rc;
    }
    base->pMethods = file->real->pMethods->iVersion >= 3 ? &methods_v3 : &methods_v1;
    pthread_mutex_lock(&lock);
    file->plan = plan_for_path(file->path);
    if (file->plan >= 0) {
        file->generation = plans[file->plan].generation;
        plans[file->plan].open_files += 1;
    }
    pthread_mutex_unlock(&lock);
    return SQLITE_OK;
}

static int vfs_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) {
    (void)vfs;
    pthread_mutex_lock(&lock);
    int index = plan_for_path(name);
    int rc = index >= 0 ? verdict(&plans[index], IO_DELETE) : SQLITE_OK;
    if (rc == SQLITE_OK) rc = real_vfs->xDelete(real_vfs, name, sync_dir);
    if (rc == SQLITE_OK && index >= 0) drop_undo(&plans[index], name);
    pthread_mutex_unlock(&lock);
    return rc;
}

static int vfs_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)vfs;
    return real_vfs->xAccess(real_vfs, name, flags, out);
}

static int vfs_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return real_vfs->xFullPathname(real_vfs, name, size, out);
}

static void *vfs_dlopen(sqlite3_vfs *vfs, const char *name) { (void)vfs; return real_vfs->xDlOpen(real_vfs, name); }
static void vfs_dlerror(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; real_vfs->xDlError(real_vfs, size, out); }
static void (*vfs_dlsym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return real_vfs->xDlSym(real_vfs, handle, symbol);
}
static void vfs_dlclose(sqlite3_vfs *vfs, void *handle) { (void)vfs; real_vfs->xDlClose(real_vfs, handle); }
static int vfs_randomness(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; return real_vfs->xRandomness(real_vfs, size, out); }
static int vfs_sleep(sqlite3_vfs *vfs, int microseconds) { (void)vfs; return real_vfs->xSleep(real_vfs, microseconds); }
static int vfs_current_time(sqlite3_vfs *vfs, double *out) { (void)vfs; return real_vfs->xCurrentTime(real_vfs, out); }
static int vfs_last_error(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return real_vfs->xGetLastError ? real_vfs->xGetLastError(real_vfs, size, out) : 0;
}
static int vfs_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return real_vfs->xCurrentTimeInt64(real_vfs, out);
}
static int vfs_set_system_call(sqlite3_vfs *vfs, const char *name, sqlite3_syscall_ptr call) {
    (void)vfs;
    return real_vfs->xSetSystemCall(real_vfs, name, call);
}
static sqlite3_syscall_ptr vfs_get_system_call(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return real_vfs->xGetSystemCall(real_vfs, name);
}
static const char *vfs_next_system_call(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return real_vfs->xNextSystemCall(real_vfs, name);
}

int cdcrash_install(void) {
    pthread_mutex_lock(&lock);
    int rc = SQLITE_OK;
    if (real_vfs == NULL) {
        sqlite3_vfs *found = sqlite3_vfs_find(NULL);
        if (found == NULL || found->iVersion < 3) {
            rc = SQLITE_ERROR;
        } else {
            crash_vfs = (sqlite3_vfs){
                3, (int)sizeof(crash_file) + found->szOsFile, found->mxPathname, NULL, "cdcrash", NULL,
                vfs_open, vfs_delete, vfs_access, vfs_full_pathname, vfs_dlopen, vfs_dlerror, vfs_dlsym,
                vfs_dlclose, vfs_randomness, vfs_sleep, vfs_current_time, vfs_last_error,
                vfs_current_time_int64, vfs_set_system_call, vfs_get_system_call, vfs_next_system_call,
            };
            real_vfs = found;
            rc = sqlite3_vfs_register(&crash_vfs, 1);
            if (rc != SQLITE_OK) real_vfs = NULL;
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

/* ---- arming ---- */

int cdcrash_arm(const char *prefix, int mode, int64_t point) {
    size_t length = strlen(prefix);
    if (length == 0 || length >= MAX_PREFIX) return -1;
    pthread_mutex_lock(&lock);
    int slot = plan_named(prefix);
    if (slot >= 0) {
        /* Armed again: a new plan for the files already open (they stay watched). */
        plan *p = &plans[slot];
        free_undo(p);
        p->mode = mode;
        p->point = point;
        p->count = 0;
        p->triggered = 0;
        pthread_mutex_unlock(&lock);
        return 0;
    }
    for (int i = 0; i < MAX_PLANS; i++) {
        size_t shorter = length < plans[i].prefix_length ? length : plans[i].prefix_length;
        if (plans[i].armed && strncmp(plans[i].prefix, prefix, shorter) == 0) {
            pthread_mutex_unlock(&lock);
            return -1;   /* one prefix inside the other */
        }
    }
    for (int i = 0; i < MAX_PLANS && slot < 0; i++) if (!plans[i].armed) slot = i;
    if (slot >= 0) {
        plan *p = &plans[slot];
        unsigned generation = p->generation + 1;
        free_undo(p);
        memset(p, 0, sizeof *p);
        p->generation = generation;
        memcpy(p->prefix, prefix, length + 1);
        p->prefix_length = length;
        p->mode = mode;
        p->point = point;
        p->armed = 1;
    }
    pthread_mutex_unlock(&lock);
    return slot >= 0 ? 0 : -1;
}

int64_t cdcrash_points(const char *prefix) {
    pthread_mutex_lock(&lock);
    int index = plan_named(prefix);
    int64_t count = index >= 0 ? plans[index].count : -1;
    pthread_mutex_unlock(&lock);
    return count;
}

int cdcrash_triggered(const char *prefix) {
    pthread_mutex_lock(&lock);
    int index = plan_named(prefix);
    int triggered = index >= 0 ? plans[index].triggered : -1;
    pthread_mutex_unlock(&lock);
    return triggered;
}

int cdcrash_open_files(const char *prefix) {
    pthread_mutex_lock(&lock);
    int index = plan_named(prefix);
    int count = index >= 0 ? plans[index].open_files : -1;
    pthread_mutex_unlock(&lock);
    return count;
}

/* Undoes the power-cut plan's unsynced writes and truncates, newest first. */
static int power_cut(plan *p) {
    int status = 0;
    for (size_t i = p->undo_count; i-- > 0;) {
        undo_entry *entry = &p->undo[i];
        if (entry->length < 0) continue;
        int fd = open(entry->path, O_RDWR);
        if (fd < 0) {
            if (errno != ENOENT) status = -2;
            continue;
        }
        struct stat info;
        if (fstat(fd, &info) != 0 || info.st_dev != entry->device || info.st_ino != entry->inode) {
            close(fd);   /* another file now has the path */
            continue;
        }
        if (entry->length > 0 && pwrite(fd, entry->bytes, (size_t)entry->length, entry->offset) != entry->length) status = -2;
        if (ftruncate(fd, entry->old_size) != 0) status = -2;
        close(fd);
    }
    return status;
}

int cdcrash_disarm(const char *prefix) {
    pthread_mutex_lock(&lock);
    int index = plan_named(prefix);
    int status = -1;
    if (index >= 0) {
        plan *p = &plans[index];
        status = p->mode == CDCRASH_POWERLOSS && p->triggered ? power_cut(p) : 0;
        free_undo(p);
        p->armed = 0;
    }
    pthread_mutex_unlock(&lock);
    return status;
}
