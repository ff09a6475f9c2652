"""The facts-only public board (players and the public): its snapshot and its own feed.

The board shows facts, no blame (docs/protocol.md, "The board's feed"): for each group its
players, tee, start, the instant each hole is due and the instants it completed holes,
whether referees time it, whether it has withdrawn, and who is disqualified (a result the
committee publishes anyway), and whether play is suspended. Never a status, minutes over, a
gap, an alert or a penalty row.

Its viewers are in a room of their own, which never hears the round's deltas: the board lives
on its own numbered feed (docs/protocol.md, "The board's feed"). After each command or tick,
what the round's deltas changed of the board (a group's facts-only row, its ``timed`` flag,
the disqualified list, ``suspended``) becomes one board delta, numbered per round by the
board's own counter; the board's snapshot says in ``rev`` the number it includes, so a viewer
that missed one reads the board again, once. A tap changes one group's row: only that row is
sent; a change the board does not show (a status, a figure) sends nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from pace.services.live import LiveService
from pace.services.state import PARTS, PENALTIES, ROW, TIMING, Delta, LiveRound

#: the feed's name among the round's feeds (``LiveRound.feeds``) and its deltas' kind
BOARD = "board"

#: the fields of a group row the facts-only pace board shows (and ``holes``, their ``at``)
BOARD_ROW = ("group", "order", "players", "tee", "start", "due")


def board_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """Return the facts-only part of a group row: its plan and the instants of its holes, and
    ``withdrawn: true`` once the group has withdrawn (issue 46: a fact, as a DQ is; the board
    no longer draws it on the course nor says when its next holes are due)."""
    board = {k: row.get(k) for k in BOARD_ROW}
    if row.get("status") == "withdrawn":
        board["withdrawn"] = True
    # who saw each completion is a fact (issue 39): the board marks the groups' own reports
    # (``source: "group"``); an official's completion is the board's plain instant
    board["holes"] = {
        h: {"at": v.get("at"), **({"source": "group"} if v.get("source") == "group" else {})}
        for h, v in (row.get("holes") or {}).items()
    }
    # a missed tap's estimate is shown as one, with its bounds (docs/estimates.md); whether a
    # status rests on it is a judgement, not a fact: never here
    guessed = ((row.get("estimate") or {}).get("holes")) or {}
    if guessed:
        board["estimated"] = {
            h: {k: v.get(k) for k in ("at", "earliest", "latest")} for h, v in guessed.items()
        }
    return board


def timed_view(timing: Mapping[str, Any] | None) -> dict[str, bool]:
    """Return the board's part of a group's timing: whether it is being timed, no more."""
    return {"timed": bool((timing or {}).get("timed"))}


def disqualified_players(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """Return the players disqualified among penalty rows, in the rows' (draw) order."""
    return [str(p["player"]) for p in rows if p.get("disqualified")]


def board_view(snapshot: Mapping[str, Any], rev: int | None = None) -> dict[str, Any]:
    """Return the part of a snapshot the facts-only board shows (what viewers get).

    ``rev`` is the number of the last board delta it includes (``None``: apply every delta
    as it comes, with several workers). No statuses, minutes over, alerts, penalties or
    policy: the times planned and done, whether a group is being timed, and who is
    disqualified (the board marks the player DQ, issue 14).
    """
    timing = snapshot.get("timing") or {}
    return {
        "round": snapshot["round"],
        "rev": rev,
        "at": snapshot["at"],
        "day": snapshot["day"],
        "timezone": snapshot["timezone"],
        "course": snapshot["course"],
        "groups": [board_row(row) for row in snapshot["groups"]],
        "suspended": snapshot["suspended"],
        "timing": {g: timed_view(t) for g, t in timing.items()},
        "disqualified": [
            {"group": p["group"], "player": p["player"]}
            for p in snapshot.get("penalties") or []
            if p.get("disqualified")
        ],
    }


class BoardFeed:
    """The board's snapshot and its numbered feed, over a :class:`LiveService`.

    What the board last told its viewers lives in the round's state (``told["board"]``),
    noted from the board of the stored log when it is first folded; the number of its last
    delta is the round's ``feeds["board"]``.
    """

    def __init__(self, live: LiveService) -> None:
        self.live = live
        live.rounds.seeders.append(self._seed)

    def snapshot(self, round: str, now: datetime | None = None) -> dict[str, Any]:
        """Return the board of ``round`` (``UnknownRoundError``) and the feed's number it holds."""
        with self.live.lock:
            snapshot = self.live.snapshot(round, now)
            held = self.live.rounds.held(round)
            rev = held.feeds.get(BOARD, 0) if held is not None else 0
            return board_view(snapshot, rev if self.live.numbered else None)

    def rev(self, round: str) -> int | None:
        """Return the number of the board's last delta of ``round`` (``None``: not numbered,
        or the round not folded yet)."""
        held = self.live.rounds.held(round)
        if held is None or not self.live.numbered:
            return None
        return held.feeds.get(BOARD, 0)

    def stream(
        self,
        round: str,
        stages: Callable[[], Iterable[Iterable[Delta]]],
        send: Callable[[Sequence[Delta]], None],
    ) -> Delta | None:
        """Work out the round's deltas stage by stage (``stages()``), ``send`` each stage as
        it comes, and return the board delta they make.

        All of it is done under the round's lock, so no snapshot is taken between the round's
        deltas and the board's number: a board snapshot holds exactly the board deltas
        numbered up to its ``rev``.
        """
        with self.live.lock:
            deltas: list[Delta] = []
            for stage in stages():
                stage = tuple(stage)
                deltas.extend(stage)
                send(stage)
            held = self.live.rounds.held(round) if deltas else None
            return follow(held, deltas) if held is not None else None

    def _seed(self, live: LiveRound, now: datetime) -> None:
        """Note the board of the stored log: what every board snapshot already shows."""
        shown = board_view(self.live.snapshot(live.name, now))
        disqualified: dict[str, list[str]] = {}
        for d in shown["disqualified"]:
            disqualified.setdefault(d["group"], []).append(d["player"])
        live.told[BOARD] = {
            "groups": {row["group"]: row for row in shown["groups"]},
            "timing": dict(shown["timing"]),
            "disqualified": disqualified,
            "suspended": shown["suspended"],
        }


def follow(live: LiveRound, deltas: Iterable[Delta]) -> Delta | None:
    """Return the board delta of what ``deltas`` (the round's) changed of the board, numbered
    in the board's feed, or ``None`` when they change nothing the board shows.

    Its data holds only the snapshot fields that changed: ``groups`` (the rows that changed,
    each whole), ``timing`` (``{group: {timed}}`` of the groups whose flag changed),
    ``disqualified`` (the whole list, when it changed) and ``suspended``.
    """
    told = live.told.setdefault(
        BOARD, {"groups": {}, "timing": {}, "disqualified": {}, "suspended": None}
    )
    rows: dict[str, dict[str, Any]] = {}
    timing: dict[str, dict[str, bool]] = {}
    disqualified = False
    suspended: bool | None = None
    redrawn = False
    for d in deltas:
        if d.kind == ROW:
            row = board_row(d.data)
            group = str(row["group"])
            if told["groups"].get(group) != row:
                told["groups"][group] = rows[group] = row
        elif d.kind == TIMING:
            group = str(d.data["group"])
            flag = timed_view(d.data.get("timing"))
            if told["timing"].get(group) != flag:
                told["timing"][group] = timing[group] = flag
        elif d.kind == PENALTIES:
            group = str(d.data["group"])
            players = disqualified_players(d.data.get("players") or [])
            if told["disqualified"].get(group, []) != players:
                told["disqualified"][group] = players
                disqualified = True
        elif d.kind == PARTS and "groups" in d.data:
            # the draw changed on the day: every row goes out, its number skipping one, so a
            # board holding the old draw (a group removed) reads the snapshot again
            redrawn = True
            for whole in d.data["groups"]:
                row = board_row(whole)
                told["groups"][str(row["group"])] = rows[str(row["group"])] = row
        elif d.kind == PARTS and "suspended" in d.data:
            flag_ = bool(d.data["suspended"])
            if told["suspended"] != flag_:
                told["suspended"] = suspended = flag_
    data: dict[str, Any] = {}
    if rows:
        order = {p.id: i for i, p in enumerate(live.view.plan.groups)}
        data["groups"] = sorted(rows.values(), key=lambda r: order.get(str(r["group"]), 0))
    if timing:
        data["timing"] = timing
    if disqualified:
        data["disqualified"] = [
            {"group": p.id, "player": player}
            for p in live.view.plan.groups
            for player in told["disqualified"].get(p.id, [])
        ]
    if suspended is not None:
        data["suspended"] = suspended
    if not data:
        return None
    if redrawn:
        live.feeds[BOARD] = live.feeds.get(BOARD, 0) + 1
    return live.feed_delta(BOARD, BOARD, data)
