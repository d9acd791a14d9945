"""Contexts: saving, rolling back, undo, and the `with` block that does one or the other."""
from __future__ import annotations

import pytest

import coredata
from conftest import SHOP_MODEL


def test_a_with_block_saves_when_it_ends(container, store_path):
    with container.view_context as ctx:
        ctx.insert("Item", name="Milk")
        assert ctx.has_changes
    assert not container.view_context.has_changes
    assert coredata.Container(SHOP_MODEL, store_path).view_context.count("Item") == 1


def test_a_with_block_that_raises_rolls_back_and_reraises(container):
    ctx = container.view_context
    with pytest.raises(RuntimeError, match="changed my mind"):
        with ctx:
            ctx.insert("Item", name="Milk")
            raise RuntimeError("changed my mind")
    assert not ctx.has_changes
    assert ctx.count("Item") == 0


def test_a_missing_mandatory_property_fails_the_save_with_apples_code(ctx):
    ctx.insert("Item")  # `name` is mandatory
    with pytest.raises(coredata.ValidationError) as raised:
        ctx.save()
    error = raised.value
    assert error.code == 1570  # NSValidationMissingMandatoryPropertyError
    assert error.domain == "NSCocoaErrorDomain"
    assert error.key == "name"
    assert "name" in error.message
    assert ctx.has_changes  # nothing was lost: fix it and save again
    ctx.first("Item")["name"] = "Milk"
    ctx.save()


def test_rollback_discards_unsaved_changes(ctx):
    item = ctx.insert("Item", name="Milk")
    ctx.save()
    item.name = "Oat milk"
    ctx.rollback()
    assert item.name == "Milk"


def test_undo_and_redo_follow_the_changes(ctx):
    ctx.undo_enabled = True
    item = ctx.insert("Item", name="Milk")
    ctx.save()
    item.name = "Cream"
    ctx.undo()
    assert item.name == "Milk"
    ctx.redo()
    assert item.name == "Cream"


def test_undo_without_undo_enabled_is_an_unsupported_error(ctx):
    with pytest.raises(coredata.CoreDataError) as raised:
        ctx.undo()
    assert raised.value.code == 8  # CD_UNSUPPORTED


def test_deleting_an_object_removes_it_at_save(ctx):
    item = ctx.insert("Item", name="Milk")
    ctx.save()
    item.delete()
    assert item.is_deleted
    ctx.save()
    assert ctx.count("Item") == 0


def test_an_abstract_entity_cannot_be_inserted(ctx):
    with pytest.raises(coredata.MisuseError):
        ctx.insert("Person")


def test_an_unknown_entity_is_not_found(ctx):
    with pytest.raises(coredata.NotFoundError):
        ctx.insert("Nope")
    with pytest.raises(LookupError):
        ctx.fetch("Nope")
