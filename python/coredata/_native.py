"""The one place that knows libcoredata.so: where it is, its prototypes, and its statuses.

Every other module calls the C API through `lib` and checks statuses with `check`, so a
failing call always becomes a `CoreDataError` carrying the status and the library's message.
"""
from __future__ import annotations

import ctypes
import os
import subprocess
from ctypes import POINTER, c_char_p, c_double, c_int, c_int64, c_size_t, c_uint, c_uint8, c_uint64, c_void_p

from .errors import error_for_status

#: Status codes of coredata.h used by the package (the others travel as numbers).
CD_OK = 0
CD_NOTFOUND = 4
CD_NULL = 7

#: cd_open_flags.
OPEN_READ_ONLY = 1
OPEN_NO_MIGRATION = 2
OPEN_IN_MEMORY = 4

#: cd_result_type.
RESULT_OBJECTS = 0
RESULT_OBJECT_IDS = 1
RESULT_DICTIONARIES = 2

#: cd_object_state_flags.
STATE_INSERTED = 1
STATE_UPDATED = 2
STATE_DELETED = 4
STATE_FAULT = 8


def _library_path() -> str:
    """`$COREDATA_LIB`, else pkg-config's libdir for `coredata`, else the loader's search path."""
    explicit = os.environ.get("COREDATA_LIB")
    if explicit:
        return explicit
    try:
        libdir = subprocess.run(["pkg-config", "--variable=libdir", "coredata"],
                                capture_output=True, text=True, check=True).stdout.strip()
        if libdir:
            return os.path.join(libdir, "libcoredata.so")
    except (OSError, subprocess.CalledProcessError):
        pass
    return "libcoredata.so"


def _load() -> ctypes.CDLL:
    path = _library_path()
    try:
        return ctypes.CDLL(path)
    except OSError as error:
        raise ImportError(
            f"coredata: cannot load {path} ({error}). Install the C library "
            "(scripts/install-capi.sh PREFIX) and make `pkg-config coredata` find it, "
            "or set COREDATA_LIB to the path of libcoredata.so.") from error


lib = _load()

_handle = c_void_p
_out = POINTER(c_void_p)

# name: (restype, argtypes). Statuses are ints; handles and owned strings are void pointers,
# so that Python never frees memory the library owns.
_PROTOTYPES = {
    "cd_libversion": (c_char_p, []),
    "cd_status_string": (c_char_p, [c_int]),
    "cd_last_error_message": (c_char_p, []),
    "cd_last_error_code": (c_int, []),
    "cd_last_error_copy": (c_int, [_out]),
    "cd_error_code": (c_int, [_handle]),
    "cd_error_domain": (c_char_p, [_handle]),
    "cd_error_message": (c_char_p, [_handle]),
    "cd_error_key": (c_char_p, [_handle]),
    "cd_error_release": (None, [_handle]),
    "cd_string_free": (None, [c_void_p]),
    "cd_blob_free": (None, [c_void_p]),
    "cd_container_open": (c_int, [_out, c_char_p, c_char_p, c_uint]),
    "cd_container_release": (None, [_handle]),
    "cd_container_view_context": (c_int, [_out, _handle]),
    "cd_container_new_background_context": (c_int, [_out, _handle]),
    "cd_container_copy_model": (c_int, [_out, _handle]),
    "cd_container_object_id_from_uri": (c_int, [_out, _handle, c_char_p]),
    "cd_model_load": (c_int, [_out, c_char_p]),
    "cd_model_release": (None, [_handle]),
    "cd_model_entity_count": (c_int, [POINTER(c_size_t), _handle]),
    "cd_model_entity_name": (c_int, [POINTER(c_char_p), _handle, c_size_t]),
    "cd_model_entity_parent": (c_int, [POINTER(c_char_p), _handle, c_char_p]),
    "cd_model_property_count": (c_int, [POINTER(c_size_t), _handle, c_char_p]),
    "cd_model_property": (c_int, [POINTER(c_char_p), POINTER(c_int), POINTER(c_int),
                                  POINTER(c_char_p), POINTER(c_int), _handle, c_char_p, c_size_t]),
    "cd_model_property_is_ordered": (c_int, [POINTER(c_int), _handle, c_char_p, c_size_t]),
    "cd_context_release": (None, [_handle]),
    "cd_context_insert": (c_int, [_out, _handle, c_char_p]),
    "cd_context_delete": (c_int, [_handle, _handle]),
    "cd_context_save": (c_int, [_handle]),
    "cd_context_rollback": (c_int, [_handle]),
    "cd_context_reset": (c_int, [_handle]),
    "cd_context_has_changes": (c_int, [POINTER(c_int), _handle]),
    "cd_context_set_undo_enabled": (c_int, [_handle, c_int]),
    "cd_context_undo": (c_int, [_handle]),
    "cd_context_redo": (c_int, [_handle]),
    "cd_context_fetch": (c_int, [_out, _handle, _handle]),
    "cd_context_count": (c_int, [POINTER(c_size_t), _handle, _handle]),
    "cd_context_object_with_id": (c_int, [_out, _handle, _handle]),
    "cd_object_release": (None, [_handle]),
    "cd_object_copy_id": (c_int, [_out, _handle]),
    "cd_object_copy_entity_name": (c_int, [_out, _handle]),
    "cd_object_state": (c_int, [POINTER(c_uint), _handle]),
    "cd_object_equal": (c_int, [POINTER(c_int), _handle, _handle]),
    "cd_object_hash": (c_int, [POINTER(c_uint64), _handle]),
    "cd_object_is_null": (c_int, [POINTER(c_int), _handle, c_char_p]),
    "cd_object_set_null": (c_int, [_handle, c_char_p]),
    "cd_object_get_int64": (c_int, [POINTER(c_int64), _handle, c_char_p]),
    "cd_object_set_int64": (c_int, [_handle, c_char_p, c_int64]),
    "cd_object_get_double": (c_int, [POINTER(c_double), _handle, c_char_p]),
    "cd_object_set_double": (c_int, [_handle, c_char_p, c_double]),
    "cd_object_get_bool": (c_int, [POINTER(c_int), _handle, c_char_p]),
    "cd_object_set_bool": (c_int, [_handle, c_char_p, c_int]),
    "cd_object_get_text": (c_int, [_out, _handle, c_char_p]),
    "cd_object_set_text": (c_int, [_handle, c_char_p, c_char_p]),
    "cd_object_get_blob": (c_int, [_out, POINTER(c_size_t), _handle, c_char_p]),
    "cd_object_set_blob": (c_int, [_handle, c_char_p, c_void_p, c_size_t]),
    "cd_object_get_date": (c_int, [POINTER(c_double), _handle, c_char_p]),
    "cd_object_set_date": (c_int, [_handle, c_char_p, c_double]),
    "cd_object_get_uuid": (c_int, [POINTER(c_uint8 * 16), _handle, c_char_p]),
    "cd_object_set_uuid": (c_int, [_handle, c_char_p, POINTER(c_uint8 * 16)]),
    "cd_object_get_decimal": (c_int, [_out, _handle, c_char_p]),
    "cd_object_set_decimal": (c_int, [_handle, c_char_p, c_char_p]),
    "cd_object_get_to_one": (c_int, [_out, _handle, c_char_p]),
    "cd_object_set_to_one": (c_int, [_handle, c_char_p, _handle]),
    "cd_object_to_many_count": (c_int, [POINTER(c_size_t), _handle, c_char_p]),
    "cd_object_to_many_add": (c_int, [_handle, c_char_p, _handle]),
    "cd_object_to_many_remove": (c_int, [_handle, c_char_p, _handle]),
    "cd_object_copy_to_many": (c_int, [_out, _handle, c_char_p]),
    "cd_object_id_release": (None, [_handle]),
    "cd_object_id_copy_uri": (c_int, [_out, _handle]),
    "cd_object_id_is_temporary": (c_int, [POINTER(c_int), _handle]),
    "cd_object_id_equal": (c_int, [POINTER(c_int), _handle, _handle]),
    "cd_fetch_request_create": (c_int, [_out, c_char_p]),
    "cd_fetch_request_release": (None, [_handle]),
    "cd_fetch_request_set_predicate": (c_int, [_handle, c_char_p, _handle]),
    "cd_fetch_request_add_sort": (c_int, [_handle, c_char_p, c_int]),
    "cd_fetch_request_set_limit": (c_int, [_handle, c_size_t]),
    "cd_fetch_request_set_offset": (c_int, [_handle, c_size_t]),
    "cd_fetch_request_set_result_type": (c_int, [_handle, c_int]),
    "cd_fetch_request_add_property": (c_int, [_handle, c_char_p]),
    "cd_arguments_create": (c_int, [_out]),
    "cd_arguments_release": (None, [_handle]),
    "cd_arguments_add_int64": (c_int, [_handle, c_int64]),
    "cd_arguments_add_double": (c_int, [_handle, c_double]),
    "cd_arguments_add_bool": (c_int, [_handle, c_int]),
    "cd_arguments_add_text": (c_int, [_handle, c_char_p]),
    "cd_arguments_add_decimal": (c_int, [_handle, c_char_p]),
    "cd_arguments_add_date": (c_int, [_handle, c_double]),
    "cd_arguments_add_uuid": (c_int, [_handle, POINTER(c_uint8 * 16)]),
    "cd_arguments_add_blob": (c_int, [_handle, c_void_p, c_size_t]),
    "cd_arguments_add_null": (c_int, [_handle]),
    "cd_arguments_add_object": (c_int, [_handle, _handle]),
    "cd_arguments_add_object_id": (c_int, [_handle, _handle]),
    "cd_fetch_result_release": (None, [_handle]),
    "cd_fetch_result_count": (c_int, [POINTER(c_size_t), _handle]),
    "cd_fetch_result_object_at": (c_int, [_out, _handle, c_size_t]),
    "cd_fetch_result_object_id_at": (c_int, [_out, _handle, c_size_t]),
    "cd_fetch_result_get_int64": (c_int, [POINTER(c_int64), _handle, c_size_t, c_char_p]),
    "cd_fetch_result_get_double": (c_int, [POINTER(c_double), _handle, c_size_t, c_char_p]),
    "cd_fetch_result_copy_text": (c_int, [_out, _handle, c_size_t, c_char_p]),
}

for _name, (_restype, _argtypes) in _PROTOTYPES.items():
    try:
        _function = getattr(lib, _name)
    except AttributeError as error:
        raise ImportError(f"coredata: {_library_path()} has no {_name}: the library is older "
                          "than this package; install the library from the same checkout") from error
    _function.restype = _restype
    _function.argtypes = _argtypes


def encode(text: str, what: str = "text") -> bytes:
    """UTF-8 for a `const char *` argument; text with a NUL cannot cross the C API."""
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, not {type(text).__name__}")
    if "\0" in text:
        raise ValueError(f"{what} must not contain a NUL character: {text!r}")
    return text.encode("utf-8")


def check(status: int) -> None:
    """Raises the `CoreDataError` for a status other than CD_OK, with the library's details."""
    if status == CD_OK:
        return
    details = c_void_p()
    domain, message, key = "", "", None
    if lib.cd_last_error_copy(ctypes.byref(details)) == CD_OK and details.value:
        try:
            domain = (lib.cd_error_domain(details) or b"").decode("utf-8", "replace")
            message = (lib.cd_error_message(details) or b"").decode("utf-8", "replace")
            raw_key = lib.cd_error_key(details)
            key = raw_key.decode("utf-8", "replace") if raw_key else None
        finally:
            lib.cd_error_release(details)
    if not message:
        message = (lib.cd_status_string(status) or b"").decode("utf-8", "replace")
    raise error_for_status(status, message, domain or None, key)


def take_string(pointer: c_void_p) -> str:
    """Decodes and frees a string the library handed over (`char **out`)."""
    try:
        return ctypes.string_at(pointer.value).decode("utf-8")
    finally:
        lib.cd_string_free(pointer)


def take_blob(pointer: c_void_p, length: int) -> bytes:
    """Copies and frees a blob the library handed over (`void **out`)."""
    try:
        return ctypes.string_at(pointer.value, length) if length else b""
    finally:
        lib.cd_blob_free(pointer)
