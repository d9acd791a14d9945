#!/usr/bin/env python3
"""The shopping list from Apple's "Setting up a Core Data stack", in Python.

Only ctypes and libcoredata.so, no glue code:

    python3 shopping.py MODEL.xcdatamodeld STORE.sqlite         add items, list, delete one
    python3 shopping.py MODEL.xcdatamodeld STORE.sqlite list    list what persisted

The library is found through $COREDATA_LIB, else `pkg-config --variable=libdir coredata`,
else the system's library path.
"""
import ctypes
import os
import subprocess
import sys
import time
from ctypes import POINTER, byref, c_char_p, c_double, c_int, c_int64, c_size_t, c_uint, c_void_p


def load_library():
    path = os.environ.get("COREDATA_LIB")
    if not path:
        try:
            libdir = subprocess.run(["pkg-config", "--variable=libdir", "coredata"],
                                    capture_output=True, text=True, check=True).stdout.strip()
            path = os.path.join(libdir, "libcoredata.so")
        except (OSError, subprocess.CalledProcessError):
            path = "libcoredata.so"
    return ctypes.CDLL(path)


cd = load_library()
CD_OK = 0

# Handles are opaque pointers; every function is declared with its C prototype.
handle = c_void_p
cd.cd_status_string.argtypes = [c_int]
cd.cd_status_string.restype = c_char_p
cd.cd_last_error_message.argtypes = []
cd.cd_last_error_message.restype = c_char_p
cd.cd_string_free.argtypes = [c_void_p]
cd.cd_string_free.restype = None
for name, args in {
    "cd_container_open": [POINTER(handle), c_char_p, c_char_p, c_uint],
    "cd_container_view_context": [POINTER(handle), handle],
    "cd_context_insert": [POINTER(handle), handle, c_char_p],
    "cd_context_delete": [handle, handle],
    "cd_context_save": [handle],
    "cd_context_fetch": [POINTER(handle), handle, handle],
    "cd_object_set_text": [handle, c_char_p, c_char_p],
    "cd_object_set_int64": [handle, c_char_p, c_int64],
    "cd_object_set_date": [handle, c_char_p, c_double],
    "cd_object_get_text": [POINTER(c_void_p), handle, c_char_p],
    "cd_object_get_int64": [POINTER(c_int64), handle, c_char_p],
    "cd_object_get_bool": [POINTER(c_int), handle, c_char_p],
    "cd_fetch_request_create": [POINTER(handle), c_char_p],
    "cd_fetch_request_add_sort": [handle, c_char_p, c_int],
    "cd_fetch_request_set_predicate": [handle, c_char_p, handle],
    "cd_fetch_request_set_limit": [handle, c_size_t],
    "cd_arguments_create": [POINTER(handle)],
    "cd_arguments_add_text": [handle, c_char_p],
    "cd_fetch_result_count": [POINTER(c_size_t), handle],
    "cd_fetch_result_object_at": [POINTER(handle), handle, c_size_t],
}.items():
    function = getattr(cd, name)
    function.argtypes = args
    function.restype = c_int
for name in ["cd_container_release", "cd_context_release", "cd_object_release",
             "cd_fetch_request_release", "cd_arguments_release", "cd_fetch_result_release"]:
    getattr(cd, name).argtypes = [handle]
    getattr(cd, name).restype = None


class CoreDataError(Exception):
    pass


def check(status):
    """Raises with the library's message unless the status is CD_OK."""
    if status != CD_OK:
        raise CoreDataError(f"{status} ({cd.cd_status_string(status).decode()}): "
                            f"{cd.cd_last_error_message().decode()}")


def text(obj, key):
    raw = c_void_p()
    check(cd.cd_object_get_text(byref(raw), obj, key.encode()))
    value = ctypes.string_at(raw).decode()
    cd.cd_string_free(raw)
    return value


def add(ctx, name, quantity):
    item = handle()
    check(cd.cd_context_insert(byref(item), ctx, b"ShoppingItem"))
    check(cd.cd_object_set_text(item, b"name", name.encode()))
    check(cd.cd_object_set_int64(item, b"quantity", quantity))
    check(cd.cd_object_set_date(item, b"addedAt", time.time()))
    cd.cd_object_release(item)
    check(cd.cd_context_save(ctx))
    print(f"Added {name} x{quantity}.")


def fetch(ctx, predicate=None, argument=None, limit=0):
    """Every item (or those matching), oldest first: a list of object handles."""
    request, args, result = handle(), handle(), handle()
    check(cd.cd_fetch_request_create(byref(request), b"ShoppingItem"))
    check(cd.cd_fetch_request_add_sort(request, b"addedAt", 1))
    check(cd.cd_fetch_request_add_sort(request, b"name", 1))
    if predicate:
        check(cd.cd_arguments_create(byref(args)))
        check(cd.cd_arguments_add_text(args, argument.encode()))
        check(cd.cd_fetch_request_set_predicate(request, predicate.encode(), args))
    check(cd.cd_fetch_request_set_limit(request, limit))
    check(cd.cd_context_fetch(byref(result), ctx, request))
    count = c_size_t()
    check(cd.cd_fetch_result_count(byref(count), result))
    objects = []
    for index in range(count.value):
        obj = handle()
        check(cd.cd_fetch_result_object_at(byref(obj), result, index))
        objects.append(obj)
    cd.cd_fetch_result_release(result)
    cd.cd_arguments_release(args)
    cd.cd_fetch_request_release(request)
    return objects


def list_items(ctx):
    items = fetch(ctx)
    print(f"Shopping list ({len(items)}):" if items else "The shopping list is empty.")
    for item in items:
        quantity, purchased = c_int64(), c_int()
        check(cd.cd_object_get_int64(byref(quantity), item, b"quantity"))
        check(cd.cd_object_get_bool(byref(purchased), item, b"purchased"))
        print(f"  [{'x' if purchased.value else ' '}] {text(item, 'name')} x{quantity.value}")
        cd.cd_object_release(item)


def delete(ctx, name):
    for item in fetch(ctx, "name == %@", name, limit=1):
        check(cd.cd_context_delete(ctx, item))
        check(cd.cd_context_save(ctx))
        cd.cd_object_release(item)
        print(f"Deleted {name}.")


def main(argv):
    # Anything but no subcommand or "list" is a mistake: say so before opening the store.
    if len(argv) < 3 or len(argv) > 4 or (len(argv) == 4 and argv[3] != "list"):
        if len(argv) == 4:
            print(f"{argv[0]}: unknown subcommand '{argv[3]}'", file=sys.stderr)
        print(f"usage: {argv[0]} MODEL.xcdatamodeld STORE.sqlite [list]", file=sys.stderr)
        return 2
    container, ctx = handle(), handle()
    check(cd.cd_container_open(byref(container), argv[1].encode(), argv[2].encode(), 0))
    check(cd.cd_container_view_context(byref(ctx), container))
    print(f"Store: {argv[2]}")
    try:
        if len(argv) == 4:
            list_items(ctx)
        else:
            add(ctx, "Milk", 2)
            add(ctx, "Bread", 1)
            add(ctx, "Eggs", 12)
            list_items(ctx)
            delete(ctx, "Bread")
            list_items(ctx)
    finally:
        cd.cd_context_release(ctx)
        cd.cd_container_release(container)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
