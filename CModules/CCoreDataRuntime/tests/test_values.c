/*
 * test_values.c: interning, layouts, typed setters, text/blob/UUID values, references
 * and rows.
 */
#include "test_support.h"

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

void test_intern(void) {
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

void test_layout(void) {
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

const cdr_type all_types[] = {CDR_INT64, CDR_DOUBLE, CDR_BOOL, CDR_TEXT, CDR_BLOB,
                                     CDR_DATE,  CDR_UUID,   CDR_OBJECT, CDR_SET, CDR_BOX};
_Static_assert(sizeof all_types / sizeof all_types[0] == TYPE_COUNT, "TYPE_COUNT is stale");

cdr_layout *typed_layout(void) {
    static const char *keys[] = {"i", "d", "b", "t", "blob", "date", "u", "o", "s", "x"};
    cdr_layout *layout = cdr_layout_create("Typed");
    for (int i = 0; i < TYPE_COUNT; i++) {
        cdr_layout_add_slot(layout, keys[i], all_types[i]);
    }
    return layout;
}

int set_with_type(cdr_object *object, int32_t index, cdr_type type) {
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

void test_setters(void) {
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

void test_text_blob_uuid(void) {
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

void test_references(void) {
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

/* ---- rows ------------------------------------------------------------------------- */

void test_rows(void) {
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
    /* A to-one reference in a store row: CDR_KEY, entity and key, kept by copies. */
    CHECK(cdr_row_set_key(row, 1, 42, 3) == CDR_OK);
    CHECK(cdr_row_get(row, 1)->type == CDR_KEY && cdr_row_get(row, 1)->u.key.pk == 42);
    CHECK(cdr_row_get(row, 1)->u.key.entity == 3 && cdr_row_get(row, 1)->length == 0);
    cdr_value key = {.type = CDR_KEY, .u.key = {.pk = 42, .entity = 3}};
    CHECK(cdr_value_equal(cdr_row_get(row, 1), &key));
    cdr_value other_entity = {.type = CDR_KEY, .u.key = {.pk = 42, .entity = 4}};
    CHECK(!cdr_value_equal(cdr_row_get(row, 1), &other_entity));
    cdr_value plain = {.type = CDR_INT64, .u.i = 42};
    CHECK(!cdr_value_equal(cdr_row_get(row, 1), &plain));
    cdr_value copied;
    CHECK(cdr_value_copy(&copied, cdr_row_get(row, 1)) == CDR_OK && cdr_value_equal(&copied, &key));
    cdr_value_clear(&copied);
    /* `length` belongs to TEXT and BLOB: a stray length on a number is not copied. */
    cdr_value tagged = {.type = CDR_INT64, .length = 9, .u.i = 5};
    CHECK(cdr_row_set(row, 1, &tagged) == CDR_OK && cdr_row_get(row, 1)->length == 0);
    CHECK(cdr_value_equal(cdr_row_get(row, 1), &plain) == false);
    CHECK(cdr_row_get(row, 1)->u.i == 5);
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

/* A row with a text area: text goes there (one allocation) while it fits, then to copies
 * of its own; values copied out of the row own their text; replacing and freeing leaks
 * nothing and frees nothing twice (the sanitizer run checks both). */
void test_row_text_area(void) {
    cdr_row *row = cdr_row_create_with_text(4, 3 + 1 + 0 + 1);
    CHECK(row != NULL && cdr_row_count(row) == 4 && cdr_row_get(row, 3)->type == CDR_NULL);
    CHECK(cdr_row_set_text(row, 0, "a\0b", 3) == CDR_OK);
    const cdr_value *in_row = cdr_row_get(row, 0);
    CHECK(in_row->pad[0] == CDR_VALUE_IN_ROW && in_row->length == 3 && memcmp(in_row->u.text, "a\0b", 4) == 0);
    CHECK(cdr_row_set_text(row, 1, "", 0) == CDR_OK && cdr_row_get(row, 1)->pad[0] == CDR_VALUE_IN_ROW);
    CHECK(cdr_row_get(row, 1)->u.text[0] == '\0');
    /* The area is full: the next text gets an allocation of its own. */
    CHECK(cdr_row_set_text(row, 2, "xy", 2) == CDR_OK && cdr_row_get(row, 2)->pad[0] == 0);
    CHECK(strcmp(cdr_row_get(row, 2)->u.text, "xy") == 0);
    cdr_value copy;
    CHECK(cdr_value_copy(&copy, in_row) == CDR_OK && copy.pad[0] == 0 && copy.u.text != in_row->u.text);
    CHECK(cdr_value_equal(&copy, in_row));
    /* Replacing a value in the area, with a number and then with text again. */
    CHECK(cdr_row_set_int64(row, 0, 5) == CDR_OK && cdr_row_get(row, 0)->u.i == 5);
    CHECK(cdr_row_set_text(row, 0, "zz", 2) == CDR_OK && strcmp(cdr_row_get(row, 0)->u.text, "zz") == 0);
    /* Text copied from another area row. */
    cdr_row *other = cdr_row_create_with_text(1, 64);
    CHECK(cdr_row_set(other, 0, cdr_row_get(row, 2)) == CDR_OK && other != NULL);
    CHECK(cdr_row_get(other, 0)->pad[0] == CDR_VALUE_IN_ROW && strcmp(cdr_row_get(other, 0)->u.text, "xy") == 0);
    cdr_row_release(row);
    CHECK(strcmp(copy.u.text, "a") == 0 && copy.length == 3);
    cdr_value_clear(&copy);
    cdr_row_release(other);
    CHECK(cdr_row_create_with_text(-1, 8) == NULL);
    cdr_row *plain = cdr_row_create_with_text(1, 0);
    CHECK(cdr_row_set_text(plain, 0, "q", 1) == CDR_OK && cdr_row_get(plain, 0)->pad[0] == 0);
    cdr_row_release(plain);
}

