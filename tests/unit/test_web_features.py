"""The web adapter's features are declared one way and merged in one place (issue 27)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from pace.web import edge, routing, sockets

WEB = Path(__file__).resolve().parents[2] / "pace" / "web"


def declared_features() -> list[routing.Feature]:
    """Return the ``FEATURE`` of every package of pace/web that has a ``feature.py``."""
    return [
        importlib.import_module(f"pace.web.{path.parent.name}.feature").FEATURE
        for path in sorted(WEB.glob("*/feature.py"))
    ]


def test_every_feature_package_is_merged_by_the_edge():
    declared = declared_features()
    assert {f.name for f in declared} >= {"marshal", "referee", "scoring", "reports", "audit"}
    assert sorted(f.name for f in declared) == sorted(f.name for f in edge.FEATURES)


def test_every_features_commands_and_joins_are_served():
    for feature in edge.FEATURES:
        assert set(feature.commands) <= set(edge.ROUTES), feature.name
        assert set(feature.commands) | set(feature.joins) <= set(sockets.ROUTES), feature.name


def test_a_command_two_features_declare_is_refused():
    taps = routing.Route(lambda payload, s: payload, lambda command, s, p: {"ok": True})
    with pytest.raises(ValueError, match="'hole_completed' is declared by two features"):
        edge.merged([{"hole_completed": taps}, {"hole_completed": taps}])
