"""The suite's own order (tests/conftest.py): the costly files it names exist, and the
workers get them first."""

from __future__ import annotations

from pathlib import Path

import conftest

ROOT = Path(__file__).resolve().parents[2]


def test_every_costly_file_named_exists():
    missing = [path for path in conftest.FILE_SECONDS if not (ROOT / path).is_file()]
    assert not missing, f"FILE_SECONDS names files that are gone: {missing}"


class _Item:
    def __init__(self, nodeid: str):
        self.nodeid = nodeid


def test_the_costliest_files_come_first_and_each_files_tests_keep_their_order():
    items = [_Item(n) for n in (
        "tests/unit/test_a.py::one", "tests/unit/test_a.py::two",
        "tests/e2e/test_crash.py::sqlite", "tests/unit/test_b.py::one",
        "tests/browser/test_accessibility.py::join", "tests/e2e/test_crash.py::postgresql",
    )]  # fmt: skip
    conftest.pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == [
        "tests/browser/test_accessibility.py::join",
        "tests/e2e/test_crash.py::sqlite", "tests/e2e/test_crash.py::postgresql",
        "tests/unit/test_a.py::one", "tests/unit/test_a.py::two", "tests/unit/test_b.py::one",
    ]  # fmt: skip
