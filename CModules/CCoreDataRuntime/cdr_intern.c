/*
 * cdr_intern.c: the process-wide table of interned keys.
 *
 * One red-black tree (libbsd's sys/tree.h) of immortal, NUL-terminated copies, ordered by
 * bytes, guarded by one mutex. Keys may contain any bytes, including NUL.
 */
#include "cdr_private.h"

#include <bsd/sys/tree.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

struct interned {
    RB_ENTRY(interned) link;
    size_t length;
    const char *bytes; /* the copy, stored right after the node */
};

static int interned_compare(const struct interned *a, const struct interned *b) {
    return cdr_bytes_compare(a->bytes, a->length, b->bytes, b->length);
}

RB_HEAD(intern_tree, interned);
/* libbsd leaves __unused undefined (Linux headers use the name for fields); the
 * generated static functions need it, so define it for this expansion only. */
#define __unused __attribute__((__unused__))
RB_GENERATE_STATIC(intern_tree, interned, link, interned_compare)
#undef __unused

static struct intern_tree table = RB_INITIALIZER(&table);
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

const char *cdr_intern(const char *key, size_t length) {
    if (key == NULL && length > 0) {
        return NULL;
    }
    if (length > SIZE_MAX - sizeof(struct interned) - 1) {
        return NULL;
    }
    struct interned probe = {.length = length, .bytes = key != NULL ? key : ""};

    pthread_mutex_lock(&table_lock);
    struct interned *found = RB_FIND(intern_tree, &table, &probe);
    if (found == NULL) {
        struct interned *node = malloc(sizeof *node + length + 1);
        if (node != NULL) {
            char *copy = (char *)(node + 1);
            if (length > 0) {
                memcpy(copy, key, length);
            }
            copy[length] = '\0';
            node->length = length;
            node->bytes = copy;
            RB_INSERT(intern_tree, &table, node);
            found = node;
        }
    }
    pthread_mutex_unlock(&table_lock);
    return found != NULL ? found->bytes : NULL;
}
