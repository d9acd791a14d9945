"""Fetching with NSPredicate formats and arguments, sorting, limits, batches, IDs and values."""
from __future__ import annotations

import datetime
import decimal
import uuid

import pytest

import coredata

DAY = datetime.timedelta(days=1)
START = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)


@pytest.fixture
def stocked(ctx):
    groceries = ctx.insert("List", title="Groceries")
    for number, name in enumerate(["apples", "Bread", "cheese", "dates", "Eggs"], start=1):
        ctx.insert("Item", name=name, quantity=number, addedAt=START + number * DAY,
                   done=number % 2 == 0, list=groceries if number <= 3 else None,
                   uid=uuid.UUID(int=number), amount=decimal.Decimal(number) / 4)
    ctx.save()
    return ctx


def names(objects):
    return [o.name for o in objects]


def test_a_predicate_takes_its_arguments_in_order(stocked):
    found = stocked.fetch("Item", "quantity > %d AND name BEGINSWITH[c] %@", 2, "d", sort="name")
    assert names(found) == ["dates"]


def test_sort_keys_ascending_descending_and_tuples(stocked):
    assert names(stocked.fetch("Item", sort="-quantity")) == ["Eggs", "dates", "cheese", "Bread", "apples"]
    assert names(stocked.fetch("Item", sort=[("done", True), ("quantity", False)]))[:2] == ["Eggs", "cheese"]


def test_limit_offset_first_and_count(stocked):
    assert names(stocked.fetch("Item", sort="quantity", limit=2, offset=1)) == ["Bread", "cheese"]
    assert stocked.first("Item", "quantity == %d", 4).name == "dates"
    assert stocked.first("Item", "quantity == %d", 99) is None
    assert stocked.count("Item", "done == %@", True) == 2


def test_dates_uuids_objects_and_none_as_arguments(stocked):
    assert names(stocked.fetch("Item", "addedAt < %@", START + 2.5 * DAY, sort="name")) == ["Bread", "apples"]
    assert names(stocked.fetch("Item", "uid == %@", uuid.UUID(int=3))) == ["cheese"]
    groceries = stocked.first("List")
    assert sorted(names(stocked.fetch("Item", "list == %@", groceries))) == ["Bread", "apples", "cheese"]
    assert sorted(names(stocked.fetch("Item", "list == %@", None))) == ["Eggs", "dates"]
    assert names(stocked.fetch("Item", "%K == %d", "quantity", 5)) == ["Eggs"]


def test_decimal_arguments_keep_every_digit_and_bad_ones_are_refused(stocked):
    assert names(stocked.fetch("Item", "amount == %@", decimal.Decimal("0.75"))) == ["cheese"]
    assert names(stocked.fetch("Item", "amount > %@", decimal.Decimal("1.0"), sort="name")) == ["Eggs"]
    with pytest.raises(coredata.RangeError):  # more digits than a decimal holds: not rounded
        stocked.fetch("Item", "amount == %@", decimal.Decimal("1." + "0" * 40 + "1"))
    with pytest.raises(coredata.ValueTypeError):
        stocked.fetch("Item", "amount == %@", decimal.Decimal("NaN"))


def test_key_paths_through_relationships(stocked):
    assert stocked.count("Item", "list.title == %@", "Groceries") == 3


def test_a_malformed_predicate_is_a_predicate_error_with_apples_code(stocked):
    with pytest.raises(coredata.PredicateError) as raised:
        stocked.fetch("Item", "quantity >>> 2")
    assert raised.value.code == 2048 and isinstance(raised.value, ValueError)


def test_a_predicate_key_the_entity_lacks_is_named_in_the_error(stocked):
    with pytest.raises(coredata.CoreDataError, match="colour"):
        stocked.fetch("Item", "colour == %@", "red")


def test_an_unsupported_argument_type_is_refused_before_the_fetch(stocked):
    with pytest.raises(TypeError, match="list"):
        stocked.fetch("Item", "name IN %@", ["apples"])


def test_iterate_walks_every_object_in_batches(ctx):
    for number in range(1234):
        ctx.insert("Item", name=f"item {number:04}", quantity=number)
    ctx.save()
    seen = [item.quantity for item in ctx.iterate("Item", "quantity >= %d", 0, sort="quantity",
                                                  batch_size=100)]
    assert seen == list(range(1234))


def test_fetch_ids_and_values(stocked):
    ids = stocked.fetch_ids("Item", "quantity <= %d", 2, sort="quantity")
    assert [stocked.get(i).name for i in ids] == ["apples", "Bread"]
    rows = stocked.fetch_values("Item", ["name", "quantity", "addedAt", "uid", "amount", "done"],
                                "quantity == %d", 2)
    assert rows == [{"name": "Bread", "quantity": 2, "addedAt": START + 2 * DAY,
                     "uid": uuid.UUID(int=2), "amount": decimal.Decimal("0.5"), "done": True}]


def test_values_leave_out_nil_and_refuse_relationships(stocked):
    assert stocked.fetch_values("Item", ["name", "price"], "quantity == %d", 1) == [{"name": "apples"}]
    with pytest.raises(KeyError):
        stocked.fetch_values("Item", ["list"])
