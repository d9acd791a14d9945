"""Shared fixtures: the test model, a fresh store per test, the repository's Apple-written stores."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import coredata

HERE = Path(__file__).resolve().parent
#: The repository's real stores and models written by Apple's Core Data (Tests/.../Fixtures).
FIXTURES = HERE.parents[1] / "Tests" / "CoreDataTestSupport" / "Fixtures"
#: List, Item (every attribute type), abstract Person and its Shopper; List.pinned is ordered.
SHOP_MODEL = HERE / "Shop.xcdatamodeld"


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "Shop.sqlite"


@pytest.fixture
def container(store_path: Path) -> coredata.Container:
    return coredata.Container(SHOP_MODEL, store_path)


@pytest.fixture
def ctx(container: coredata.Container) -> coredata.Context:
    return container.view_context


@pytest.fixture
def apple_store(tmp_path: Path):
    """A copy of a store Apple's Core Data wrote, and its model (never the fixture itself)."""
    def copy(name: str) -> Path:
        target = tmp_path / name
        shutil.copyfile(FIXTURES / "stores" / name, target)
        return target
    return copy
