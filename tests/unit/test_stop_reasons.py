"""The shot clock's stop reason is a code said in each language (issue 47): ``players_told``,
and the English an older shot clock sent (still in stored logs) read as the same code; a
referee's own words stay as typed. The audit knows every kind of event the log holds."""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from pace.reports import words
from pace.rules import alerts, changes, facts, life, refereeing
from pace.rules.events import Event
from pace.rules.scoring import records
from pace.web.audit import sentences
from pace.web.i18n import ENGLISH

T = datetime(2026, 6, 14, 9, 0, tzinfo=UTC)
TZ = ZoneInfo("Europe/Brussels")
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("stored", "code"),
    [
        ("players_told", "players_told"),
        ("back in position: players told", "players_told"),  # the shot clock before issue 47
        ("  Back in position:   players told ", "players_told"),
        ("rain delay", None),
        ("players told, then rain", None),
        ("", None),
        (None, None),
        (42, None),
    ],
)
def test_a_stop_reason_is_read_as_its_code(stored, code):
    assert refereeing.stop_reason_code(stored) == code


def stop(reason: object) -> Event:
    return Event("s", refereeing.TIMING_STOPPED, "R", T, {"group": "6", "reason": reason})


@pytest.mark.parametrize(
    ("lang", "audit", "report"),
    [
        ("en", "back in position: players told", "players told"),
        ("fr", "de retour en position : joueurs informés", "joueurs informés"),
        ("nl", "terug in positie: spelers verwittigd", "spelers verwittigd"),
    ],
)
@pytest.mark.parametrize("stored", ["players_told", "back in position: players told"])
def test_the_code_and_the_old_english_are_said_alike_in_each_language(lang, audit, report, stored):
    assert sentences.why(stop(stored), {}, lang) == audit
    assert words.stop_reason(stored, lang) == report


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_a_referees_own_words_stay_as_typed(lang):
    assert sentences.why(stop(" rain delay "), {}, lang) == "rain delay"
    assert words.stop_reason("rain delay", lang) == "rain delay"
    assert sentences.why(stop(None), {}, lang) == words.stop_reason(None, lang) == ""


def test_the_shot_clock_sends_the_code_not_english():
    script = (ROOT / "static" / "shotclock" / "stop.js").read_text(encoding="utf-8")
    assert 'reason: "players_told"' in script and "back in position: players told" not in script


def constants(module) -> set[str]:
    """Return the snake_case string values a module names in capitals (its event types)."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    return {
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and all(isinstance(t, ast.Name) and t.id.isupper() for t in node.targets)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def test_the_audit_knows_every_kind_of_event_the_rules_name():
    # the event types are the capitals of these modules that name one (others name kinds of
    # alerts, reasons or sources, listed here as what they are)
    named = set().union(*(constants(m) for m in (facts, refereeing, alerts, life, changes)))
    named |= set(records.SCORE_TYPES) | {records.EVENT_VOIDED}
    not_events = {
        facts.RESUME, *facts.STOP_KINDS, refereeing.STOP_TIMING, refereeing.PLAYERS_TOLD,
        alerts.OUT_OF_POSITION, alerts.OVERDUE, alerts.BACK_IN_POSITION, alerts.SEEN_ON_HOLE,
        changes.NO_SHOW,
        changes.RETIRED, *life.STAGES,
    }  # fmt: skip
    assert named - not_events <= set(sentences.TYPES)
    assert len(set(sentences.TYPES)) == len(sentences.TYPES)


@pytest.mark.parametrize("kind", sentences.TYPES)
def test_every_kind_has_a_label_and_a_sentence_of_its_own(kind):
    assert f"audit.type.{kind}" in ENGLISH
    assert sentences.type_label(kind, "nl") != sentences.type_label(kind, "en")
    said = sentences.describe(Event("e", kind, "R", T, {"group": "6"}), {}, TZ, "en")
    assert said != kind.replace("_", " ")  # not the fallback's raw kind
