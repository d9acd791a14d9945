/*
 * test_runtime.c: the C tests of CCoreDataRuntime (run by tests/run.sh).
 *
 * A plain program: every CHECK counts as one test; the last line printed is
 * "N passed, N failed" and the exit status is non-zero when anything failed.
 * References are pointers into `refs`; the retain/release callbacks count on them, and
 * the end of main checks that every count is back to zero (no leak, no over-release).
 */
#include "CCoreDataRuntime.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed;
static int failed;

#define CHECK(cond)                                                                         \
    do {                                                                                    \
        if (cond) {                                                                         \
            passed++;                                                                       \
        } else {                                                                            \
            failed++;                                                                       \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                 \
        }                                                                                   \
    } while (0)

/* ---- counted references ----------------------------------------------------------- */

#define REF_COUNT 2000
static int refs[REF_COUNT];
static long retains;
static long releases;
static int over_releases;

static void *ref(int i) {
    return &refs[i];
}

static void count_retain(void *r) {
    (*(int *)r)++;
    retains++;
}

static void count_release(void *r) {
    if (--(*(int *)r) < 0) {
        over_releases++;
    }
    releases++;
}

static int live_refs(void) {
    int live = 0;
    for (int i = 0; i < REF_COUNT; i++) {
        live += refs[i] != 0;
    }
    return live;
}

/* ---- interning -------------------------------------------------------------------- */

#define INTERN_THREADS 8
#define INTERN_KEYS 300

struct intern_job {
    int seed;
    const char *results[INTERN_KEYS];
};

static void *intern_worker(void *arg) {
    struct intern_job *job = arg;
    for (int n = 0; n < INTERN_KEYS; n++) {
        int k = (n * 7 + job->seed * 31) % INTERN_KEYS; /* each thread in its own order */
        char key[32];
        int length = snprintf(key, sizeof key, "thread-key-%d", k);
        job->results[k] = cdr_intern(key, (size_t)length);
    }
    return NULL;
}

static void test_intern(void) {
    const char *a = cdr_intern("name", 4);
    CHECK(a != NULL && strcmp(a, "name") == 0);
    char buffer[] = "name";
    CHECK(cdr_intern(buffer, 4) == a);
    CHECK(cdr_intern("names", 4) == a); /* only `length` bytes count */
    CHECK(cdr_intern("names", 5) != a);
    const char *with_nul = cdr_intern("a\0b", 3);
    CHECK(with_nul != NULL && memcmp(with_nul, "a\0b", 4) == 0);
    CHECK(with_nul != cdr_intern("a", 1));
    CHECK(cdr_intern("a\0b", 3) == with_nul);
    CHECK(cdr_intern(NULL, 0) != NULL && cdr_intern(NULL, 0)[0] == '\0');
    CHECK(cdr_intern(NULL, 0) == cdr_intern("x", 0));
    CHECK(cdr_intern(NULL, 5) == NULL);

    pthread_t threads[INTERN_THREADS];
    static struct intern_job jobs[INTERN_THREADS];
    for (int t = 0; t < INTERN_THREADS; t++) {
        jobs[t].seed = t;
        pthread_create(&threads[t], NULL, intern_worker, &jobs[t]);
    }
    for (int t = 0; t < INTERN_THREADS; t++) {
        pthread_join(threads[t], NULL);
    }
    int same = 1;
    for (int k = 0; k < INTERN_KEYS; k++) {
        char key[32];
        int length = snprintf(key, sizeof key, "thread-key-%d", k);
        const char *mine = cdr_intern(key, (size_t)length);
        same &= mine != NULL && strcmp(mine, key) == 0;
        for (int t = 0; t < INTERN_THREADS; t++) {
            same &= jobs[t].results[k] == mine;
        }
    }
    CHECK(same);
}

/* ---- layouts ---------------------------------------------------------------------- */

static void test_layout(void) {
    cdr_layout *layout = cdr_layout_create("Item");
    CHECK(layout != NULL);
    CHECK(cdr_layout_entity_name(layout) == cdr_intern("Item", 4));
    CHECK(cdr_layout_add_slot(layout, "name", CDR_TEXT) == 0);
    CHECK(cdr_layout_add_slot(layout, "count", CDR_INT64) == 1);
    CHECK(cdr_layout_add_slot(layout, "name", CDR_INT64) == -CDR_EINVAL); /* duplicate */
    CHECK(cdr_layout_add_slot(layout, NULL, CDR_INT64) < 0);
    CHECK(cdr_layout_add_slot(layout, "bad", (cdr_type)99) < 0);
    CHECK(cdr_layout_add_slot(layout, "untyped", CDR_NULL) < 0);
    CHECK(cdr_layout_add_slot(NULL, "x", CDR_INT64) < 0);
    CHECK(cdr_layout_slot_count(layout) == 2);
    CHECK(cdr_layout_index_of(layout, "name", 4) == 0);
    CHECK(cdr_layout_index_of(layout, "countXYZ", 5) == 1); /* not NUL-terminated */
    CHECK(cdr_layout_index_of(layout, "nam", 3) == -1);
    CHECK(cdr_layout_index_of(layout, "missing", 7) == -1);
    CHECK(cdr_layout_index_of(layout, NULL, 3) == -1);
    CHECK(cdr_layout_index_of(NULL, "name", 4) == -1);
    CHECK(cdr_layout_slot_key(layout, 0) == cdr_intern("name", 4));
    CHECK(cdr_layout_slot_key(layout, 1) == cdr_intern("count", 5));
    CHECK(cdr_layout_slot_key(layout, 2) == NULL && cdr_layout_slot_key(layout, -1) == NULL);
    CHECK(cdr_layout_slot_type(layout, 0) == CDR_TEXT);
    CHECK(cdr_layout_slot_type(layout, 1) == CDR_INT64);
    CHECK(cdr_layout_slot_type(layout, 7) == CDR_NULL);
    CHECK(cdr_layout_create(NULL) == NULL);

    /* Many slots: lookups stay right past any small-size path. */
    cdr_layout *wide = cdr_layout_create("Wide");
    int ok = 1;
    for (int i = 0; i < 200; i++) {
        char key[16];
        snprintf(key, sizeof key, "k%d", i);
        ok &= cdr_layout_add_slot(wide, key, CDR_INT64) == i;
    }
    for (int i = 0; i < 200; i++) {
        char key[16];
        int length = snprintf(key, sizeof key, "k%d", i);
        ok &= cdr_layout_index_of(wide, key, (size_t)length) == i;
    }
    CHECK(ok);
    cdr_layout_release(wide);

    /* The first object freezes the layout; the object keeps it alive. */
    cdr_object *object = cdr_object_create(layout, NULL);
    CHECK(object != NULL);
    CHECK(cdr_layout_add_slot(layout, "late", CDR_INT64) == -CDR_EINVAL);
    CHECK(cdr_layout_slot_count(layout) == 2);
    CHECK(cdr_layout_retain(layout) == layout);
    cdr_layout_release(layout);
    cdr_layout_release(layout); /* the object still holds one reference */
    CHECK(cdr_object_layout(object) == layout);
    CHECK(cdr_layout_index_of(cdr_object_layout(object), "count", 5) == 1);
    cdr_object_destroy(object); /* frees the layout (ASan would catch a leak or misuse) */
    CHECK(cdr_layout_retain(NULL) == NULL);
    cdr_layout_release(NULL);
}

/* ---- setters and the type check --------------------------------------------------- */

static const cdr_type all_types[] = {CDR_INT64, CDR_DOUBLE, CDR_BOOL, CDR_TEXT, CDR_BLOB,
                                     CDR_DATE,  CDR_UUID,   CDR_OBJECT, CDR_SET, CDR_BOX};
#define TYPE_COUNT ((int)(sizeof all_types / sizeof all_types[0]))

static cdr_layout *typed_layout(void) {
    static const char *keys[] = {"i", "d", "b", "t", "blob", "date", "u", "o", "s", "x"};
    cdr_layout *layout = cdr_layout_create("Typed");
    for (int i = 0; i < TYPE_COUNT; i++) {
        cdr_layout_add_slot(layout, keys[i], all_types[i]);
    }
    return layout;
}

static int set_with_type(cdr_object *object, int32_t index, cdr_type type) {
    static const uint8_t uuid[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    switch (type) {
    case CDR_INT64:
        return cdr_object_set_int64(object, index, 42);
    case CDR_DOUBLE:
        return cdr_object_set_double(object, index, 2.5);
    case CDR_BOOL:
        return cdr_object_set_bool(object, index, true);
    case CDR_TEXT:
        return cdr_object_set_text(object, index, "hello", 5);
    case CDR_BLOB:
        return cdr_object_set_blob(object, index, "\x01\x02", 2);
    case CDR_DATE:
        return cdr_object_set_date(object, index, 1000.0);
    case CDR_UUID:
        return cdr_object_set_uuid(object, index, uuid);
    case CDR_OBJECT:
        return cdr_object_set_ref(object, index, ref(0));
    case CDR_BOX:
        return cdr_object_set_box(object, index, ref(1));
    case CDR_SET: {
        cdr_set *set = cdr_set_create();
        cdr_set_add(set, ref(2));
        cdr_value value = {.type = CDR_SET, .u.set = set};
        int status = cdr_object_set(object, index, &value);
        cdr_set_destroy(set);
        return status;
    }
    default:
        return -1;
    }
}

static void test_setters(void) {
    cdr_layout *layout = typed_layout();
    cdr_object *object = cdr_object_create_realized(layout, (void *)0x1234);
    cdr_layout_release(layout);
    CHECK(cdr_object_fault_state(object) == CDR_REALIZED);
    CHECK(cdr_object_owner(object) == (void *)0x1234);
    cdr_object_set_owner(object, (void *)0x5678);
    CHECK(cdr_object_owner(object) == (void *)0x5678);
    cdr_object_set_owner(NULL, (void *)0x5678); /* a no-op, not a crash */

    /* Every setter against every slot: accepted only on a slot of its own type. */
    int matrix_ok = 1;
    for (int setter = 0; setter < TYPE_COUNT; setter++) {
        for (int slot = 0; slot < TYPE_COUNT; slot++) {
            int expected = setter == slot ? CDR_OK : CDR_ETYPE;
            int status = set_with_type(object, slot, all_types[setter]);
            if (status != expected) {
                fprintf(stderr, "  setter %d on slot %d: %d\n", setter, slot, status);
                matrix_ok = 0;
            }
        }
    }
    CHECK(matrix_ok);

    /* Read back. */
    CHECK(cdr_object_get(object, 0)->type == CDR_INT64 && cdr_object_get(object, 0)->u.i == 42);
    CHECK(cdr_object_get(object, 1)->type == CDR_DOUBLE && cdr_object_get(object, 1)->u.d == 2.5);
    CHECK(cdr_object_get(object, 2)->type == CDR_BOOL && cdr_object_get(object, 2)->u.i == 1);
    CHECK(cdr_object_get(object, 3)->type == CDR_TEXT &&
          strcmp(cdr_object_get(object, 3)->u.text, "hello") == 0);
    CHECK(cdr_object_get(object, 4)->type == CDR_BLOB && cdr_object_get(object, 4)->length == 2);
    CHECK(cdr_object_get(object, 5)->type == CDR_DATE &&
          cdr_object_get(object, 5)->u.d == 1000.0);
    CHECK(cdr_object_get(object, 6)->type == CDR_UUID &&
          cdr_object_get(object, 6)->u.uuid[15] == 16);
    CHECK(cdr_object_get(object, 7)->type == CDR_OBJECT &&
          cdr_object_get(object, 7)->u.ref == ref(0));
    CHECK(cdr_object_get(object, 8)->type == CDR_SET &&
          cdr_set_count(cdr_object_get(object, 8)->u.set) == 1);
    CHECK(cdr_object_get(object, 9)->type == CDR_BOX && cdr_object_get(object, 9)->u.ref == ref(1));
    CHECK(refs[0] == 1 && refs[1] == 1 && refs[2] == 1);
    CHECK(cdr_object_set_bool(object, 2, false) == CDR_OK && cdr_object_get(object, 2)->u.i == 0);

    /* Strict pairs the brief calls out: BOOL vs INT64, DATE vs DOUBLE. */
    cdr_value as_int = {.type = CDR_INT64, .u.i = 1};
    cdr_value as_bool = {.type = CDR_BOOL, .u.i = 1};
    cdr_value as_double = {.type = CDR_DOUBLE, .u.d = 1.0};
    CHECK(cdr_object_set(object, 2, &as_int) == CDR_ETYPE);
    CHECK(cdr_object_set(object, 0, &as_bool) == CDR_ETYPE);
    CHECK(cdr_object_set(object, 5, &as_double) == CDR_ETYPE);
    cdr_value bogus = {.type = 77};
    CHECK(cdr_object_set(object, 0, &bogus) == CDR_ETYPE);
    CHECK(cdr_object_load(object, 2, &as_int) == CDR_ETYPE);

    /* CDR_NULL fits every slot; references go. */
    int null_ok = 1;
    for (int slot = 0; slot < TYPE_COUNT; slot++) {
        null_ok &= cdr_object_set_null(object, slot) == CDR_OK;
        null_ok &= cdr_object_get(object, slot)->type == CDR_NULL;
    }
    CHECK(null_ok);
    CHECK(refs[0] == 0 && refs[1] == 0 && refs[2] == 0);

    /* Bad indexes and arguments. */
    CHECK(cdr_object_set_int64(object, -1, 1) == CDR_ERANGE);
    CHECK(cdr_object_set_int64(object, TYPE_COUNT, 1) == CDR_ERANGE);
    CHECK(cdr_object_set(object, 0, NULL) == CDR_EINVAL);
    CHECK(cdr_object_set_int64(NULL, 0, 1) == CDR_EINVAL);
    CHECK(cdr_object_set_uuid(object, 6, NULL) == CDR_EINVAL);
    CHECK(cdr_object_get(object, -1) == NULL && cdr_object_get(object, TYPE_COUNT) == NULL);
    CHECK(cdr_object_set_ref(object, 7, NULL) == CDR_OK &&
          cdr_object_get(object, 7)->type == CDR_NULL);
    CHECK(cdr_object_set_box(object, 9, NULL) == CDR_OK &&
          cdr_object_get(object, 9)->type == CDR_NULL);
    cdr_object_destroy(object);
}

/* ---- text, blob, uuid ------------------------------------------------------------- */

static void test_text_blob_uuid(void) {
    cdr_layout *layout = typed_layout();
    cdr_object *object = cdr_object_create_realized(layout, NULL);
    cdr_layout_release(layout);

    char text[] = "ab\0cd";
    CHECK(cdr_object_set_text(object, 3, text, 5) == CDR_OK);
    text[0] = 'X'; /* the slot holds its own copy */
    const cdr_value *v = cdr_object_get(object, 3);
    CHECK(v->length == 5 && memcmp(v->u.text, "ab\0cd", 5) == 0 && v->u.text[5] == '\0');
    CHECK(v->u.text != text);

    unsigned char bytes[] = {0, 1, 0, 2, 0};
    CHECK(cdr_object_set_blob(object, 4, bytes, sizeof bytes) == CDR_OK);
    bytes[1] = 9;
    v = cdr_object_get(object, 4);
    CHECK(v->length == 5 && memcmp(v->u.blob, "\0\1\0\2\0", 5) == 0);

    CHECK(cdr_object_set_text(object, 3, NULL, 0) == CDR_OK);
    v = cdr_object_get(object, 3);
    CHECK(v->type == CDR_TEXT && v->length == 0 && v->u.text != NULL && v->u.text[0] == '\0');
    CHECK(cdr_object_set_blob(object, 4, NULL, 0) == CDR_OK);
    v = cdr_object_get(object, 4);
    CHECK(v->type == CDR_BLOB && v->length == 0 && v->u.blob == NULL);
    CHECK(cdr_object_set_text(object, 3, NULL, 3) == CDR_EINVAL);
    CHECK(cdr_object_set_blob(object, 4, NULL, 3) == CDR_EINVAL);
    if (SIZE_MAX > UINT32_MAX) {
        CHECK(cdr_object_set_text(object, 3, "x", (size_t)UINT32_MAX + 1) == CDR_EINVAL);
        CHECK(cdr_object_set_blob(object, 4, "x", (size_t)UINT32_MAX + 1) == CDR_EINVAL);
    }

    /* Value copy and equality. */
    cdr_value a = {.type = CDR_TEXT, .length = 5, .u.text = "ab\0cd"};
    cdr_value b;
    CHECK(cdr_value_copy(&b, &a) == CDR_OK);
    CHECK(b.u.text != a.u.text && cdr_value_equal(&a, &b));
    cdr_value c = {.type = CDR_TEXT, .length = 5, .u.text = "ab\0ce"};
    CHECK(!cdr_value_equal(&a, &c));
    cdr_value shorter = {.type = CDR_TEXT, .length = 2, .u.text = "ab"};
    CHECK(!cdr_value_equal(&a, &shorter));
    cdr_value as_blob = {.type = CDR_BLOB, .length = 5, .u.blob = "ab\0cd"};
    CHECK(!cdr_value_equal(&a, &as_blob)); /* type matters */
    cdr_value_clear(&b);
    CHECK(b.type == CDR_NULL);
    cdr_value_clear(&b); /* twice is harmless */
    cdr_value_clear(NULL);

    cdr_value blob_copy;
    CHECK(cdr_value_copy(&blob_copy, &as_blob) == CDR_OK);
    CHECK(blob_copy.u.blob != as_blob.u.blob && cdr_value_equal(&blob_copy, &as_blob));
    cdr_value_clear(&blob_copy);
    cdr_value bad_text = {.type = CDR_TEXT, .length = 3, .u.text = NULL};
    CHECK(cdr_value_copy(&blob_copy, &bad_text) == CDR_EINVAL && blob_copy.type == CDR_NULL);
    cdr_value bad_type = {.type = 200};
    CHECK(cdr_value_copy(&blob_copy, &bad_type) == CDR_EINVAL && blob_copy.type == CDR_NULL);
    CHECK(cdr_value_copy(NULL, &a) == CDR_EINVAL);
    CHECK(cdr_value_copy(&blob_copy, NULL) == CDR_EINVAL);

    /* Scalars. */
    cdr_value n1 = {.type = CDR_NULL}, n2 = {.type = CDR_NULL};
    CHECK(cdr_value_equal(&n1, &n2));
    cdr_value d1 = {.type = CDR_DOUBLE, .u.d = NAN}, d2 = {.type = CDR_DOUBLE, .u.d = NAN};
    CHECK(cdr_value_equal(&d1, &d2)); /* an unchanged NaN is not a change */
    cdr_value t1 = {.type = CDR_BOOL, .u.i = 1}, t2 = {.type = CDR_BOOL, .u.i = 5};
    CHECK(cdr_value_equal(&t1, &t2));
    cdr_value t3;
    CHECK(cdr_value_copy(&t3, &t2) == CDR_OK && t3.u.i == 1); /* normalised to 0/1 */
    CHECK(!cdr_value_equal(&n1, NULL) && cdr_value_equal(NULL, NULL));

    /* UUID. */
    uint8_t id[16];
    for (int i = 0; i < 16; i++) {
        id[i] = (uint8_t)(0xF0 + i);
    }
    CHECK(cdr_object_set_uuid(object, 6, id) == CDR_OK);
    id[0] = 0;
    v = cdr_object_get(object, 6);
    CHECK(v->type == CDR_UUID && v->u.uuid[0] == 0xF0 && v->u.uuid[15] == 0xFF);
    cdr_value u1 = *v, u2 = *v;
    CHECK(cdr_value_equal(&u1, &u2));
    u2.u.uuid[7] ^= 1;
    CHECK(!cdr_value_equal(&u1, &u2));
    cdr_value u3;
    CHECK(cdr_value_copy(&u3, &u1) == CDR_OK && memcmp(u3.u.uuid, u1.u.uuid, 16) == 0);

    cdr_object_destroy(object);
}

/* ---- references ------------------------------------------------------------------- */

static void test_references(void) {
    cdr_layout *layout = typed_layout();
    cdr_object *object = cdr_object_create_realized(layout, NULL);
    cdr_layout_release(layout);

    CHECK(cdr_object_set_ref(object, 7, ref(10)) == CDR_OK && refs[10] == 1);
    CHECK(cdr_object_set_ref(object, 7, ref(11)) == CDR_OK && refs[10] == 0 && refs[11] == 1);
    CHECK(cdr_object_set_ref(object, 7, ref(11)) == CDR_OK && refs[11] == 1);
    /* Writing a slot's own value back must not free it first. */
    CHECK(cdr_object_set(object, 7, cdr_object_get(object, 7)) == CDR_OK && refs[11] == 1);
    CHECK(cdr_object_get(object, 7)->u.ref == ref(11));
    CHECK(cdr_object_set_text(object, 3, "self", 4) == CDR_OK);
    CHECK(cdr_object_set(object, 3, cdr_object_get(object, 3)) == CDR_OK &&
          strcmp(cdr_object_get(object, 3)->u.text, "self") == 0);

    CHECK(cdr_object_set_box(object, 9, ref(12)) == CDR_OK && refs[12] == 1);
    cdr_value copy;
    CHECK(cdr_value_copy(&copy, cdr_object_get(object, 9)) == CDR_OK && refs[12] == 2);
    CHECK(cdr_value_equal(&copy, cdr_object_get(object, 9)));
    cdr_value other = {.type = CDR_BOX, .u.ref = ref(13)};
    CHECK(!cdr_value_equal(&copy, &other));
    cdr_value_clear(&copy);
    CHECK(refs[12] == 1);

    /* Without callbacks references are stored unretained. */
    cdr_set_reference_callbacks(NULL, NULL);
    cdr_layout *plain_layout = typed_layout();
    cdr_object *plain = cdr_object_create_realized(plain_layout, NULL);
    cdr_layout_release(plain_layout);
    long before = retains + releases;
    CHECK(cdr_object_set_ref(plain, 7, ref(14)) == CDR_OK && refs[14] == 0);
    cdr_set *set = cdr_object_mutable_set(plain, 8);
    CHECK(cdr_set_add(set, ref(15)) == 1 && refs[15] == 0);
    cdr_object_destroy(plain);
    CHECK(retains + releases == before);
    cdr_set_reference_callbacks(count_retain, count_release);

    cdr_object_destroy(object);
    CHECK(refs[11] == 0 && refs[12] == 0);
}

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

static void test_sets_small(void) {
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

static void test_sets_large(void) {
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

/* ---- rows ------------------------------------------------------------------------- */

static void test_rows(void) {
    cdr_row *row = cdr_row_create(4);
    CHECK(row != NULL && cdr_row_count(row) == 4);
    CHECK(cdr_row_get(row, 0)->type == CDR_NULL && cdr_row_get(row, 4) == NULL);
    CHECK(cdr_row_get(row, -1) == NULL);
    CHECK(cdr_row_set_int64(row, 0, -7) == CDR_OK && cdr_row_get(row, 0)->u.i == -7);
    CHECK(cdr_row_set_double(row, 1, 0.25) == CDR_OK && cdr_row_get(row, 1)->u.d == 0.25);
    CHECK(cdr_row_set_text(row, 2, "x\0y", 3) == CDR_OK && cdr_row_get(row, 2)->length == 3);
    CHECK(memcmp(cdr_row_get(row, 2)->u.text, "x\0y", 4) == 0);
    CHECK(cdr_row_set_blob(row, 3, "\0\0", 2) == CDR_OK && cdr_row_get(row, 3)->length == 2);
    CHECK(cdr_row_set_null(row, 3) == CDR_OK && cdr_row_get(row, 3)->type == CDR_NULL);
    CHECK(cdr_row_set_int64(row, 4, 1) == CDR_ERANGE);
    CHECK(cdr_row_set_text(row, 2, NULL, 1) == CDR_EINVAL);
    CHECK(cdr_row_set(row, 0, NULL) == CDR_EINVAL);
    /* A to-one key in a store row: INT64 pk with the entity in `length`, kept by copies. */
    cdr_value key = {.type = CDR_INT64, .length = 3, .u.i = 42};
    CHECK(cdr_row_set(row, 1, &key) == CDR_OK && cdr_row_get(row, 1)->length == 3);
    CHECK(cdr_value_equal(cdr_row_get(row, 1), &key));
    cdr_value other_entity = {.type = CDR_INT64, .length = 4, .u.i = 42};
    CHECK(!cdr_value_equal(cdr_row_get(row, 1), &other_entity));
    cdr_value r = {.type = CDR_OBJECT, .u.ref = ref(20)};
    CHECK(cdr_row_set(row, 3, &r) == CDR_OK && refs[20] == 1);
    CHECK(cdr_row_retain(row) == row);
    cdr_row_release(row);
    CHECK(refs[20] == 1);
    cdr_row_release(row);
    CHECK(refs[20] == 0);

    CHECK(cdr_row_create(-1) == NULL);
    cdr_row *empty = cdr_row_create(0);
    CHECK(empty != NULL && cdr_row_count(empty) == 0 && cdr_row_get(empty, 0) == NULL);
    cdr_row_release(empty);
    CHECK(cdr_row_count(NULL) == 0 && cdr_row_get(NULL, 0) == NULL);
    CHECK(cdr_row_set_int64(NULL, 0, 1) == CDR_EINVAL && cdr_row_retain(NULL) == NULL);
    cdr_row_release(NULL);
}

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

static void test_faults(void) {
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

static void test_dirty(void) {
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

static void test_snapshot(void) {
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

/* ---- mutable sets in slots -------------------------------------------------------- */

static void test_mutable_set(void) {
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

/* ---- NULL tolerance of the object API --------------------------------------------- */

static void test_null_object(void) {
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
