"""Fixtures of the wire-level attack suite (issue 9): see security/arena.py."""

from __future__ import annotations

from security.arena import arena, club_arena  # noqa: F401  (the module-scoped servers under attack)
