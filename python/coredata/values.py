"""Python values in and out of attributes and predicate arguments: the one place for each encoding.

| Core Data type            | Python type                          |
|---------------------------|--------------------------------------|
| Integer 16/32/64          | `int`                                |
| Double, Float             | `float`                              |
| Boolean                   | `bool`                               |
| String, URI               | `str`                                |
| Date                      | `datetime.datetime`, aware, in UTC   |
| Binary Data               | `bytes`                              |
| UUID                      | `uuid.UUID`                          |
| Decimal                   | `decimal.Decimal`                    |

Dates cross the C API as seconds since 1970 (microseconds survive). A naive `datetime` is
taken as local time, as `datetime.timestamp()` takes it.
"""
from __future__ import annotations

import ctypes
import datetime as _datetime
import decimal
import math
import uuid
from ctypes import byref, c_double, c_int, c_int64, c_size_t, c_uint8, c_void_p
from typing import Any, Callable

from ._native import CD_NULL, check, encode, lib, take_blob, take_string
from .errors import RangeError, ValueTypeError
from .model import AttributeType, Property

_UTC = _datetime.timezone.utc
_INTEGERS = (AttributeType.INTEGER16, AttributeType.INTEGER32, AttributeType.INTEGER64)
_FLOATS = (AttributeType.DOUBLE, AttributeType.FLOAT)
_TEXT = (AttributeType.STRING, AttributeType.URI)


def datetime_from_seconds(seconds: float) -> _datetime.datetime:
    """A date from seconds since 1970, aware and in UTC, to the microsecond."""
    whole = math.floor(seconds)
    micros = round((seconds - whole) * 1_000_000)
    return (_datetime.datetime(1970, 1, 1, tzinfo=_UTC)
            + _datetime.timedelta(seconds=whole, microseconds=micros))


def seconds_from_datetime(value: _datetime.datetime) -> float:
    """Seconds since 1970 for a date (a naive one is local time, as Python's `timestamp()`)."""
    return value.timestamp()


def _uuid_bytes(value: uuid.UUID) -> "ctypes.Array[c_uint8]":
    return (c_uint8 * 16).from_buffer_copy(value.bytes)


def read_nullable(status: int, convert: Callable[[], Any]) -> Any:
    """None for a nil value (CD_NULL), else the converted output of a successful call."""
    if status == CD_NULL:
        return None
    check(status)
    return convert()


def read_attribute(handle: c_void_p, key: bytes, attribute: Property) -> Any:
    """The value of an attribute, as the Python type of its Core Data type; None for nil."""
    kind = attribute.attribute_type
    if kind in _INTEGERS:
        integer = c_int64()
        return read_nullable(lib.cd_object_get_int64(byref(integer), handle, key), lambda: integer.value)
    if kind in _FLOATS:
        double = c_double()
        return read_nullable(lib.cd_object_get_double(byref(double), handle, key), lambda: double.value)
    if kind == AttributeType.BOOLEAN:
        flag = c_int()
        return read_nullable(lib.cd_object_get_bool(byref(flag), handle, key), lambda: bool(flag.value))
    if kind in _TEXT:
        text = c_void_p()
        return read_nullable(lib.cd_object_get_text(byref(text), handle, key), lambda: take_string(text))
    if kind == AttributeType.DATE:
        seconds = c_double()
        return read_nullable(lib.cd_object_get_date(byref(seconds), handle, key),
                             lambda: datetime_from_seconds(seconds.value))
    if kind == AttributeType.BINARY:
        blob, length = c_void_p(), c_size_t()
        return read_nullable(lib.cd_object_get_blob(byref(blob), byref(length), handle, key),
                             lambda: take_blob(blob, length.value))
    if kind == AttributeType.UUID:
        raw = (c_uint8 * 16)()
        return read_nullable(lib.cd_object_get_uuid(byref(raw), handle, key),
                             lambda: uuid.UUID(bytes=bytes(raw)))
    if kind == AttributeType.DECIMAL:
        text = c_void_p()
        return read_nullable(lib.cd_object_get_decimal(byref(text), handle, key),
                             lambda: decimal.Decimal(take_string(text)))
    raise ValueTypeError(5, f"The attribute {attribute.name!r} is of type {kind.name}, "
                            "which has no Python form in this package.")


def write_attribute(handle: c_void_p, key: bytes, attribute: Property, value: Any) -> None:
    """Sets an attribute from a Python value of its type; None sets nil."""
    if value is None:
        check(lib.cd_object_set_null(handle, key))
        return
    kind = attribute.attribute_type

    def wrong() -> ValueTypeError:
        return ValueTypeError(5, f"The attribute {attribute.name!r} ({kind.name}) cannot hold "
                                 f"a value of type {type(value).__name__}: {value!r}.")

    if kind in _INTEGERS:
        if isinstance(value, bool) or not isinstance(value, int):
            raise wrong()
        if not -(1 << 63) <= value < (1 << 63):
            raise RangeError(6, f"{value} does not fit the attribute {attribute.name!r} "
                                f"({kind.name}).")
        check(lib.cd_object_set_int64(handle, key, value))
    elif kind in _FLOATS:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise wrong()
        check(lib.cd_object_set_double(handle, key, float(value)))
    elif kind == AttributeType.BOOLEAN:
        if not isinstance(value, bool):
            raise wrong()
        check(lib.cd_object_set_bool(handle, key, 1 if value else 0))
    elif kind in _TEXT:
        if not isinstance(value, str):
            raise wrong()
        check(lib.cd_object_set_text(handle, key, encode(value, attribute.name)))
    elif kind == AttributeType.DATE:
        if not isinstance(value, _datetime.datetime):
            raise wrong()
        check(lib.cd_object_set_date(handle, key, seconds_from_datetime(value)))
    elif kind == AttributeType.BINARY:
        if not isinstance(value, (bytes, bytearray, memoryview)):
            raise wrong()
        data = bytes(value)
        check(lib.cd_object_set_blob(handle, key, data, len(data)))
    elif kind == AttributeType.UUID:
        if not isinstance(value, uuid.UUID):
            raise wrong()
        check(lib.cd_object_set_uuid(handle, key, byref(_uuid_bytes(value))))
    elif kind == AttributeType.DECIMAL:
        if isinstance(value, bool) or not isinstance(value, (decimal.Decimal, int)):
            raise wrong()
        check(lib.cd_object_set_decimal(handle, key, str(value).encode("ascii")))
    else:
        raise ValueTypeError(5, f"The attribute {attribute.name!r} is of type {kind.name}, "
                                "which has no Python form in this package.")


def add_argument(arguments: c_void_p, value: Any) -> None:
    """Appends a predicate argument for the next `%@` (or `%K` for text) of a format."""
    from .objects import Object, ObjectID  # objects.py imports this module

    if value is None:
        check(lib.cd_arguments_add_null(arguments))
    elif isinstance(value, bool):
        check(lib.cd_arguments_add_bool(arguments, 1 if value else 0))
    elif isinstance(value, int):
        if not -(1 << 63) <= value < (1 << 63):
            raise RangeError(6, f"The predicate argument {value} does not fit in 64 bits.")
        check(lib.cd_arguments_add_int64(arguments, value))
    elif isinstance(value, float):
        check(lib.cd_arguments_add_double(arguments, value))
    elif isinstance(value, decimal.Decimal):
        check(lib.cd_arguments_add_decimal(arguments, str(value).encode("ascii")))
    elif isinstance(value, str):
        check(lib.cd_arguments_add_text(arguments, encode(value, "predicate argument")))
    elif isinstance(value, _datetime.datetime):
        check(lib.cd_arguments_add_date(arguments, seconds_from_datetime(value)))
    elif isinstance(value, uuid.UUID):
        check(lib.cd_arguments_add_uuid(arguments, byref(_uuid_bytes(value))))
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        check(lib.cd_arguments_add_blob(arguments, data, len(data)))
    elif isinstance(value, Object):
        check(lib.cd_arguments_add_object(arguments, value._handle))
    elif isinstance(value, ObjectID):
        check(lib.cd_arguments_add_object_id(arguments, value._handle))
    else:
        raise ValueTypeError(5, f"A predicate argument of type {type(value).__name__} is not "
                                "supported (use None, bool, int, float, Decimal, str, datetime, "
                                "UUID, bytes, an Object or an ObjectID).")
