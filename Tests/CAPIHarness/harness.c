/*
 * The C API harness: calls every function of coredata.h, on success and misuse paths,
 * using nothing but the header. Built with -std=c99 -Wall -Wextra -pedantic -Werror and
 * run under AddressSanitizer + LeakSanitizer by .ci/capi.sh (0 reports expected: every
 * handle, string and blob is released).
 *
 * usage: harness MODEL.xcdatamodeld SCRATCH_DIR
 * Prints "N passed, N failed" and exits non-zero on any failure.
 */
#define _POSIX_C_SOURCE 200809L
#include <coredata.h>

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (cond) {                                                                   \
            passed++;                                                                 \
        } else {                                                                      \
            failed++;                                                                 \
            fprintf(stderr, "%s:%d: CHECK(%s) failed; last error %d: %s\n", __FILE__, \
                    __LINE__, #cond, cd_last_error_code(), cd_last_error_message());  \
        }                                                                             \
    } while (0)
/* Every status a call returns must be a cd_status: IS also fails on one the enum lacks. */
#define IS(call, status)                                                              \
    do {                                                                              \
        int got_ = (call);                                                            \
        if (!is_listed_status(got_))                                                  \
            fprintf(stderr, "%s:%d: %s returned %d, not a cd_status\n", __FILE__,      \
                    __LINE__, #call, got_);                                           \
        CHECK(got_ == (status) && is_listed_status(got_));                            \
    } while (0)
#define OK(call) IS(call, CD_OK)
/* A call that must fail, with a status of the enum. */
#define FAILS(call)                                                                   \
    do {                                                                              \
        int got_ = (call);                                                            \
        CHECK(got_ != CD_OK && is_listed_status(got_));                               \
    } while (0)

/* Every value of the cd_status enum (.ci/capi.sh checks that none is missing here). */
static const int statuses[] = {
    CD_OK, CD_ERROR, CD_MISUSE, CD_NOMEM, CD_NOTFOUND, CD_TYPE, CD_RANGE, CD_NULL,
    CD_UNSUPPORTED,
    CD_FILE_READ_UNKNOWN, CD_FILE_READ_NO_PERMISSION, CD_FILE_READ_INVALID_FILE_NAME,
    CD_FILE_READ_CORRUPT_FILE, CD_FILE_READ_NO_SUCH_FILE,
    CD_FILE_READ_INAPPLICABLE_STRING_ENCODING, CD_FILE_READ_UNSUPPORTED_SCHEME,
    CD_FILE_READ_TOO_LARGE, CD_FILE_READ_UNKNOWN_STRING_ENCODING, CD_FILE_WRITE_UNKNOWN,
    CD_FILE_WRITE_NO_PERMISSION, CD_FILE_WRITE_INVALID_FILE_NAME, CD_FILE_WRITE_FILE_EXISTS,
    CD_FILE_WRITE_INAPPLICABLE_STRING_ENCODING, CD_FILE_WRITE_UNSUPPORTED_SCHEME,
    CD_FILE_WRITE_OUT_OF_SPACE, CD_FILE_WRITE_VOLUME_READ_ONLY,
    CD_KEY_VALUE_VALIDATION,
    CD_VALIDATION, CD_CONSTRAINT_VALIDATION, CD_VALIDATION_MULTIPLE_ERRORS,
    CD_VALIDATION_MISSING_MANDATORY_PROPERTY, CD_VALIDATION_RELATIONSHIP_LACKS_MINIMUM_COUNT,
    CD_VALIDATION_RELATIONSHIP_EXCEEDS_MAXIMUM_COUNT, CD_VALIDATION_RELATIONSHIP_DENIED_DELETE,
    CD_VALIDATION_NUMBER_TOO_LARGE, CD_VALIDATION_NUMBER_TOO_SMALL, CD_VALIDATION_DATE_TOO_LATE,
    CD_VALIDATION_DATE_TOO_SOON, CD_VALIDATION_INVALID_DATE, CD_VALIDATION_STRING_TOO_LONG,
    CD_VALIDATION_STRING_TOO_SHORT, CD_VALIDATION_STRING_PATTERN_MATCHING,
    CD_VALIDATION_INVALID_URI,
    CD_FORMATTING, CD_USER_CANCELLED,
    CD_CONTEXT_LOCKING, CD_COORDINATOR_LOCKING, CD_REFERENTIAL_INTEGRITY,
    CD_EXTERNAL_RELATIONSHIP, CD_MERGE, CD_CONSTRAINT_MERGE,
    CD_STORE_INVALID_TYPE, CD_STORE_TYPE_MISMATCH, CD_STORE_INCOMPATIBLE_SCHEMA, CD_STORE_SAVE,
    CD_STORE_INCOMPLETE_SAVE, CD_STORE_SAVE_CONFLICTS, CD_CORE_DATA, CD_STORE_OPERATION,
    CD_STORE_OPEN, CD_STORE_TIMEOUT, CD_STORE_UNSUPPORTED_REQUEST_TYPE,
    CD_STORE_INCOMPATIBLE_VERSION_HASH,
    CD_MIGRATION, CD_MIGRATION_CONSTRAINT_VIOLATION, CD_MIGRATION_CANCELLED,
    CD_MIGRATION_MISSING_SOURCE_MODEL, CD_MIGRATION_MISSING_MAPPING_MODEL,
    CD_MIGRATION_MANAGER_SOURCE_STORE, CD_MIGRATION_MANAGER_DESTINATION_STORE,
    CD_ENTITY_MIGRATION_POLICY, CD_SQLITE, CD_INFERRED_MAPPING_MODEL, CD_EXTERNAL_RECORD_IMPORT,
    CD_PERSISTENT_HISTORY_TOKEN_EXPIRED, CD_MODEL_REFERENCE_NOT_FOUND,
    CD_STAGED_MIGRATION_FRAMEWORK_VERSION_MISMATCH, CD_STAGED_MIGRATION_BACKWARD_MIGRATION,
};
#define STATUS_COUNT (sizeof statuses / sizeof statuses[0])

static int is_listed_status(int status) {
    size_t i;
    for (i = 0; i < STATUS_COUNT; i++)
        if (statuses[i] == status) return 1;
    return 0;
}

static const char *model_path;
static char store_path[4096];

static const uint8_t uuid_bytes[16] = {0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A,
                                       0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F};

/* Reads a text attribute and compares it. */
static int text_is(cd_object *object, const char *key, const char *expected) {
    char *text = NULL;
    int same;
    if (cd_object_get_text(&text, object, key) != CD_OK) return 0;
    same = strcmp(text, expected) == 0;
    cd_string_free(text);
    return same;
}

/* Every cd_status has a text of its own; codes outside the enum have none. */
static void test_status_strings(void) {
    size_t i, j;
    for (i = 0; i < STATUS_COUNT; i++) {
        const char *text = cd_status_string(statuses[i]);
        int distinct = strcmp(text, "unknown status") != 0 && strlen(text) > 0;
        for (j = 0; j < i; j++)
            if (statuses[j] == statuses[i] || strcmp(cd_status_string(statuses[j]), text) == 0) distinct = 0;
        if (!distinct) fprintf(stderr, "status %d: \"%s\" is not a text of its own\n", statuses[i], text);
        CHECK(distinct);
    }
    CHECK(strcmp(cd_status_string(CD_KEY_VALUE_VALIDATION), "unknown status") != 0);
    CHECK(strcmp(cd_status_string(255), "unknown status") == 0);
    CHECK(strcmp(cd_status_string(515), "unknown status") == 0);
    CHECK(strcmp(cd_status_string(1025), "unknown status") == 0);
    CHECK(strcmp(cd_status_string(134201), "unknown status") == 0);
}

static void test_library_and_errors(void) {
    cd_error *error = NULL;
    cd_arguments *args = NULL;
    CHECK(cd_libversion_number() == CD_VERSION_NUMBER);
    CHECK(strcmp(cd_libversion(), CD_VERSION) == 0);
    CHECK(strcmp(cd_status_string(CD_OK), "success") == 0);
    CHECK(strlen(cd_status_string(CD_MISUSE)) > 0);
    CHECK(strlen(cd_status_string(CD_VALIDATION_MISSING_MANDATORY_PROPERTY)) > 0);
    CHECK(strcmp(cd_status_string(-42), "unknown status") == 0);
    test_status_strings();

    /* A misuse leaves a code, a message and details. */
    IS(cd_context_save(NULL), CD_MISUSE);
    CHECK(cd_last_error_code() == CD_MISUSE);
    CHECK(strstr(cd_last_error_message(), "NULL") != NULL);
    IS(cd_context_save(NULL), CD_MISUSE);
    OK(cd_last_error_copy(&error));
    CHECK(cd_error_code(error) == CD_MISUSE);
    CHECK(strcmp(cd_error_domain(error), "CDErrorDomain") == 0);
    CHECK(strstr(cd_error_message(error), "ctx") != NULL);
    CHECK(cd_error_key(error) == NULL);
    cd_error_release(error);
    /* Copying leaves the last error in place. */
    CHECK(cd_last_error_code() == CD_MISUSE && strstr(cd_last_error_message(), "ctx") != NULL);

    /* A NULL out for the copy is a failure of its own, with a message. */
    OK(cd_arguments_create(&args));
    cd_arguments_release(args);
    CHECK(cd_last_error_code() == CD_OK && strcmp(cd_last_error_message(), "") == 0);
    IS(cd_last_error_copy(NULL), CD_MISUSE);
    CHECK(cd_last_error_code() == CD_MISUSE);
    CHECK(strstr(cd_last_error_message(), "out is NULL") != NULL);
    OK(cd_last_error_copy(&error));
    CHECK(cd_error_code(error) == CD_MISUSE && strstr(cd_error_message(error), "out is NULL") != NULL);
    cd_error_release(error);
    CHECK(cd_error_code(NULL) == CD_MISUSE);
    CHECK(strcmp(cd_error_domain(NULL), "") == 0);
    CHECK(strcmp(cd_error_message(NULL), "") == 0);
    CHECK(cd_error_key(NULL) == NULL);
    cd_error_release(NULL);
    cd_string_free(NULL);
    cd_blob_free(NULL);
}

static int find_property(const cd_model *model, const char *entity, const char *name,
                         int *kind, int *type, const char **destination) {
    size_t count = 0, i;
    const char *found = NULL;
    if (cd_model_property_count(&count, model, entity) != CD_OK) return 0;
    for (i = 0; i < count; i++) {
        if (cd_model_property(&found, kind, type, destination, NULL, model, entity, i) != CD_OK)
            return 0;
        if (strcmp(found, name) == 0) return 1;
    }
    return 0;
}

static void test_model(void) {
    cd_model *model = NULL;
    size_t count = 0, index = 0;
    const char *name = NULL, *destination = NULL;
    int kind = 0, type = 0, optional = -1, ordered = -1;

    IS(cd_model_load(NULL, model_path), CD_MISUSE);
    IS(cd_model_load(&model, NULL), CD_MISUSE);
    IS(cd_model_load(&model, "/nonexistent/Nope.xcdatamodeld"), CD_FILE_READ_NO_SUCH_FILE);
    CHECK(model == NULL);
    OK(cd_model_load(&model, model_path));

    IS(cd_model_entity_count(NULL, model), CD_MISUSE);
    IS(cd_model_entity_count(&count, NULL), CD_MISUSE);
    OK(cd_model_entity_count(&count, model));
    CHECK(count == 4);
    OK(cd_model_entity_name(&name, model, 0));
    CHECK(strcmp(name, "Item") == 0);
    OK(cd_model_entity_name(&name, model, 3));
    CHECK(strcmp(name, "Shopper") == 0);
    IS(cd_model_entity_name(&name, model, 4), CD_RANGE);
    IS(cd_model_entity_name(NULL, model, 0), CD_MISUSE);

    OK(cd_model_entity_parent(&name, model, "Shopper"));
    CHECK(name != NULL && strcmp(name, "Person") == 0);
    OK(cd_model_entity_parent(&name, model, "Item"));
    CHECK(name == NULL);
    IS(cd_model_entity_parent(&name, model, "Nope"), CD_NOTFOUND);
    IS(cd_model_entity_parent(&name, model, NULL), CD_MISUSE);
    IS(cd_model_entity_parent(NULL, model, "Item"), CD_MISUSE);

    OK(cd_model_property_count(&count, model, "Item"));
    CHECK(count == 15);
    OK(cd_model_property_count(&count, model, "Shopper"));
    CHECK(count == 3); /* budget + inherited name, lists */
    IS(cd_model_property_count(&count, model, "Nope"), CD_NOTFOUND);
    IS(cd_model_property_count(NULL, model, "Item"), CD_MISUSE);

    OK(cd_model_property(&name, &kind, &type, &destination, &optional, model, "Item", 0));
    CHECK(strcmp(name, "addedAt") == 0 && kind == CD_PROPERTY_ATTRIBUTE &&
          type == CD_ATTRIBUTE_DATE && destination == NULL && optional == 1);
    CHECK(find_property(model, "Item", "list", &kind, &type, &destination));
    CHECK(kind == CD_PROPERTY_TO_ONE && type == CD_ATTRIBUTE_UNDEFINED &&
          strcmp(destination, "List") == 0);
    CHECK(find_property(model, "List", "items", &kind, &type, &destination));
    CHECK(kind == CD_PROPERTY_TO_MANY && strcmp(destination, "Item") == 0);
    CHECK(find_property(model, "Item", "amount", &kind, &type, &destination));
    CHECK(type == CD_ATTRIBUTE_DECIMAL);
    CHECK(find_property(model, "Item", "uid", &kind, &type, &destination));
    CHECK(type == CD_ATTRIBUTE_UUID);
    OK(cd_model_property(NULL, NULL, NULL, NULL, NULL, model, "Item", 1));
    IS(cd_model_property(&name, NULL, NULL, NULL, NULL, model, "Item", 15), CD_RANGE);
    CHECK(find_property(model, "Item", "tags", &kind, &type, &destination));
    CHECK(kind == CD_PROPERTY_ATTRIBUTE && type == CD_ATTRIBUTE_TRANSFORMABLE);
    IS(cd_model_property(&name, NULL, NULL, NULL, NULL, model, "Nope", 0), CD_NOTFOUND);
    IS(cd_model_property(&name, NULL, NULL, NULL, NULL, NULL, "Item", 0), CD_MISUSE);

    /* Only List.pinned is an ordered to-many. */
    OK(cd_model_property_count(&count, model, "List"));
    for (index = 0; index < count; index++) {
        OK(cd_model_property(&name, NULL, NULL, NULL, NULL, model, "List", index));
        OK(cd_model_property_is_ordered(&ordered, model, "List", index));
        CHECK(ordered == (strcmp(name, "pinned") == 0));
    }
    IS(cd_model_property_is_ordered(&ordered, model, "List", count), CD_RANGE);
    IS(cd_model_property_is_ordered(&ordered, model, "Nope", 0), CD_NOTFOUND);
    IS(cd_model_property_is_ordered(NULL, model, "List", 0), CD_MISUSE);
    IS(cd_model_property_is_ordered(&ordered, NULL, "List", 0), CD_MISUSE);
    cd_model_release(model);
    cd_model_release(NULL);
}

/* Every typed accessor on one object, with its misuse paths. */
static void test_values(cd_context *ctx) {
    cd_object *item = NULL;
    int64_t i = 0;
    double d = 0;
    int b = -1, null = -1;
    char *text = NULL;
    void *blob = NULL;
    size_t length = 99;
    uint8_t uuid[16];
    const uint8_t bytes[3] = {1, 2, 3};

    OK(cd_context_insert(&item, ctx, "Item"));

    /* Defaults from the model. */
    OK(cd_object_get_int64(&i, item, "quantity"));
    CHECK(i == 1);
    OK(cd_object_get_bool(&b, item, "done"));
    CHECK(b == 0);

    /* Integers of each width. */
    OK(cd_object_set_int64(item, "quantity", 9000000000LL));
    OK(cd_object_get_int64(&i, item, "quantity"));
    CHECK(i == 9000000000LL);
    OK(cd_object_set_int64(item, "i16", -7));
    OK(cd_object_get_int64(&i, item, "i16"));
    CHECK(i == -7);
    IS(cd_object_set_int64(item, "i16", 40000), CD_RANGE);
    OK(cd_object_set_int64(item, "i32", 70000));
    IS(cd_object_set_int64(item, "i32", 5000000000LL), CD_RANGE);

    /* Doubles and floats. */
    OK(cd_object_set_double(item, "price", 2.25));
    OK(cd_object_get_double(&d, item, "price"));
    CHECK(d == 2.25);
    OK(cd_object_set_double(item, "ratio", 0.5));
    OK(cd_object_get_double(&d, item, "ratio"));
    CHECK(d == 0.5);

    /* Booleans, text, URIs. */
    OK(cd_object_set_bool(item, "done", 7));
    OK(cd_object_get_bool(&b, item, "done"));
    CHECK(b == 1);
    OK(cd_object_set_text(item, "name", "Milk \xC3\xA9"));
    CHECK(text_is(item, "name", "Milk \xC3\xA9"));
    OK(cd_object_set_text(item, "link", "https://example.com/a?b=c"));
    CHECK(text_is(item, "link", "https://example.com/a?b=c"));

    /* Binary data. */
    OK(cd_object_set_blob(item, "photo", bytes, sizeof bytes));
    OK(cd_object_get_blob(&blob, &length, item, "photo"));
    CHECK(length == 3 && blob != NULL && memcmp(blob, bytes, 3) == 0);
    cd_blob_free(blob);
    OK(cd_object_set_blob(item, "photo", NULL, 0));
    OK(cd_object_get_blob(&blob, &length, item, "photo"));
    CHECK(length == 0 && blob == NULL);
    IS(cd_object_set_blob(item, "photo", NULL, 5), CD_MISUSE);
    IS(cd_object_get_blob(&blob, NULL, item, "photo"), CD_MISUSE);

    /* Dates, UUIDs, decimals. */
    OK(cd_object_set_date(item, "addedAt", 1700000000.5));
    OK(cd_object_get_date(&d, item, "addedAt"));
    CHECK(d == 1700000000.5);
    OK(cd_object_set_uuid(item, "uid", uuid_bytes));
    OK(cd_object_get_uuid(uuid, item, "uid"));
    CHECK(memcmp(uuid, uuid_bytes, 16) == 0);
    IS(cd_object_set_uuid(item, "uid", NULL), CD_MISUSE);
    OK(cd_object_set_decimal(item, "amount", "12.50"));
    OK(cd_object_get_decimal(&text, item, "amount"));
    CHECK(strcmp(text, "12.5") == 0);
    cd_string_free(text);
    IS(cd_object_set_decimal(item, "amount", "twelve"), CD_TYPE);
    IS(cd_object_set_decimal(item, "amount", NULL), CD_MISUSE);

    /* Null. */
    OK(cd_object_is_null(&null, item, "price"));
    CHECK(null == 0);
    OK(cd_object_set_null(item, "price"));
    OK(cd_object_is_null(&null, item, "price"));
    CHECK(null == 1);
    d = -1;
    IS(cd_object_get_double(&d, item, "price"), CD_NULL);
    CHECK(d == -1);
    OK(cd_object_set_text(item, "link", NULL));
    IS(cd_object_get_text(&text, item, "link"), CD_NULL);
    IS(cd_object_get_uuid(uuid, item, "i32"), CD_TYPE);

    /* Wrong types, unknown keys, NULLs, wrong handle types. */
    IS(cd_object_get_int64(&i, item, "name"), CD_TYPE);
    IS(cd_object_set_text(item, "quantity", "2"), CD_TYPE);
    IS(cd_object_set_double(item, "quantity", 2.0), CD_TYPE);
    IS(cd_object_get_date(&d, item, "photo"), CD_TYPE);
    IS(cd_object_get_int64(&i, item, "list"), CD_TYPE);
    IS(cd_object_get_int64(&i, item, "nope"), CD_NOTFOUND);
    IS(cd_object_set_bool(item, "nope", 1), CD_NOTFOUND);
    IS(cd_object_is_null(&null, item, "nope"), CD_NOTFOUND);
    IS(cd_object_get_int64(NULL, item, "quantity"), CD_MISUSE);
    IS(cd_object_get_int64(&i, item, NULL), CD_MISUSE);
    IS(cd_object_get_int64(&i, NULL, "quantity"), CD_MISUSE);
    IS(cd_object_get_text(&text, (cd_object *)ctx, "name"), CD_MISUSE);
    CHECK(strstr(cd_last_error_message(), "cd_context") != NULL);
    IS(cd_object_set_int64(NULL, "quantity", 1), CD_MISUSE);
    IS(cd_object_set_double(NULL, "price", 1), CD_MISUSE);
    IS(cd_object_get_double(NULL, item, "price"), CD_MISUSE);
    IS(cd_object_get_bool(NULL, item, "done"), CD_MISUSE);
    IS(cd_object_set_bool(NULL, "done", 1), CD_MISUSE);
    IS(cd_object_get_text(NULL, item, "name"), CD_MISUSE);
    IS(cd_object_set_text(NULL, "name", "x"), CD_MISUSE);
    IS(cd_object_get_blob(NULL, &length, item, "photo"), CD_MISUSE);
    IS(cd_object_set_blob(NULL, "photo", bytes, 3), CD_MISUSE);
    IS(cd_object_get_date(NULL, item, "addedAt"), CD_MISUSE);
    IS(cd_object_set_date(NULL, "addedAt", 0), CD_MISUSE);
    IS(cd_object_get_uuid(NULL, item, "uid"), CD_MISUSE);
    IS(cd_object_set_uuid(NULL, "uid", uuid_bytes), CD_MISUSE);
    IS(cd_object_get_decimal(NULL, item, "amount"), CD_MISUSE);
    IS(cd_object_set_decimal(NULL, "amount", "1"), CD_MISUSE);
    IS(cd_object_is_null(NULL, item, "name"), CD_MISUSE);
    IS(cd_object_set_null(NULL, "name"), CD_MISUSE);
    IS(cd_object_set_null(item, "nope"), CD_NOTFOUND);

    OK(cd_context_delete(ctx, item));
    cd_object_release(item);
}

/* A blob of `length` is unchanged from `expected`. */
static int blob_is(cd_object *object, const char *key, const void *expected, size_t length) {
    void *blob = NULL;
    size_t got = 0;
    int same;
    if (cd_object_get_blob(&blob, &got, object, key) != CD_OK) return 0;
    same = got == length && (length == 0 || memcmp(blob, expected, length) == 0);
    cd_blob_free(blob);
    return same;
}

/* Hostile values: each returns its status with a message and leaves the value as it was. */
static void test_hostile_values(cd_context *ctx) {
    cd_object *item = NULL, *other = NULL;
    cd_arguments *args = NULL;
    cd_fetch_request *request = NULL;
    cd_model *model = NULL;
    cd_container *container = NULL;
    char *text = NULL;
    void *blob = NULL;
    size_t length = 0;
    int64_t i = 0;
    double d = 0;
    int null = -1;
    const uint8_t bytes[4] = {0xDE, 0xAD, 0xBE, 0xEF};
    /* 2^62 - 1 bytes: fits an Int, but no allocation can hold it. */
    const size_t unallocatable = (size_t)PTRDIFF_MAX / 2;

    OK(cd_context_insert(&item, ctx, "Item"));
    OK(cd_object_set_text(item, "name", "Milk"));
    OK(cd_object_set_blob(item, "photo", bytes, sizeof bytes));

    /* Lengths no allocation can hold: CD_RANGE, not an abort. */
    IS(cd_object_set_blob(item, "photo", bytes, SIZE_MAX), CD_RANGE);
    CHECK(strstr(cd_last_error_message(), "length") != NULL);
    IS(cd_object_set_blob(item, "photo", bytes, (size_t)PTRDIFF_MAX + 1), CD_RANGE);
    IS(cd_object_set_blob(item, "photo", bytes, unallocatable), CD_RANGE);
    CHECK(strstr(cd_last_error_message(), "allocate") != NULL);
    IS(cd_object_set_blob(item, "photo", NULL, SIZE_MAX), CD_RANGE);
    CHECK(blob_is(item, "photo", bytes, sizeof bytes));
    OK(cd_arguments_create(&args));
    IS(cd_arguments_add_blob(args, bytes, SIZE_MAX), CD_RANGE);
    CHECK(strstr(cd_last_error_message(), "length") != NULL);
    IS(cd_arguments_add_blob(args, bytes, unallocatable), CD_RANGE);
    IS(cd_arguments_add_blob(NULL, bytes, SIZE_MAX), CD_MISUSE);

    /* NaN, infinities, floats out of range: refused, not stored as null, inf or 0. */
    OK(cd_object_set_double(item, "price", 2.5));
    IS(cd_object_set_double(item, "price", NAN), CD_RANGE);
    CHECK(strstr(cd_last_error_message(), "NaN") != NULL);
    OK(cd_object_get_double(&d, item, "price"));
    CHECK(d == 2.5);
    OK(cd_object_set_double(item, "price", INFINITY));
    OK(cd_object_get_double(&d, item, "price"));
    CHECK(isinf(d) && d > 0);
    OK(cd_object_set_double(item, "ratio", 0.25));
    IS(cd_object_set_double(item, "ratio", 1e300), CD_RANGE);
    IS(cd_object_set_double(item, "ratio", -1e300), CD_RANGE);
    IS(cd_object_set_double(item, "ratio", 1e-300), CD_RANGE);
    IS(cd_object_set_double(item, "ratio", NAN), CD_RANGE);
    OK(cd_object_get_double(&d, item, "ratio"));
    CHECK(d == 0.25);
    OK(cd_object_set_double(item, "ratio", -INFINITY));
    OK(cd_object_set_double(item, "ratio", 0.0));
    IS(cd_object_set_date(item, "addedAt", NAN), CD_RANGE);
    IS(cd_object_set_date(item, "addedAt", INFINITY), CD_RANGE);
    IS(cd_arguments_add_double(args, NAN), CD_RANGE);
    OK(cd_arguments_add_double(args, INFINITY));
    IS(cd_arguments_add_date(args, NAN), CD_RANGE);
    IS(cd_arguments_add_date(args, -INFINITY), CD_RANGE);
    OK(cd_arguments_add_decimal(args, "12.50"));
    IS(cd_arguments_add_decimal(args, "1.00000000000000000000000000000000000000001"), CD_RANGE);
    IS(cd_arguments_add_decimal(args, "1e999999"), CD_RANGE);
    IS(cd_arguments_add_decimal(args, "twelve"), CD_TYPE);
    IS(cd_arguments_add_decimal(args, NULL), CD_MISUSE);
    IS(cd_arguments_add_decimal(NULL, "1"), CD_MISUSE);

    /* Decimals a Decimal cannot hold exactly: CD_RANGE, not a rounded number. */
    OK(cd_object_set_decimal(item, "amount", "12.50"));
    IS(cd_object_set_decimal(item, "amount", "1.00000000000000000000000000000000000000001"), CD_RANGE);
    IS(cd_object_set_decimal(item, "amount", "1e999999"), CD_RANGE);
    IS(cd_object_set_decimal(item, "amount", "1e-200"), CD_RANGE);
    IS(cd_object_set_decimal(item, "amount", "1e99999999999999999999999"), CD_RANGE);
    IS(cd_object_set_decimal(item, "amount", "1e"), CD_TYPE);
    IS(cd_object_set_decimal(item, "amount", "1.2.3"), CD_TYPE);
    IS(cd_object_set_decimal(item, "amount", ""), CD_TYPE);
    IS(cd_object_set_decimal(item, "amount", "NaN"), CD_TYPE);
    OK(cd_object_get_decimal(&text, item, "amount"));
    CHECK(strcmp(text, "12.5") == 0);
    cd_string_free(text);
    OK(cd_object_set_decimal(item, "amount", "123456789012345678901234567890123456789"));
    OK(cd_object_get_decimal(&text, item, "amount"));
    CHECK(strcmp(text, "123456789012345678901234567890123456789") == 0);
    cd_string_free(text);
    OK(cd_object_set_decimal(item, "amount", " -1.5e3 "));
    OK(cd_object_get_decimal(&text, item, "amount"));
    CHECK(strcmp(text, "-1500") == 0);
    cd_string_free(text);
    OK(cd_object_set_decimal(item, "amount", "-0.000"));

    /* Text that is not UTF-8, wherever text goes in: CD_TYPE, nothing changed. */
    IS(cd_object_set_text(item, "name", "Mil\xFFk"), CD_TYPE);
    CHECK(strstr(cd_last_error_message(), "UTF-8") != NULL);
    IS(cd_object_set_text(item, "name", "\xC0\xAF"), CD_TYPE);     /* overlong "/" */
    IS(cd_object_set_text(item, "name", "\xED\xA0\x80"), CD_TYPE); /* a surrogate */
    IS(cd_object_set_text(item, "name", "\xE2\x82"), CD_TYPE);     /* cut short */
    CHECK(text_is(item, "name", "Milk"));
    IS(cd_object_set_text(item, "na\xFFme", "x"), CD_TYPE);
    IS(cd_object_get_int64(&i, item, "quantity\xFF"), CD_TYPE);
    IS(cd_object_is_null(&null, item, "\xFF"), CD_TYPE);
    IS(cd_object_set_decimal(item, "amount", "1\xFF"), CD_TYPE);
    IS(cd_context_insert(&other, ctx, "It\xFF" "em"), CD_TYPE);
    CHECK(other == NULL);
    IS(cd_arguments_add_text(args, "\xFF"), CD_TYPE);
    OK(cd_fetch_request_create(&request, "Item"));
    IS(cd_fetch_request_set_predicate(request, "name == 'a\xFF'", NULL), CD_TYPE);
    IS(cd_fetch_request_add_sort(request, "na\xFFme", 1), CD_TYPE);
    IS(cd_fetch_request_add_property(request, "na\xFFme"), CD_TYPE);
    cd_fetch_request_release(request);
    request = NULL;
    IS(cd_fetch_request_create(&request, "\xFF"), CD_TYPE);
    CHECK(request == NULL);
    IS(cd_model_load(&model, "/nonexistent/\xFF.xcdatamodeld"), CD_TYPE);
    IS(cd_container_open(&container, model_path, "/nonexistent/\xFF/store.sqlite", 0), CD_TYPE);
    IS(cd_container_open(&container, "\xFF", NULL, CD_OPEN_IN_MEMORY), CD_TYPE);
    CHECK(model == NULL && container == NULL);

    /* URI attributes take URIs exactly as written, never a percent-encoded rewrite. */
    OK(cd_object_set_text(item, "link", "https://example.com/a%20b?c=d#e"));
    CHECK(text_is(item, "link", "https://example.com/a%20b?c=d#e"));
    IS(cd_object_set_text(item, "link", "not a uri"), CD_TYPE);
    CHECK(strstr(cd_last_error_message(), "not a URI") != NULL);
    IS(cd_object_set_text(item, "link", "https://example.com/\xC3\xA9"), CD_TYPE);
    IS(cd_object_set_text(item, "link", "%zz"), CD_TYPE);
    IS(cd_object_set_text(item, "link", "http://[::1"), CD_TYPE);
    IS(cd_object_set_text(item, "link", "://nothing"), CD_TYPE);
    IS(cd_object_set_text(item, "link", ""), CD_TYPE);
    CHECK(text_is(item, "link", "https://example.com/a%20b?c=d#e"));
    OK(cd_object_set_text(item, "link", "mailto:someone@example.com"));
    OK(cd_object_set_text(item, "link", "relative/path"));
    CHECK(text_is(item, "link", "relative/path"));

    /* Transformable attributes read and write as the bytes the store keeps. */
    OK(cd_object_is_null(&null, item, "raw"));
    CHECK(null == 1);
    OK(cd_object_set_blob(item, "raw", bytes, sizeof bytes));
    CHECK(blob_is(item, "raw", bytes, sizeof bytes));
    OK(cd_object_set_blob(item, "raw", NULL, 0));
    CHECK(blob_is(item, "raw", NULL, 0));
    IS(cd_object_set_blob(item, "tags", bytes, sizeof bytes), CD_TYPE);
    CHECK(strstr(cd_last_error_message(), "NSSecureUnarchiveFromData") != NULL);
    OK(cd_object_is_null(&null, item, "tags"));
    CHECK(null == 1);
    IS(cd_object_get_blob(&blob, &length, item, "tags"), CD_NULL);
    CHECK(blob == NULL);
    IS(cd_object_get_text(&text, item, "raw"), CD_TYPE);
    IS(cd_object_set_blob(item, "raw", bytes, SIZE_MAX), CD_RANGE);

    cd_arguments_release(args);
    OK(cd_context_delete(ctx, item));
    cd_object_release(item);
}

/* Dictionary rows: an integer is read exactly or not at all. `ctx` has an empty store. */
static void test_hostile_results(cd_context *ctx) {
    const char *names[4] = {"a-whole", "b-half", "c-huge", "d-far"};
    const double prices[4] = {3.0, 2.5, 1e300, 4.0};
    const double dates[4] = {1700000000.0, 1700000000.123456, -62135596801.0, 1e300};
    cd_object *item = NULL;
    cd_fetch_request *request = NULL;
    cd_fetch_result *result = NULL;
    size_t count = 0, row;
    char *text = NULL;
    int64_t i = -1;
    double d = 0;

    for (row = 0; row < 4; row++) {
        OK(cd_context_insert(&item, ctx, "Item"));
        OK(cd_object_set_text(item, "name", names[row]));
        OK(cd_object_set_double(item, "price", prices[row]));
        OK(cd_object_set_date(item, "addedAt", dates[row]));
        cd_object_release(item);
    }
    OK(cd_context_save(ctx));
    OK(cd_fetch_request_create(&request, "Item"));
    OK(cd_fetch_request_set_result_type(request, CD_RESULT_DICTIONARIES));
    OK(cd_fetch_request_add_property(request, "name"));
    OK(cd_fetch_request_add_property(request, "price"));
    OK(cd_fetch_request_add_property(request, "addedAt"));
    OK(cd_fetch_request_add_sort(request, "name", 1));
    OK(cd_context_fetch(&result, ctx, request));
    OK(cd_fetch_result_count(&count, result));
    CHECK(count == 4);
    OK(cd_fetch_result_get_int64(&i, result, 0, "price"));
    CHECK(i == 3);
    i = -1;
    IS(cd_fetch_result_get_int64(&i, result, 1, "price"), CD_RANGE);
    CHECK(strstr(cd_last_error_message(), "cd_fetch_result_get_double") != NULL);
    IS(cd_fetch_result_get_int64(&i, result, 2, "price"), CD_RANGE);
    CHECK(i == -1);
    OK(cd_fetch_result_get_double(&d, result, 1, "price"));
    CHECK(d == 2.5);
    IS(cd_fetch_result_get_int64(&i, result, SIZE_MAX, "price"), CD_RANGE);
    IS(cd_fetch_result_copy_text(NULL, result, 0, "price"), CD_MISUSE);
    IS(cd_fetch_result_copy_text(&text, result, 0, "pr\xFFice"), CD_TYPE);
    CHECK(text == NULL);
    /* Dates as text keep their fraction of a second (to the microsecond). */
    OK(cd_fetch_result_copy_text(&text, result, 0, "addedAt"));
    CHECK(text != NULL && strcmp(text, "2023-11-14T22:13:20Z") == 0);
    cd_string_free(text);
    OK(cd_fetch_result_copy_text(&text, result, 1, "addedAt"));
    CHECK(text != NULL && strcmp(text, "2023-11-14T22:13:20.123456Z") == 0);
    cd_string_free(text);
    /* ... in the proleptic Gregorian calendar, and only for years 0000-9999. */
    OK(cd_fetch_result_copy_text(&text, result, 2, "addedAt"));
    CHECK(text != NULL && strcmp(text, "0000-12-31T23:59:59Z") == 0);
    cd_string_free(text);
    text = NULL;
    IS(cd_fetch_result_copy_text(&text, result, 3, "addedAt"), CD_RANGE);
    CHECK(text == NULL);
    OK(cd_fetch_result_get_double(&d, result, 3, "addedAt"));
    CHECK(d == 1e300);
    cd_fetch_result_release(result);

    /* Remove them again. */
    OK(cd_fetch_request_set_result_type(request, CD_RESULT_OBJECTS));
    OK(cd_context_fetch(&result, ctx, request));
    for (row = 0; row < 4; row++) {
        OK(cd_fetch_result_object_at(&item, result, row));
        OK(cd_context_delete(ctx, item));
        cd_object_release(item);
    }
    OK(cd_context_save(ctx));
    cd_fetch_result_release(result);
    cd_fetch_request_release(request);
}

static void test_relationships(cd_context *ctx, cd_context *other) {
    cd_object *list = NULL, *a = NULL, *b = NULL, *got = NULL, *shopper = NULL, *stranger = NULL;
    cd_fetch_result *members = NULL;
    size_t count = 0;
    int same = 0;
    uint64_t hash_a = 0, hash_b = 0, hash_got = 0;

    OK(cd_context_insert(&list, ctx, "List"));
    OK(cd_object_set_text(list, "title", "Groceries"));
    OK(cd_context_insert(&a, ctx, "Item"));
    OK(cd_object_set_text(a, "name", "Apples"));
    OK(cd_context_insert(&b, ctx, "Item"));
    OK(cd_object_set_text(b, "name", "Bread"));

    /* To-one, with the inverse to-many following. */
    OK(cd_object_set_to_one(a, "list", list));
    OK(cd_object_get_to_one(&got, a, "list"));
    OK(cd_object_equal(&same, got, list));
    CHECK(same == 1);
    /* Two handles of one object hash alike; the hash is the object's, not the handle's. */
    OK(cd_object_hash(&hash_a, list));
    OK(cd_object_hash(&hash_got, got));
    CHECK(hash_a == hash_got);
    IS(cd_object_hash(NULL, list), CD_MISUSE);
    IS(cd_object_hash(&hash_got, NULL), CD_MISUSE);
    cd_object_release(got);
    OK(cd_object_to_many_count(&count, list, "items"));
    CHECK(count == 1);

    /* To-many add, iterate, remove. */
    OK(cd_object_to_many_add(list, "items", b));
    OK(cd_object_to_many_add(list, "items", b));
    OK(cd_object_to_many_count(&count, list, "items"));
    CHECK(count == 2);
    OK(cd_object_get_to_one(&got, b, "list"));
    cd_object_release(got);
    OK(cd_object_copy_to_many(&members, list, "items"));
    OK(cd_fetch_result_count(&count, members));
    CHECK(count == 2);
    OK(cd_fetch_result_object_at(&got, members, 1));
    CHECK(text_is(got, "name", "Apples") || text_is(got, "name", "Bread"));
    cd_object_release(got);
    IS(cd_fetch_result_object_at(&got, members, 2), CD_RANGE);
    cd_fetch_result_release(members);
    OK(cd_object_to_many_remove(list, "items", a));
    OK(cd_object_to_many_remove(list, "items", a));
    OK(cd_object_to_many_count(&count, list, "items"));
    CHECK(count == 1);
    IS(cd_object_get_to_one(&got, a, "list"), CD_NULL);
    OK(cd_object_set_to_one(a, "list", list));
    OK(cd_object_set_to_one(a, "list", NULL));
    IS(cd_object_get_to_one(&got, a, "list"), CD_NULL);

    /* An ordered to-many lists its members in the order they were added. */
    OK(cd_object_to_many_add(list, "pinned", b));
    OK(cd_object_to_many_add(list, "pinned", a));
    OK(cd_object_copy_to_many(&members, list, "pinned"));
    OK(cd_fetch_result_object_at(&got, members, 0));
    CHECK(text_is(got, "name", "Bread"));
    cd_object_release(got);
    OK(cd_fetch_result_object_at(&got, members, 1));
    CHECK(text_is(got, "name", "Apples"));
    cd_object_release(got);
    cd_fetch_result_release(members);
    OK(cd_object_hash(&hash_a, a));
    OK(cd_object_hash(&hash_b, b));
    CHECK(hash_a != hash_b);

    /* A sub-entity fits a relationship to its parent entity. */
    OK(cd_context_insert(&shopper, ctx, "Shopper"));
    OK(cd_object_set_to_one(list, "owner", shopper));
    OK(cd_object_to_many_count(&count, shopper, "lists"));
    CHECK(count == 1);

    /* Wrong entity, wrong context, wrong kind of key. */
    IS(cd_object_set_to_one(a, "list", b), CD_VALIDATION);
    OK(cd_context_insert(&stranger, other, "List"));
    IS(cd_object_set_to_one(a, "list", stranger), CD_EXTERNAL_RELATIONSHIP);
    IS(cd_object_to_many_add(list, "items", list), CD_VALIDATION);
    IS(cd_object_to_many_count(&count, a, "list"), CD_TYPE);
    IS(cd_object_get_to_one(&got, list, "items"), CD_TYPE);
    IS(cd_object_get_to_one(&got, a, "name"), CD_TYPE);
    IS(cd_object_set_to_one(list, "items", a), CD_TYPE);
    IS(cd_object_copy_to_many(&members, a, "name"), CD_TYPE);
    IS(cd_object_set_null(list, "items"), CD_TYPE);
    IS(cd_object_to_many_add(list, "nope", a), CD_NOTFOUND);
    IS(cd_object_get_to_one(NULL, a, "list"), CD_MISUSE);
    IS(cd_object_set_to_one(NULL, "list", list), CD_MISUSE);
    IS(cd_object_to_many_count(NULL, list, "items"), CD_MISUSE);
    IS(cd_object_to_many_add(list, "items", NULL), CD_MISUSE);
    IS(cd_object_to_many_remove(list, "items", NULL), CD_MISUSE);
    IS(cd_object_copy_to_many(NULL, list, "items"), CD_MISUSE);

    OK(cd_context_rollback(other));
    cd_object_release(stranger);
    cd_object_release(shopper);
    cd_object_release(list);
    cd_object_release(a);
    cd_object_release(b);
}

/* Inserts an item named `name` with a quantity. */
static void add_item(cd_context *ctx, const char *name, int64_t quantity) {
    cd_object *item = NULL;
    OK(cd_context_insert(&item, ctx, "Item"));
    OK(cd_object_set_text(item, "name", name));
    OK(cd_object_set_int64(item, "quantity", quantity));
    OK(cd_object_set_date(item, "addedAt", 1700000000.0 + (double)quantity));
    OK(cd_object_set_uuid(item, "uid", uuid_bytes));
    cd_object_release(item);
}

/* Object-ID URIs: text that is not a URI, or not of Core Data's form, is CD_TYPE; a
   well-formed URI naming nothing here is CD_NOTFOUND. `uri` names a saved Item. */
static void test_hostile_uris(cd_container *container, cd_context *ctx, const char *uri) {
    cd_object_id *id = NULL;
    cd_object *object = NULL;
    char store[256], text[512], *temporary = NULL;
    const char *host = uri + strlen("x-coredata://");
    size_t host_length = strcspn(host, "/");

    CHECK(host_length < sizeof store);
    memcpy(store, host, host_length);
    store[host_length] = '\0';

    IS(cd_container_object_id_from_uri(&id, container, "not a uri"), CD_TYPE);
    CHECK(strstr(cd_last_error_message(), "not a URI") != NULL);
    IS(cd_container_object_id_from_uri(&id, container, ""), CD_TYPE);
    IS(cd_container_object_id_from_uri(&id, container, "x-coredata://\xFF/Item/p1"), CD_TYPE);
    IS(cd_container_object_id_from_uri(&id, container, "https://example.com/Item/p1"), CD_TYPE);
    CHECK(strstr(cd_last_error_message(), "not an object ID URI") != NULL);
    snprintf(text, sizeof text, "x-coredata://%s/Item", store);
    IS(cd_container_object_id_from_uri(&id, container, text), CD_TYPE);
    snprintf(text, sizeof text, "x-coredata://%s/Item/q1", store);
    IS(cd_container_object_id_from_uri(&id, container, text), CD_TYPE);
    snprintf(text, sizeof text, "x-coredata://%s//p1", store);
    IS(cd_container_object_id_from_uri(&id, container, text), CD_TYPE);
    snprintf(text, sizeof text, "x-coredata://%s/Item/p1/extra", store);
    IS(cd_container_object_id_from_uri(&id, container, text), CD_TYPE);
    CHECK(id == NULL);

    /* Well formed, but nothing here: unknown entity, key 0, a key too large, temporary. */
    snprintf(text, sizeof text, "x-coredata://%s/Nope/p1", store);
    IS(cd_container_object_id_from_uri(&id, container, text), CD_NOTFOUND);
    snprintf(text, sizeof text, "x-coredata://%s/Item/p0", store);
    IS(cd_container_object_id_from_uri(&id, container, text), CD_NOTFOUND);
    snprintf(text, sizeof text, "x-coredata://%s/Item/p-1", store);
    IS(cd_container_object_id_from_uri(&id, container, text), CD_NOTFOUND);
    snprintf(text, sizeof text, "x-coredata://%s/Item/p99999999999999999999999", store);
    IS(cd_container_object_id_from_uri(&id, container, text), CD_NOTFOUND);
    OK(cd_context_insert(&object, ctx, "Item"));
    OK(cd_object_copy_id(&id, object));
    OK(cd_object_id_copy_uri(&temporary, id));
    cd_object_id_release(id);
    id = NULL;
    IS(cd_container_object_id_from_uri(&id, container, temporary), CD_NOTFOUND);
    CHECK(strstr(cd_last_error_message(), "temporary") != NULL);
    cd_string_free(temporary);
    OK(cd_context_delete(ctx, object));
    cd_object_release(object);
    object = NULL;

    /* A key no row has, and an abstract entity: an ID, but no object behind it. */
    snprintf(text, sizeof text, "x-coredata://%s/Item/p99999", store);
    OK(cd_container_object_id_from_uri(&id, container, text));
    IS(cd_context_object_with_id(&object, ctx, id), CD_REFERENTIAL_INTEGRITY);
    cd_object_id_release(id);
    snprintf(text, sizeof text, "x-coredata://%s/Person/p1", store);
    OK(cd_container_object_id_from_uri(&id, container, text));
    IS(cd_context_object_with_id(&object, ctx, id), CD_REFERENTIAL_INTEGRITY);
    cd_object_id_release(id);
    CHECK(object == NULL);
}

static void test_save_ids_and_fetch(cd_container *container, cd_context *ctx) {
    cd_object *item = NULL, *again = NULL;
    cd_object_id *id = NULL, *id2 = NULL;
    cd_context *bg = NULL;
    cd_fetch_request *request = NULL;
    cd_arguments *args = NULL;
    cd_fetch_result *result = NULL;
    cd_error *error = NULL;
    char *uri = NULL, *text = NULL;
    size_t count = 0;
    int64_t i = 0;
    double d = 0;
    int flag = -1;
    unsigned int state = 0;

    /* A mandatory property missing: 1570, naming the key. */
    OK(cd_context_insert(&item, ctx, "Item"));
    OK(cd_object_state(&state, item));
    CHECK(state & CD_OBJECT_INSERTED);
    OK(cd_context_has_changes(&flag, ctx));
    CHECK(flag == 1);
    IS(cd_context_save(ctx), CD_VALIDATION_MISSING_MANDATORY_PROPERTY);
    OK(cd_last_error_copy(&error));
    CHECK(cd_error_code(error) == CD_VALIDATION_MISSING_MANDATORY_PROPERTY);
    CHECK(strcmp(cd_error_domain(error), "NSCocoaErrorDomain") == 0);
    CHECK(cd_error_key(error) != NULL && strcmp(cd_error_key(error), "name") == 0);
    cd_error_release(error);
    OK(cd_object_set_text(item, "name", "Milk"));
    OK(cd_object_set_int64(item, "quantity", 2));

    OK(cd_object_copy_id(&id, item));
    OK(cd_object_id_is_temporary(&flag, id));
    CHECK(flag == 1);
    cd_object_id_release(id);

    add_item(ctx, "Bread", 1);
    add_item(ctx, "Eggs", 12);
    add_item(ctx, "mango", 3);
    OK(cd_context_save(ctx));
    CHECK(strcmp(cd_last_error_message(), "") == 0);
    OK(cd_context_has_changes(&flag, ctx));
    CHECK(flag == 0);
    OK(cd_context_save(ctx)); /* nothing to save */

    /* Object IDs: permanent after saving, to and from URIs, in another context. */
    OK(cd_object_copy_id(&id, item));
    OK(cd_object_id_is_temporary(&flag, id));
    CHECK(flag == 0);
    OK(cd_object_id_copy_uri(&uri, id));
    CHECK(strncmp(uri, "x-coredata://", 13) == 0 && strstr(uri, "/Item/p") != NULL);
    OK(cd_container_object_id_from_uri(&id2, container, uri));
    OK(cd_object_id_equal(&flag, id, id2));
    CHECK(flag == 1);
    cd_object_id_release(id2);
    IS(cd_container_object_id_from_uri(&id2, container, "x-coredata://nope/Item/p1"), CD_NOTFOUND);
    IS(cd_container_object_id_from_uri(&id2, container, NULL), CD_MISUSE);
    IS(cd_container_object_id_from_uri(&id2, NULL, uri), CD_MISUSE);
    test_hostile_uris(container, ctx, uri);
    cd_string_free(uri);
    OK(cd_container_new_background_context(&bg, container));
    OK(cd_context_object_with_id(&again, bg, id));
    CHECK(text_is(again, "name", "Milk"));
    OK(cd_object_state(&state, again));
    CHECK(!(state & CD_OBJECT_INSERTED));
    cd_object_release(again);
    IS(cd_context_object_with_id(&again, bg, NULL), CD_MISUSE);
    IS(cd_context_object_with_id(NULL, bg, id), CD_MISUSE);
    IS(cd_object_id_copy_uri(NULL, id), CD_MISUSE);
    IS(cd_object_id_is_temporary(NULL, id), CD_MISUSE);
    IS(cd_object_id_equal(&flag, id, NULL), CD_MISUSE);
    IS(cd_object_copy_id(NULL, item), CD_MISUSE);

    /* Objects fetch with a predicate built from typed arguments, sorted, paged. */
    OK(cd_fetch_request_create(&request, "Item"));
    OK(cd_arguments_create(&args));
    OK(cd_arguments_add_int64(args, 1));
    OK(cd_arguments_add_text(args, "m"));
    OK(cd_fetch_request_set_predicate(request, "quantity > %d AND name BEGINSWITH[c] %@", args));
    cd_arguments_release(args);
    /* A decimal argument compares as the number it spells. */
    {
        cd_fetch_request *decimals = NULL;
        cd_object *priced = NULL;
        size_t matching = 0;
        OK(cd_context_insert(&priced, bg, "Item"));
        OK(cd_object_set_text(priced, "name", "priced"));
        OK(cd_object_set_decimal(priced, "amount", "7.25"));
        OK(cd_fetch_request_create(&decimals, "Item"));
        OK(cd_arguments_create(&args));
        OK(cd_arguments_add_decimal(args, "7.250"));
        OK(cd_fetch_request_set_predicate(decimals, "amount == %@", args));
        cd_arguments_release(args);
        OK(cd_context_count(&matching, bg, decimals));
        CHECK(matching == 1);
        OK(cd_context_delete(bg, priced));
        cd_object_release(priced);
        cd_fetch_request_release(decimals);
    }
    OK(cd_fetch_request_add_sort(request, "name", 1));
    OK(cd_context_fetch(&result, bg, request));
    OK(cd_fetch_result_count(&count, result));
    CHECK(count == 2);
    OK(cd_fetch_result_object_at(&again, result, 0));
    CHECK(text_is(again, "name", "mango") || text_is(again, "name", "Milk"));
    cd_object_release(again);
    OK(cd_fetch_result_object_id_at(&id2, result, 1));
    cd_object_id_release(id2);
    IS(cd_fetch_result_get_int64(&i, result, 0, "name"), CD_TYPE);
    cd_fetch_result_release(result);
    OK(cd_context_count(&count, bg, request));
    CHECK(count == 2);
    OK(cd_fetch_request_set_predicate(request, NULL, NULL));
    OK(cd_fetch_request_set_limit(request, 2));
    OK(cd_fetch_request_set_offset(request, 1));
    OK(cd_context_fetch(&result, bg, request));
    OK(cd_fetch_result_count(&count, result));
    CHECK(count == 2);
    OK(cd_fetch_result_object_at(&again, result, 0));
    CHECK(text_is(again, "name", "Eggs"));
    cd_object_release(again);
    cd_fetch_result_release(result);

    /* Object IDs result. */
    OK(cd_fetch_request_set_result_type(request, CD_RESULT_OBJECT_IDS));
    OK(cd_context_fetch(&result, bg, request));
    OK(cd_fetch_result_object_id_at(&id2, result, 0));
    cd_object_id_release(id2);
    IS(cd_fetch_result_object_at(&again, result, 0), CD_TYPE);
    cd_fetch_result_release(result);

    /* Dictionaries result. */
    OK(cd_fetch_request_set_limit(request, 0));
    OK(cd_fetch_request_set_offset(request, 0));
    OK(cd_fetch_request_set_result_type(request, CD_RESULT_DICTIONARIES));
    OK(cd_fetch_request_add_property(request, "name"));
    OK(cd_fetch_request_add_property(request, "quantity"));
    OK(cd_fetch_request_add_property(request, "addedAt"));
    OK(cd_fetch_request_add_property(request, "price"));
    OK(cd_context_fetch(&result, bg, request));
    OK(cd_fetch_result_count(&count, result));
    CHECK(count == 4);
    OK(cd_fetch_result_copy_text(&text, result, 0, "name"));
    CHECK(strcmp(text, "Bread") == 0);
    cd_string_free(text);
    OK(cd_fetch_result_get_int64(&i, result, 1, "quantity"));
    CHECK(i == 12);
    OK(cd_fetch_result_get_double(&d, result, 1, "quantity"));
    CHECK(d == 12.0);
    OK(cd_fetch_result_get_double(&d, result, 1, "addedAt"));
    CHECK(d == 1700000012.0);
    OK(cd_fetch_result_copy_text(&text, result, 1, "quantity"));
    CHECK(strcmp(text, "12") == 0);
    cd_string_free(text);
    IS(cd_fetch_result_copy_text(&text, result, 0, "price"), CD_NULL);
    IS(cd_fetch_result_get_double(&d, result, 0, "name"), CD_TYPE);
    IS(cd_fetch_result_get_int64(&i, result, 9, "quantity"), CD_RANGE);
    IS(cd_fetch_result_get_int64(&i, result, 0, NULL), CD_MISUSE);
    IS(cd_fetch_result_object_id_at(&id2, result, 0), CD_TYPE);
    IS(cd_fetch_result_copy_text(NULL, result, 0, "name"), CD_MISUSE);
    IS(cd_fetch_result_get_double(NULL, result, 0, "name"), CD_MISUSE);
    cd_fetch_result_release(result);

    /* Count result. */
    OK(cd_fetch_request_set_result_type(request, CD_RESULT_COUNT));
    OK(cd_context_fetch(&result, bg, request));
    OK(cd_fetch_result_count(&count, result));
    CHECK(count == 1);
    OK(cd_fetch_result_get_int64(&i, result, 0, NULL));
    CHECK(i == 4);
    IS(cd_fetch_result_get_int64(&i, result, 0, "count"), CD_TYPE);
    IS(cd_fetch_result_get_int64(&i, result, 1, NULL), CD_RANGE);
    IS(cd_fetch_result_count(NULL, result), CD_MISUSE);
    cd_fetch_result_release(result);
    cd_fetch_request_release(request);

    /* Every argument type, each in a predicate that runs. */
    OK(cd_fetch_request_create(&request, "Item"));
    OK(cd_arguments_create(&args));
    OK(cd_arguments_add_double(args, 0.5));
    OK(cd_arguments_add_bool(args, 0));
    OK(cd_arguments_add_date(args, 1700000002.0));
    OK(cd_arguments_add_uuid(args, uuid_bytes));
    OK(cd_arguments_add_null(args));
    OK(cd_arguments_add_text(args, "name"));
    OK(cd_arguments_add_text(args, "Eggs"));
    OK(cd_fetch_request_set_predicate(request,
        "quantity > %f AND done == %@ AND addedAt > %@ AND uid == %@ AND price == %@ AND %K == %@",
        args));
    cd_arguments_release(args);
    OK(cd_context_count(&count, bg, request));
    CHECK(count == 1);
    OK(cd_arguments_create(&args));
    OK(cd_arguments_add_object_id(args, id));
    OK(cd_fetch_request_set_predicate(request, "self == %@", args));
    cd_arguments_release(args);
    /* Runs; the count is not checked: Apple matches `self == <object ID>`, the Swift
       predicate evaluator does not yet (it compares objects only). */
    OK(cd_context_count(&count, bg, request));
    OK(cd_fetch_request_set_predicate(request, "list == nil", NULL));
    OK(cd_context_count(&count, bg, request));
    CHECK(count == 4);
    OK(cd_arguments_create(&args));
    OK(cd_arguments_add_object(args, item));
    OK(cd_arguments_add_blob(args, "ab", 2));
    OK(cd_arguments_add_blob(args, NULL, 0));
    IS(cd_arguments_add_blob(args, NULL, 2), CD_MISUSE);
    IS(cd_arguments_add_text(args, NULL), CD_MISUSE);
    IS(cd_arguments_add_uuid(args, NULL), CD_MISUSE);
    IS(cd_arguments_add_object(args, NULL), CD_MISUSE);
    IS(cd_arguments_add_object_id(args, NULL), CD_MISUSE);
    IS(cd_arguments_add_int64(NULL, 1), CD_MISUSE);
    IS(cd_arguments_add_double(NULL, 1), CD_MISUSE);
    IS(cd_arguments_add_bool(NULL, 1), CD_MISUSE);
    IS(cd_arguments_add_date(NULL, 1), CD_MISUSE);
    IS(cd_arguments_add_null(NULL), CD_MISUSE);
    IS(cd_arguments_create(NULL), CD_MISUSE);
    OK(cd_fetch_request_set_predicate(request, "self == %@ AND photo != %@ AND photo != %@", args));
    OK(cd_context_count(&count, ctx, request));
    CHECK(count == 1);
    cd_arguments_release(args);

    /* Malformed predicates, unknown entities and keys, bad result types. */
    IS(cd_fetch_request_set_predicate(request, "name ==", NULL), CD_FORMATTING);
    IS(cd_fetch_request_set_predicate(request, "name == %@", NULL), CD_FORMATTING);
    IS(cd_fetch_request_set_predicate(request, "name == %@", (cd_arguments *)request), CD_MISUSE);
    IS(cd_fetch_request_set_predicate(NULL, "name == 1", NULL), CD_MISUSE);
    OK(cd_fetch_request_set_predicate(request, "nosuchkey == 1", NULL));
    IS(cd_context_count(&count, bg, request), CD_KEY_VALUE_VALIDATION);
    CHECK(strstr(cd_last_error_message(), "nosuchkey") != NULL);
    IS(cd_context_fetch(&result, bg, request), CD_KEY_VALUE_VALIDATION);
    OK(cd_fetch_request_set_predicate(request, NULL, NULL));
    OK(cd_fetch_request_add_sort(request, "nosuchkey", 0));
    IS(cd_context_fetch(&result, bg, request), CD_NOTFOUND);
    cd_fetch_request_release(request);
    OK(cd_fetch_request_create(&request, "Item"));
    OK(cd_fetch_request_add_sort(request, "list.title", 0));
    OK(cd_context_count(&count, bg, request));
    OK(cd_fetch_request_add_sort(request, "list.items", 0));
    IS(cd_context_fetch(&result, bg, request), CD_TYPE);
    cd_fetch_request_release(request);
    OK(cd_fetch_request_create(&request, "Nope"));
    IS(cd_context_fetch(&result, bg, request), CD_NOTFOUND);
    IS(cd_context_count(&count, bg, request), CD_NOTFOUND);
    IS(cd_fetch_request_set_result_type(request, 3), CD_RANGE);
    OK(cd_fetch_request_add_property(request, "nope"));
    IS(cd_fetch_request_add_property(request, NULL), CD_MISUSE);
    IS(cd_fetch_request_add_sort(request, NULL, 1), CD_MISUSE);
    IS(cd_fetch_request_set_limit(NULL, 1), CD_MISUSE);
    IS(cd_fetch_request_set_offset(NULL, 1), CD_MISUSE);
    IS(cd_fetch_request_set_result_type(NULL, 0), CD_MISUSE);
    IS(cd_fetch_request_create(NULL, "Item"), CD_MISUSE);
    IS(cd_fetch_request_create(&request, NULL), CD_MISUSE);
    cd_fetch_request_release(request);
    IS(cd_context_fetch(&result, bg, NULL), CD_MISUSE);
    IS(cd_context_fetch(NULL, bg, NULL), CD_MISUSE);
    IS(cd_context_count(NULL, bg, NULL), CD_MISUSE);

    cd_object_id_release(id);
    cd_object_release(item);
    cd_context_release(bg);
}

static void test_context_lifecycle(cd_container *container, cd_context *ctx) {
    cd_context *bg = NULL, *other = NULL;
    cd_object *item = NULL, *orphan = NULL;
    cd_fetch_request *request = NULL;
    cd_fetch_result *result = NULL;
    size_t count = 0;
    unsigned int state = 0;

    OK(cd_fetch_request_create(&request, "Item"));
    OK(cd_fetch_request_add_sort(request, "name", 1));
    OK(cd_context_fetch(&result, ctx, request));
    OK(cd_fetch_result_object_at(&item, result, 0));
    cd_fetch_result_release(result);

    /* Rollback restores; reset forgets. */
    OK(cd_object_set_text(item, "name", "Changed"));
    OK(cd_object_state(&state, item));
    CHECK(state & CD_OBJECT_UPDATED);
    OK(cd_context_rollback(ctx));
    CHECK(text_is(item, "name", "Bread"));

    /* Undo: off by default; once enabled, changes undo and redo. */
    IS(cd_context_undo(ctx), CD_UNSUPPORTED);
    OK(cd_context_set_undo_enabled(ctx, 1));
    IS(cd_context_undo(ctx), CD_NOTFOUND);
    OK(cd_object_set_text(item, "name", "Undone"));
    OK(cd_context_undo(ctx));
    CHECK(text_is(item, "name", "Bread"));
    IS(cd_context_redo(ctx), CD_OK);
    CHECK(text_is(item, "name", "Undone"));
    IS(cd_context_redo(ctx), CD_NOTFOUND);
    OK(cd_context_rollback(ctx));
    CHECK(text_is(item, "name", "Bread"));
    OK(cd_context_set_undo_enabled(ctx, 0));
    IS(cd_context_undo(ctx), CD_UNSUPPORTED);
    IS(cd_context_set_undo_enabled(NULL, 1), CD_MISUSE);
    IS(cd_context_undo(NULL), CD_MISUSE);
    IS(cd_context_redo(NULL), CD_MISUSE);

    /* Deleting: from another context is misuse; delete, then save. */
    OK(cd_container_new_background_context(&other, container));
    IS(cd_context_delete(other, item), CD_MISUSE);
    IS(cd_context_delete(ctx, NULL), CD_MISUSE);
    IS(cd_context_delete(NULL, item), CD_MISUSE);
    OK(cd_context_delete(ctx, item));
    OK(cd_object_state(&state, item));
    CHECK(state & CD_OBJECT_DELETED);
    OK(cd_context_save(ctx));
    IS(cd_object_set_text(item, "name", "Gone"), CD_MISUSE);
    cd_object_release(item);
    OK(cd_context_count(&count, ctx, request));
    CHECK(count == 3);

    /* Reset: handles of forgotten objects answer CD_MISUSE. */
    OK(cd_context_fetch(&result, ctx, request));
    OK(cd_fetch_result_object_at(&item, result, 0));
    OK(cd_context_reset(ctx));
    IS(cd_object_set_text(item, "name", "Stale"), CD_MISUSE);
    cd_object_release(item);
    IS(cd_fetch_result_object_at(&item, result, 0), CD_OK);
    cd_object_release(item);
    cd_fetch_result_release(result);

    /* A released context, used through its object. */
    OK(cd_container_new_background_context(&bg, container));
    OK(cd_context_insert(&orphan, bg, "Item"));
    IS(cd_object_copy_to_many(&result, orphan, "name"), CD_TYPE);
    cd_context_release(bg);
    IS(cd_object_set_text(orphan, "name", "Orphan"), CD_MISUSE);
    CHECK(strstr(cd_last_error_message(), "released") != NULL);
    IS(cd_object_get_to_one(&item, orphan, "list"), CD_MISUSE);
    cd_object_release(orphan);

    /* Misuse of the remaining context calls. */
    IS(cd_context_rollback(NULL), CD_MISUSE);
    IS(cd_context_reset(NULL), CD_MISUSE);
    IS(cd_context_has_changes(NULL, ctx), CD_MISUSE);
    IS(cd_context_insert(&item, ctx, "Nope"), CD_NOTFOUND);
    IS(cd_context_insert(&item, ctx, "Person"), CD_MISUSE);
    CHECK(strstr(cd_last_error_message(), "abstract") != NULL);
    IS(cd_context_insert(&item, ctx, NULL), CD_MISUSE);
    IS(cd_context_insert(NULL, ctx, "Item"), CD_MISUSE);
    IS(cd_object_state(NULL, NULL), CD_MISUSE);
    IS(cd_object_copy_entity_name(NULL, NULL), CD_MISUSE);
    IS(cd_object_equal(NULL, NULL, NULL), CD_MISUSE);

    cd_context_release(other);
    cd_fetch_request_release(request);
}

struct perform_payload {
    int calls;
    int status;
    cd_context *seen;
};

static void insert_in_perform(cd_context *ctx, void *payload) {
    struct perform_payload *p = payload;
    cd_object *item = NULL;
    char *entity = NULL;
    p->calls++;
    p->seen = ctx;
    p->status = cd_context_insert(&item, ctx, "Item");
    if (p->status == CD_OK) p->status = cd_object_set_text(item, "name", "From a callback");
    if (p->status == CD_OK) p->status = cd_object_copy_entity_name(&entity, item);
    if (p->status == CD_OK && strcmp(entity, "Item") != 0) p->status = CD_ERROR;
    cd_string_free(entity);
    cd_object_release(item);
}

struct thread_args {
    cd_context *view;
    cd_context *background;
    cd_fetch_result *view_objects;     /* results of the view context */
    cd_fetch_result *view_count;
    cd_fetch_result *background_count; /* results of a background context */
    cd_object *view_object;
    int view_status;
    int background_status;
    int result_statuses[7];
    int background_result_status;
    size_t background_result_count;
};

static void *other_thread(void *raw) {
    struct thread_args *args = raw;
    struct perform_payload payload = {0, -1, NULL};
    cd_object *object = NULL;
    cd_object_id *id = NULL;
    char *text = NULL;
    size_t count = 0;
    int64_t i = 0;
    double d = 0;
    args->view_status = cd_context_save(args->view);
    args->background_status = cd_context_perform_and_wait(args->background, insert_in_perform, &payload);
    if (args->background_status == CD_OK) args->background_status = payload.status;
    /* What the view context handed out belongs to the main thread too. */
    args->result_statuses[0] = cd_fetch_result_count(&count, args->view_objects);
    args->result_statuses[1] = cd_fetch_result_object_at(&object, args->view_objects, 0);
    args->result_statuses[2] = cd_fetch_result_object_id_at(&id, args->view_objects, 0);
    args->result_statuses[3] = cd_fetch_result_get_int64(&i, args->view_count, 0, NULL);
    args->result_statuses[4] = cd_fetch_result_get_double(&d, args->view_count, 0, "x");
    args->result_statuses[5] = cd_fetch_result_copy_text(&text, args->view_count, 0, "x");
    args->result_statuses[6] = cd_object_copy_entity_name(&text, args->view_object);
    args->background_result_status = cd_fetch_result_count(&args->background_result_count, args->background_count);
    return NULL;
}

static void test_threads(cd_container *container, cd_context *view) {
    cd_context *bg = NULL;
    cd_fetch_request *request = NULL;
    size_t count = 0, i;
    struct perform_payload payload = {0, -1, NULL};
    struct thread_args args;
    pthread_t thread;
    int flag = 0;

    OK(cd_container_new_background_context(&bg, container));
    OK(cd_context_perform_and_wait(bg, insert_in_perform, &payload));
    CHECK(payload.calls == 1 && payload.status == CD_OK && payload.seen == bg);
    OK(cd_context_perform_and_wait(view, insert_in_perform, &payload));
    CHECK(payload.calls == 2 && payload.status == CD_OK);
    IS(cd_context_perform_and_wait(bg, NULL, NULL), CD_MISUSE);
    IS(cd_context_perform_and_wait(NULL, insert_in_perform, &payload), CD_MISUSE);
    CHECK(payload.calls == 2);

    /* The view context from another thread: CD_MISUSE; a background one: fine. */
    memset(&args, 0, sizeof args);
    args.view = view;
    args.background = bg;
    args.view_status = -1;
    args.background_status = -1;
    OK(cd_fetch_request_create(&request, "Item"));
    OK(cd_context_fetch(&args.view_objects, view, request));
    OK(cd_fetch_result_object_at(&args.view_object, args.view_objects, 0));
    OK(cd_fetch_request_set_result_type(request, CD_RESULT_COUNT));
    OK(cd_context_fetch(&args.view_count, view, request));
    OK(cd_context_fetch(&args.background_count, bg, request));
    CHECK(pthread_create(&thread, NULL, other_thread, &args) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK(args.view_status == CD_MISUSE);
    CHECK(args.background_status == CD_OK);
    for (i = 0; i < sizeof args.result_statuses / sizeof args.result_statuses[0]; i++) {
        if (args.result_statuses[i] != CD_MISUSE)
            fprintf(stderr, "view result call %zu from another thread: %d\n", i, args.result_statuses[i]);
        CHECK(args.result_statuses[i] == CD_MISUSE);
    }
    CHECK(args.background_result_status == CD_OK && args.background_result_count == 1);
    /* On the main thread, the same results answer. */
    OK(cd_fetch_result_count(&count, args.view_objects));
    CHECK(count > 0);
    cd_object_release(args.view_object);
    cd_fetch_result_release(args.view_objects);
    cd_fetch_result_release(args.view_count);
    cd_fetch_result_release(args.background_count);
    cd_fetch_request_release(request);
    OK(cd_context_has_changes(&flag, bg));
    CHECK(flag == 1);
    OK(cd_context_rollback(bg));
    OK(cd_context_rollback(view));
    cd_context_release(bg);
}

/* The ID of a fresh in-memory store's first saved Item (its key is 1 in every such store). */
static cd_object_id *first_item_id(void) {
    cd_container *container = NULL;
    cd_context *ctx = NULL;
    cd_object *item = NULL;
    cd_object_id *id = NULL;
    OK(cd_container_open(&container, model_path, NULL, CD_OPEN_IN_MEMORY));
    OK(cd_container_new_background_context(&ctx, container));
    OK(cd_context_insert(&item, ctx, "Item"));
    OK(cd_object_set_text(item, "name", "first"));
    OK(cd_context_save(ctx));
    OK(cd_object_copy_id(&id, item));
    cd_object_release(item);
    cd_context_release(ctx);
    cd_container_release(container);
    return id;
}

/* IDs of two stores, both released, with the same entity and key are still two IDs. */
static void test_ids_of_released_stores(void) {
    cd_object_id *a = first_item_id(), *b = first_item_id();
    char *uri_a = NULL, *uri_b = NULL;
    int same = -1;
    OK(cd_object_id_copy_uri(&uri_a, a));
    OK(cd_object_id_copy_uri(&uri_b, b));
    CHECK(uri_a != NULL && uri_b != NULL && strcmp(uri_a, uri_b) != 0);
    CHECK(uri_a != NULL && strstr(uri_a, "/Item/p1") != NULL && strncmp(uri_a, "x-coredata:///", 14) != 0);
    OK(cd_object_id_equal(&same, a, b));
    CHECK(same == 0);
    OK(cd_object_id_equal(&same, a, a));
    CHECK(same == 1);
    cd_string_free(uri_a);
    cd_string_free(uri_b);
    cd_object_id_release(a);
    cd_object_id_release(b);
}

static void test_containers(void) {
    cd_container *container = NULL, *memory = NULL, *again = NULL, *readonly = NULL;
    cd_context *view = NULL, *view2 = NULL, *other = NULL;
    cd_model *model = NULL;
    cd_object *item = NULL;
    cd_object_id *id = NULL, *id2 = NULL;
    cd_fetch_request *request = NULL;
    cd_fetch_result *result = NULL;
    char *uri = NULL, *uri_after = NULL;
    size_t count = 0;
    int flag = -1;

    IS(cd_container_open(NULL, model_path, store_path, 0), CD_MISUSE);
    IS(cd_container_open(&container, NULL, NULL, 0), CD_MISUSE);
    IS(cd_container_open(&container, NULL, NULL, CD_OPEN_IN_MEMORY), CD_MISUSE);
    CHECK(strstr(cd_last_error_message(), "model_path is NULL") != NULL);
    /* Without a model, the store must exist (its cached model is the model). */
    IS(cd_container_open(&container, NULL, "/nonexistent/store.sqlite", CD_OPEN_READ_ONLY),
       CD_FILE_READ_NO_SUCH_FILE);
    IS(cd_container_open(&container, model_path, NULL, 0), CD_MISUSE);
    IS(cd_container_open(&container, model_path, store_path, 0x100), CD_MISUSE);
    /* "" is no path (URL(fileURLWithPath:) would take the current directory). */
    IS(cd_container_open(&container, model_path, "", 0), CD_MISUSE);
    CHECK(strstr(cd_last_error_message(), "store_path is empty") != NULL);
    IS(cd_container_open(&container, "", store_path, 0), CD_MISUSE);
    IS(cd_container_open(&container, model_path, "", CD_OPEN_IN_MEMORY), CD_MISUSE);
    IS(cd_model_load(&model, ""), CD_MISUSE);
    /* A read-only in-memory store could never hold anything (its saves used to succeed). */
    IS(cd_container_open(&container, model_path, NULL, CD_OPEN_IN_MEMORY | CD_OPEN_READ_ONLY), CD_MISUSE);
    CHECK(container == NULL && model == NULL);
    IS(cd_container_open(&container, "/nonexistent/Nope.xcdatamodeld", store_path, 0),
       CD_FILE_READ_NO_SUCH_FILE);
    CHECK(container == NULL);
    OK(cd_container_open(&container, model_path, store_path, CD_OPEN_DEFAULT));
    OK(cd_container_open(&memory, model_path, NULL, CD_OPEN_IN_MEMORY | CD_OPEN_NO_MIGRATION));

    OK(cd_container_copy_model(&model, container));
    OK(cd_model_entity_count(&count, model));
    CHECK(count == 4);
    cd_model_release(model);
    IS(cd_container_copy_model(&model, NULL), CD_MISUSE);
    IS(cd_container_copy_model(NULL, container), CD_MISUSE);

    OK(cd_container_view_context(&view, container));
    OK(cd_container_view_context(&view2, container));
    CHECK(view == view2);
    cd_context_release(view2);
    IS(cd_container_view_context(NULL, container), CD_MISUSE);
    IS(cd_container_view_context(&view2, NULL), CD_MISUSE);
    IS(cd_container_new_background_context(&other, NULL), CD_MISUSE);
    IS(cd_container_new_background_context(NULL, container), CD_MISUSE);
    IS(cd_container_view_context(&view2, (cd_container *)view), CD_MISUSE);
    OK(cd_container_new_background_context(&other, memory));

    test_values(view);
    test_hostile_values(view);
    test_hostile_results(other);
    test_relationships(view, other);
    OK(cd_context_rollback(view));
    test_save_ids_and_fetch(container, view);
    test_context_lifecycle(container, view);
    test_threads(container, view);

    /* An object ID outlives its container and keeps its URI (it used to lose the store). */
    OK(cd_fetch_request_create(&request, "Item"));
    OK(cd_fetch_request_set_result_type(request, CD_RESULT_OBJECT_IDS));
    OK(cd_context_fetch(&result, view, request));
    OK(cd_fetch_result_object_id_at(&id, result, 0));
    cd_fetch_result_release(result);
    cd_fetch_request_release(request);
    request = NULL;
    OK(cd_object_id_copy_uri(&uri, id));

    /* Handles keep what they need alive: release the container before its context. */
    cd_context_release(view);
    cd_container_release(container);
    cd_context_release(other);
    cd_container_release(memory);

    OK(cd_object_id_copy_uri(&uri_after, id));
    CHECK(strcmp(uri, uri_after) == 0);
    cd_string_free(uri_after);

    /* What was saved is there when the store is opened again; read-only refuses saves. */
    OK(cd_container_open(&again, model_path, store_path, CD_OPEN_DEFAULT));
    OK(cd_container_view_context(&view, again));
    OK(cd_fetch_request_create(&request, "Item"));
    OK(cd_context_count(&count, view, request));
    CHECK(count == 3);
    /* The old ID names a store instance that is gone; its URI finds the object again. */
    IS(cd_context_object_with_id(&item, view, id), CD_REFERENTIAL_INTEGRITY);
    OK(cd_container_object_id_from_uri(&id2, again, uri));
    OK(cd_object_id_equal(&flag, id, id2));
    CHECK(flag == 0);
    OK(cd_context_object_with_id(&item, view, id2));
    cd_object_release(item);
    item = NULL;
    cd_object_id_release(id2);
    cd_object_id_release(id);
    cd_string_free(uri);
    cd_context_release(view);
    cd_container_release(again);

    OK(cd_container_open(&readonly, model_path, store_path, CD_OPEN_READ_ONLY));
    OK(cd_container_new_background_context(&other, readonly));
    OK(cd_context_count(&count, other, request));
    CHECK(count == 3);
    OK(cd_context_insert(&item, other, "Item"));
    OK(cd_object_set_text(item, "name", "Nope"));
    IS(cd_context_save(other), CD_STORE_SAVE);
    cd_object_release(item);
    item = NULL;
    cd_context_release(other);
    cd_container_release(readonly);

    /* With no model file: the model cached in the store (Z_MODELCACHE) opens it, as a tool
       that inspects a store without its app does; it knows the entities and their data. */
    OK(cd_container_open(&readonly, NULL, store_path, CD_OPEN_READ_ONLY));
    OK(cd_container_copy_model(&model, readonly));
    OK(cd_model_entity_count(&count, model));
    CHECK(count == 4);
    cd_model_release(model);
    model = NULL;
    OK(cd_container_new_background_context(&other, readonly));
    OK(cd_context_count(&count, other, request));
    CHECK(count == 3);
    cd_context_release(other);
    cd_container_release(readonly);
    cd_fetch_request_release(request);

    /* Every release function accepts NULL. */
    cd_container_release(NULL);
    cd_context_release(NULL);
    cd_object_release(NULL);
    cd_object_id_release(NULL);
    cd_fetch_request_release(NULL);
    cd_arguments_release(NULL);
    cd_fetch_result_release(NULL);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s MODEL.xcdatamodeld SCRATCH_DIR\n", argv[0]);
        return 2;
    }
    model_path = argv[1];
    snprintf(store_path, sizeof store_path, "%s/harness.sqlite", argv[2]);
    remove(store_path);

    test_library_and_errors();
    test_model();
    test_containers();
    test_ids_of_released_stores();

    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
