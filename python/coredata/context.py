"""Managed object contexts: insert, fetch, save, and a `with` block that saves or rolls back.

A context follows Core Data's queue rules through the C API: the view context
(`Container.view_context`) belongs to Python's main thread; a background context
(`Container.new_background_context()`) may be used from any thread, one call at a time.
"""
from __future__ import annotations

import decimal
import uuid
import weakref
from ctypes import byref, c_double, c_int, c_int64, c_size_t, c_void_p
from typing import (TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence, Tuple, Type,
                    Union)

from ._native import (RESULT_DICTIONARIES, RESULT_OBJECT_IDS, check, encode, lib,
                      take_string)
from .model import AttributeType, Entity, PropertyKind
from .objects import Object, ObjectID
from .values import add_argument, datetime_from_seconds, read_nullable

if TYPE_CHECKING:
    from types import TracebackType

    from .container import Container

#: A sort key: "name" (ascending), "-name" (descending), or ("name", ascending).
SortKey = Union[str, Tuple[str, bool]]


class Context:
    """A managed object context (`NSManagedObjectContext`).

    Used as a context manager, it saves when the block ends normally and rolls back when it
    raises::

        with container.new_background_context() as ctx:
            ctx.insert("ShoppingItem", name="Milk", quantity=2)
    """

    def __init__(self, container: "Container", handle: c_void_p, owned_by_container: bool) -> None:
        self.container = container
        self._handle = handle
        # The view context lives as long as the container; a background context is released
        # when the Python object goes (or at close()).
        self._owned_by_container = owned_by_container
        self._finalizer = weakref.finalize(self, lib.cd_context_release, handle)
        self._finalizer.atexit = False

    # Changes

    def insert(self, entity: str, **values: Any) -> Object:
        """Inserts a new object of an entity, with initial property values."""
        out = c_void_p()
        check(lib.cd_context_insert(byref(out), self._handle, encode(entity, "entity")))
        created = Object(self, out)
        for key, value in values.items():
            created[key] = value
        return created

    def delete(self, obj: Object) -> None:
        """Marks an object for deletion; delete rules apply and the next save removes it."""
        if not isinstance(obj, Object):
            raise TypeError(f"delete() takes an Object, not {type(obj).__name__}")
        check(lib.cd_context_delete(self._handle, obj._handle))

    def save(self) -> None:
        """Writes every change to the store in one transaction (nothing to do: no-op).

        Raises `ValidationError` (1550-1680), `MergeError` (133020), `StoreError`, ...
        """
        check(lib.cd_context_save(self._handle))

    def rollback(self) -> None:
        """Discards every unsaved change."""
        check(lib.cd_context_rollback(self._handle))

    def reset(self) -> None:
        """Forgets every object; objects obtained before are unusable afterwards."""
        check(lib.cd_context_reset(self._handle))

    @property
    def has_changes(self) -> bool:
        """Whether the context has unsaved changes (`hasChanges`)."""
        out = c_int()
        check(lib.cd_context_has_changes(byref(out), self._handle))
        return bool(out.value)

    # Undo

    @property
    def undo_enabled(self) -> bool:
        """Whether changes are recorded for undo (set it to turn an `UndoManager` on or off)."""
        return getattr(self, "_undo_enabled", False)

    @undo_enabled.setter
    def undo_enabled(self, enabled: bool) -> None:
        check(lib.cd_context_set_undo_enabled(self._handle, 1 if enabled else 0))
        self._undo_enabled = bool(enabled)

    def undo(self) -> None:
        """Undoes the last group of changes (`NotFoundError` when there is nothing to undo)."""
        check(lib.cd_context_undo(self._handle))

    def redo(self) -> None:
        """Redoes the last undone group of changes."""
        check(lib.cd_context_redo(self._handle))

    # Fetching

    def fetch(self, entity: str, where: Optional[str] = None, *arguments: Any,
              sort: Union[SortKey, Sequence[SortKey], None] = None,
              limit: Optional[int] = None, offset: int = 0) -> List[Object]:
        """The objects of an entity (and its sub-entities) that match a predicate.

        `where` is an `NSPredicate` format; each `%@`, `%d`, `%K`, ... takes the next of
        `arguments`: ``ctx.fetch("Item", "quantity > %d AND name BEGINSWITH[c] %@", 1, "m",
        sort="-quantity", limit=10)``.
        """
        result = self._run(entity, where, arguments, sort, limit, offset)
        try:
            return self._objects_of(result)
        finally:
            lib.cd_fetch_result_release(result)

    def first(self, entity: str, where: Optional[str] = None, *arguments: Any,
              sort: Union[SortKey, Sequence[SortKey], None] = None) -> Optional[Object]:
        """The first matching object, or None."""
        found = self.fetch(entity, where, *arguments, sort=sort, limit=1)
        return found[0] if found else None

    def count(self, entity: str, where: Optional[str] = None, *arguments: Any) -> int:
        """How many objects match, without loading them (`count(for:)`)."""
        request = self._request(entity, where, arguments, None, None, 0)
        try:
            out = c_size_t()
            check(lib.cd_context_count(byref(out), self._handle, request))
            return out.value
        finally:
            lib.cd_fetch_request_release(request)

    def iterate(self, entity: str, where: Optional[str] = None, *arguments: Any,
                sort: Union[SortKey, Sequence[SortKey], None] = None,
                batch_size: int = 500) -> Iterator[Object]:
        """Every matching object, fetched `batch_size` at a time (`fetchBatchSize`).

        Give a sort for a stable order across batches; the objects of a batch stay in the
        context until you reset it.
        """
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        offset = 0
        while True:
            batch = self.fetch(entity, where, *arguments, sort=sort, limit=batch_size,
                               offset=offset)
            yield from batch
            if len(batch) < batch_size:
                return
            offset += batch_size

    def fetch_ids(self, entity: str, where: Optional[str] = None, *arguments: Any,
                  sort: Union[SortKey, Sequence[SortKey], None] = None,
                  limit: Optional[int] = None) -> List[ObjectID]:
        """The IDs of the matching objects, without their data (`.managedObjectIDResultType`)."""
        result = self._run(entity, where, arguments, sort, limit, 0, RESULT_OBJECT_IDS)
        try:
            count = self._result_count(result)
            ids = []
            for index in range(count):
                out = c_void_p()
                check(lib.cd_fetch_result_object_id_at(byref(out), result, index))
                ids.append(ObjectID(out))
            return ids
        finally:
            lib.cd_fetch_result_release(result)

    def fetch_values(self, entity: str, properties: Sequence[str], where: Optional[str] = None,
                     *arguments: Any, sort: Union[SortKey, Sequence[SortKey], None] = None,
                     limit: Optional[int] = None) -> List[Dict[str, Any]]:
        """One dict of attribute values per matching object (`.dictionaryResultType`).

        Values have their attribute's Python type; a nil value is left out of its dict.
        """
        described = self.container.model.entity(entity)
        for key in properties:
            prop = described.properties.get(key)
            if prop is None or prop.kind != PropertyKind.ATTRIBUTE:
                raise KeyError(f"{key!r} is not an attribute of {entity}")
        result = self._run(entity, where, arguments, sort, limit, 0, RESULT_DICTIONARIES,
                           properties)
        try:
            rows = []
            for index in range(self._result_count(result)):
                row: Dict[str, Any] = {}
                for key in properties:
                    value = _row_value(result, index, key, described)
                    if value is not None:
                        row[key] = value
                rows.append(row)
            return rows
        finally:
            lib.cd_fetch_result_release(result)

    def get(self, object_id: Union[ObjectID, str]) -> Object:
        """The object with an ID or ID URI, loaded if needed (`existingObject(with:)`).

        Raises `ObjectGoneError` (133000) when no such object exists.
        """
        if isinstance(object_id, str):
            object_id = self.container.object_id(object_id)
        if not isinstance(object_id, ObjectID):
            raise TypeError(f"get() takes an ObjectID or its URI, not {type(object_id).__name__}")
        out = c_void_p()
        check(lib.cd_context_object_with_id(byref(out), self._handle, object_id._handle))
        return Object(self, out)

    # Lifetime

    def close(self) -> None:
        """Releases a background context now (the view context lives with its container)."""
        if not self._owned_by_container:
            self._finalizer()

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], error: Optional[BaseException],
                 traceback: Optional["TracebackType"]) -> None:
        if kind is None:
            self.save()
        else:
            self.rollback()

    # Internals

    def _request(self, entity: str, where: Optional[str], arguments: Sequence[Any],
                 sort: Union[SortKey, Sequence[SortKey], None], limit: Optional[int],
                 offset: int, result_type: int = 0,
                 properties: Sequence[str] = ()) -> c_void_p:
        request = c_void_p()
        check(lib.cd_fetch_request_create(byref(request), encode(entity, "entity")))
        try:
            if where is not None:
                _set_predicate(request, where, arguments)
            elif arguments:
                raise TypeError("predicate arguments given without a predicate format")
            for key, ascending in _sort_keys(sort):
                check(lib.cd_fetch_request_add_sort(request, encode(key, "sort key"),
                                                    1 if ascending else 0))
            if limit is not None:
                if limit < 1:
                    raise ValueError("limit must be at least 1 (None for no limit)")
                check(lib.cd_fetch_request_set_limit(request, limit))
            if offset:
                if offset < 0:
                    raise ValueError("offset must not be negative")
                check(lib.cd_fetch_request_set_offset(request, offset))
            if result_type:
                check(lib.cd_fetch_request_set_result_type(request, result_type))
            for key in properties:
                check(lib.cd_fetch_request_add_property(request, encode(key, "property")))
        except BaseException:
            lib.cd_fetch_request_release(request)
            raise
        return request

    def _run(self, entity: str, where: Optional[str], arguments: Sequence[Any],
             sort: Union[SortKey, Sequence[SortKey], None], limit: Optional[int], offset: int,
             result_type: int = 0, properties: Sequence[str] = ()) -> c_void_p:
        request = self._request(entity, where, arguments, sort, limit, offset, result_type,
                                properties)
        try:
            result = c_void_p()
            check(lib.cd_context_fetch(byref(result), self._handle, request))
            return result
        finally:
            lib.cd_fetch_request_release(request)

    @staticmethod
    def _result_count(result: c_void_p) -> int:
        out = c_size_t()
        check(lib.cd_fetch_result_count(byref(out), result))
        return out.value

    def _objects_of(self, result: c_void_p) -> List[Object]:
        objects = []
        for index in range(self._result_count(result)):
            out = c_void_p()
            check(lib.cd_fetch_result_object_at(byref(out), result, index))
            objects.append(Object(self, out))
        return objects

    def __repr__(self) -> str:
        kind = "view" if self._owned_by_container else "background"
        return f"<coredata.Context {kind} of {self.container!r}>"


def _row_value(result: c_void_p, index: int, key: str, entity: Entity) -> Any:
    """A dictionary row's value for an attribute, as its Python type; None for nil."""
    raw = encode(key, "property")
    kind = entity.properties[key].attribute_type
    if kind in (AttributeType.INTEGER16, AttributeType.INTEGER32, AttributeType.INTEGER64,
                AttributeType.BOOLEAN):
        integer = c_int64()
        status = lib.cd_fetch_result_get_int64(byref(integer), result, index, raw)
        return read_nullable(status, lambda: bool(integer.value) if kind == AttributeType.BOOLEAN
                             else integer.value)
    if kind in (AttributeType.DOUBLE, AttributeType.FLOAT, AttributeType.DATE):
        double = c_double()
        status = lib.cd_fetch_result_get_double(byref(double), result, index, raw)
        return read_nullable(status, lambda: datetime_from_seconds(double.value)
                             if kind == AttributeType.DATE else double.value)
    text = c_void_p()
    status = lib.cd_fetch_result_copy_text(byref(text), result, index, raw)
    return read_nullable(status, lambda: _from_text(kind, take_string(text)))


def _from_text(kind: AttributeType, value: str) -> Any:
    """A dictionary value the C API gives as text, as its attribute type's Python value."""
    if kind == AttributeType.UUID:
        return uuid.UUID(value)
    if kind == AttributeType.DECIMAL:
        return decimal.Decimal(value)
    if kind == AttributeType.BINARY:
        return bytes.fromhex(value)
    return value


def _set_predicate(request: c_void_p, where: str, arguments: Sequence[Any]) -> None:
    args = c_void_p()
    check(lib.cd_arguments_create(byref(args)))
    try:
        for value in arguments:
            add_argument(args, value)
        check(lib.cd_fetch_request_set_predicate(request, encode(where, "predicate format"), args))
    finally:
        lib.cd_arguments_release(args)


def _sort_keys(sort: Union[SortKey, Sequence[SortKey], None]) -> List[Tuple[str, bool]]:
    if sort is None:
        return []
    if isinstance(sort, (str, tuple)):
        sort = [sort]
    keys = []
    for key in sort:
        if isinstance(key, tuple):
            name, ascending = key
            keys.append((name, bool(ascending)))
        elif key.startswith("-"):
            keys.append((key[1:], False))
        else:
            keys.append((key, True))
    return keys
