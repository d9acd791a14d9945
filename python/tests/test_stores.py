"""Containers and stores: threads, read-only and in-memory stores, bad files, Apple's own stores."""
from __future__ import annotations

import datetime
import hashlib
import threading
import sqlite3
import uuid

import pytest

import coredata
from conftest import FIXTURES, SHOP_MODEL

SAMPLE_MODEL = FIXTURES / "models" / "alemar11_CoreDataPlus__SampleModel.xcdatamodeld"


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_background_context_works_from_another_thread(container):
    failures = []

    def work():
        try:
            with container.new_background_context() as background:
                for number in range(10):
                    background.insert("Item", name=f"from thread {number}")
        except Exception as error:  # surfaced by the assertion below
            failures.append(error)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    assert failures == []
    assert container.view_context.count("Item") == 10


def test_the_view_context_from_another_thread_is_misuse_not_a_hang(container):
    view = container.view_context
    raised = []

    def work():
        try:
            view.count("Item")
        except coredata.MisuseError as error:
            raised.append(error)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert len(raised) == 1 and raised[0].code == 2


def test_an_in_memory_store_needs_no_path_and_keeps_nothing():
    memory = coredata.Container(SHOP_MODEL, in_memory=True)
    with memory.view_context as ctx:
        ctx.insert("Item", name="Milk")
    assert memory.view_context.count("Item") == 1
    assert coredata.Container(SHOP_MODEL, in_memory=True).view_context.count("Item") == 0


def test_a_read_only_store_refuses_to_save_and_is_left_as_it_was(container, store_path):
    with container.view_context as ctx:
        ctx.insert("Item", name="Milk")
    container.close()
    before = digest(store_path)
    reader = coredata.Container(SHOP_MODEL, store_path, read_only=True)
    ctx = reader.view_context
    assert ctx.first("Item").name == "Milk"
    ctx.insert("Item", name="Bread")
    with pytest.raises(coredata.CoreDataError):
        ctx.save()
    assert digest(store_path) == before


def test_a_missing_model_file_is_a_store_error_with_the_file_code(tmp_path):
    with pytest.raises(coredata.StoreError) as raised:
        coredata.Container(tmp_path / "Nope.xcdatamodeld", tmp_path / "s.sqlite")
    assert raised.value.code == 260 and isinstance(raised.value, OSError)


def test_a_file_that_is_not_a_store_is_refused_and_left_intact(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    before = digest(junk)
    with pytest.raises(coredata.StoreError):
        coredata.Container(SHOP_MODEL, junk)
    assert digest(junk) == before


def test_paths_and_keys_with_nul_characters_are_refused(tmp_path, ctx):
    with pytest.raises(ValueError):
        coredata.Container(SHOP_MODEL, str(tmp_path / "a\0b.sqlite"))
    with pytest.raises(ValueError):
        ctx.insert("Item", name="Mi\0lk")


def test_the_model_describes_entities_properties_and_inheritance():
    model = coredata.Model.load(SHOP_MODEL)
    assert sorted(e.name for e in model) == ["Item", "List", "Person", "Shopper"]
    item = model.entity("Item")
    assert item.attributes["quantity"].attribute_type == coredata.AttributeType.INTEGER64
    assert not item.attributes["name"].optional
    assert item.relationships["list"].kind == coredata.PropertyKind.TO_ONE
    assert item.relationships["list"].destination == "List"
    pinned = model.entity("List").relationships["pinned"]
    assert pinned.kind == coredata.PropertyKind.TO_MANY and pinned.ordered
    assert not model.entity("List").relationships["items"].ordered
    assert set(model.entity("Shopper").properties) == {"budget", "name", "lists"}
    with pytest.raises(KeyError):
        model.entity("Nope")


def test_a_store_apples_core_data_wrote_reads_with_its_model(apple_store):
    store = apple_store("alemar11_CoreDataPlus__SampleModel_V1.sqlite")
    before = digest(store)
    cars = coredata.Container(SAMPLE_MODEL, store, read_only=True)
    ctx = cars.view_context
    assert ctx.count("Car") == 125
    assert ctx.count("SportCar") == 10  # SportCar and ExpensiveSportCar rows share ZCAR
    assert ctx.count("Person") == 20
    person = ctx.first("Person", sort="firstName")
    assert person.firstName == "Alex" and person.lastName == "Rathbun"
    assert isinstance(person.id, uuid.UUID)
    assert isinstance(person.updatedAt, datetime.datetime)
    owned = person.cars
    assert all(car.owner == person for car in owned)
    assert sum(p.count_of("cars") for p in ctx.fetch("Person")) == ctx.count("Car", "owner != nil")
    assert digest(store) == before


def test_a_store_apples_core_data_wrote_reads_without_its_model(apple_store):
    store = apple_store("alemar11_CoreDataPlus__SampleModel_V1.sqlite")
    before = digest(store)
    cars = coredata.Container(store=store, read_only=True)
    assert {"Car", "SportCar", "Person"} <= {entity.name for entity in cars.model}
    ctx = cars.view_context
    assert ctx.count("Car") == 125
    person = ctx.first("Person", sort="firstName")
    assert person.firstName == "Alex" and isinstance(person.id, uuid.UUID)
    assert all(car.owner == person for car in person.cars)
    assert digest(store) == before


@pytest.mark.parametrize("name", sorted(p.name for p in (FIXTURES / "stores").glob("*.sqlite")))
def test_every_store_apples_core_data_wrote_counts_without_its_model(apple_store, name):
    # SampleModel2's Book has a derived attribute: the model the store caches must still
    # open it. Each entity's count is checked against its rows, sub-entities included.
    store = apple_store(name)
    before = digest(store)
    raw = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    rows = raw.execute("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000").fetchall()
    parent = {ent: sup for ent, _, sup in rows}
    def root(ent):
        return root(parent[ent]) if parent[ent] else ent
    def descends(ent, ancestor):
        return ent == ancestor or (parent[ent] != 0 and descends(parent[ent], ancestor))
    names = {ent: entity for ent, entity, _ in rows}
    expected = {}
    for ent, entity, _ in rows:
        table = "Z" + names[root(ent)].upper()
        members = [str(e) for e in names if descends(e, ent)]
        expected[entity] = raw.execute(
            f"SELECT COUNT(*) FROM {table} WHERE Z_ENT IN ({', '.join(members)})").fetchone()[0]
    raw.close()
    container = coredata.Container(store=store, read_only=True)
    model = {entity.name for entity in container.model}
    # Z_PRIMARYKEY may keep an entity's old name after a rename (SampleModel_V2's
    # ExpensiveSportCar): those rows are counted under the model's name only.
    expected = {entity: count for entity, count in expected.items() if entity in model}
    assert expected
    ctx = container.view_context
    counts = {entity: ctx.count(entity) for entity in model}
    assert {entity: counts[entity] for entity in expected} == expected
    assert digest(store) == before


def test_a_store_of_ours_reopens_without_its_model(container, store_path):
    with container.view_context as ctx:
        ctx.insert("Item", name="Milk", quantity=2)
    container.close()
    reader = coredata.Container(store=store_path, read_only=True)
    assert reader.view_context.first("Item").quantity == 2


def test_no_model_and_no_store_file_is_a_clear_error(tmp_path):
    with pytest.raises(coredata.StoreError) as raised:
        coredata.Container(store=tmp_path / "missing.sqlite", read_only=True)
    assert raised.value.code == 260
    with pytest.raises(ValueError):
        coredata.Container(in_memory=True)
