/*
 * The shopping list from Apple's "Setting up a Core Data stack", in C.
 *
 *   cc shopping.c $(pkg-config --cflags --libs coredata) -o shopping
 *   ./shopping MODEL.xcdatamodeld STORE.sqlite         add items, list, delete one, save
 *   ./shopping MODEL.xcdatamodeld STORE.sqlite list    list what persisted
 *
 * MODEL is the demo's Sources/coredata-demo/DataModel.xcdatamodeld.
 */
#include <coredata.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

/* Prints the failure and leaves when a call does not return CD_OK. */
#define TRY(call)                                                                     \
    do {                                                                              \
        int status_ = (call);                                                         \
        if (status_ != CD_OK) {                                                       \
            fprintf(stderr, "%s failed: %d (%s): %s\n", #call, status_,               \
                    cd_status_string(status_), cd_last_error_message());              \
            return status_;                                                           \
        }                                                                             \
    } while (0)

static int add_item(cd_context *ctx, const char *name, int64_t quantity) {
    cd_object *item = NULL;
    TRY(cd_context_insert(&item, ctx, "ShoppingItem"));
    TRY(cd_object_set_text(item, "name", name));
    TRY(cd_object_set_int64(item, "quantity", quantity));
    TRY(cd_object_set_date(item, "addedAt", (double)time(NULL)));
    cd_object_release(item);
    /* The seeds' save(): only when there are changes. */
    TRY(cd_context_save(ctx));
    printf("Added %s x%lld.\n", name, (long long)quantity);
    return CD_OK;
}

/* Fetches every item, oldest first; the caller releases the result. */
static int fetch_items(cd_context *ctx, cd_fetch_result **out) {
    cd_fetch_request *request = NULL;
    int status;
    TRY(cd_fetch_request_create(&request, "ShoppingItem"));
    TRY(cd_fetch_request_add_sort(request, "addedAt", 1));
    TRY(cd_fetch_request_add_sort(request, "name", 1));
    status = cd_context_fetch(out, ctx, request);
    cd_fetch_request_release(request);
    return status;
}

static int list_items(cd_context *ctx) {
    cd_fetch_result *items = NULL;
    size_t count = 0, i;
    TRY(fetch_items(ctx, &items));
    TRY(cd_fetch_result_count(&count, items));
    if (count == 0) printf("The shopping list is empty.\n");
    else printf("Shopping list (%zu):\n", count);
    for (i = 0; i < count; i++) {
        cd_object *item = NULL;
        char *name = NULL;
        int64_t quantity = 0;
        int purchased = 0;
        TRY(cd_fetch_result_object_at(&item, items, i));
        TRY(cd_object_get_text(&name, item, "name"));
        TRY(cd_object_get_int64(&quantity, item, "quantity"));
        TRY(cd_object_get_bool(&purchased, item, "purchased"));
        printf("  [%c] %s x%lld\n", purchased ? 'x' : ' ', name, (long long)quantity);
        cd_string_free(name);
        cd_object_release(item);
    }
    cd_fetch_result_release(items);
    return CD_OK;
}

static int delete_item(cd_context *ctx, const char *name) {
    cd_fetch_request *request = NULL;
    cd_arguments *args = NULL;
    cd_fetch_result *found = NULL;
    cd_object *item = NULL;
    size_t count = 0;
    TRY(cd_fetch_request_create(&request, "ShoppingItem"));
    TRY(cd_arguments_create(&args));
    TRY(cd_arguments_add_text(args, name));
    TRY(cd_fetch_request_set_predicate(request, "name == %@", args));
    TRY(cd_fetch_request_set_limit(request, 1));
    TRY(cd_context_fetch(&found, ctx, request));
    TRY(cd_fetch_result_count(&count, found));
    if (count == 1) {
        TRY(cd_fetch_result_object_at(&item, found, 0));
        TRY(cd_context_delete(ctx, item));
        TRY(cd_context_save(ctx));
        printf("Deleted %s.\n", name);
        cd_object_release(item);
    }
    cd_fetch_result_release(found);
    cd_arguments_release(args);
    cd_fetch_request_release(request);
    return CD_OK;
}

int main(int argc, char **argv) {
    cd_container *container = NULL;
    cd_context *ctx = NULL;
    int status = CD_OK;

    /* Anything but no subcommand or "list" is a mistake: say so before opening the store. */
    if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "list") != 0)) {
        if (argc == 4) fprintf(stderr, "%s: unknown subcommand '%s'\n", argv[0], argv[3]);
        fprintf(stderr, "usage: %s MODEL.xcdatamodeld STORE.sqlite [list]\n", argv[0]);
        return 2;
    }
    /* NSPersistentContainer(name:) + loadPersistentStores, in one call. */
    TRY(cd_container_open(&container, argv[1], argv[2], CD_OPEN_DEFAULT));
    TRY(cd_container_view_context(&ctx, container));
    printf("Store: %s\n", argv[2]);

    if (argc == 4) {
        status = list_items(ctx);
    } else {
        if (status == CD_OK) status = add_item(ctx, "Milk", 2);
        if (status == CD_OK) status = add_item(ctx, "Bread", 1);
        if (status == CD_OK) status = add_item(ctx, "Eggs", 12);
        if (status == CD_OK) status = list_items(ctx);
        if (status == CD_OK) status = delete_item(ctx, "Bread");
        if (status == CD_OK) status = list_items(ctx);
    }
    cd_context_release(ctx);
    cd_container_release(container);
    return status == CD_OK ? 0 : 1;
}
