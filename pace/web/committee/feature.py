"""The console's commands: the changes on the day, each run on ``ChangeService`` after the
edge pipeline has parsed it, checked its role and its round; then announced as a tap is
(the dashboard, board and leaderboard follow the new draw through ``round_changed``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pace.services.changes import ChangeService
from pace.services.life import RoundLifeService
from pace.web import routing
from pace.web.committee import calibration as _calibration  # noqa: F401  (its routes: issue 30)
from pace.web.committee import pages, parsers
from pace.web.committee.parsers import Change, LifeAct
from pace.web.parts import AppParts
from pace.web.routing import Feature, Route, Sender, authored


def _on_the_day(app_parts: AppParts, round: str, clock: Any) -> datetime | None:
    """Return a time of day of the form as an instant on the round's day, in its zone."""
    if clock is None:
        return None
    view = app_parts.live.service.round_view(round)
    return datetime.combine(view.record.day, clock, tzinfo=view.tz)


def run_change(change: Change, sender: Sender, app_parts: AppParts) -> dict[str, Any]:
    """Run a change on ``ChangeService``; announce it; answer the ack (a resend: ``duplicate``)."""
    service = ChangeService(app_parts.live)
    f, r, by, id = dict(change.fields), change.round, change.by, change.id
    if change.kind == "withdraw":
        outcome = service.withdraw(r, f["player"], f["reason"], by, note=f["note"],
                                   at=_on_the_day(app_parts, r, f["at"]), id=id)  # fmt: skip
    elif change.kind == "add_player":
        outcome = service.add_player(r, f["group"], f["player"], f["reason"], by, id=id)
    elif change.kind == "move_player":
        outcome = service.move_player(r, f["player"], f["to"], f["reason"], by, id=id)
    elif change.kind == "swap":
        outcome = service.swap(r, f["player"], f["other"], f["reason"], by, id=id)
    elif change.kind == "change_start":
        start = _on_the_day(app_parts, r, f["start"])
        outcome = service.change_start(r, f["group"], start, f["reason"], by, id=id)  # type: ignore[arg-type]
    elif change.kind == "change_tee":
        outcome = service.change_tee(r, f["group"], f["tee"], f["reason"], by, id=id)
    elif change.kind == "change_tees":
        outcome = service.change_tees(r, f["player"], f["tees"], f["reason"], by, id=id)
    elif change.kind == "add_group":
        start = _on_the_day(app_parts, r, f["start"])
        outcome = service.add_group(r, f["group"], start, f["tee"], f["players"],  # type: ignore[arg-type]
                                    f["reason"], by, id=id)  # fmt: skip
    elif change.kind == "remove_group":
        outcome = service.remove_group(r, f["group"], f["reason"], by, id=id)
    else:
        outcome = service.void(r, f["target"], f["reason"], by, id=id)
    app_parts.broadcaster.outcome(outcome, app_parts.derived.stages)
    if outcome.created:
        app_parts.derived.cards(r)
    return routing.ack(outcome)


def run_life(act: LifeAct, sender: Sender, app_parts: AppParts) -> dict[str, Any]:
    """Run an act on the round's life; announce it, and tell the leaderboards (their "final"
    follows); answer the ack with the round's life as it is now."""
    service = RoundLifeService(app_parts.live)
    if act.act == "finish":
        outcome = service.finish(act.round, act.by)
        if app_parts.positions is not None:
            app_parts.positions.forget(act.round)  # the phones' fixes go with the round
    elif act.act == "final":
        outcome = service.finalise(act.round, act.by)
    else:
        outcome = service.reopen(act.round, act.by, act.reason)
    app_parts.broadcaster.outcome(outcome, app_parts.derived.stages)
    app_parts.score_broadcaster.life_changed(act.round)
    life = service.document(act.round)
    return {**routing.ack(outcome), "life": {k: v for k, v in life.items() if k != "round"}}


def _route(parse: Any) -> Route:
    return Route(authored(parse), run_change)


FEATURE = Feature(
    "committee",
    commands={
        "change_withdraw": _route(parsers.change_withdraw),
        "change_add_player": _route(parsers.change_add_player),
        "change_move_player": _route(parsers.change_move_player),
        "change_swap": _route(parsers.change_swap),
        "change_start": _route(parsers.change_start),
        "change_tee": _route(parsers.change_tee),
        "change_tees": _route(parsers.change_tees),
        "change_add_group": _route(parsers.change_add_group),
        "change_remove_group": _route(parsers.change_remove_group),
        "change_void": _route(parsers.change_void),
        "round_finish": Route(authored(parsers.round_finish), run_life),
        "round_final": Route(authored(parsers.round_final), run_life),
        "round_reopen": Route(authored(parsers.round_reopen), run_life),
    },
    pages=pages.bp,
)
