"""The pages' scripts as ES modules (issue 27, item 7): they load in the browser with no build
step, so nothing but the browser would say that an import names a file or a name that is not
there, or that two modules import each other (the shot clock's and the dashboard's parts in
static/shotclock/ and static/dashboard/ ask the page's script to redraw instead).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "static"
#: import { a, b as c } from "./x.js";  (the only form the scripts use)
IMPORT = re.compile(r"""^import\s*\{([^}]*)\}\s*from\s*"([^"]+)";""", re.MULTILINE)
EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function|const|let|class)\s+([\w$]+)", re.M)


def scripts() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*.js") if "vendor" not in p.parts)


def imports(path: Path) -> list[tuple[Path, list[str]]]:
    """Return what `path` imports: each module's file and the names taken from it."""
    found = []
    for names, spec in IMPORT.findall(path.read_text(encoding="utf-8")):
        taken = [n.split(" as ")[0].strip() for n in names.split(",") if n.strip()]
        found.append(((path.parent / spec).resolve(), taken))
    return found


def cycle(graph: dict[Path, set[Path]]) -> list[Path]:
    """Return one cycle of `graph` (its modules in order), or [] when there is none."""
    state: dict[Path, str] = {}
    path: list[Path] = []

    def visit(node: Path) -> list[Path]:
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = "done"
        path.pop()
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


@pytest.mark.parametrize("path", scripts(), ids=lambda p: p.relative_to(STATIC).as_posix())
def test_every_name_a_script_imports_is_exported_by_the_file_it_names(path):
    missing = []
    for target, names in imports(path):
        if not target.is_file():
            missing.append(f"{target.name}: no such file")
            continue
        exported = set(EXPORT.findall(target.read_text(encoding="utf-8")))
        missing += [f"{target.relative_to(STATIC)}: {n}" for n in names if n not in exported]
    assert missing == []


def test_no_two_scripts_import_each_other():
    graph = {path: {target for target, _ in imports(path)} for path in scripts()}
    found = cycle(graph)
    assert found == [], " -> ".join(p.relative_to(STATIC).as_posix() for p in found)


def test_the_cycle_finder_finds_one():
    a, b, c = Path("a.js"), Path("b.js"), Path("c.js")
    assert cycle({a: {b}, b: {c}, c: set()}) == []
    assert cycle({a: {b}, b: {c}, c: {a}}) == [a, b, c, a]
