/*
 * test_main.c: runs the C tests of CCoreDataRuntime (tests/run.sh builds them).
 *
 * A plain program: every CHECK counts as one test; the last line printed is
 * "N passed, N failed" and the exit status is non-zero when anything failed.
 * References are pointers into `refs`; the retain/release callbacks count on them, and
 * the end of main checks that every count is back to zero (no leak, no over-release).
 */
#include "test_support.h"

int passed;
int failed;
int refs[REF_COUNT];
long retains;
long releases;
int over_releases;

void *ref(int i) {
    return &refs[i];
}

void count_retain(void *r) {
    (*(int *)r)++;
    retains++;
}

void count_release(void *r) {
    if (--(*(int *)r) < 0) {
        over_releases++;
    }
    releases++;
}

int live_refs(void) {
    int live = 0;
    for (int i = 0; i < REF_COUNT; i++) {
        live += refs[i] != 0;
    }
    return live;
}

int main(void) {
    cdr_set_reference_callbacks(count_retain, count_release);

    test_intern();
    test_layout();
    test_setters();
    test_text_blob_uuid();
    test_references();
    test_sets_small();
    test_sets_large();
    test_rows();
    test_row_text_area();
    test_faults();
    test_dirty();
    test_snapshot();
    test_mutable_set();
    test_null_object();

    CHECK(live_refs() == 0);
    CHECK(retains == releases);
    CHECK(over_releases == 0);

    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
