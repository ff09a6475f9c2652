"""The core stays honest: the rules import no framework, and ``pace`` imports no app."""

from __future__ import annotations

import subprocess
import sys


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
