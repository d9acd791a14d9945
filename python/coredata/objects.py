"""Managed objects and their IDs, with attribute access by name.

`item.name`, `item["name"]` and `item.name = "Milk"` read and write the property of that
name through the C API (Core Data's `value(forKey:)` / `setValue(_:forKey:)`): attributes as
Python values (see `coredata.values`), to-one relationships as an `Object` or None, to-many
relationships as a `set` (a `list` for ordered ones). Item access always means a property,
so a property whose name is also a method here (`delete`, `context`, ...) is `obj["delete"]`.
"""
from __future__ import annotations

import weakref
from ctypes import byref, c_int, c_size_t, c_uint, c_uint64, c_void_p
from typing import TYPE_CHECKING, Any, Iterable, List

from ._native import (CD_NULL, STATE_DELETED, STATE_FAULT, STATE_INSERTED, STATE_UPDATED, check,
                      encode, lib, take_string)
from .errors import NotFoundError
from .model import Entity, Property, PropertyKind
from .values import read_attribute, write_attribute

if TYPE_CHECKING:
    from .context import Context


class UnknownKeyError(NotFoundError, AttributeError):
    """A key that is not a property of the object's entity (Apple: `NSUnknownKeyException`)."""


class ObjectID:
    """An object's identity in its store (`NSManagedObjectID`): hashable, with a URI form."""

    __slots__ = ("_handle", "_finalizer", "__weakref__")

    def __init__(self, handle: c_void_p) -> None:
        self._handle = handle
        self._finalizer = weakref.finalize(self, lib.cd_object_id_release, handle)
        self._finalizer.atexit = False

    @property
    def uri(self) -> str:
        """The URI representation, `x-coredata://<store UUID>/<Entity>/p<n>`."""
        text = c_void_p()
        check(lib.cd_object_id_copy_uri(byref(text), self._handle))
        return take_string(text)

    @property
    def is_temporary(self) -> bool:
        """True until the object's first save gives it a permanent ID."""
        out = c_int()
        check(lib.cd_object_id_is_temporary(byref(out), self._handle))
        return bool(out.value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ObjectID):
            return NotImplemented
        out = c_int()
        check(lib.cd_object_id_equal(byref(out), self._handle, other._handle))
        return bool(out.value)

    def __hash__(self) -> int:
        return hash(self.uri)

    def __repr__(self) -> str:
        return f"<coredata.ObjectID {self.uri}>"


class Object:
    """A managed object (`NSManagedObject`) of a context."""

    __slots__ = ("_context", "_handle", "_entity", "_finalizer", "__weakref__")

    def __init__(self, context: "Context", handle: c_void_p) -> None:
        object.__setattr__(self, "_context", context)
        object.__setattr__(self, "_handle", handle)
        object.__setattr__(self, "_entity", None)
        finalizer = weakref.finalize(self, lib.cd_object_release, handle)
        finalizer.atexit = False
        object.__setattr__(self, "_finalizer", finalizer)

    # Identity and state

    @property
    def context(self) -> "Context":
        """The context the object belongs to."""
        return self._context

    @property
    def entity(self) -> Entity:
        """The object's entity, from the container's model."""
        if self._entity is None:
            name = c_void_p()
            check(lib.cd_object_copy_entity_name(byref(name), self._handle))
            object.__setattr__(self, "_entity", self._context.container.model.entity(take_string(name)))
        return self._entity

    @property
    def entity_name(self) -> str:
        """The name of the object's entity."""
        return self.entity.name

    @property
    def object_id(self) -> ObjectID:
        """The object's ID: temporary until its first save, permanent after it."""
        out = c_void_p()
        check(lib.cd_object_copy_id(byref(out), self._handle))
        return ObjectID(out)

    def _state(self) -> int:
        out = c_uint()
        check(lib.cd_object_state(byref(out), self._handle))
        return out.value

    @property
    def is_inserted(self) -> bool:
        """Inserted and not saved yet (`isInserted`)."""
        return bool(self._state() & STATE_INSERTED)

    @property
    def is_updated(self) -> bool:
        """Has unsaved changes (`isUpdated`)."""
        return bool(self._state() & STATE_UPDATED)

    @property
    def is_deleted(self) -> bool:
        """Deleted and not saved yet (`isDeleted`)."""
        return bool(self._state() & STATE_DELETED)

    @property
    def is_fault(self) -> bool:
        """Its data is not loaded yet (`isFault`); reading any property loads it."""
        return bool(self._state() & STATE_FAULT)

    def delete(self) -> None:
        """Marks the object for deletion (`context.delete(object)`); the next save removes it."""
        self._context.delete(self)

    # Properties by name

    def _property(self, key: str) -> Property:
        try:
            return self.entity.properties[key]
        except KeyError:
            raise UnknownKeyError(4, f"The entity {self.entity.name} has no property named "
                                     f"{key!r}.") from None

    def __getitem__(self, key: str) -> Any:
        """The value of a property (`value(forKey:)`)."""
        prop = self._property(key)
        raw = encode(key, "key")
        if prop.kind == PropertyKind.TO_ONE:
            out = c_void_p()
            status = lib.cd_object_get_to_one(byref(out), self._handle, raw)
            if status == CD_NULL:
                return None
            check(status)
            return Object(self._context, out)
        if prop.kind == PropertyKind.TO_MANY:
            members = self._members(raw)
            return members if prop.ordered else set(members)
        return read_attribute(self._handle, raw, prop)

    def __setitem__(self, key: str, value: Any) -> None:
        """Sets a property (`setValue(_:forKey:)`); a to-many takes any iterable of objects."""
        prop = self._property(key)
        raw = encode(key, "key")
        if prop.kind == PropertyKind.TO_ONE:
            if value is not None and not isinstance(value, Object):
                raise TypeError(f"{key!r} is a to-one relationship: assign an Object or None, "
                                f"not {type(value).__name__}")
            check(lib.cd_object_set_to_one(self._handle, raw, value._handle if value else None))
        elif prop.kind == PropertyKind.TO_MANY:
            self._replace_members(prop, raw, value)
        else:
            write_attribute(self._handle, raw, prop, value)

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        return self[key]

    def __setattr__(self, key: str, value: Any) -> None:
        if key.startswith("_") or hasattr(type(self), key):
            raise AttributeError(f"{key!r} cannot be assigned on an Object (use obj[{key!r}] "
                                 "for a property of that name)")
        self[key] = value

    def get(self, key: str, default: Any = None) -> Any:
        """The property's value, or `default` when it is None."""
        value = self[key]
        return default if value is None else value

    def add_to(self, key: str, *members: "Object") -> None:
        """Adds objects to a to-many relationship (`mutableSetValue(forKey:).add`)."""
        self._to_many(key)
        for member in members:
            check(lib.cd_object_to_many_add(self._handle, encode(key, "key"), _handle_of(member)))

    def remove_from(self, key: str, *members: "Object") -> None:
        """Removes objects from a to-many relationship."""
        self._to_many(key)
        for member in members:
            check(lib.cd_object_to_many_remove(self._handle, encode(key, "key"), _handle_of(member)))

    def count_of(self, key: str) -> int:
        """The number of objects in a to-many relationship, without loading them."""
        self._to_many(key)
        out = c_size_t()
        check(lib.cd_object_to_many_count(byref(out), self._handle, encode(key, "key")))
        return out.value

    def _to_many(self, key: str) -> Property:
        prop = self._property(key)
        if prop.kind != PropertyKind.TO_MANY:
            raise TypeError(f"{key!r} is not a to-many relationship of {self.entity.name}")
        return prop

    def _members(self, raw: bytes) -> List["Object"]:
        result = c_void_p()
        check(lib.cd_object_copy_to_many(byref(result), self._handle, raw))
        try:
            return self._context._objects_of(result)
        finally:
            lib.cd_fetch_result_release(result)

    def _replace_members(self, prop: Property, raw: bytes, value: Any) -> None:
        if value is None or isinstance(value, (str, bytes, Object)):
            raise TypeError(f"{prop.name!r} is a to-many relationship: assign an iterable of "
                            f"Objects, not {type(value).__name__}")
        wanted = list(value)
        for member in wanted:
            _handle_of(member)
        current = self._members(raw)
        keep = set(wanted) if not prop.ordered else set()
        for member in current:
            if member not in keep:
                check(lib.cd_object_to_many_remove(self._handle, raw, member._handle))
        for member in wanted:
            check(lib.cd_object_to_many_add(self._handle, raw, member._handle))

    # Python protocol

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Object):
            return NotImplemented
        out = c_int()
        check(lib.cd_object_equal(byref(out), self._handle, other._handle))
        return bool(out.value)

    def __hash__(self) -> int:
        out = c_uint64()
        check(lib.cd_object_hash(byref(out), self._handle))
        return hash(out.value)

    def __dir__(self) -> Iterable[str]:
        return sorted(set(super().__dir__()) | set(self.entity.properties))

    def __repr__(self) -> str:
        try:
            return f"<coredata.Object {self.entity.name} {self.object_id.uri}>"
        except Exception:  # a released context: still printable
            return "<coredata.Object (unusable)>"


def _handle_of(member: Any) -> c_void_p:
    if not isinstance(member, Object):
        raise TypeError(f"a relationship holds Objects, not {type(member).__name__}")
    return member._handle

