/*
 * cdr_layout.c: entity layouts. A layout maps interned keys to slot indexes and types.
 *
 * Slots are kept in index order and, for lookups by key bytes, in a red-black tree
 * (libbsd's sys/tree.h). The reference count is atomic because a layout is shared across
 * threads once frozen; the first object created on a layout freezes it.
 */
#include "cdr_private.h"

#include <bsd/stdlib.h>
#include <bsd/sys/tree.h>
#include <stdatomic.h>

struct slot {
    RB_ENTRY(slot) link;
    const char *key; /* interned */
    size_t length;
    int32_t index;
    cdr_type type;
};

static int slot_compare(const struct slot *a, const struct slot *b) {
    return cdr_bytes_compare(a->key, a->length, b->key, b->length);
}

RB_HEAD(slot_tree, slot);
/* libbsd leaves __unused undefined (Linux headers use the name for fields); the
 * generated static functions need it, so define it for this expansion only. */
#define __unused __attribute__((__unused__))
RB_GENERATE_STATIC(slot_tree, slot, link, slot_compare)
#undef __unused

struct cdr_layout {
    atomic_long references;
    atomic_bool frozen;
    const char *entity_name; /* interned */
    int32_t count;
    int32_t capacity;
    struct slot **slots; /* by index */
    struct slot_tree by_key;
};

cdr_layout *cdr_layout_create(const char *entity_name) {
    if (entity_name == NULL) {
        return NULL;
    }
    const char *name = cdr_intern(entity_name, strlen(entity_name));
    cdr_layout *layout = name != NULL ? calloc(1, sizeof *layout) : NULL;
    if (layout == NULL) {
        return NULL;
    }
    atomic_init(&layout->references, 1);
    atomic_init(&layout->frozen, false);
    layout->entity_name = name;
    RB_INIT(&layout->by_key);
    return layout;
}

cdr_layout *cdr_layout_retain(cdr_layout *layout) {
    if (layout != NULL) {
        atomic_fetch_add_explicit(&layout->references, 1, memory_order_relaxed);
    }
    return layout;
}

void cdr_layout_release(cdr_layout *layout) {
    if (layout == NULL) {
        return;
    }
    if (atomic_fetch_sub_explicit(&layout->references, 1, memory_order_acq_rel) != 1) {
        return;
    }
    for (int32_t i = 0; i < layout->count; i++) {
        free(layout->slots[i]);
    }
    free(layout->slots);
    free(layout);
}

void cdr_layout_freeze(cdr_layout *layout) {
    if (layout != NULL) {
        atomic_store_explicit(&layout->frozen, true, memory_order_release);
    }
}

int32_t cdr_layout_add_slot(cdr_layout *layout, const char *key, cdr_type type) {
    if (layout == NULL || key == NULL || type <= CDR_NULL || type > CDR_BOX) {
        return -CDR_EINVAL;
    }
    if (atomic_load_explicit(&layout->frozen, memory_order_acquire)) {
        return -CDR_EINVAL;
    }
    if (layout->count == INT32_MAX) {
        return -CDR_ERANGE;
    }
    size_t length = strlen(key);
    struct slot probe = {.key = key, .length = length};
    if (RB_FIND(slot_tree, &layout->by_key, &probe) != NULL) {
        return -CDR_EINVAL;
    }
    if (layout->count == layout->capacity) {
        int32_t capacity = layout->capacity < 8 ? 8
                           : layout->capacity > INT32_MAX / 2 ? INT32_MAX
                                                               : layout->capacity * 2;
        struct slot **slots = reallocarray(layout->slots, (size_t)capacity, sizeof *slots);
        if (slots == NULL) {
            return -CDR_ENOMEM;
        }
        layout->slots = slots;
        layout->capacity = capacity;
    }
    const char *interned = cdr_intern(key, length);
    struct slot *slot = interned != NULL ? calloc(1, sizeof *slot) : NULL;
    if (slot == NULL) {
        return -CDR_ENOMEM;
    }
    slot->key = interned;
    slot->length = length;
    slot->index = layout->count;
    slot->type = type;
    RB_INSERT(slot_tree, &layout->by_key, slot);
    layout->slots[layout->count] = slot;
    return layout->count++;
}

int32_t cdr_layout_slot_count(const cdr_layout *layout) {
    return layout != NULL ? layout->count : 0;
}

int32_t cdr_layout_index_of(const cdr_layout *layout, const char *key, size_t length) {
    if (layout == NULL || (key == NULL && length > 0)) {
        return -1;
    }
    struct slot probe = {.key = key != NULL ? key : "", .length = length};
    /* RB_FIND does not modify the tree; the cast only satisfies the macro's signature. */
    struct slot *found = RB_FIND(slot_tree, (struct slot_tree *)&layout->by_key, &probe);
    return found != NULL ? found->index : -1;
}

cdr_type cdr_layout_slot_type(const cdr_layout *layout, int32_t index) {
    if (layout == NULL || index < 0 || index >= layout->count) {
        return CDR_NULL;
    }
    return layout->slots[index]->type;
}

const char *cdr_layout_slot_key(const cdr_layout *layout, int32_t index) {
    if (layout == NULL || index < 0 || index >= layout->count) {
        return NULL;
    }
    return layout->slots[index]->key;
}

const char *cdr_layout_entity_name(const cdr_layout *layout) {
    return layout != NULL ? layout->entity_name : NULL;
}
