"""The managed object model, read once into plain Python values for introspection.

`Model` mirrors `NSManagedObjectModel` as far as a Python user needs it: entities by name,
each with its parent and its properties (attributes with their Core Data type, to-one and
to-many relationships with their destination). Objects use it to know how to read each key.
"""
from __future__ import annotations

import enum
from ctypes import byref, c_char_p, c_int, c_size_t, c_void_p
from dataclasses import dataclass, field
from typing import Dict, Iterator, Optional

from ._native import check, encode, lib


class AttributeType(enum.IntEnum):
    """`NSAttributeDescription.AttributeType`, with Apple's raw values."""

    UNDEFINED = 0
    INTEGER16 = 100
    INTEGER32 = 200
    INTEGER64 = 300
    DECIMAL = 400
    DOUBLE = 500
    FLOAT = 600
    STRING = 700
    BOOLEAN = 800
    DATE = 900
    BINARY = 1000
    UUID = 1100
    URI = 1200
    TRANSFORMABLE = 1800
    OBJECT_ID = 2000
    COMPOSITE = 2100


class PropertyKind(enum.IntEnum):
    """What a property is: an attribute, a to-one or to-many relationship, or another kind."""

    ATTRIBUTE = 1
    TO_ONE = 2
    TO_MANY = 3
    OTHER = 4


@dataclass(frozen=True)
class Property:
    """A property of an entity (`NSPropertyDescription`)."""

    name: str
    kind: PropertyKind
    attribute_type: AttributeType
    destination: Optional[str]
    optional: bool
    ordered: bool

    @property
    def is_relationship(self) -> bool:
        """True for to-one and to-many relationships."""
        return self.kind in (PropertyKind.TO_ONE, PropertyKind.TO_MANY)


@dataclass(frozen=True)
class Entity:
    """An entity (`NSEntityDescription`): its name, its parent's name, and every property,
    inherited ones included, by name."""

    name: str
    parent: Optional[str]
    properties: Dict[str, Property] = field(default_factory=dict)

    @property
    def attributes(self) -> Dict[str, Property]:
        """The attributes, by name (`attributesByName`)."""
        return {n: p for n, p in self.properties.items() if p.kind == PropertyKind.ATTRIBUTE}

    @property
    def relationships(self) -> Dict[str, Property]:
        """The relationships, by name (`relationshipsByName`)."""
        return {n: p for n, p in self.properties.items() if p.is_relationship}


class Model:
    """A managed object model: `Model.load(path)` for a model file, or `Container.model`."""

    def __init__(self, entities: Dict[str, Entity]) -> None:
        self.entities = entities

    @classmethod
    def load(cls, path: str) -> "Model":
        """Loads a `.xcdatamodeld` bundle or `.xcdatamodel` directory without opening a store."""
        handle = c_void_p()
        check(lib.cd_model_load(byref(handle), encode(str(path), "path")))
        try:
            return cls.from_handle(handle)
        finally:
            lib.cd_model_release(handle)

    @classmethod
    def from_handle(cls, handle: c_void_p) -> "Model":
        """Reads every entity and property of a `cd_model` handle (borrowed)."""
        count = c_size_t()
        check(lib.cd_model_entity_count(byref(count), handle))
        entities: Dict[str, Entity] = {}
        for index in range(count.value):
            raw_name = c_char_p()
            check(lib.cd_model_entity_name(byref(raw_name), handle, index))
            name = raw_name.value.decode("utf-8")
            parent = c_char_p()
            check(lib.cd_model_entity_parent(byref(parent), handle, raw_name.value))
            entities[name] = Entity(name, parent.value.decode("utf-8") if parent.value else None,
                                    cls._properties(handle, raw_name.value))
        return cls(entities)

    @staticmethod
    def _properties(handle: c_void_p, entity: bytes) -> Dict[str, Property]:
        count = c_size_t()
        check(lib.cd_model_property_count(byref(count), handle, entity))
        properties: Dict[str, Property] = {}
        for index in range(count.value):
            name, destination = c_char_p(), c_char_p()
            kind, attribute_type, optional, ordered = c_int(), c_int(), c_int(), c_int()
            check(lib.cd_model_property(byref(name), byref(kind), byref(attribute_type),
                                        byref(destination), byref(optional), handle, entity, index))
            check(lib.cd_model_property_is_ordered(byref(ordered), handle, entity, index))
            property_name = name.value.decode("utf-8")
            try:
                type_ = AttributeType(attribute_type.value)
            except ValueError:
                type_ = AttributeType.UNDEFINED
            properties[property_name] = Property(
                property_name, PropertyKind(kind.value), type_,
                destination.value.decode("utf-8") if destination.value else None,
                bool(optional.value), bool(ordered.value))
        return properties

    def entity(self, name: str) -> Entity:
        """The entity of that name; `KeyError` naming it if the model has none."""
        try:
            return self.entities[name]
        except KeyError:
            raise KeyError(f"the model has no entity named {name!r}") from None

    def __iter__(self) -> Iterator[Entity]:
        return iter(self.entities.values())

    def __len__(self) -> int:
        return len(self.entities)

    def __repr__(self) -> str:
        return f"<coredata.Model entities={sorted(self.entities)}>"

