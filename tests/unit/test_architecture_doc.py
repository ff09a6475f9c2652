"""docs/architecture.md stays true to the code: every path it names exists, its table of what
each package may import is the one tests/unit/test_architecture.py enforces, and each walk of
a command names every module once."""

from __future__ import annotations

import re
from pathlib import Path

from tests.unit.test_architecture import ALLOWED

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = DOC.index(f"## {title}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end != -1 else len(DOC)]


def test_every_path_the_doc_names_exists() -> None:
    named = set(re.findall(r"`((?:pace|static|tests|templates|bench)/[^`\s]*)`", DOC))
    assert len(named) > 50  # the module table, the walks
    missing = sorted(p for p in named if not (ROOT / p.split("::")[0].rstrip("/")).exists())
    assert missing == []


def test_the_table_of_imports_is_the_one_the_test_enforces() -> None:
    table: dict[str, frozenset[str]] = {}
    for line in _section("What each package may import").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not cells[0].startswith("`"):
            continue
        part = re.match(r"`([^`]+)`", cells[0])
        assert part is not None
        table[part.group(1)] = frozenset(re.findall(r"`([^`]+)`", cells[1]))
    assert table == ALLOWED


def test_each_walk_names_every_module_once() -> None:
    walks = re.split(r"\n\*\*A ", _section("A command's walk"))[1:]
    assert len(walks) == 3  # a tap, a penalty, a score
    for walk in walks:
        # each step begins with its number; its first backticked path is the module visited
        # (a step that runs through several, "→"-joined, visits each of them)
        visited: list[str] = []
        for step in re.split(r"\n\d+\. |(?<=→ )\d+\. ", walk)[1:]:
            head = step.split(" — ")[0]
            visited += re.findall(r"`((?:pace|static)/[^`]+)`", head)
        assert len(visited) >= 13, walk[:40]
        assert len(visited) == len(set(visited)), [m for m in visited if visited.count(m) > 1]
