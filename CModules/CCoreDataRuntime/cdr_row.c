/*
 * cdr_row.c: rows, reference-counted arrays of values (the coordinator's row cache and
 * save snapshots). The count is atomic so a cached row may be shared across threads;
 * its values are written by one thread at a time.
 */
#include "cdr_private.h"

#include <stdatomic.h>
#include <stdlib.h>

struct cdr_row {
    atomic_long references;
    int32_t count;
    /* The unused part of the text area after the values (both NULL without one). */
    char *text_next;
    char *text_end;
    cdr_value values[];
};

cdr_row *cdr_row_create_with_text(int32_t count, size_t text_bytes) {
    if (count < 0 || text_bytes > SIZE_MAX / 2) {
        return NULL;
    }
    size_t values = sizeof(cdr_row) + (size_t)count * sizeof(cdr_value);
    cdr_row *row = malloc(values + text_bytes);
    if (row == NULL) {
        return NULL;
    }
    memset(row, 0, values); /* every value CDR_NULL; the text area needs no clearing */
    atomic_init(&row->references, 1);
    row->count = count;
    if (text_bytes > 0) {
        row->text_next = (char *)row + values;
        row->text_end = row->text_next + text_bytes;
    }
    return row;
}

cdr_row *cdr_row_create(int32_t count) {
    return cdr_row_create_with_text(count, 0);
}

cdr_row *cdr_row_retain(cdr_row *row) {
    if (row != NULL) {
        atomic_fetch_add_explicit(&row->references, 1, memory_order_relaxed);
    }
    return row;
}

void cdr_row_release(cdr_row *row) {
    if (row == NULL) {
        return;
    }
    if (atomic_fetch_sub_explicit(&row->references, 1, memory_order_acq_rel) != 1) {
        return;
    }
    for (int32_t i = 0; i < row->count; i++) {
        cdr_value_clear(&row->values[i]);
    }
    free(row);
}

int32_t cdr_row_count(const cdr_row *row) {
    return row != NULL ? row->count : 0;
}

const cdr_value *cdr_row_get(const cdr_row *row, int32_t index) {
    if (row == NULL || index < 0 || index >= row->count) {
        return NULL;
    }
    return &row->values[index];
}

int cdr_row_set(cdr_row *row, int32_t index, const cdr_value *value) {
    if (row == NULL || value == NULL) {
        return CDR_EINVAL;
    }
    if (index < 0 || index >= row->count) {
        return CDR_ERANGE;
    }
    cdr_value *slot = &row->values[index];
    if (slot->type == CDR_NULL || slot->type == CDR_INT64 || slot->type == CDR_DOUBLE || slot->type == CDR_DATE) {
        /* The common numbers over a slot without a payload: stored as they are (what
         * cdr_value_copy would make of them), nothing to free. */
        switch ((cdr_type)value->type) {
        case CDR_INT64:
        case CDR_DOUBLE:
        case CDR_DATE:
            memset(slot, 0, sizeof *slot);
            slot->type = value->type;
            slot->u.i = value->u.i; /* the same 8 bytes for a double */
            return CDR_OK;
        default:
            break;
        }
    }
    cdr_value copy;
    if (value->type == CDR_TEXT && (value->u.text != NULL || value->length == 0) &&
        (size_t)(row->text_end - row->text_next) > (size_t)value->length) {
        /* Into the row's text area: no allocation, freed with the row. */
        memset(&copy, 0, sizeof copy);
        copy.type = CDR_TEXT;
        copy.pad[0] = CDR_VALUE_IN_ROW;
        copy.length = value->length;
        if (value->length > 0) {
            memcpy(row->text_next, value->u.text, value->length);
        }
        row->text_next[value->length] = '\0';
        copy.u.text = row->text_next;
        row->text_next += (size_t)value->length + 1;
    } else {
        int status = cdr_value_copy(&copy, value);
        if (status != CDR_OK) {
            return status;
        }
    }
    cdr_value old = row->values[index];
    row->values[index] = copy;
    cdr_value_clear(&old);
    return CDR_OK;
}

int cdr_row_set_int64(cdr_row *row, int32_t index, int64_t v) {
    cdr_value value = {.type = CDR_INT64, .u.i = v};
    return cdr_row_set(row, index, &value);
}

int cdr_row_set_double(cdr_row *row, int32_t index, double v) {
    cdr_value value = {.type = CDR_DOUBLE, .u.d = v};
    return cdr_row_set(row, index, &value);
}

int cdr_row_set_text(cdr_row *row, int32_t index, const char *text, size_t length) {
    if (length > UINT32_MAX || (text == NULL && length > 0)) {
        return CDR_EINVAL;
    }
    cdr_value value = {.type = CDR_TEXT, .length = (uint32_t)length,
                       .u.text = text != NULL ? text : ""};
    return cdr_row_set(row, index, &value);
}

int cdr_row_set_blob(cdr_row *row, int32_t index, const void *bytes, size_t length) {
    if (length > UINT32_MAX || (bytes == NULL && length > 0)) {
        return CDR_EINVAL;
    }
    cdr_value value = {.type = CDR_BLOB, .length = (uint32_t)length, .u.blob = bytes};
    return cdr_row_set(row, index, &value);
}

int cdr_row_set_null(cdr_row *row, int32_t index) {
    cdr_value value = {.type = CDR_NULL};
    return cdr_row_set(row, index, &value);
}

int cdr_row_set_key(cdr_row *row, int32_t index, int64_t pk, uint32_t entity) {
    cdr_value value = {.type = CDR_KEY, .u.key = {.pk = pk, .entity = entity}};
    return cdr_row_set(row, index, &value);
}
