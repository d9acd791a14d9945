"""Core Data stores from Python, over OpenCoreData's C API (`libcoredata.so`, through ctypes).

    import coredata

    container = coredata.Container("Model.xcdatamodeld", "store.sqlite")
    with container.view_context as ctx:                  # saves at the end, rolls back on error
        ctx.insert("ShoppingItem", name="Milk", quantity=2)
    for item in container.view_context.fetch("ShoppingItem", "quantity >= %d", 1, sort="name"):
        print(item.name, item.quantity)

The library is found through `$COREDATA_LIB`, else `pkg-config --variable=libdir coredata`,
else the system's library path. Errors are `CoreDataError`s carrying Apple's codes.
"""
from ._native import lib as _lib
from .container import Container
from .context import Context
from .errors import (CoreDataError, MergeError, MisuseError, NotFoundError, ObjectGoneError,
                     PredicateError, RangeError, StoreError, ValidationError, ValueTypeError)
from .model import AttributeType, Entity, Model, Property, PropertyKind
from .objects import Object, ObjectID, UnknownKeyError

__version__ = "0.1.0"

#: The version of the loaded libcoredata.so, as text.
library_version: str = _lib.cd_libversion().decode("utf-8")

__all__ = [
    "AttributeType", "Container", "Context", "CoreDataError", "Entity", "MergeError",
    "MisuseError", "Model", "NotFoundError", "Object", "ObjectGoneError", "ObjectID",
    "PredicateError", "Property", "PropertyKind", "RangeError", "StoreError", "UnknownKeyError",
    "ValidationError", "ValueTypeError", "library_version",
]
