"""A round whose log holds every kind of event pace stores, made through the real app, for the
audit's tests (issue 47).

Round R1 of the shared test data (tests/data/formats, day 2026-06-14, Europe/Brussels) on a
real SQLite file, the app on a FakeClock, driven the way the pages drive it: marshals' and
referees' Socket.IO commands (tests/drivers.py), the scheduler's tick by hand, the changes on
the day and the round's life through their services (as the console and the CLI do), a
scorer's commands. :func:`play` drives a given app; :func:`audit_database` makes the file and
closes everything, for a real ``pace serve``.
"""

from __future__ import annotations

import csv
import functools
import io
import re
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from pathlib import Path

from drivers import (
    COURSE,
    DAY,
    DRAW,
    ROUND,
    TIMEZONE,
    MarshalDriver,
    RefereeDriver,
    ScorerDriver,
    new_id,
)
from drivers import local as local_time
from flask import Flask
from flask_socketio.test_client import SocketIOTestClient

from pace import config
from pace.app import close_app, create_app
from pace.clock import FakeClock
from pace.rules.model import Player
from pace.scheduler import PaceScheduler
from pace.services.changes import ChangeService
from pace.services.commands import Author
from pace.services.life import RoundLifeService

COMMITTEE = Author(role="committee", device="desk", name="Anne Roy")
#: what the committee, a referee and the scorer type: their words, never translated
TYPED = {
    "correction": "tapped late",
    "void": "wrong group",
    "ack": "seen, going there",
    "credit": "ruling on hole 2",
    "stop": "rain delay",
    "note": "searched 4 minutes",
    "score": "misread card",
    "change": "asked by the club",
    "reopen": "a card was misread",
}
#: the shot clock's stop before issue 47, as older logs hold it
LEGACY_STOP = "back in position: players told"


def local(hhmm: str) -> datetime:
    """Return ``HH:MM[:SS]`` local on the round's day."""
    return local_time(hhmm, DAY)


def play(app: Flask, clock: FakeClock, connect: Callable[..., SocketIOTestClient]) -> None:
    """Drive round R1 of ``app`` through every kind of event (``connect(role, device)`` gives
    a signed-in socket client)."""
    live = app.extensions["pace"].live
    ticks = PaceScheduler(live, app.extensions["pace"].broadcaster, tick_seconds=5)
    changes = ChangeService(live)
    life = RoundLifeService(live)
    marshal = MarshalDriver(connect("marshal", "phone-1", name="Paul"), clock.now)
    hole2 = MarshalDriver(connect("marshal", "phone-2", name="Jef"), clock.now)
    hole2.join(holes=(2, 3))
    referee = RefereeDriver(connect("referee", "tablet-1", name="Claire"), clock.now)
    referee.join()
    scorer = ScorerDriver(connect("scorer", "laptop-1", name="Marc"), clock.now)
    desk = RefereeDriver(connect("committee", "desk", name="Anne"), clock.now)

    # the changes on the day, before the groups concerned tee off
    clock.set(local("08:05"))
    changes.add_group(ROUND, "7", local("09:30"), 1, [Player("Zoé Roy"), Player("Yves Roy")],
                      TYPED["change"], COMMITTEE)  # fmt: skip
    changes.change_start(ROUND, "7", local("09:40"), TYPED["change"], COMMITTEE)
    changes.change_tee(ROUND, "7", 10, TYPED["change"], COMMITTEE)
    changes.add_player(ROUND, "7", Player("Ann Lee"), TYPED["change"], COMMITTEE)
    changes.move_player(ROUND, "Ann Lee", "6", TYPED["change"], COMMITTEE)
    changes.swap(ROUND, "Paul Martel", "Lise Dion", TYPED["change"], COMMITTEE)
    changes.change_tees(ROUND, "Guy Boucher", "yellow", TYPED["change"], COMMITTEE)
    changes.remove_group(ROUND, "7", TYPED["change"], COMMITTEE)
    changes.withdraw(ROUND, "Chantal Paquette", "no_show", COMMITTEE, note=TYPED["note"])

    # group 1 out of position on hole 1, timed, its strokes, back in position by itself
    clock.set(local("08:41"))
    marshal.tap("1", 1, "08:40")
    ticks.tick(ROUND)
    referee.decide("1", "time", note=TYPED["note"], at="08:41")
    clock.set(local("08:44"))
    referee.tell("1", "Marie Lavoie")
    stroke = referee.stroke("1", "Marie Lavoie", 2, "08:42:00", "08:42:55")  # a bad time
    referee.notify("1", "Marie Lavoie", stroke["id"])
    # group 2: hole 2 watched, group 1's tap there missed (the group behind passed it)
    clock.set(local("08:46"))
    marshal.tap("2", 1, "08:26")
    hole2.tap("2", 2, "08:45")
    # group 4 timed while in position: prompted, stopped by the referee with his own words
    marshal.tap("4", 1, "08:44")
    referee.decide("4", "time")
    ticks.tick(ROUND)
    referee.stop_timing("4", TYPED["stop"])
    # group 1 back in position at hole 5: its spell ends by itself; the referee tells the
    # players (the shot clock's code)
    clock.set(local("09:06"))
    marshal.tap("1", 5, "09:05")
    ticks.tick(ROUND)
    referee.stop_timing("1", "players_told")
    # group 2 timed, then a time credit puts it back in position: the stop as an older
    # shot clock sent it, in English
    referee.decide("2", "time", at="09:06")
    clock.set(local("09:08"))
    referee.credit("2", 40, TYPED["credit"])
    ticks.tick(ROUND)
    referee.stop_timing("2", LEGACY_STOP)
    clock.set(local("09:10"))
    # group 3: not timed for a ruling; its hole 3 logged without hole 2 (skipped), then
    # its three players retire one by one: the last one withdraws the group
    referee.decide("3", "not_time", "ruling", TYPED["note"])
    marshal.tap("3", 1, "08:34")
    hole2.tap("3", 3, "09:09")
    for name in ("Nadia Morin", "Claude Fortin", "Jean Gauthier"):
        changes.withdraw(ROUND, name, "retired", COMMITTEE, at=local("09:10"))
    # an alert acknowledged; the sirens; a correction and a void
    ticks.tick(ROUND)
    alert = live.snapshot(ROUND)["alerts"][0]
    referee.acknowledge(alert["key"], TYPED["ack"])
    desk.siren("interruption", "09:10")
    clock.set(local("09:20"))
    desk.siren("resume", "09:19")
    tap = marshal.tap("5", 1, "08:55")
    marshal.correct(tap["id"], "08:56", TYPED["correction"])
    wrong = marshal.tap("6", 1, "09:03")
    marshal.void(wrong["id"], TYPED["void"])
    # a silent group: hole 1 of group 6 overdue for over twice its time
    clock.set(local("10:30"))
    ticks.tick(ROUND)
    # the scores: recorded, none (picked up), conceded, corrected, voided
    scorer.join_scores()
    first = scorer.score("1", "Marie Lavoie", 1, 5)
    scorer.score("1", "Julie Gagnon", 1, None)
    scorer.score("1", "Sophie Tremblay", 1, 4, conceded=True)
    scorer.correct(first["id"], 4, TYPED["score"])
    again = scorer.score("2", "Luc Côté", 1, 6)
    scorer.void(again["id"], TYPED["void"])
    # the scorer's phone shares group 1's position, then stops (issue 48)
    for share in (True, False):
        ack = scorer.send("share_positions", {"id": new_id(), "round": ROUND, "group": "1",
                                               "share": share})  # fmt: skip
        assert ack["ok"], ack
    # the round's life
    life.finish(ROUND, COMMITTEE)
    life.finalise(ROUND, COMMITTEE)
    life.reopen(ROUND, COMMITTEE, TYPED["reopen"])


def audit_database(folder: Path) -> tuple[Path, datetime]:
    """Write ``folder/pace.db`` holding round R1 played by :func:`play`; return the file and
    the instant its clock stopped at (a server's clock origin that adds nothing)."""
    db = folder / "pace.db"
    settings = config.Settings().replace(
        server={"async_mode": "threading"},
        database={"path": str(db)},
        scheduler={"enabled": False},
    )
    clock = FakeClock(local("08:00"))
    app = create_app(settings, clock=clock, testing=True)
    opened: list[SocketIOTestClient] = []
    try:
        service = app.extensions["pace"].live.service
        # two tee sets, so that a player may move to the other (a change on the day)
        tees = '\n[[tees]]\nname = "White"\n\n[[tees]]\nname = "Yellow"\n'
        service.import_course(COURSE.read_text(encoding="utf-8") + tees, str(COURSE))
        service.import_draw(
            DRAW.read_text(encoding="utf-8"), str(DRAW), round=ROUND, day=DAY, timezone=TIMEZONE
        )
        service.set_positions(ROUND, True)  # the groups' phones may share (issue 48)

        def connect(role: str, device: str, name: str = "") -> SocketIOTestClient:
            token = app.extensions["pace"].access.grant(role, ROUND, name or None).token
            c = app.extensions["pace"].socketio.test_client(
                app, auth={"device": device, "token": token, "name": name}
            )
            opened.append(c)
            return c

        play(app, clock, connect)
        return db, clock.now() + timedelta(minutes=1)
    finally:
        for c in opened:
            if c.is_connected():
                c.disconnect()
            SocketIOTestClient.clients.pop(c.eio_sid, None)
        close_app(app)


# -- what a page in another language must not say in English ------------------------------

#: a raw code: snake_case, as the log stores kinds and reasons (no person types one)
CODE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
#: a word: letters only (numbers, times and punctuation are no language's)
WORD = re.compile(r"[^\W\d_]+")
#: what the round's texts hold that is data, the same in every language: the draw's names,
#: the people's, the tee sets', the product's, and what people typed
DATA = sorted(
    {
        *TYPED.values(),
        *(row["player"] for row in csv.DictReader(io.StringIO(DRAW.read_text(encoding="utf-8")))
          if row["player"]),
        "Zoé Roy", "Yves Roy", "Ann Lee", "Anne Roy", "Anne", "Paul", "Jef",
        "Claire", "Marc", "Yellow", "White", "pace", "R1",
    },
    key=len,
    reverse=True,
)  # fmt: skip


@functools.cache
def catalogue_words(lang: str) -> frozenset[str]:
    """Return every word the catalogue gives in ``lang`` (the pages' and the reports' texts):
    a word a page shows in that language because its own catalogue says it ("scorer", "hole",
    "marshal" in Dutch)."""
    from pace import i18n
    from pace.reports import words as report_words
    from pace.web.i18n import ENGLISH

    texts = [
        *(i18n.text(key, source, lang) for key, source in ENGLISH.items()),
        *(i18n.text(report_words.CONTEXT + key, source, lang)
          for key, source in report_words.TEXTS.items()),
    ]  # fmt: skip
    fields = re.compile(r"\{\w+\}")
    return frozenset(w.casefold() for text in texts for w in WORD.findall(fields.sub("", text)))


def said_words(text: str) -> set[str]:
    """Return the words of ``text`` once its data is taken out (names, typed words)."""
    for data in DATA:
        text = text.replace(data, " ")
    return {w.casefold() for w in WORD.findall(text)}


def untranslated(english: Mapping[str, str], other: Mapping[str, str], lang: str) -> list[str]:
    """Return what ``other`` (a page's texts in ``lang`` by where they are) says as English
    does: a raw code, the shot clock's old English, or a word it shares with the English
    rendering's text at the same place that ``lang``'s catalogue does not give (data aside)."""
    out = []
    own = catalogue_words(lang)
    for where, text in other.items():
        if CODE.search(text):
            out.append(f"{lang} {where}: a raw code in {text!r}")
        elif LEGACY_STOP in text:
            out.append(f"{lang} {where}: the shot clock's English in {text!r}")
        else:
            shared = said_words(text) & said_words(english.get(where, "")) - own
            if shared:
                out.append(f"{lang} {where}: {text!r} says {sorted(shared)} as English does")
    return out
