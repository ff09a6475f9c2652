"""Why a group was named, in words: an explanation (``pace.rules.explain``) said in French or
English for the report's group page and the letters (docs/explanations.md).

What it says: the judgement (what, when, where), the figures (the clock and what it leaves
out, the allotment, the time over; the gap against the interval), the verdict they give, the
groups waiting behind, and the facts as a short timeline, each with who recorded it and its
event's id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta, tzinfo

from pace import i18n
from pace.reports import words
from pace.reports.words import clock, text, text_n
from pace.rules import explain as ex
from pace.rules import report as rp
from pace.rules import reported as rep
from pace.rules.model import HoleCompletion
from pace.rules.report import author

#: how many characters of an event's id are shown (enough to find it in the audit)
SHORT_ID = 8


@dataclass(frozen=True)
class Said:
    """An explanation in words: its title, its sentences and its timeline (time, line)."""

    title: str
    sentences: tuple[str, ...]
    timeline: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Seen:
    """Who saw the holes an explanation cites (issues 39, 46): which counted completions are
    the groups' own reports, and the reports left out as a batch's earlier holes (not facts,
    :mod:`pace.rules.report.batches`). An empty one: every completion an official's tap."""

    reported: frozenset[tuple[str, int]] = frozenset()
    batched: tuple[HoleCompletion, ...] = ()

    @classmethod
    def of(cls, r: rp.RoundReport) -> Seen:
        """Return what report ``r`` knows of who saw its holes."""
        own = frozenset(
            (g.id, h.hole)
            for g in r.groups
            for h in g.holes
            if h.logged is not None and h.source == rep.GROUP
        )
        return cls(own, r.batched)

    def batched_ahead(self, x: ex.Explanation) -> HoleCompletion | None:
        """Return the latest report of ``x``'s hole that another group entered in a batch at
        or before the completion judged (so it holed out there before ``x.group`` did, at an
        instant not known), or ``None``."""
        found = [c for c in self.batched if c.hole == x.hole and c.group != x.group
                 and c.at <= x.reference]  # fmt: skip
        return max(found, key=lambda c: c.at, default=None)


def minutes(d: timedelta | None, lang: str) -> str:
    """Return minutes as a number, to a tenth where it is not whole (``6``, ``0.5``, ``−2``).

    >>> minutes(timedelta(minutes=6), "en"), minutes(timedelta(seconds=-30), "fr")
    ('6', '−0,5')
    """
    if d is None:
        return ""
    return i18n.tenths(d.total_seconds() / 60, lang)


def say(x: ex.Explanation, lang: str, tz: tzinfo, seen: Seen | None = None) -> Said:
    """Return explanation ``x`` in ``lang``, its instants in the round's zone ``tz``; ``seen``
    says which of the completions cited are the groups' own reports (:class:`Seen`)."""
    seen = seen or Seen()

    def m(d: timedelta | None) -> str:
        return minutes(d, lang)

    at = clock(x.at, tz)
    title = text(f"explain.subject.{x.subject}", lang, time=at, hole=x.hole)
    parts = ""
    if x.stopped:
        parts += text("explain.stopped", lang, minutes=m(x.stopped))
    if x.credited:
        parts += text("explain.credited", lang, minutes=m(x.credited))
    deductions = ""
    if parts:
        start = clock(x.reference - x.clock, tz)
        deductions = text("explain.deductions", lang, clock=m(x.clock), start=start, parts=parts)
    players = text_n("explain.players", x.size, lang)
    figures = dict(group=x.group, players=players, hole=x.hole, elapsed=m(x.elapsed),
                   deductions=deductions, allotted=m(x.allotted), over=m(x.over))  # fmt: skip
    if x.basis == ex.COMPLETION:
        sentences = [text("explain.completion", lang, time=clock(x.reference, tz), **figures)]
    else:
        sentences = [text("explain.projection", lang, time=at, **figures)]
    if x.lead:
        sentences.append(text("explain.lead", lang))
    elif x.gap is not None and x.ahead_at is not None:
        key = "explain.gap" if x.basis == ex.COMPLETION else "explain.gap_now"
        sentences.append(
            text(key, lang, ahead=x.ahead or "?", hole=x.hole, ahead_time=clock(x.ahead_at, tz),
                 gap=m(x.gap), limit=m(x.limit))
        )  # fmt: skip
    elif x.basis == ex.COMPLETION and (batch := seen.batched_ahead(x)) is not None:
        # issue 46: the group ahead entered the hole only in a batch: its time there is not known
        sentences.append(text("explain.batched_ahead", lang, ahead=batch.group, hole=x.hole,
                              time=clock(batch.at, tz)))  # fmt: skip
    elif x.basis == ex.COMPLETION:
        sentences.append(text("explain.nobody_ahead", lang, hole=x.hole))
    else:
        sentences.append(text("explain.hole_occupied", lang, hole=x.hole))
    sentences.append(text("explain.verdict", lang, status=text(f"status.{x.status.value}", lang)))
    if x.behind:
        waiting = "; ".join(text("explain.waiting", lang, group=w.group, over=m(w.over))
                            for w in x.behind)  # fmt: skip
        sentences.append(text("explain.behind", lang, list=waiting))
    elif x.subject == ex.OUT_OF_POSITION:
        sentences.append(text("explain.nobody_behind", lang))
    return Said(title, tuple(sentences), tuple((clock(ln.at, tz), line(ln, lang, seen)) for ln in
                                               x.timeline))  # fmt: skip


def line(ln: ex.Line, lang: str, seen: Seen | None = None) -> str:
    """Return one line of a timeline in words, with who recorded its fact and the event's id;
    a completion the group reported itself says so (``seen``)."""
    values: Mapping[str, object] = {
        "group": ln.group, "hole": ln.hole, "player": ln.detail,
        "minutes": minutes(ln.amount, lang), "over": minutes(ln.amount, lang),
        "reason": ln.detail or text("reason.other", lang),
        "status": text(f"status.{ln.detail}", lang) if ln.detail else "",
    }  # fmt: skip
    key = f"explain.line.{ln.kind}"
    if ln.kind == ex.SIREN:
        key = f"explain.line.siren.{ln.detail}"
    elif (ln.kind in (ex.TAP, ex.AHEAD) and seen is not None and ln.group is not None
          and ln.hole is not None and (ln.group, ln.hole) in seen.reported):  # fmt: skip
        key = f"explain.line.{ln.kind}_reported"
    said = text(key, lang, **values)
    if ln.fact is not None:
        said += text("explain.source", lang, by=words.author(author(ln.fact.by), lang),
                     id=ln.fact.id[:SHORT_ID])  # fmt: skip
        if ln.fact.corrected:
            ids = ", ".join(i[:SHORT_ID] for i in ln.fact.corrected)
            said += text("explain.corrected", lang, ids=ids)
    return said
