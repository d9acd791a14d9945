"""Attribute values keep their Python types through a save and a fresh container."""
from __future__ import annotations

import datetime
import decimal
import uuid

import pytest

import coredata
from conftest import SHOP_MODEL

WHEN = datetime.datetime(2023, 11, 14, 22, 13, 20, 500_123, tzinfo=datetime.timezone.utc)
UID = uuid.UUID("12345678-9abc-def0-1234-56789abcdef0")


def test_every_attribute_type_round_trips_through_the_store(container, store_path):
    with container.view_context as ctx:
        ctx.insert("Item", name="Milk", i16=-7, i32=70_000, quantity=2**40, price=2.5,
                   ratio=0.25, done=True, addedAt=WHEN, photo=b"\x00\xffpng", uid=UID,
                   amount=decimal.Decimal("12.50"), link="https://example.com/milk")
    reopened = coredata.Container(SHOP_MODEL, store_path)
    item = reopened.view_context.first("Item")
    assert item.name == "Milk"
    assert (item.i16, item.i32, item.quantity) == (-7, 70_000, 2**40)
    assert item.price == 2.5 and isinstance(item.price, float)
    assert item.ratio == 0.25
    assert item.done is True
    assert item.addedAt == WHEN and item.addedAt.tzinfo is not None
    assert item.photo == b"\x00\xffpng"
    assert item.uid == UID
    assert item.amount == decimal.Decimal("12.50")
    assert item.link == "https://example.com/milk"


def test_optional_attributes_read_none_and_none_clears_them(ctx):
    item = ctx.insert("Item", name="Bread", price=1.0)
    assert item.uid is None and item.addedAt is None and item.photo is None
    item.price = None
    assert item.price is None
    assert item.get("price", 0.0) == 0.0


def test_defaults_from_the_model_apply_on_insert(ctx):
    item = ctx.insert("Item", name="Eggs")
    assert item.quantity == 1
    assert item.done is False


def test_a_value_of_the_wrong_type_is_refused_and_changes_nothing(ctx):
    item = ctx.insert("Item", name="Tea", quantity=3)
    with pytest.raises(coredata.ValueTypeError) as raised:
        item.quantity = "three"
    assert isinstance(raised.value, TypeError)
    with pytest.raises(TypeError):
        item.done = 1
    with pytest.raises(TypeError):
        item.addedAt = "2023-11-14"
    assert item.quantity == 3


def test_an_integer_the_attribute_cannot_hold_is_a_range_error(ctx):
    item = ctx.insert("Item", name="Salt")
    with pytest.raises(coredata.RangeError) as raised:
        item.i16 = 70_000
    assert raised.value.code == 6 and isinstance(raised.value, ValueError)
    with pytest.raises(coredata.RangeError):
        item.quantity = 2**70
    assert item.i16 is None


def test_a_naive_datetime_is_local_time_as_python_takes_it(ctx):
    naive = datetime.datetime(2024, 2, 29, 12, 0, 0)
    item = ctx.insert("Item", name="Jam", addedAt=naive)
    assert item.addedAt.timestamp() == naive.timestamp()


def test_a_transformable_attribute_says_it_has_no_python_form(ctx):
    item = ctx.insert("Item", name="Oil")
    with pytest.raises(coredata.ValueTypeError, match="TRANSFORMABLE"):
        item.tags
