/*
 * cdr_object.c: the slot block behind one managed object.
 *
 * One allocation holds the values, then the pending dirty bits, then the event dirty
 * bits (uint64_t words, bit i of word i/64 for slot i). The committed snapshot is a
 * separate array, or NULL. The fault state machine calls the process-wide fulfil
 * callback: FAULT -> FIRING -> REALIZED, or back to FAULT (values, dirty bits and
 * snapshot cleared) when the callback fails. While an object is FIRING, cdr_object_fire
 * owns its state: a re-entrant fire returns CDR_EBUSY, and cdr_object_mark_realized and
 * cdr_object_turn_into_fault leave it alone.
 */
#include "cdr_private.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct cdr_object {
    cdr_layout *layout; /* retained */
    void *owner;        /* unretained */
    int32_t count;
    int32_t words;
    cdr_fault_state state;
    cdr_value *snapshot; /* count values, or NULL */
    uint64_t *dirty;     /* pending bits, inside this block */
    uint64_t *event;     /* current-event bits, inside this block */
    cdr_value values[];
};

/*
 * The fulfil callback and its info, published as one immutable record through an atomic
 * pointer: every fire reads it with one acquire load instead of taking a process-wide
 * mutex (which every thread firing faults contended for). A replaced record is never
 * freed, since a fire on another thread may still be reading it; it stays reachable
 * through `previous` (the Swift layer installs once, the C tests a few times).
 */
typedef struct fulfil_record {
    cdr_fulfil_fn fn;
    void *info;
    struct fulfil_record *previous;
} fulfil_record;

static pthread_mutex_t fulfil_install_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(fulfil_record *) fulfil_current;

void cdr_set_fulfil_callback(cdr_fulfil_fn fn, void *info) {
    fulfil_record *record = malloc(sizeof *record);
    if (record == NULL) {
        return;
    }
    record->fn = fn;
    record->info = info;
    pthread_mutex_lock(&fulfil_install_lock);
    record->previous = atomic_load_explicit(&fulfil_current, memory_order_relaxed);
    atomic_store_explicit(&fulfil_current, record, memory_order_release);
    pthread_mutex_unlock(&fulfil_install_lock);
}

/* ---- creation and teardown ---------------------------------------------------------- */

static cdr_object *create(cdr_layout *layout, void *owner, cdr_fault_state state) {
    if (layout == NULL) {
        return NULL;
    }
    int32_t count = cdr_layout_slot_count(layout);
    int32_t words = (int32_t)(((int64_t)count + 63) / 64);
    size_t size = sizeof(cdr_object) + (size_t)count * sizeof(cdr_value) +
                  2 * (size_t)words * sizeof(uint64_t);
    cdr_object *object = calloc(1, size); /* every value CDR_NULL, every bit clear */
    if (object == NULL) {
        return NULL;
    }
    cdr_layout_freeze(layout);
    object->layout = cdr_layout_retain(layout);
    object->owner = owner;
    object->count = count;
    object->words = words;
    object->state = state;
    object->dirty = (uint64_t *)(object->values + count);
    object->event = object->dirty + words;
    return object;
}

cdr_object *cdr_object_create(cdr_layout *layout, void *owner) {
    return create(layout, owner, CDR_FAULT);
}

cdr_object *cdr_object_create_realized(cdr_layout *layout, void *owner) {
    return create(layout, owner, CDR_REALIZED);
}

/* Detaches and frees a value array (NULL is a no-op). */
static void free_values(cdr_value *values, int32_t count) {
    if (values == NULL) {
        return;
    }
    for (int32_t i = 0; i < count; i++) {
        cdr_value_clear(&values[i]);
    }
    free(values);
}

static void clear_bits(uint64_t *bits, int32_t words) {
    memset(bits, 0, (size_t)words * sizeof(uint64_t));
}

/* Clears values, both dirty bit sets and the snapshot. */
static void empty(cdr_object *object) {
    clear_bits(object->dirty, object->words);
    clear_bits(object->event, object->words);
    cdr_value *snapshot = object->snapshot;
    object->snapshot = NULL;
    for (int32_t i = 0; i < object->count; i++) {
        cdr_value_clear(&object->values[i]);
    }
    free_values(snapshot, object->count);
}

void cdr_object_destroy(cdr_object *object) {
    if (object == NULL) {
        return;
    }
    empty(object);
    cdr_layout_release(object->layout);
    free(object);
}

const cdr_layout *cdr_object_layout(const cdr_object *object) {
    return object != NULL ? object->layout : NULL;
}

void *cdr_object_owner(const cdr_object *object) {
    return object != NULL ? object->owner : NULL;
}

void cdr_object_set_owner(cdr_object *object, void *owner) {
    if (object != NULL) {
        object->owner = owner;
    }
}

cdr_fault_state cdr_object_fault_state(const cdr_object *object) {
    return object != NULL ? object->state : CDR_FAULT;
}

/* ---- faults ------------------------------------------------------------------------- */

int cdr_object_fire(cdr_object *object) {
    if (object == NULL) {
        return CDR_EINVAL;
    }
    if (object->state == CDR_REALIZED) {
        return CDR_OK;
    }
    if (object->state == CDR_FIRING) {
        return CDR_EBUSY;
    }
    const fulfil_record *record = atomic_load_explicit(&fulfil_current, memory_order_acquire);
    cdr_fulfil_fn fn = record != NULL ? record->fn : NULL;
    void *info = record != NULL ? record->info : NULL;
    if (fn == NULL) {
        return CDR_EFULFIL;
    }
    object->state = CDR_FIRING;
    if (fn(object, object->owner, info) != 0) {
        object->state = CDR_FAULT;
        empty(object);
        return CDR_EFULFIL;
    }
    object->state = CDR_REALIZED;
    return CDR_OK;
}

void cdr_object_mark_realized(cdr_object *object) {
    if (object != NULL && object->state == CDR_FAULT) {
        object->state = CDR_REALIZED;
    }
}

void cdr_object_turn_into_fault(cdr_object *object) {
    if (object == NULL || object->state == CDR_FIRING) {
        return;
    }
    object->state = CDR_FAULT;
    empty(object);
}

/* ---- values ------------------------------------------------------------------------- */

const cdr_value *cdr_object_get(const cdr_object *object, int32_t index) {
    if (object == NULL || index < 0 || index >= object->count) {
        return NULL;
    }
    return &object->values[index];
}

static void set_bit(uint64_t *bits, int32_t index) {
    bits[index / 64] |= UINT64_C(1) << (index % 64);
}

static bool test_bit(const uint64_t *bits, int32_t index) {
    return (bits[index / 64] >> (index % 64)) & 1;
}

static bool any_bit(const uint64_t *bits, int32_t words) {
    for (int32_t i = 0; i < words; i++) {
        if (bits[i] != 0) {
            return true;
        }
    }
    return false;
}

/* A slot of type T holds T or CDR_NULL. */
static bool slot_accepts(cdr_type slot, uint8_t value) {
    return value == CDR_NULL || value == (uint8_t)slot;
}

static int store(cdr_object *object, int32_t index, const cdr_value *value, bool dirty) {
    if (object == NULL || value == NULL) {
        return CDR_EINVAL;
    }
    if (index < 0 || index >= object->count) {
        return CDR_ERANGE;
    }
    if (!slot_accepts(cdr_layout_slot_type(object->layout, index), value->type)) {
        return CDR_ETYPE;
    }
    cdr_value copy; /* copied before the old value goes: value may point into this slot */
    int status = cdr_value_copy(&copy, value);
    if (status != CDR_OK) {
        return status;
    }
    cdr_value old = object->values[index];
    object->values[index] = copy;
    if (dirty) {
        set_bit(object->dirty, index);
        set_bit(object->event, index);
    }
    cdr_value_clear(&old); /* last: a release callback may re-enter */
    return CDR_OK;
}

int cdr_object_set(cdr_object *object, int32_t index, const cdr_value *value) {
    return store(object, index, value, true);
}

int cdr_object_load(cdr_object *object, int32_t index, const cdr_value *value) {
    return store(object, index, value, false);
}

int cdr_object_set_null(cdr_object *object, int32_t index) {
    cdr_value value = {.type = CDR_NULL};
    return store(object, index, &value, true);
}

int cdr_object_set_int64(cdr_object *object, int32_t index, int64_t v) {
    cdr_value value = {.type = CDR_INT64, .u.i = v};
    return store(object, index, &value, true);
}

int cdr_object_set_double(cdr_object *object, int32_t index, double v) {
    cdr_value value = {.type = CDR_DOUBLE, .u.d = v};
    return store(object, index, &value, true);
}

int cdr_object_set_bool(cdr_object *object, int32_t index, bool v) {
    cdr_value value = {.type = CDR_BOOL, .u.i = v ? 1 : 0};
    return store(object, index, &value, true);
}

int cdr_object_set_date(cdr_object *object, int32_t index, double seconds) {
    cdr_value value = {.type = CDR_DATE, .u.d = seconds};
    return store(object, index, &value, true);
}

int cdr_object_set_text(cdr_object *object, int32_t index, const char *text, size_t length) {
    if (length > UINT32_MAX || (text == NULL && length > 0)) {
        return CDR_EINVAL;
    }
    cdr_value value = {.type = CDR_TEXT, .length = (uint32_t)length,
                       .u.text = text != NULL ? text : ""};
    return store(object, index, &value, true);
}

int cdr_object_set_blob(cdr_object *object, int32_t index, const void *bytes,
                        size_t length) {
    if (length > UINT32_MAX || (bytes == NULL && length > 0)) {
        return CDR_EINVAL;
    }
    cdr_value value = {.type = CDR_BLOB, .length = (uint32_t)length, .u.blob = bytes};
    return store(object, index, &value, true);
}

int cdr_object_set_uuid(cdr_object *object, int32_t index, const uint8_t uuid[16]) {
    if (uuid == NULL) {
        return CDR_EINVAL;
    }
    cdr_value value = {.type = CDR_UUID};
    memcpy(value.u.uuid, uuid, sizeof value.u.uuid);
    return store(object, index, &value, true);
}

/* A NULL reference is stored as CDR_NULL. */
int cdr_object_set_ref(cdr_object *object, int32_t index, void *ref) {
    cdr_value value = {.type = ref != NULL ? CDR_OBJECT : CDR_NULL, .u.ref = ref};
    return store(object, index, &value, true);
}

int cdr_object_set_box(cdr_object *object, int32_t index, void *box) {
    cdr_value value = {.type = box != NULL ? CDR_BOX : CDR_NULL, .u.ref = box};
    return store(object, index, &value, true);
}

/* Copies `count` values into a new array; NULL on failure (nothing leaks). */
static cdr_value *copy_values(const cdr_value *values, int32_t count, int *status) {
    cdr_value *copy = calloc(count > 0 ? (size_t)count : 1, sizeof *copy);
    if (copy == NULL) {
        *status = CDR_ENOMEM;
        return NULL;
    }
    for (int32_t i = 0; i < count; i++) {
        *status = cdr_value_copy(&copy[i], &values[i]);
        if (*status != CDR_OK) {
            free_values(copy, i);
            return NULL;
        }
    }
    *status = CDR_OK;
    return copy;
}

/* Swaps `fresh` into the first `count` values and frees the old ones with the array. */
static void swap_in(cdr_object *object, cdr_value *fresh, int32_t count) {
    for (int32_t i = 0; i < count; i++) {
        cdr_value old = object->values[i];
        object->values[i] = fresh[i];
        fresh[i] = old;
    }
    free_values(fresh, count);
}

int cdr_object_load_row(cdr_object *object, const cdr_row *row) {
    if (object == NULL || row == NULL) {
        return CDR_EINVAL;
    }
    int32_t count = cdr_row_count(row);
    if (count > object->count) {
        count = object->count;
    }
    for (int32_t i = 0; i < count; i++) {
        if (!slot_accepts(cdr_layout_slot_type(object->layout, i), cdr_row_get(row, i)->type)) {
            return CDR_ETYPE;
        }
    }
    cdr_value *fresh = calloc(count > 0 ? (size_t)count : 1, sizeof *fresh);
    if (fresh == NULL) {
        return CDR_ENOMEM;
    }
    for (int32_t i = 0; i < count; i++) {
        int status = cdr_value_copy(&fresh[i], cdr_row_get(row, i));
        if (status != CDR_OK) {
            free_values(fresh, i);
            return status;
        }
    }
    swap_in(object, fresh, count);
    return CDR_OK;
}

cdr_set *cdr_object_mutable_set(cdr_object *object, int32_t index) {
    if (object == NULL || index < 0 || index >= object->count ||
        cdr_layout_slot_type(object->layout, index) != CDR_SET) {
        return NULL;
    }
    cdr_value *slot = &object->values[index];
    if (slot->type == CDR_SET && slot->u.set != NULL) {
        return slot->u.set;
    }
    cdr_set *set = cdr_set_create();
    if (set == NULL) {
        return NULL;
    }
    cdr_value_clear(slot); /* CDR_NULL or an empty CDR_SET: nothing to release */
    slot->type = CDR_SET;
    slot->u.set = set;
    return set;
}

/* ---- dirty bits --------------------------------------------------------------------- */

void cdr_object_mark_dirty(cdr_object *object, int32_t index) {
    if (object != NULL && index >= 0 && index < object->count) {
        set_bit(object->dirty, index);
        set_bit(object->event, index);
    }
}

bool cdr_object_is_dirty(const cdr_object *object, int32_t index) {
    return object != NULL && index >= 0 && index < object->count &&
           test_bit(object->dirty, index);
}

bool cdr_object_has_dirty(const cdr_object *object) {
    return object != NULL && any_bit(object->dirty, object->words);
}

bool cdr_object_is_event_dirty(const cdr_object *object, int32_t index) {
    return object != NULL && index >= 0 && index < object->count &&
           test_bit(object->event, index);
}

bool cdr_object_has_event_dirty(const cdr_object *object) {
    return object != NULL && any_bit(object->event, object->words);
}

void cdr_object_clear_dirty(cdr_object *object) {
    if (object != NULL) {
        clear_bits(object->dirty, object->words);
    }
}

void cdr_object_clear_event_dirty(cdr_object *object) {
    if (object != NULL) {
        clear_bits(object->event, object->words);
    }
}

/* ---- snapshot ----------------------------------------------------------------------- */

int cdr_object_commit_snapshot(cdr_object *object) {
    if (object == NULL) {
        return CDR_EINVAL;
    }
    int status;
    cdr_value *snapshot = copy_values(object->values, object->count, &status);
    if (snapshot == NULL) {
        return status;
    }
    cdr_value *old = object->snapshot;
    object->snapshot = snapshot;
    clear_bits(object->dirty, object->words);
    free_values(old, object->count);
    return CDR_OK;
}

bool cdr_object_has_snapshot(const cdr_object *object) {
    return object != NULL && object->snapshot != NULL;
}

const cdr_value *cdr_object_snapshot_get(const cdr_object *object, int32_t index) {
    if (object == NULL || object->snapshot == NULL || index < 0 || index >= object->count) {
        return NULL;
    }
    return &object->snapshot[index];
}

int cdr_object_revert_to_snapshot(cdr_object *object) {
    if (object == NULL || object->snapshot == NULL) {
        return CDR_EINVAL;
    }
    int status;
    cdr_value *fresh = copy_values(object->snapshot, object->count, &status);
    if (fresh == NULL) {
        return status;
    }
    clear_bits(object->dirty, object->words);
    clear_bits(object->event, object->words);
    swap_in(object, fresh, object->count);
    return CDR_OK;
}

void cdr_object_discard_snapshot(cdr_object *object) {
    if (object == NULL) {
        return;
    }
    cdr_value *snapshot = object->snapshot;
    object->snapshot = NULL;
    free_values(snapshot, object->count);
}

bool cdr_object_differs_from_snapshot(const cdr_object *object, int32_t index) {
    if (object == NULL || index < 0 || index >= object->count) {
        return false;
    }
    if (object->snapshot == NULL) {
        return object->values[index].type != CDR_NULL;
    }
    return !cdr_value_equal(&object->values[index], &object->snapshot[index]);
}
