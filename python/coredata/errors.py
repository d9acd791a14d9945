"""Exceptions: one class per kind of failure, each carrying Apple's code and message.

Core Data failures keep the code of the `NSError` Apple's Core Data would give
(`NSCocoaErrorDomain`: 1570 for a missing mandatory property, 133020 for a merge conflict,
134100 for a store of another model version, ...), exactly as the Swift and C APIs report
them; failures of the API's own making (a key the entity lacks, a value of the wrong type)
have the C API's small codes in the domain "CDErrorDomain". The classes also derive from
the built-in exception a Python programmer would catch for the same mistake (`LookupError`,
`TypeError`, `ValueError`).
"""
from __future__ import annotations

from typing import Optional


class CoreDataError(Exception):
    """A failure reported by the Core Data stack.

    Attributes:
        code: the status: an `NSCocoaErrorDomain` code (256 and above) or a C API code.
        domain: "NSCocoaErrorDomain" for Core Data's errors, "CDErrorDomain" for the API's own.
        message: what went wrong, as the library words it.
        key: the property a validation error is about (`NSValidationKeyErrorKey`), if any.
    """

    def __init__(self, code: int, message: str, domain: Optional[str] = None,
                 key: Optional[str] = None) -> None:
        super().__init__(f"{message} (code {code})")
        self.code = code
        self.domain = domain or ("NSCocoaErrorDomain" if code >= 256 else "CDErrorDomain")
        self.message = message
        self.key = key


class MisuseError(CoreDataError):
    """The API was used wrongly: a released context, the view context from another thread."""


class NotFoundError(CoreDataError, LookupError):
    """No such entity, property, object or file."""


class ValueTypeError(CoreDataError, TypeError):
    """The value's type does not fit the attribute, or the attribute's type has no Python form here."""


class RangeError(CoreDataError, ValueError):
    """The value cannot be stored exactly (an integer beyond the attribute's width, NaN, ...)."""


class PredicateError(CoreDataError, ValueError):
    """A predicate format that does not parse or cannot be evaluated (NSFormattingError, 2048)."""


class ValidationError(CoreDataError, ValueError):
    """An object failed validation at save (NSManagedObjectValidationError and codes 1550-1680)."""


class MergeError(CoreDataError):
    """The save conflicts with what another context or process saved (133020, 133021)."""


class ObjectGoneError(CoreDataError, LookupError):
    """The object's data is gone from the store (NSManagedObjectReferentialIntegrityError, 133000)."""


class StoreError(CoreDataError, OSError):
    """The store or model file cannot be opened, read, written or migrated (256-642, 134000-134506)."""


_CLASS_BY_CODE = {
    2: MisuseError,
    4: NotFoundError,
    5: ValueTypeError,
    6: RangeError,
    1024: NotFoundError,
    2048: PredicateError,
    133000: ObjectGoneError,
    133020: MergeError,
    133021: MergeError,
}


def error_for_status(code: int, message: str, domain: Optional[str] = None,
                     key: Optional[str] = None) -> CoreDataError:
    """The exception for a status the library returned."""
    cls = _CLASS_BY_CODE.get(code)
    if cls is None:
        if 1550 <= code <= 1700:
            cls = ValidationError
        elif 256 <= code < 1024 or 134000 <= code < 135000:
            cls = StoreError
        else:
            cls = CoreDataError
    return cls(code, message, domain, key)
