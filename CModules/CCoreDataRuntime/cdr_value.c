/*
 * cdr_value.c: tagged values: copy, clear, equality.
 */
#include "cdr_private.h"

#include <math.h>
#include <stdlib.h>

static void *copy_bytes(const void *bytes, size_t length, size_t extra) {
    char *copy = malloc(length + extra);
    if (copy != NULL && length > 0) {
        memcpy(copy, bytes, length);
    }
    return copy;
}

int cdr_value_copy(cdr_value *dst, const cdr_value *src) {
    if (dst == NULL) {
        return CDR_EINVAL;
    }
    if (dst == src) {
        return CDR_OK;
    }
    cdr_value out;
    memset(&out, 0, sizeof out);
    int status = CDR_OK;

    if (src == NULL) {
        status = CDR_EINVAL;
        goto done;
    }
    out.type = src->type;
    switch ((cdr_type)src->type) {
    case CDR_NULL:
        break;
    case CDR_SET:
        if (src->u.set != NULL) {
            out.u.set = cdr_set_copy(src->u.set);
            if (out.u.set == NULL) {
                status = CDR_ENOMEM;
            }
        }
        break;
    case CDR_INT64:
        out.u.i = src->u.i;
        break;
    case CDR_BOOL:
        out.u.i = src->u.i != 0;
        break;
    case CDR_DOUBLE:
    case CDR_DATE:
        out.u.d = src->u.d;
        break;
    case CDR_KEY:
        out.u.key = src->u.key;
        break;
    case CDR_TEXT: {
        out.length = src->length;
        if (src->u.text == NULL && src->length > 0) {
            status = CDR_EINVAL;
            break;
        }
        char *text = copy_bytes(src->u.text, src->length, 1);
        if (text == NULL) {
            status = CDR_ENOMEM;
            break;
        }
        text[src->length] = '\0';
        out.u.text = text;
        break;
    }
    case CDR_BLOB:
        out.length = src->length;
        if (src->length == 0) {
            break; /* an empty blob has no payload */
        }
        if (src->u.blob == NULL) {
            status = CDR_EINVAL;
            break;
        }
        out.u.blob = copy_bytes(src->u.blob, src->length, 0);
        if (out.u.blob == NULL) {
            status = CDR_ENOMEM;
        }
        break;
    case CDR_UUID:
        memcpy(out.u.uuid, src->u.uuid, sizeof out.u.uuid);
        break;
    case CDR_OBJECT:
    case CDR_BOX:
        out.u.ref = src->u.ref;
        cdr_ref_retain(out.u.ref);
        break;
    default:
        status = CDR_EINVAL;
        break;
    }

done:
    if (status != CDR_OK) {
        memset(&out, 0, sizeof out);
    }
    *dst = out;
    return status;
}

void cdr_value_clear(cdr_value *value) {
    if (value == NULL) {
        return;
    }
    /* Detach first: a release callback may run code that touches this value's holder. */
    cdr_value old = *value;
    memset(value, 0, sizeof *value);

    switch ((cdr_type)old.type) {
    case CDR_TEXT:
        if ((old.pad[0] & CDR_VALUE_IN_ROW) == 0) {
            free((void *)old.u.text);
        }
        break;
    case CDR_BLOB:
        free((void *)old.u.blob);
        break;
    case CDR_OBJECT:
    case CDR_BOX:
        cdr_ref_release(old.u.ref);
        break;
    case CDR_SET:
        cdr_set_destroy(old.u.set);
        break;
    default:
        break;
    }
}

static bool bytes_equal(const void *a, const void *b, uint32_t length) {
    return length == 0 || a == b || (a != NULL && b != NULL && memcmp(a, b, length) == 0);
}

static bool sets_equal(const cdr_set *a, const cdr_set *b) {
    size_t count = cdr_set_count(a); /* a NULL set counts as empty */
    if (count != cdr_set_count(b)) {
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        if (!cdr_set_contains(b, cdr_set_at(a, i))) {
            return false;
        }
    }
    return true;
}

bool cdr_value_equal(const cdr_value *a, const cdr_value *b) {
    if (a == b) {
        return true;
    }
    if (a == NULL || b == NULL || a->type != b->type) {
        return false;
    }
    if ((a->type == CDR_TEXT || a->type == CDR_BLOB) && a->length != b->length) {
        return false;
    }
    switch ((cdr_type)a->type) {
    case CDR_NULL:
        return true;
    case CDR_INT64:
        return a->u.i == b->u.i;
    case CDR_BOOL:
        return (a->u.i != 0) == (b->u.i != 0);
    case CDR_DOUBLE:
    case CDR_DATE:
        return a->u.d == b->u.d || (isnan(a->u.d) && isnan(b->u.d));
    case CDR_TEXT:
        return bytes_equal(a->u.text, b->u.text, a->length);
    case CDR_BLOB:
        return bytes_equal(a->u.blob, b->u.blob, a->length);
    case CDR_UUID:
        return memcmp(a->u.uuid, b->u.uuid, sizeof a->u.uuid) == 0;
    case CDR_KEY:
        return a->u.key.pk == b->u.key.pk && a->u.key.entity == b->u.key.entity;
    case CDR_OBJECT:
    case CDR_BOX:
        return a->u.ref == b->u.ref;
    case CDR_SET:
        return sets_equal(a->u.set, b->u.set);
    default:
        return false;
    }
}
