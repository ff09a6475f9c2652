"""Hostile payloads of the committee's changes on the day, over the wire (issues 9 and 28).

The same attack as tests/security/test_hostile.py, on an arena of its own: a valid change folds
the round's log again under the changed draw, so these run on a log of their own size, and
beside the rest of the hostile suite rather than after it.
"""

from __future__ import annotations

import pytest
from security.test_hostile import CHANGES, attack_with_hostile_payloads, transports

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(("event", "transport"), transports(CHANGES))
def test_hostile_changes_from_the_committee_are_answered_and_refused_ones_record_nothing(
    arena, event, transport
):
    attack_with_hostile_payloads(arena, event, transport)


def test_every_change_on_the_day_is_attacked():
    assert CHANGES == sorted(
        ["change_withdraw", "change_add_player", "change_move_player", "change_swap",
         "change_start", "change_tee", "change_tees", "change_add_group", "change_remove_group",
         "change_void"]
    )  # fmt: skip
