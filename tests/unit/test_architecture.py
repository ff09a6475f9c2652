"""The core stays honest: the rules import no framework, ``pace`` imports no app, no module is in
an import cycle, and each package imports only the packages below it (docs/architecture.md)."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

PACE = Path(__file__).resolve().parents[2] / "pace"

#: what each part of pace may import besides itself, lowest layers first: a part is a package
#: under pace/ or a module at its top (``pace`` is pace/__init__.py: the version); the most
#: specific name wins (``i18n.catalog`` is the catalogue tool, not the runtime ``i18n``)
ALLOWED: dict[str, frozenset[str]] = {
    "pace": frozenset(),
    "rules": frozenset(),
    "clock": frozenset(),
    "i18n": frozenset(),
    "config": frozenset({"rules"}),
    "formats": frozenset({"rules"}),
    "documents": frozenset({"rules"}),
    "store": frozenset({"rules"}),
    "cluster": frozenset({"config"}),
    "services": frozenset({"rules", "formats", "documents", "store", "clock", "config"}),
    "reports": frozenset({"rules", "formats", "documents", "services", "config", "i18n"}),
    "web": frozenset(
        {"rules", "formats", "documents", "store", "services", "reports", "clock", "config", "i18n"}
    ),  # fmt: skip
    "scheduler": frozenset({"rules", "services", "clock", "config"}),
    # the composition root: every part the app is made of
    "app": frozenset(
        {"rules", "store", "services", "web", "scheduler", "cluster", "clock", "config", "i18n"}
    ),
    "demo": frozenset({"rules", "formats", "store", "services", "app", "clock", "config"}),
    "cli": frozenset(
        {
            "pace",
            "rules",
            "formats",
            "documents",
            "store",
            "services",
            "reports",
            "app",
            "demo",
            "clock",
            "config",
        }
    ),  # fmt: skip
    # the gettext catalogue tool reads the English texts where the code keeps them
    "i18n.catalog": frozenset({"i18n", "reports", "web"}),
    # `python -m pace`: patches gevent first for the serving commands, then runs the CLI
    "__main__": frozenset({"cli", "config"}),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACE.rglob("*.py"))}


def _resolve(name: str) -> str | None:
    """Return the module of pace that ``name`` (a module, or a name in one) is, if any."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _imported(module: str) -> Iterator[str]:
    """Yield the modules of pace ``module`` imports, wherever the import is: in a function or
    under ``TYPE_CHECKING`` too (a tie of the design all the same)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                prefix = ".".join(anchor + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            # ``from pace.cli import common`` runs pace/cli/__init__.py too: both count
            names = [prefix] + [f"{prefix}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            found = _resolve(name) if name.split(".")[0] == "pace" else None
            # a module's own packages are run before it whatever it imports: not a tie
            if found is not None and found != module and not module.startswith(found + "."):
                yield found


def import_graph() -> dict[str, set[str]]:
    """Return each module of pace with the modules of pace it imports (pending ones left out)."""
    return {m: set(_imported(m)) for m in MODULES}


def part(module: str) -> str:
    """Return the part of pace (a row of ``ALLOWED``) that ``module`` belongs to."""
    name = module.removeprefix("pace").removeprefix(".") or "pace"
    while name not in ALLOWED and "." in name:
        name = name.rpartition(".")[0]
    return name


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected components of more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph)))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return found


def test_no_module_of_pace_is_in_an_import_cycle():
    graph = import_graph()
    found = cycles(graph)
    ties = [
        f"{m} → {t}" for component in found for m in component for t in sorted(graph[m])
        if t in component
    ]  # fmt: skip
    assert not found, "import cycles, through these imports:\n" + "\n".join(ties)


def test_each_part_of_pace_imports_only_what_its_layer_allows():
    every = set(ALLOWED) | {"pace"}
    unknown = sorted({part(m) for m in MODULES} - every)
    assert not unknown, f"parts of pace missing from ALLOWED (give them a row): {unknown}"
    wrong = [
        f"{m} → {t} ({part(m)} may import only {', '.join(sorted(ALLOWED[part(m)])) or 'itself'})"
        for m, targets in import_graph().items()
        for t in sorted(targets)
        if part(t) != part(m) and part(t) not in ALLOWED[part(m)]
    ]
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_the_graph_sees_imports_in_functions_and_under_type_checking():
    # pace.store opens the PostgreSQL engine inside open_store only (psycopg is optional)
    assert "pace.store.pg" in set(_imported("pace.store"))
    assert part("pace.store.sqlite.repo") == "store" and part("pace.i18n.catalog") == "i18n.catalog"
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _loaded_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_rules_core_imports_no_framework_storage_or_scheduler():
    loaded = _loaded_after(
        "import pace.rules, pace.rules.facts, pace.rules.alerts, pace.rules.scoring"
    )
    assert not loaded & {"flask", "flask_socketio", "sqlite_utils", "apscheduler", "socketio"}


def test_importing_pace_does_not_build_the_app():
    loaded = _loaded_after("import pace")
    assert "flask" not in loaded and "pace.app" not in loaded


def test_file_parsers_are_pure_too():
    loaded = _loaded_after("import pace.formats")
    assert not loaded & {"flask", "sqlite_utils", "apscheduler"}
