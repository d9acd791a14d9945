"""The PostgreSQL store through the package: a ``postgresql://`` URL is the store path.

These tests need a server: ``eval "$(scripts/postgres.sh start)"`` exports
``COREDATA_TEST_POSTGRES_URL`` (CI does). Without it they are skipped, saying why
(``pytest -rs`` lists the reason). Each test gets a database of its own, made and dropped
through libpq directly, independent of the code under test.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import datetime
import decimal
import os
import urllib.parse
import uuid

import pytest

import coredata
from conftest import SHOP_MODEL

SERVER = os.environ.get("COREDATA_TEST_POSTGRES_URL", "")
pytestmark = pytest.mark.skipif(
    not SERVER,
    reason="PostgreSQL tests skipped: COREDATA_TEST_POSTGRES_URL is not set "
           "(start a cluster with `eval \"$(scripts/postgres.sh start)\"`)")


def run_sql(url: str, sql: str) -> None:
    """Runs one statement through libpq (PQconnectdb, PQexec), raising on any failure."""
    libpq = ctypes.CDLL(ctypes.util.find_library("pq") or "libpq.so.5")
    libpq.PQconnectdb.restype = ctypes.c_void_p
    libpq.PQconnectdb.argtypes = [ctypes.c_char_p]
    libpq.PQstatus.argtypes = [ctypes.c_void_p]
    libpq.PQerrorMessage.restype = ctypes.c_char_p
    libpq.PQerrorMessage.argtypes = [ctypes.c_void_p]
    libpq.PQexec.restype = ctypes.c_void_p
    libpq.PQexec.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    libpq.PQresultStatus.argtypes = [ctypes.c_void_p]
    libpq.PQclear.argtypes = [ctypes.c_void_p]
    libpq.PQfinish.argtypes = [ctypes.c_void_p]
    conn = libpq.PQconnectdb(url.encode())
    try:
        if libpq.PQstatus(conn) != 0:  # CONNECTION_OK
            raise RuntimeError(libpq.PQerrorMessage(conn).decode())
        result = libpq.PQexec(conn, sql.encode())
        status = libpq.PQresultStatus(result)
        libpq.PQclear(result)
        if status not in (1, 2):  # PGRES_COMMAND_OK, PGRES_TUPLES_OK
            raise RuntimeError(f"{libpq.PQerrorMessage(conn).decode()} in {sql}")
    finally:
        libpq.PQfinish(conn)


def with_database(url: str, name: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


@pytest.fixture
def database_url():
    """The URL of a new, empty database on the test server, dropped afterwards."""
    name = "cd_py_" + uuid.uuid4().hex
    run_sql(SERVER, f"CREATE DATABASE {name}")
    yield with_database(SERVER, name)
    run_sql(SERVER, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_objects_saved_through_one_container_are_read_back_through_another(database_url):
    writer = coredata.Container(SHOP_MODEL, database_url)
    added = datetime.datetime(2026, 11, 25, 8, 30, tzinfo=datetime.timezone.utc)
    uid = uuid.uuid4()
    with writer.view_context as ctx:
        groceries = ctx.insert("List", title="Groceries")
        for number, name in enumerate(["Milk", "Bread", "Mangoes"]):
            item = ctx.insert("Item", name=name, quantity=number + 1, price=1.25 * number,
                              amount=decimal.Decimal("3.10"), addedAt=added, uid=uid)
            groceries.add_to("items", item)
    writer.close()

    reader = coredata.Container(SHOP_MODEL, database_url).view_context
    assert reader.count("Item") == 3
    found = reader.fetch("Item", "quantity >= %d AND name BEGINSWITH[c] %@", 2, "m", sort="name")
    assert [item.name for item in found] == ["Mangoes"]
    mangoes = found[0]
    assert mangoes.amount == decimal.Decimal("3.10")
    assert mangoes.addedAt == added
    assert mangoes.uid == uid
    assert mangoes.list.title == "Groceries"
    assert sorted(item.name for item in mangoes.list.items) == ["Bread", "Mangoes", "Milk"]


def test_two_containers_changing_one_row_conflict_with_apples_code(database_url):
    first = coredata.Container(SHOP_MODEL, database_url)
    with first.view_context as ctx:
        ctx.insert("Item", name="Milk", quantity=1)
    second = coredata.Container(SHOP_MODEL, database_url)
    mine = first.view_context.first("Item")
    theirs = second.view_context.first("Item")
    mine.quantity = 2
    theirs.quantity = 5
    first.view_context.save()
    with pytest.raises(coredata.MergeError) as raised:
        second.view_context.save()
    assert raised.value.code == 133020  # NSManagedObjectMergeError
    assert coredata.Container(SHOP_MODEL, database_url).view_context.first("Item").quantity == 2


def test_a_server_that_is_not_there_is_a_store_error(tmp_path):
    host = urllib.parse.quote(str(tmp_path), safe="")
    with pytest.raises(coredata.StoreError) as raised:
        coredata.Container(SHOP_MODEL, f"postgresql://nobody@/shop?host={host}&connect_timeout=2")
    assert raised.value.domain == "NSCocoaErrorDomain"
    assert "PostgreSQL" in raised.value.message
