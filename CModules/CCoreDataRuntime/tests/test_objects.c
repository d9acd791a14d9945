/*
 * test_objects.c: the fault state machine, dirty bits, snapshots and NULL objects.
 */
#include "test_support.h"

/* ---- faults ----------------------------------------------------------------------- */

enum fulfil_mode { FULFIL_LOAD, FULFIL_FAIL, FULFIL_REENTER };

struct fulfil_probe {
    int calls;
    enum fulfil_mode mode;
    cdr_row *row;
    void *expected_owner;
    int owner_ok;
    int state_in_callback;
    int reentrant_status;
};

static int fulfil(cdr_object *object, void *owner, void *info) {
    struct fulfil_probe *probe = info;
    probe->calls++;
    probe->owner_ok = owner == probe->expected_owner;
    probe->state_in_callback = cdr_object_fault_state(object);
    int status = cdr_object_load_row(object, probe->row);
    switch (probe->mode) {
    case FULFIL_LOAD:
        return status;
    case FULFIL_FAIL:
        cdr_object_set_int64(object, 0, 99); /* a partial, dirtying fill */
        cdr_object_commit_snapshot(object);
        return 1;
    case FULFIL_REENTER:
        probe->reentrant_status = cdr_object_fire(object);
        cdr_object_turn_into_fault(object); /* ignored while firing */
        cdr_object_mark_realized(object);   /* ignored while firing */
        return status;
    }
    return 1;
}

static cdr_layout *fault_layout(void) {
    cdr_layout *layout = cdr_layout_create("Fault");
    cdr_layout_add_slot(layout, "n", CDR_INT64);
    cdr_layout_add_slot(layout, "name", CDR_TEXT);
    cdr_layout_add_slot(layout, "other", CDR_OBJECT);
    return layout;
}

void test_faults(void) {
    cdr_layout *layout = fault_layout();
    cdr_row *row = cdr_row_create(3);
    cdr_row_set_int64(row, 0, 5);
    cdr_row_set_text(row, 1, "five", 4);
    cdr_value other = {.type = CDR_OBJECT, .u.ref = ref(30)};
    cdr_row_set(row, 2, &other);
    struct fulfil_probe probe = {.mode = FULFIL_LOAD, .row = row, .expected_owner = (void *)7};

    cdr_object *object = cdr_object_create(layout, (void *)7);
    CHECK(cdr_object_fault_state(object) == CDR_FAULT);
    CHECK(cdr_object_get(object, 0)->type == CDR_NULL); /* get never fires */

    /* No callback registered: stays a fault. */
    cdr_set_fulfil_callback(NULL, NULL);
    CHECK(cdr_object_fire(object) == CDR_EFULFIL && cdr_object_fault_state(object) == CDR_FAULT);

    cdr_set_fulfil_callback(fulfil, &probe);
    CHECK(cdr_object_fire(object) == CDR_OK);
    CHECK(probe.calls == 1 && probe.owner_ok && probe.state_in_callback == CDR_FIRING);
    CHECK(cdr_object_fault_state(object) == CDR_REALIZED);
    CHECK(cdr_object_get(object, 0)->u.i == 5 &&
          strcmp(cdr_object_get(object, 1)->u.text, "five") == 0);
    CHECK(cdr_object_get(object, 2)->u.ref == ref(30) && refs[30] == 2);
    CHECK(!cdr_object_has_dirty(object) && !cdr_object_has_event_dirty(object)); /* loads */
    CHECK(cdr_object_fire(object) == CDR_OK && probe.calls == 1); /* realized: no call */

    /* turn_into_fault clears values, dirty bits and snapshot; firing again re-fills. */
    cdr_object_set_int64(object, 0, 6);
    cdr_object_commit_snapshot(object);
    cdr_object_set_int64(object, 0, 7);
    CHECK(refs[30] == 3); /* row, values, snapshot */
    cdr_object_turn_into_fault(object);
    CHECK(cdr_object_fault_state(object) == CDR_FAULT &&
          cdr_object_get(object, 0)->type == CDR_NULL);
    CHECK(cdr_object_get(object, 2)->type == CDR_NULL && refs[30] == 1);
    CHECK(!cdr_object_has_dirty(object) && !cdr_object_has_event_dirty(object));
    CHECK(!cdr_object_has_snapshot(object));
    CHECK(cdr_object_fire(object) == CDR_OK && probe.calls == 2 &&
          cdr_object_get(object, 0)->u.i == 5);

    /* A failing callback leaves a clean fault behind. */
    cdr_object_turn_into_fault(object);
    probe.mode = FULFIL_FAIL;
    CHECK(cdr_object_fire(object) == CDR_EFULFIL);
    CHECK(cdr_object_fault_state(object) == CDR_FAULT && probe.calls == 3);
    int all_null = 1;
    for (int32_t i = 0; i < 3; i++) {
        all_null &= cdr_object_get(object, i)->type == CDR_NULL;
    }
    CHECK(all_null && refs[30] == 1);
    CHECK(!cdr_object_has_dirty(object) && !cdr_object_has_event_dirty(object));
    CHECK(!cdr_object_has_snapshot(object));

    /* Re-entrant fire from inside the callback: CDR_EBUSY; the outer fire completes. */
    probe.mode = FULFIL_REENTER;
    CHECK(cdr_object_fire(object) == CDR_OK);
    CHECK(probe.reentrant_status == CDR_EBUSY && probe.calls == 4);
    CHECK(cdr_object_fault_state(object) == CDR_REALIZED && cdr_object_get(object, 0)->u.i == 5);

    /* mark_realized skips the callback. */
    cdr_object *marked = cdr_object_create(layout, NULL);
    cdr_object_mark_realized(marked);
    CHECK(cdr_object_fault_state(marked) == CDR_REALIZED && probe.calls == 4);
    CHECK(cdr_object_fire(marked) == CDR_OK && probe.calls == 4);
    cdr_object_destroy(marked);

    /* Loading a row with a wrong type changes nothing. */
    cdr_row *wrong = cdr_row_create(2);
    cdr_row_set_int64(wrong, 0, 8);
    cdr_row_set_int64(wrong, 1, 8); /* slot 1 is TEXT */
    CHECK(cdr_object_load_row(object, wrong) == CDR_ETYPE && cdr_object_get(object, 0)->u.i == 5);
    cdr_row_release(wrong);
    /* Rows shorter and longer than the layout. */
    cdr_row *short_row = cdr_row_create(1);
    cdr_row_set_int64(short_row, 0, 11);
    CHECK(cdr_object_load_row(object, short_row) == CDR_OK && cdr_object_get(object, 0)->u.i == 11);
    CHECK(cdr_object_get(object, 1)->type == CDR_TEXT); /* untouched */
    cdr_row_release(short_row);
    cdr_row *long_row = cdr_row_create(5);
    cdr_row_set_int64(long_row, 0, 12);
    cdr_row_set_text(long_row, 4, "extra", 5);
    CHECK(cdr_object_load_row(object, long_row) == CDR_OK && cdr_object_get(object, 0)->u.i == 12);
    CHECK(cdr_object_get(object, 1)->type == CDR_NULL && refs[30] == 1);
    CHECK(!cdr_object_has_dirty(object));
    cdr_row_release(long_row);
    CHECK(cdr_object_load_row(object, NULL) == CDR_EINVAL);
    CHECK(cdr_object_load_row(NULL, row) == CDR_EINVAL);

    cdr_set_fulfil_callback(NULL, NULL);
    cdr_object_destroy(object);
    cdr_row_release(row);
    cdr_layout_release(layout);
    CHECK(refs[30] == 0);
    CHECK(cdr_object_fire(NULL) == CDR_EINVAL);
}

/* ---- dirty bits ------------------------------------------------------------------- */

void test_dirty(void) {
    enum { SLOTS = 130 };
    cdr_layout *layout = cdr_layout_create("Wide");
    for (int i = 0; i < SLOTS; i++) {
        char key[16];
        snprintf(key, sizeof key, "s%d", i);
        cdr_layout_add_slot(layout, key, i == 100 ? CDR_TEXT : CDR_INT64);
    }
    cdr_object *object = cdr_object_create_realized(layout, NULL);
    cdr_layout_release(layout);
    CHECK(!cdr_object_has_dirty(object) && !cdr_object_has_event_dirty(object));

    const int32_t touched[] = {0, 63, 64, 127, 128, 129};
    for (size_t i = 0; i < sizeof touched / sizeof touched[0]; i++) {
        cdr_object_set_int64(object, touched[i], (int64_t)i);
    }
    int ok = 1;
    for (int32_t i = 0; i < SLOTS; i++) {
        int expect = 0;
        for (size_t j = 0; j < sizeof touched / sizeof touched[0]; j++) {
            expect |= touched[j] == i;
        }
        ok &= cdr_object_is_dirty(object, i) == expect;
        ok &= cdr_object_is_event_dirty(object, i) == expect;
    }
    CHECK(ok);
    CHECK(cdr_object_has_dirty(object) && cdr_object_has_event_dirty(object));
    CHECK(!cdr_object_is_dirty(object, SLOTS) && !cdr_object_is_dirty(object, -1));

    cdr_object_clear_event_dirty(object);
    CHECK(!cdr_object_has_event_dirty(object) && cdr_object_has_dirty(object));
    CHECK(cdr_object_is_dirty(object, 129) && !cdr_object_is_event_dirty(object, 129));
    cdr_object_clear_dirty(object);
    CHECK(!cdr_object_has_dirty(object) && !cdr_object_is_dirty(object, 64));

    /* Only the last word: has_dirty must look past word 0. */
    cdr_object_mark_dirty(object, 129);
    CHECK(cdr_object_has_dirty(object) && cdr_object_is_dirty(object, 129));
    CHECK(cdr_object_is_event_dirty(object, 129) && !cdr_object_is_dirty(object, 128));
    cdr_object_mark_dirty(object, SLOTS);
    cdr_object_mark_dirty(object, -5);
    cdr_object_mark_dirty(NULL, 0);
    cdr_object_clear_dirty(object);
    cdr_object_clear_event_dirty(object);

    /* Loads never dirty; failed writes never dirty. */
    cdr_value v = {.type = CDR_INT64, .u.i = 3};
    CHECK(cdr_object_load(object, 70, &v) == CDR_OK && cdr_object_get(object, 70)->u.i == 3);
    CHECK(!cdr_object_has_dirty(object) && !cdr_object_has_event_dirty(object));
    CHECK(cdr_object_set_int64(object, 100, 1) == CDR_ETYPE);
    CHECK(cdr_object_set_int64(object, SLOTS, 1) == CDR_ERANGE);
    CHECK(!cdr_object_has_dirty(object) && !cdr_object_has_event_dirty(object));
    CHECK(cdr_object_set(object, 70, &v) == CDR_OK && cdr_object_is_dirty(object, 70));
    CHECK(cdr_object_is_event_dirty(object, 70)); /* set dirties even an unchanged value */

    CHECK(!cdr_object_is_dirty(NULL, 0) && !cdr_object_has_dirty(NULL));
    CHECK(!cdr_object_is_event_dirty(NULL, 0) && !cdr_object_has_event_dirty(NULL));
    cdr_object_clear_dirty(NULL);
    cdr_object_clear_event_dirty(NULL);
    cdr_object_destroy(object);
}

/* ---- snapshot --------------------------------------------------------------------- */

void test_snapshot(void) {
    cdr_layout *layout = typed_layout();
    cdr_object *object = cdr_object_create_realized(layout, NULL);
    cdr_layout_release(layout);

    CHECK(!cdr_object_has_snapshot(object) && cdr_object_snapshot_get(object, 0) == NULL);
    CHECK(cdr_object_revert_to_snapshot(object) == CDR_EINVAL);
    CHECK(!cdr_object_differs_from_snapshot(object, 0)); /* NULL, no snapshot */
    cdr_object_set_int64(object, 0, 1);
    cdr_object_set_text(object, 3, "one", 3);
    cdr_object_set_ref(object, 7, ref(40));
    cdr_set *set = cdr_object_mutable_set(object, 8);
    cdr_set_add(set, ref(41));
    cdr_set_add(set, ref(42));
    CHECK(cdr_object_differs_from_snapshot(object, 0)); /* non-NULL, no snapshot */

    CHECK(cdr_object_commit_snapshot(object) == CDR_OK);
    CHECK(cdr_object_has_snapshot(object) && !cdr_object_has_dirty(object));
    CHECK(cdr_object_has_event_dirty(object)); /* commit clears the pending bits only */
    CHECK(cdr_object_snapshot_get(object, 0)->u.i == 1);
    CHECK(cdr_object_snapshot_get(object, TYPE_COUNT) == NULL);
    CHECK(refs[40] == 2 && refs[41] == 2);
    int none_differ = 1;
    for (int32_t i = 0; i < TYPE_COUNT; i++) {
        none_differ &= !cdr_object_differs_from_snapshot(object, i);
    }
    CHECK(none_differ);

    /* Change things, then revert. */
    cdr_object_set_int64(object, 0, 2);
    cdr_object_set_text(object, 3, "two", 3);
    cdr_object_set_ref(object, 7, ref(43));
    cdr_set_remove(cdr_object_mutable_set(object, 8), ref(41));
    cdr_set_add(cdr_object_mutable_set(object, 8), ref(44));
    cdr_object_mark_dirty(object, 8);
    CHECK(cdr_object_differs_from_snapshot(object, 0) &&
          cdr_object_differs_from_snapshot(object, 3));
    CHECK(cdr_object_differs_from_snapshot(object, 7) &&
          cdr_object_differs_from_snapshot(object, 8));
    CHECK(!cdr_object_differs_from_snapshot(object, 1));
    CHECK(cdr_object_is_dirty(object, 8) && refs[40] == 1 && refs[43] == 1);

    CHECK(cdr_object_revert_to_snapshot(object) == CDR_OK);
    CHECK(!cdr_object_has_dirty(object) && !cdr_object_has_event_dirty(object));
    CHECK(cdr_object_has_snapshot(object));
    CHECK(cdr_object_get(object, 0)->u.i == 1 &&
          strcmp(cdr_object_get(object, 3)->u.text, "one") == 0);
    CHECK(cdr_object_get(object, 7)->u.ref == ref(40) && refs[40] == 2 && refs[43] == 0);
    set = cdr_object_mutable_set(object, 8);
    CHECK(cdr_set_count(set) == 2 && cdr_set_at(set, 0) == ref(41) &&
          cdr_set_at(set, 1) == ref(42));
    CHECK(refs[44] == 0 && refs[41] == 2);
    CHECK(!cdr_object_differs_from_snapshot(object, 8));

    /* Same members, other order: not a change. */
    cdr_set_remove(set, ref(41));
    cdr_set_add(set, ref(41));
    CHECK(!cdr_object_differs_from_snapshot(object, 8));

    /* A second commit replaces the first snapshot. */
    cdr_object_set_int64(object, 0, 3);
    CHECK(cdr_object_commit_snapshot(object) == CDR_OK &&
          cdr_object_snapshot_get(object, 0)->u.i == 3);
    CHECK(refs[40] == 2);

    cdr_object_discard_snapshot(object);
    CHECK(!cdr_object_has_snapshot(object) && refs[40] == 1);
    CHECK(cdr_object_differs_from_snapshot(object, 0) &&
          !cdr_object_differs_from_snapshot(object, 1));
    cdr_object_discard_snapshot(object); /* twice is harmless */

    CHECK(cdr_object_commit_snapshot(NULL) == CDR_EINVAL && !cdr_object_has_snapshot(NULL));
    CHECK(cdr_object_revert_to_snapshot(NULL) == CDR_EINVAL);
    CHECK(cdr_object_snapshot_get(NULL, 0) == NULL && !cdr_object_differs_from_snapshot(NULL, 0));
    cdr_object_discard_snapshot(NULL);
    cdr_object_destroy(object);
    CHECK(refs[40] == 0 && refs[41] == 0 && refs[42] == 0);
}

/* ---- NULL tolerance of the object API --------------------------------------------- */

void test_null_object(void) {
    CHECK(cdr_object_create(NULL, NULL) == NULL && cdr_object_create_realized(NULL, NULL) == NULL);
    cdr_object_destroy(NULL);
    CHECK(cdr_object_layout(NULL) == NULL && cdr_object_owner(NULL) == NULL);
    CHECK(cdr_object_fault_state(NULL) == CDR_FAULT);
    cdr_object_mark_realized(NULL);
    cdr_object_turn_into_fault(NULL);
    CHECK(cdr_object_get(NULL, 0) == NULL);
    CHECK(cdr_object_set_text(NULL, 0, "a", 1) == CDR_EINVAL);
    CHECK(cdr_object_set_ref(NULL, 0, ref(1)) == CDR_EINVAL && refs[1] == 0);
    CHECK(cdr_object_load(NULL, 0, NULL) == CDR_EINVAL);

    /* A layout without slots still makes objects. */
    cdr_layout *bare = cdr_layout_create("");
    cdr_object *object = cdr_object_create(bare, NULL);
    cdr_layout_release(bare);
    CHECK(object != NULL && cdr_object_get(object, 0) == NULL && !cdr_object_has_dirty(object));
    CHECK(cdr_object_commit_snapshot(object) == CDR_OK &&
          cdr_object_revert_to_snapshot(object) == CDR_OK);
    cdr_object_destroy(object);
}

