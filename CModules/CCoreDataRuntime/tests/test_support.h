/*
 * test_support.h: what the runtime's C test files share: the CHECK counter and the
 * counted references whose retain/release callbacks prove nothing leaks.
 */
#ifndef CDR_TEST_SUPPORT_H
#define CDR_TEST_SUPPORT_H

#include "CCoreDataRuntime.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int passed;
extern int failed;

#define CHECK(cond)                                                                         \
    do {                                                                                    \
        if (cond) {                                                                         \
            passed++;                                                                       \
        } else {                                                                            \
            failed++;                                                                       \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                 \
        }                                                                                   \
    } while (0)

#define REF_COUNT 2000
extern int refs[REF_COUNT];
extern long retains;
extern long releases;
extern int over_releases;

void *ref(int i);
void count_retain(void *r);
void count_release(void *r);
int live_refs(void);

/* Shared fixtures. */
extern const cdr_type all_types[];
#define TYPE_COUNT 10
cdr_layout *typed_layout(void);
int set_with_type(cdr_object *object, int32_t index, cdr_type type);

/* The test groups, one per file. */
void test_intern(void);
void test_layout(void);
void test_setters(void);
void test_text_blob_uuid(void);
void test_references(void);
void test_rows(void);
void test_row_text_area(void);
void test_sets_small(void);
void test_sets_large(void);
void test_mutable_set(void);
void test_faults(void);
void test_dirty(void);
void test_snapshot(void);
void test_null_object(void);

#endif
