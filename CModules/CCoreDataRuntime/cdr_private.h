/*
 * cdr_private.h: helpers shared by the runtime's .c files (reference callbacks, layout
 * freezing, byte comparison). Not part of the module's API; never included by Swift.
 */
#ifndef CDR_PRIVATE_H
#define CDR_PRIVATE_H

#include "CCoreDataRuntime.h"

#include <string.h>

/** Retains/releases a reference through the registered callbacks (NULL is a no-op). */
CDR_HIDDEN void cdr_ref_retain(void *ref);
CDR_HIDDEN void cdr_ref_release(void *ref);

/** Marks a layout as used by an object: cdr_layout_add_slot refuses from then on. */
CDR_HIDDEN void cdr_layout_freeze(cdr_layout *layout);

/** Orders byte strings: by content over the common prefix, then by length. */
static inline int cdr_bytes_compare(const char *a, size_t alength, const char *b,
                                    size_t blength) {
    size_t common = alength < blength ? alength : blength;
    int order = common > 0 ? memcmp(a, b, common) : 0;
    if (order != 0) {
        return order;
    }
    return (alength > blength) - (alength < blength);
}

#endif /* CDR_PRIVATE_H */
