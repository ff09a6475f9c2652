"""Events the log implies (alerts raised and resolved, ids derived from their keys) stored by
another worker first, at its own instant, are that worker's: the command that finds the same
alert due carries on (issue 15's several workers over one log; found by the cluster test,
where a referee's acknowledgement failed with ``event_conflict``)."""

from __future__ import annotations

import uuid

import pytest
from drivers import ROUND, local

from pace.rules.alerts import ALERT_RAISED
from pace.rules.events import Event, EventConflictError
from pace.services.alerts import ALERT_NAMESPACE, SYSTEM


def raised(key: str, minute: int) -> Event:
    return Event(
        id=str(uuid.uuid5(ALERT_NAMESPACE, f"{ROUND}/{key}")),
        type=ALERT_RAISED,
        round=ROUND,
        at=local(f"08:{minute:02d}"),
        payload={"key": key, "kind": "overdue", "group": "1", "hole": 1,
                 "over_min": 1.0, "gap_min": None},
        by=SYSTEM,
    )  # fmt: skip


def test_an_alert_another_worker_stored_first_is_kept_and_the_others_are_stored(app):
    live = app.extensions["pace"].live
    store = live.service.store
    theirs = raised("overdue:1:1", 30)
    store.append(theirs, recorded_at=local("08:30"))
    # this worker finds the same alert due a second later, and another one new
    mine, new = raised("overdue:1:1", 31), raised("overdue:2:1", 31)
    with pytest.raises(EventConflictError):  # what the store says of the same id, other at
        store.append_many([mine, new], recorded_at=local("08:31"))
    stored = live.alerts.append_implied([mine, new], local("08:31"))
    assert [(e.id, created) for e, created in stored] == [(new.id, True)]
    log = {e.id: e for e in store.events(ROUND, types=[ALERT_RAISED])}
    assert log[theirs.id].at == theirs.at  # the first worker's instant stays
    assert log[new.id].at == new.at
    # and a resend of what is stored already is no conflict at all: nothing new
    assert [created for _, created in live.alerts.append_implied([new], local("08:32"))] == [False]
