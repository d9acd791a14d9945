/*
 * CCoreDataRuntime: what the Objective-C runtime gave Core Data and Linux lacks.
 *
 * Entity layouts (interned key -> slot index, slot types), per-object slot storage with
 * tagged values, the fault state machine, dirty bits and the committed snapshot. It owns
 * no policy: no SQL, no model parsing. Everything here is private to the package and
 * hidden from libcoredata.so's symbol table (CDR_HIDDEN).
 *
 * Ownership:
 * - Text and blob payloads are copied in; the runtime frees its copies.
 * - Object references (CDR_OBJECT, members of a CDR_SET) and boxed values (CDR_BOX) are
 *   opaque pointers that the runtime retains and releases through the callbacks registered
 *   with cdr_set_reference_callbacks(). Without callbacks they are stored unretained.
 * - Pointers returned by *_get functions are borrowed: valid until the slot is next written.
 *
 * Threads: a layout is immutable once an object uses it and may be shared. An object, a
 * row and a set belong to one thread at a time (the owning context's queue). The key
 * intern table is thread-safe.
 */
#ifndef CCOREDATARUNTIME_H
#define CCOREDATARUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define CDR_HIDDEN __attribute__((visibility("hidden")))
#else
#define CDR_HIDDEN
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes of the runtime. */
enum {
    CDR_OK = 0,
    CDR_ERANGE = 1,   /**< slot index out of range */
    CDR_ETYPE = 2,    /**< value type does not match the slot's declared type */
    CDR_ENOMEM = 3,   /**< allocation failed */
    CDR_EBUSY = 4,    /**< the fault is already firing (re-entrant fire) */
    CDR_EFULFIL = 5,  /**< the fulfil callback reported failure; the object is still a fault */
    CDR_EINVAL = 6,   /**< invalid argument (NULL, duplicate key, frozen layout, ...) */
};

/** The type tag of a value. A slot declared with a type holds that type or CDR_NULL. */
typedef enum cdr_type {
    CDR_NULL = 0,
    CDR_INT64 = 1,   /**< Integer 16/32/64 */
    CDR_DOUBLE = 2,  /**< Double, Float */
    CDR_BOOL = 3,
    CDR_TEXT = 4,    /**< UTF-8, length-counted, also NUL-terminated (String, URI, Decimal) */
    CDR_BLOB = 5,    /**< Binary, external data */
    CDR_DATE = 6,    /**< seconds since 2001-01-01 00:00:00 UTC, as a double */
    CDR_UUID = 7,    /**< 16 bytes */
    CDR_OBJECT = 8,  /**< to-one relationship: a retained opaque reference */
    CDR_SET = 9,     /**< to-many relationship: an ordered set of references */
    CDR_BOX = 10,    /**< any other value (Transformable, transient): a retained opaque box */
    CDR_KEY = 11,    /**< a row's to-one reference: the destination's entity number and key */
} cdr_type;

/** A to-one reference as a store row holds it: the destination's `Z_ENT` and `Z_PK`. */
typedef struct cdr_key {
    int64_t pk;
    uint32_t entity;
} cdr_key;

typedef struct cdr_set cdr_set;

/** `cdr_value.pad[0]`: the TEXT payload lies in its row's own block (see
 *  cdr_row_create_with_text) and goes with the row; clearing the value does not free it. */
#define CDR_VALUE_IN_ROW 0x01

/** One tagged value. 24 bytes. Payloads of TEXT/BLOB/SET are owned by the holder. */
typedef struct cdr_value {
    uint8_t type;    /**< a cdr_type */
    uint8_t pad[3];  /**< pad[0]: CDR_VALUE_IN_ROW or 0; a copy always has 0 */
    uint32_t length; /**< byte length of TEXT (without the NUL) and BLOB; 0 otherwise */
    union {
        int64_t i;         /**< INT64; BOOL as 0/1 */
        double d;          /**< DOUBLE, DATE */
        const char *text;  /**< TEXT */
        const void *blob;  /**< BLOB (NULL when length is 0) */
        uint8_t uuid[16];  /**< UUID */
        cdr_key key;       /**< KEY */
        void *ref;         /**< OBJECT, BOX */
        cdr_set *set;      /**< SET */
    } u;
} cdr_value;

/* ---------------------------------------------------------------------------------------
 * Interned keys
 * ------------------------------------------------------------------------------------- */

/** Returns the unique, immortal copy of a key (thread-safe). NULL on allocation failure. */
CDR_HIDDEN const char *cdr_intern(const char *key, size_t length);

/* ---------------------------------------------------------------------------------------
 * Reference callbacks (registered once by the Swift layer)
 * ------------------------------------------------------------------------------------- */

typedef void (*cdr_ref_fn)(void *ref);

/** Sets the retain/release functions used for CDR_OBJECT, CDR_SET members and CDR_BOX. */
CDR_HIDDEN void cdr_set_reference_callbacks(cdr_ref_fn retain, cdr_ref_fn release);

/** Takes a strong reference to a Swift object unless its deinitialization has begun (the
 *  Swift runtime's conditional retain, which weak references use). Returns whether the
 *  object was retained; false too when no Swift runtime is linked (the C tests). */
CDR_HIDDEN bool cdr_try_retain(void *object);

/* ---------------------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------------------- */

/** Copies src into dst (dst must be cleared or uninitialised): text/blob duplicated,
 *  references retained, sets deep-copied. Returns CDR_OK or CDR_ENOMEM. */
CDR_HIDDEN int cdr_value_copy(cdr_value *dst, const cdr_value *src);
/** Frees what a value owns and sets it to CDR_NULL. */
CDR_HIDDEN void cdr_value_clear(cdr_value *value);
/** Equality by type and content (text/blob by bytes, references by identity, sets by
 *  membership regardless of order). NULL equals NULL. */
CDR_HIDDEN bool cdr_value_equal(const cdr_value *a, const cdr_value *b);

/* ---------------------------------------------------------------------------------------
 * Ordered sets of references (to-many relationships)
 * ------------------------------------------------------------------------------------- */

CDR_HIDDEN cdr_set *cdr_set_create(void);
/** Releases every member and frees the set. NULL is a no-op. */
CDR_HIDDEN void cdr_set_destroy(cdr_set *set);
CDR_HIDDEN cdr_set *cdr_set_copy(const cdr_set *set);
CDR_HIDDEN size_t cdr_set_count(const cdr_set *set);
/** Member at a position (insertion order); NULL when out of range. Borrowed. */
CDR_HIDDEN void *cdr_set_at(const cdr_set *set, size_t index);
CDR_HIDDEN bool cdr_set_contains(const cdr_set *set, const void *ref);
/** Index of ref, or -1. */
CDR_HIDDEN ptrdiff_t cdr_set_index_of(const cdr_set *set, const void *ref);
/** Appends ref (retained) unless present. Returns 1 if added, 0 if present, <0 on error. */
CDR_HIDDEN int cdr_set_add(cdr_set *set, void *ref);
/** Inserts ref at index (clamped to count) unless present. Same returns as cdr_set_add. */
CDR_HIDDEN int cdr_set_insert_at(cdr_set *set, void *ref, size_t index);
/** Removes ref (released). Returns 1 if removed, 0 if absent. */
CDR_HIDDEN int cdr_set_remove(cdr_set *set, const void *ref);
/** Releases all members. */
CDR_HIDDEN void cdr_set_remove_all(cdr_set *set);

/* ---------------------------------------------------------------------------------------
 * Layouts: one per entity
 * ------------------------------------------------------------------------------------- */

typedef struct cdr_layout cdr_layout;

/** Creates an empty layout with a reference count of 1. */
CDR_HIDDEN cdr_layout *cdr_layout_create(const char *entity_name);
CDR_HIDDEN cdr_layout *cdr_layout_retain(cdr_layout *layout);
/** Drops one reference; frees at zero. NULL is a no-op. */
CDR_HIDDEN void cdr_layout_release(cdr_layout *layout);
/** Adds a slot. Returns its index (0, 1, ...) or a negative CDR_E* on a duplicate key,
 *  a frozen layout (one that an object already uses) or bad arguments. */
CDR_HIDDEN int32_t cdr_layout_add_slot(cdr_layout *layout, const char *key, cdr_type type);
CDR_HIDDEN int32_t cdr_layout_slot_count(const cdr_layout *layout);
/** Slot index of a key (any bytes, not necessarily NUL-terminated), or -1. */
CDR_HIDDEN int32_t cdr_layout_index_of(const cdr_layout *layout, const char *key, size_t length);
CDR_HIDDEN cdr_type cdr_layout_slot_type(const cdr_layout *layout, int32_t index);
/** The interned key of a slot, or NULL when out of range. */
CDR_HIDDEN const char *cdr_layout_slot_key(const cdr_layout *layout, int32_t index);
CDR_HIDDEN const char *cdr_layout_entity_name(const cdr_layout *layout);

/* ---------------------------------------------------------------------------------------
 * Rows: a bare array of values (the coordinator's row cache, save snapshots)
 * ------------------------------------------------------------------------------------- */

typedef struct cdr_row cdr_row;

/** A row of `count` NULL values with a reference count of 1. */
CDR_HIDDEN cdr_row *cdr_row_create(int32_t count);
/** A row of `count` NULL values whose allocation also has room for `text_bytes` bytes of
 *  TEXT payloads (each with its NUL): cdr_row_set copies text there while it fits instead
 *  of allocating a copy per value, so a decoded row is one allocation. */
CDR_HIDDEN cdr_row *cdr_row_create_with_text(int32_t count, size_t text_bytes);
CDR_HIDDEN cdr_row *cdr_row_retain(cdr_row *row);
CDR_HIDDEN void cdr_row_release(cdr_row *row);
CDR_HIDDEN int32_t cdr_row_count(const cdr_row *row);
/** Borrowed value, or NULL when out of range. */
CDR_HIDDEN const cdr_value *cdr_row_get(const cdr_row *row, int32_t index);
/** Stores a copy of value (see cdr_value_copy). */
CDR_HIDDEN int cdr_row_set(cdr_row *row, int32_t index, const cdr_value *value);
CDR_HIDDEN int cdr_row_set_int64(cdr_row *row, int32_t index, int64_t v);
CDR_HIDDEN int cdr_row_set_double(cdr_row *row, int32_t index, double v);
CDR_HIDDEN int cdr_row_set_text(cdr_row *row, int32_t index, const char *text, size_t length);
CDR_HIDDEN int cdr_row_set_blob(cdr_row *row, int32_t index, const void *bytes, size_t length);
CDR_HIDDEN int cdr_row_set_null(cdr_row *row, int32_t index);
/** Stores a to-one reference (CDR_KEY). */
CDR_HIDDEN int cdr_row_set_key(cdr_row *row, int32_t index, int64_t pk, uint32_t entity);

/* ---------------------------------------------------------------------------------------
 * Objects: the slot block behind one NSManagedObject
 * ------------------------------------------------------------------------------------- */

typedef struct cdr_object cdr_object;

/** Fault states. An object starts as a fault, unless created with cdr_object_create_realized. */
typedef enum cdr_fault_state {
    CDR_FAULT = 0,
    CDR_FIRING = 1,
    CDR_REALIZED = 2,
} cdr_fault_state;

/**
 * Fills a firing fault's slots (with cdr_object_load / cdr_object_load_row). Returns 0 on
 * success; anything else leaves the object a fault and makes cdr_object_fire return
 * CDR_EFULFIL. `owner` is the pointer given to cdr_object_create; `info` the one given at
 * registration.
 */
typedef int (*cdr_fulfil_fn)(cdr_object *object, void *owner, void *info);

/** Registers the process-wide fulfil callback (replacing any earlier one). Fires read it
 *  with one atomic load, no lock; each call keeps a few bytes for the rest of the process. */
CDR_HIDDEN void cdr_set_fulfil_callback(cdr_fulfil_fn fn, void *info);

/** Creates a fault over a layout (retains the layout and freezes it). `owner` is stored
 *  unretained and handed to the fulfil callback. */
CDR_HIDDEN cdr_object *cdr_object_create(cdr_layout *layout, void *owner);
/** Creates an object that is already realized (an inserted object), all slots NULL. */
CDR_HIDDEN cdr_object *cdr_object_create_realized(cdr_layout *layout, void *owner);
/** Frees values, snapshot and the object; releases the layout. NULL is a no-op. */
CDR_HIDDEN void cdr_object_destroy(cdr_object *object);

CDR_HIDDEN const cdr_layout *cdr_object_layout(const cdr_object *object);
CDR_HIDDEN void *cdr_object_owner(const cdr_object *object);
/** Sets the owner after creation (a Swift object can hand out `self` only once it is
 *  initialised, after it created its slot block). */
CDR_HIDDEN void cdr_object_set_owner(cdr_object *object, void *owner);
CDR_HIDDEN cdr_fault_state cdr_object_fault_state(const cdr_object *object);

/** Fires a fault: FAULT -> FIRING -> callback -> REALIZED (or back to FAULT on failure).
 *  A realized object returns CDR_OK at once; a firing one returns CDR_EBUSY. */
CDR_HIDDEN int cdr_object_fire(cdr_object *object);
/** Marks the object realized without calling the callback (the caller filled it). */
CDR_HIDDEN void cdr_object_mark_realized(cdr_object *object);
/** Turns the object back into a fault: clears values, dirty bits and snapshot. */
CDR_HIDDEN void cdr_object_turn_into_fault(cdr_object *object);

/** Borrowed value of a slot, without firing; NULL when out of range. */
CDR_HIDDEN const cdr_value *cdr_object_get(const cdr_object *object, int32_t index);

/**
 * Writes a slot and marks it dirty (both the pending and the current-event dirty bits).
 * The value is copied (cdr_value_copy). Returns CDR_ETYPE when the type does not match
 * the slot type (CDR_NULL always matches), CDR_ERANGE for a bad index.
 */
CDR_HIDDEN int cdr_object_set(cdr_object *object, int32_t index, const cdr_value *value);
CDR_HIDDEN int cdr_object_set_null(cdr_object *object, int32_t index);
CDR_HIDDEN int cdr_object_set_int64(cdr_object *object, int32_t index, int64_t v);
CDR_HIDDEN int cdr_object_set_double(cdr_object *object, int32_t index, double v);
CDR_HIDDEN int cdr_object_set_bool(cdr_object *object, int32_t index, bool v);
CDR_HIDDEN int cdr_object_set_date(cdr_object *object, int32_t index, double seconds);
CDR_HIDDEN int cdr_object_set_text(cdr_object *object, int32_t index, const char *text,
                                   size_t length);
CDR_HIDDEN int cdr_object_set_blob(cdr_object *object, int32_t index, const void *bytes,
                                   size_t length);
CDR_HIDDEN int cdr_object_set_uuid(cdr_object *object, int32_t index, const uint8_t uuid[16]);
CDR_HIDDEN int cdr_object_set_ref(cdr_object *object, int32_t index, void *ref);
CDR_HIDDEN int cdr_object_set_box(cdr_object *object, int32_t index, void *box);

/** Same as cdr_object_set, without touching dirty bits (fault fulfilment, inverse upkeep
 *  during a fetch, snapshot restore). */
CDR_HIDDEN int cdr_object_load(cdr_object *object, int32_t index, const cdr_value *value);
/** Loads every slot i < min(row count, slot count) from row[i] (no dirty bits). */
CDR_HIDDEN int cdr_object_load_row(cdr_object *object, const cdr_row *row);

/** The to-many set in a slot, creating an empty one (without dirtying) if the slot is
 *  NULL. NULL if the slot is not a CDR_SET slot. Mutate it, then call
 *  cdr_object_mark_dirty to record the change. */
CDR_HIDDEN cdr_set *cdr_object_mutable_set(cdr_object *object, int32_t index);

/* Dirty bits. "Pending" bits accumulate until cdr_object_commit_snapshot or
 * cdr_object_clear_dirty; "event" bits until cdr_object_clear_event_dirty. */
CDR_HIDDEN void cdr_object_mark_dirty(cdr_object *object, int32_t index);
CDR_HIDDEN bool cdr_object_is_dirty(const cdr_object *object, int32_t index);
CDR_HIDDEN bool cdr_object_has_dirty(const cdr_object *object);
CDR_HIDDEN bool cdr_object_is_event_dirty(const cdr_object *object, int32_t index);
CDR_HIDDEN bool cdr_object_has_event_dirty(const cdr_object *object);
CDR_HIDDEN void cdr_object_clear_dirty(cdr_object *object);
CDR_HIDDEN void cdr_object_clear_event_dirty(cdr_object *object);

/* The committed snapshot: the values as last read from or written to the store. */
/** Copies the current values into the snapshot and clears the pending dirty bits. */
CDR_HIDDEN int cdr_object_commit_snapshot(cdr_object *object);
CDR_HIDDEN bool cdr_object_has_snapshot(const cdr_object *object);
/** Borrowed snapshot value, or NULL when there is no snapshot or the index is bad. */
CDR_HIDDEN const cdr_value *cdr_object_snapshot_get(const cdr_object *object, int32_t index);
/** Restores the snapshot into the values and clears all dirty bits. CDR_EINVAL without a
 *  snapshot. */
CDR_HIDDEN int cdr_object_revert_to_snapshot(cdr_object *object);
/** Drops the snapshot. */
CDR_HIDDEN void cdr_object_discard_snapshot(cdr_object *object);
/** True when the slot differs from the snapshot (or no snapshot exists and it is not
 *  NULL): what changedValues() reports. */
CDR_HIDDEN bool cdr_object_differs_from_snapshot(const cdr_object *object, int32_t index);

#ifdef __cplusplus
}
#endif
#endif /* CCOREDATARUNTIME_H */
