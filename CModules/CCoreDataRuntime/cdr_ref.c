/*
 * cdr_ref.c: the reference callbacks through which the runtime retains and releases the
 * opaque references it holds (CDR_OBJECT and CDR_BOX values, members of sets). Values and
 * sets both depend on this file; it depends on neither.
 */
#include "cdr_private.h"

#include <stdatomic.h>
#include <stddef.h>

static _Atomic(cdr_ref_fn) retain_fn;
static _Atomic(cdr_ref_fn) release_fn;

void cdr_set_reference_callbacks(cdr_ref_fn retain, cdr_ref_fn release) {
    atomic_store(&retain_fn, retain);
    atomic_store(&release_fn, release);
}

void cdr_ref_retain(void *ref) {
    cdr_ref_fn fn = atomic_load_explicit(&retain_fn, memory_order_acquire);
    if (ref != NULL && fn != NULL) {
        fn(ref);
    }
}

void cdr_ref_release(void *ref) {
    cdr_ref_fn fn = atomic_load_explicit(&release_fn, memory_order_acquire);
    if (ref != NULL && fn != NULL) {
        fn(ref);
    }
}

/* The Swift runtime's conditional retain (libswiftCore, C calling convention). Weak, so
 * that the C tests link without a Swift runtime. */
extern void *swift_tryRetain(void *object) __attribute__((weak));

bool cdr_try_retain(void *object) {
    if (object == NULL || swift_tryRetain == NULL) {
        return false;
    }
    return swift_tryRetain(object) != NULL;
}
