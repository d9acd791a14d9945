"""The persistent container: a model, a coordinator and one store, opened in one call."""
from __future__ import annotations

import os
import weakref
from ctypes import byref, c_void_p
from typing import TYPE_CHECKING, Optional, Type, Union

from ._native import OPEN_IN_MEMORY, OPEN_NO_MIGRATION, OPEN_READ_ONLY, check, encode, lib
from .context import Context
from .model import Model
from .objects import ObjectID

if TYPE_CHECKING:
    from types import TracebackType

PathLike = Union[str, "os.PathLike[str]"]


class Container:
    """A persistent container (`NSPersistentContainer`) over a SQLite or in-memory store.

    ``Container("Model.xcdatamodeld", "store.sqlite")`` loads the model, opens the store
    (creating it, with its folder, if missing) and migrates it lightweight from an older model
    version. ``read_only=True`` opens an existing store without ever writing to it (its WAL
    content is seen); ``in_memory=True`` keeps everything in memory (no store path);
    ``migrate=False`` refuses a store of an older model version (`StoreError` 134100).

    Without a model, ``Container(store="App.sqlite", read_only=True)`` opens an existing store
    with the model cached inside it (the one that wrote it, as Apple's Core Data caches it):
    for looking into a store without the app's model file.
    """

    def __init__(self, model: Optional[PathLike] = None, store: Optional[PathLike] = None, *,
                 read_only: bool = False, in_memory: bool = False, migrate: bool = True) -> None:
        flags = ((OPEN_READ_ONLY if read_only else 0) | (OPEN_IN_MEMORY if in_memory else 0)
                 | (0 if migrate else OPEN_NO_MIGRATION))
        if store is None and not in_memory:
            raise ValueError("a store path is needed unless in_memory=True")
        if model is None and in_memory:
            raise ValueError("an in-memory store needs a model (only a store file caches one)")
        handle = c_void_p()
        check(lib.cd_container_open(byref(handle),
                                    encode(os.fspath(model), "model path") if model is not None else None,
                                    encode(os.fspath(store), "store path") if store is not None else None,
                                    flags))
        self._handle = handle
        self._finalizer = weakref.finalize(self, lib.cd_container_release, handle)
        self._finalizer.atexit = False
        self._model: Optional[Model] = None
        self._view_context: Optional[Context] = None
        self.store_path = os.fspath(store) if store is not None else None
        self.read_only = read_only

    @property
    def model(self) -> Model:
        """The container's managed object model."""
        if self._model is None:
            handle = c_void_p()
            check(lib.cd_container_copy_model(byref(handle), self._handle))
            try:
                self._model = Model.from_handle(handle)
            finally:
                lib.cd_model_release(handle)
        return self._model

    @property
    def view_context(self) -> Context:
        """The main-thread context (`viewContext`): use it only from Python's main thread."""
        if self._view_context is None:
            handle = c_void_p()
            check(lib.cd_container_view_context(byref(handle), self._handle))
            self._view_context = Context(self, handle, owned_by_container=True)
        return self._view_context

    def new_background_context(self) -> Context:
        """A new private-queue context (`newBackgroundContext()`), usable from any thread."""
        handle = c_void_p()
        check(lib.cd_container_new_background_context(byref(handle), self._handle))
        return Context(self, handle, owned_by_container=False)

    def object_id(self, uri: str) -> ObjectID:
        """The object ID a URI names (`managedObjectID(forURIRepresentation:)`)."""
        handle = c_void_p()
        check(lib.cd_container_object_id_from_uri(byref(handle), self._handle, encode(uri, "URI")))
        return ObjectID(handle)

    def close(self) -> None:
        """Releases the container; contexts still in use keep what they need alive."""
        self._finalizer()

    def __enter__(self) -> "Container":
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], error: Optional[BaseException],
                 traceback: Optional["TracebackType"]) -> None:
        self.close()

    def __repr__(self) -> str:
        where = self.store_path or "memory"
        return f"<coredata.Container {where}>"
