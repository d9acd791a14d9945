/*
 * cdr_set.c: ordered sets of references (to-many relationships).
 *
 * Members live in an array in insertion order. Past HASH_THRESHOLD members an
 * open-addressing pointer hash (linear probing, backward-shift deletion, load <= 1/2)
 * answers membership; positions are still found by scanning the array. Each member is
 * retained once while it is in the set. NULL is never a member.
 */
#include "cdr_private.h"

#include <bsd/stdlib.h>
#include <stdint.h>

#define HASH_THRESHOLD 16
#define HASH_MIN_CAPACITY 64

struct cdr_set {
    void **items;
    size_t count;
    size_t capacity;
    void **hash;          /* NULL until the set grows past HASH_THRESHOLD */
    size_t hash_capacity; /* a power of two */
};

static size_t hash_pointer(const void *ref) {
    uint64_t x = (uint64_t)(uintptr_t)ref;
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return (size_t)x;
}

/* The bucket holding ref, or the empty bucket where it would go. */
static size_t hash_bucket(void *const *hash, size_t capacity, const void *ref) {
    size_t mask = capacity - 1;
    size_t i = hash_pointer(ref) & mask;
    while (hash[i] != NULL && hash[i] != ref) {
        i = (i + 1) & mask;
    }
    return i;
}

static void hash_remove(cdr_set *set, const void *ref) {
    size_t mask = set->hash_capacity - 1;
    size_t hole = hash_bucket(set->hash, set->hash_capacity, ref);
    if (set->hash[hole] == NULL) {
        return;
    }
    for (size_t j = (hole + 1) & mask; set->hash[j] != NULL; j = (j + 1) & mask) {
        size_t home = hash_pointer(set->hash[j]) & mask;
        /* Entry j may move into the hole unless its home lies cyclically in (hole, j]. */
        bool stays = hole < j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!stays) {
            set->hash[hole] = set->hash[j];
            hole = j;
        }
    }
    set->hash[hole] = NULL;
}

/* Makes sure the hash (if the set needs one at `count` members) can take `count`. */
static int reserve_hash(cdr_set *set, size_t count) {
    if (count <= HASH_THRESHOLD && set->hash == NULL) {
        return CDR_OK;
    }
    if (set->hash != NULL && count <= set->hash_capacity / 2) {
        return CDR_OK;
    }
    size_t capacity = set->hash_capacity > 0 ? set->hash_capacity : HASH_MIN_CAPACITY;
    while (count > capacity / 2) {
        if (capacity > SIZE_MAX / 4) {
            return CDR_ENOMEM;
        }
        capacity *= 2;
    }
    void **hash = calloc(capacity, sizeof *hash);
    if (hash == NULL) {
        return CDR_ENOMEM;
    }
    for (size_t i = 0; i < set->count; i++) {
        hash[hash_bucket(hash, capacity, set->items[i])] = set->items[i];
    }
    free(set->hash);
    set->hash = hash;
    set->hash_capacity = capacity;
    return CDR_OK;
}

static int reserve_items(cdr_set *set, size_t count) {
    if (count <= set->capacity) {
        return CDR_OK;
    }
    size_t capacity = set->capacity > 0 ? set->capacity : 4;
    while (capacity < count) {
        capacity = capacity > SIZE_MAX / 2 ? count : capacity * 2;
    }
    void **items = reallocarray(set->items, capacity, sizeof *items);
    if (items == NULL) {
        return CDR_ENOMEM;
    }
    set->items = items;
    set->capacity = capacity;
    return CDR_OK;
}

cdr_set *cdr_set_create(void) {
    return calloc(1, sizeof(cdr_set));
}

/* Empties the set, then releases the old members (a release may re-enter the set). */
static void release_members(cdr_set *set) {
    void **items = set->items;
    size_t count = set->count;
    free(set->hash);
    set->items = NULL;
    set->count = 0;
    set->capacity = 0;
    set->hash = NULL;
    set->hash_capacity = 0;
    for (size_t i = 0; i < count; i++) {
        cdr_ref_release(items[i]);
    }
    free(items);
}

void cdr_set_destroy(cdr_set *set) {
    if (set == NULL) {
        return;
    }
    release_members(set);
    free(set);
}

void cdr_set_remove_all(cdr_set *set) {
    if (set != NULL) {
        release_members(set);
    }
}

cdr_set *cdr_set_copy(const cdr_set *set) {
    if (set == NULL) {
        return NULL;
    }
    cdr_set *copy = cdr_set_create();
    if (copy == NULL) {
        return NULL;
    }
    if (reserve_items(copy, set->count) != CDR_OK || reserve_hash(copy, set->count) != CDR_OK) {
        cdr_set_destroy(copy);
        return NULL;
    }
    for (size_t i = 0; i < set->count; i++) {
        void *ref = set->items[i];
        cdr_ref_retain(ref);
        copy->items[i] = ref;
        if (copy->hash != NULL) {
            copy->hash[hash_bucket(copy->hash, copy->hash_capacity, ref)] = ref;
        }
    }
    copy->count = set->count;
    return copy;
}

size_t cdr_set_count(const cdr_set *set) {
    return set != NULL ? set->count : 0;
}

void *cdr_set_at(const cdr_set *set, size_t index) {
    if (set == NULL || index >= set->count) {
        return NULL;
    }
    return set->items[index];
}

bool cdr_set_contains(const cdr_set *set, const void *ref) {
    if (set == NULL || ref == NULL) {
        return false;
    }
    if (set->hash != NULL) {
        return set->hash[hash_bucket(set->hash, set->hash_capacity, ref)] != NULL;
    }
    for (size_t i = 0; i < set->count; i++) {
        if (set->items[i] == ref) {
            return true;
        }
    }
    return false;
}

ptrdiff_t cdr_set_index_of(const cdr_set *set, const void *ref) {
    if (set == NULL || ref == NULL) {
        return -1;
    }
    if (set->hash != NULL && !cdr_set_contains(set, ref)) {
        return -1;
    }
    for (size_t i = 0; i < set->count; i++) {
        if (set->items[i] == ref) {
            return (ptrdiff_t)i;
        }
    }
    return -1;
}

int cdr_set_insert_at(cdr_set *set, void *ref, size_t index) {
    if (set == NULL || ref == NULL) {
        return -CDR_EINVAL;
    }
    if (cdr_set_contains(set, ref)) {
        return 0;
    }
    if (set->count >= (size_t)PTRDIFF_MAX) {
        return -CDR_ENOMEM;
    }
    int status = reserve_items(set, set->count + 1);
    if (status == CDR_OK) {
        status = reserve_hash(set, set->count + 1);
    }
    if (status != CDR_OK) {
        return -status;
    }
    if (index > set->count) {
        index = set->count;
    }
    cdr_ref_retain(ref);
    memmove(set->items + index + 1, set->items + index,
            (set->count - index) * sizeof *set->items);
    set->items[index] = ref;
    set->count++;
    if (set->hash != NULL) {
        set->hash[hash_bucket(set->hash, set->hash_capacity, ref)] = ref;
    }
    return 1;
}

int cdr_set_add(cdr_set *set, void *ref) {
    return cdr_set_insert_at(set, ref, SIZE_MAX);
}

int cdr_set_remove(cdr_set *set, const void *ref) {
    ptrdiff_t found = cdr_set_index_of(set, ref);
    if (found < 0) {
        return 0;
    }
    size_t index = (size_t)found;
    void *member = set->items[index];
    memmove(set->items + index, set->items + index + 1,
            (set->count - index - 1) * sizeof *set->items);
    set->count--;
    if (set->hash != NULL) {
        hash_remove(set, member);
    }
    cdr_ref_release(member);
    return 1;
}
