/*
 * test_sets.c: ordered reference sets, small and past the hash threshold, and the
 * to-many slot of an object.
 */
#include "test_support.h"

/* ---- sets ------------------------------------------------------------------------- */

static int set_order_is(const cdr_set *set, const int *expected, size_t count) {
    if (cdr_set_count(set) != count) {
        return 0;
    }
    for (size_t i = 0; i < count; i++) {
        if (cdr_set_at(set, i) != ref(expected[i])) {
            return 0;
        }
    }
    return 1;
}

void test_sets_small(void) {
    cdr_set *set = cdr_set_create();
    CHECK(set != NULL && cdr_set_count(set) == 0);
    CHECK(cdr_set_add(set, ref(1)) == 1);
    CHECK(cdr_set_add(set, ref(2)) == 1);
    CHECK(cdr_set_add(set, ref(3)) == 1);
    CHECK(cdr_set_add(set, ref(2)) == 0 && refs[2] == 1); /* duplicate: no second retain */
    CHECK(cdr_set_add(set, NULL) < 0);
    CHECK(cdr_set_insert_at(set, ref(0), 0) == 1);
    CHECK(cdr_set_insert_at(set, ref(4), 1000) == 1); /* clamped to the end */
    CHECK(cdr_set_insert_at(set, ref(5), 2) == 1);
    CHECK(cdr_set_insert_at(set, ref(5), 0) == 0);
    {
        int expected[] = {0, 1, 5, 2, 3, 4};
        CHECK(set_order_is(set, expected, 6));
    }
    CHECK(cdr_set_index_of(set, ref(5)) == 2 && cdr_set_index_of(set, ref(9)) == -1);
    CHECK(cdr_set_contains(set, ref(3)) && !cdr_set_contains(set, ref(9)));
    CHECK(cdr_set_at(set, 6) == NULL);
    CHECK(cdr_set_remove(set, ref(5)) == 1 && refs[5] == 0);
    CHECK(cdr_set_remove(set, ref(5)) == 0);
    CHECK(cdr_set_remove(set, ref(0)) == 1);
    {
        int expected[] = {1, 2, 3, 4};
        CHECK(set_order_is(set, expected, 4));
    }

    /* Copies retain their members; equality ignores order. */
    cdr_set *copy = cdr_set_copy(set);
    CHECK(copy != NULL && refs[1] == 2 && set_order_is(copy, (int[]){1, 2, 3, 4}, 4));
    cdr_set *reversed = cdr_set_create();
    for (int i = 4; i >= 1; i--) {
        cdr_set_add(reversed, ref(i));
    }
    cdr_value va = {.type = CDR_SET, .u.set = set};
    cdr_value vb = {.type = CDR_SET, .u.set = reversed};
    CHECK(cdr_value_equal(&va, &vb));
    cdr_set_remove(reversed, ref(4));
    cdr_set_add(reversed, ref(7));
    CHECK(!cdr_value_equal(&va, &vb));
    cdr_set_remove(reversed, ref(7));
    CHECK(!cdr_value_equal(&va, &vb)); /* counts differ */

    cdr_value empty_a = {.type = CDR_SET, .u.set = NULL};
    cdr_set *empty = cdr_set_create();
    cdr_value empty_b = {.type = CDR_SET, .u.set = empty};
    CHECK(cdr_value_equal(&empty_a, &empty_b));

    /* A CDR_SET value copies deeply. */
    cdr_value vc;
    CHECK(refs[1] == 3); /* set, copy, reversed */
    CHECK(cdr_value_copy(&vc, &va) == CDR_OK && vc.u.set != set && refs[1] == 4);
    CHECK(cdr_value_equal(&vc, &va));
    cdr_value_clear(&vc);
    CHECK(refs[1] == 3);

    cdr_set_remove_all(copy);
    CHECK(cdr_set_count(copy) == 0 && refs[1] == 2);
    CHECK(cdr_set_add(copy, ref(1)) == 1 && refs[1] == 3); /* usable after remove_all */

    cdr_set_destroy(copy);
    cdr_set_destroy(reversed);
    cdr_set_destroy(empty);
    cdr_set_destroy(set);
    CHECK(refs[1] == 0 && refs[2] == 0 && refs[3] == 0 && refs[4] == 0);

    /* NULL tolerance. */
    CHECK(cdr_set_count(NULL) == 0 && cdr_set_at(NULL, 0) == NULL);
    CHECK(!cdr_set_contains(NULL, ref(1)) && cdr_set_index_of(NULL, ref(1)) == -1);
    CHECK(cdr_set_add(NULL, ref(1)) < 0 && cdr_set_insert_at(NULL, ref(1), 0) < 0);
    CHECK(cdr_set_remove(NULL, ref(1)) == 0 && cdr_set_copy(NULL) == NULL);
    cdr_set_remove_all(NULL);
    cdr_set_destroy(NULL);
}

void test_sets_large(void) {
    enum { N = 1000 };
    cdr_set *set = cdr_set_create();
    int ok = 1;
    for (int i = 0; i < N; i++) {
        ok &= cdr_set_add(set, ref(i)) == 1;
        ok &= cdr_set_add(set, ref(i)) == 0;
    }
    CHECK(ok);
    CHECK(cdr_set_count(set) == N);
    ok = 1;
    for (int i = 0; i < N; i++) {
        ok &= cdr_set_contains(set, ref(i)) && cdr_set_index_of(set, ref(i)) == i;
        ok &= refs[i] == 1;
    }
    CHECK(ok);
    CHECK(!cdr_set_contains(set, ref(N)) && cdr_set_index_of(set, ref(N + 1)) == -1);

    /* Remove every third member: order kept, the index still finds the rest. */
    for (int i = 0; i < N; i += 3) {
        ok &= cdr_set_remove(set, ref(i)) == 1;
    }
    CHECK(ok);
    size_t expected_count = N - (N + 2) / 3;
    CHECK(cdr_set_count(set) == expected_count);
    ok = 1;
    size_t position = 0;
    for (int i = 0; i < N; i++) {
        if (i % 3 == 0) {
            ok &= !cdr_set_contains(set, ref(i)) && refs[i] == 0;
        } else {
            ok &= cdr_set_at(set, position) == ref(i) && cdr_set_contains(set, ref(i));
            ok &= cdr_set_index_of(set, ref(i)) == (ptrdiff_t)position;
            position++;
        }
    }
    CHECK(ok);

    /* Insert in the middle, past the hash threshold. */
    CHECK(cdr_set_insert_at(set, ref(0), 5) == 1 && cdr_set_at(set, 5) == ref(0));
    CHECK(cdr_set_insert_at(set, ref(3), 5) == 1 && cdr_set_at(set, 6) == ref(0));
    CHECK(cdr_set_insert_at(set, ref(0), 0) == 0);
    CHECK(cdr_set_index_of(set, ref(3)) == 5);

    /* Copy and equality at size, one in reverse order. */
    cdr_set *copy = cdr_set_copy(set);
    cdr_set *reversed = cdr_set_create();
    for (size_t i = cdr_set_count(set); i-- > 0;) {
        cdr_set_add(reversed, cdr_set_at(set, i));
    }
    cdr_value va = {.type = CDR_SET, .u.set = set};
    cdr_value vb = {.type = CDR_SET, .u.set = copy};
    cdr_value vr = {.type = CDR_SET, .u.set = reversed};
    CHECK(cdr_value_equal(&va, &vb) && cdr_value_equal(&va, &vr));
    CHECK(refs[1] == 3);
    ok = 1;
    for (size_t i = 0; i < cdr_set_count(set); i++) {
        ok &= cdr_set_at(copy, i) == cdr_set_at(set, i);
    }
    CHECK(ok);
    cdr_set_remove(reversed, ref(1));
    CHECK(!cdr_value_equal(&va, &vr));

    /* Shrink well below the threshold; membership stays right. */
    for (int i = 0; i < N; i++) {
        if (i != 500 && i != 7) {
            cdr_set_remove(set, ref(i));
        }
    }
    CHECK(cdr_set_count(set) == 2 && cdr_set_at(set, 0) == ref(7) &&
          cdr_set_at(set, 1) == ref(500));
    CHECK(cdr_set_contains(set, ref(500)) && !cdr_set_contains(set, ref(501)));
    for (int i = 1000; i < 1100; i++) { /* and grows again */
        cdr_set_add(set, ref(i));
    }
    CHECK(cdr_set_count(set) == 102 && cdr_set_index_of(set, ref(1099)) == 101);

    cdr_set_destroy(set);
    cdr_set_destroy(copy);
    cdr_set_destroy(reversed);
    CHECK(live_refs() == 0);
}

/* ---- mutable sets in slots -------------------------------------------------------- */

void test_mutable_set(void) {
    cdr_layout *layout = typed_layout();
    cdr_object *object = cdr_object_create_realized(layout, NULL);
    cdr_layout_release(layout);

    cdr_set *set = cdr_object_mutable_set(object, 8);
    CHECK(set != NULL && cdr_object_get(object, 8)->type == CDR_SET);
    CHECK(!cdr_object_has_dirty(object)); /* creating the empty set is not a change */
    CHECK(cdr_object_mutable_set(object, 8) == set);
    CHECK(cdr_object_mutable_set(object, 0) == NULL);  /* not a set slot */
    CHECK(cdr_object_mutable_set(object, 99) == NULL);
    CHECK(cdr_object_mutable_set(NULL, 8) == NULL);
    cdr_set_add(set, ref(50));
    cdr_object_mark_dirty(object, 8);
    CHECK(cdr_object_is_dirty(object, 8) && cdr_object_is_event_dirty(object, 8));
    CHECK(cdr_object_set_null(object, 8) == CDR_OK && refs[50] == 0);
    CHECK(cdr_object_mutable_set(object, 8) != NULL);
    cdr_object_destroy(object);
}

