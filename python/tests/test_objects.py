"""Objects: properties by name, relationships as sets and lists, identity, IDs and state."""
from __future__ import annotations

import pytest

import coredata
from conftest import SHOP_MODEL


def test_unknown_keys_raise_and_hasattr_says_false(ctx):
    item = ctx.insert("Item", name="Milk")
    with pytest.raises(coredata.UnknownKeyError, match="colour"):
        item.colour
    with pytest.raises(AttributeError):
        item.colour = "red"
    with pytest.raises(LookupError):
        item["colour"]
    assert not hasattr(item, "colour")
    assert "quantity" in dir(item)


def test_to_one_and_its_inverse_to_many_follow_at_once(ctx):
    groceries = ctx.insert("List", title="Groceries")
    milk = ctx.insert("Item", name="Milk", list=groceries)
    bread = ctx.insert("Item", name="Bread")
    assert milk.list == groceries
    assert groceries.items == {milk}
    groceries.items = {milk, bread}
    assert bread.list == groceries
    assert groceries.count_of("items") == 2
    groceries.remove_from("items", milk)
    assert milk.list is None
    groceries.items = []
    assert groceries.items == set() and bread.list is None


def test_an_ordered_to_many_is_a_list_in_insertion_order(ctx):
    groceries = ctx.insert("List", title="Groceries")
    a, b, c = (ctx.insert("Item", name=n) for n in "abc")
    groceries.add_to("pinned", c, a)
    assert [i.name for i in groceries.pinned] == ["c", "a"]
    groceries.pinned = [b, c, a]
    ctx.save()
    assert [i.name for i in groceries.pinned] == ["b", "c", "a"]


def test_relationships_refuse_the_wrong_values(ctx):
    groceries = ctx.insert("List", title="Groceries")
    milk = ctx.insert("Item", name="Milk")
    with pytest.raises(TypeError):
        milk.list = "Groceries"
    with pytest.raises(TypeError):
        groceries.items = milk
    with pytest.raises(coredata.ValidationError):
        milk.list = ctx.insert("Item", name="not a list")  # wrong entity (NSValidationError)


def test_an_object_in_another_context_cannot_be_related(container, ctx):
    milk = ctx.insert("Item", name="Milk")
    other = container.new_background_context()
    stranger = other.insert("List", title="Elsewhere")
    with pytest.raises(coredata.CoreDataError) as raised:
        milk.list = stranger
    assert raised.value.code == 133010  # NSManagedObjectExternalRelationshipError


def test_handles_of_one_object_are_equal_and_hash_alike_across_a_save(ctx):
    milk = ctx.insert("Item", name="Milk")
    remembered = {milk}
    temporary = milk.object_id
    assert temporary.is_temporary
    ctx.save()
    again = ctx.first("Item")
    assert again == milk and again in remembered
    assert not again.object_id.is_temporary
    assert again.object_id != temporary


def test_an_id_uri_finds_the_object_again_in_a_new_container(container, store_path):
    ctx = container.view_context
    ctx.insert("Item", name="Milk")
    ctx.save()
    uri = ctx.first("Item").object_id.uri
    assert uri.startswith("x-coredata://") and "/Item/p" in uri
    fresh = coredata.Container(SHOP_MODEL, store_path)
    assert fresh.view_context.get(uri).name == "Milk"
    assert fresh.object_id(uri) == fresh.view_context.first("Item").object_id


def test_an_id_whose_object_is_gone_is_an_object_gone_error(ctx):
    milk = ctx.insert("Item", name="Milk")
    ctx.save()
    gone = milk.object_id
    milk.delete()
    ctx.save()
    with pytest.raises(coredata.ObjectGoneError) as raised:
        ctx.get(gone)
    assert raised.value.code == 133000


def test_state_flags_follow_insert_save_and_update(ctx):
    milk = ctx.insert("Item", name="Milk")
    assert milk.is_inserted and not milk.is_updated
    ctx.save()
    assert not milk.is_inserted
    milk.quantity = 5
    assert milk.is_updated
    assert milk.entity_name == "Item" and "Milk" not in repr(milk)


def test_sub_entities_are_fetched_with_their_parent(ctx):
    ctx.insert("Shopper", name="Ann", budget=20.0)
    ctx.save()
    shopper = ctx.first("Person")
    assert shopper.entity_name == "Shopper"
    assert shopper.entity.parent == "Person"
    assert shopper.budget == 20.0
