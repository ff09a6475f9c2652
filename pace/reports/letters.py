"""Facts-only letters after the round, one per player (or per group), in French, English or Dutch.

Each letter is in its player's language where the draw gives one (its ``language`` column),
else in the language asked for (the round's); a group's letter is in its players' language
when they share one.


A letter states what was logged, with no judgement: the hole where the group was furthest
over its allotted time, how far behind the group ahead, when it was out of position, when
and by whom it was timed and the players told, each timed stroke, each fault and what it
cost (``words.effect``), and the round time. Who gets one: every player (group) whose group
was out of position, or who had a stroke timed or a fault.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo

from pace.documents.report import ReportMeta
from pace.reports import why
from pace.reports.words import (
    clock,
    duration,
    effect,
    seconds,
    text,
    text_n,
)
from pace.rules import explain as ex
from pace.rules import report as rp
from pace.rules.model import Status

PER_PLAYER = "player"
PER_GROUP = "group"


@dataclass(frozen=True)
class Letter:
    """One letter: to whom, about which group, its paragraphs, and the language they are in."""

    to: str
    group: str
    paragraphs: tuple[str, ...]
    lang: str = "en"

    @property
    def title(self) -> str:
        """Return the letter's heading in its language."""
        return text("letters_title", self.lang)


def _whole_minutes(d: timedelta) -> str:
    return str(round(d.total_seconds() / 60))


def hole_at(g: rp.GroupReport, t: datetime) -> int:
    """Return the hole a group was playing at ``t``: the one after its last completion."""
    k = max((h.position for h in g.holes if h.logged is not None and h.logged <= t), default=0)
    return g.holes[min(k, len(g.holes) - 1)].hole


def _group_paragraphs(
    meta: ReportMeta, g: rp.GroupReport, lang: str, held: Sequence[rp.HoldUp] = ()
) -> list[str]:
    tz = meta.tz
    out = [
        text(
            "letter.opening",
            lang,
            round=meta.round,
            day=meta.day.isoformat(),
            course=meta.course,
            group=g.id,
            start=clock(g.plan.group.start, tz),
            tee=g.plan.group.tee,
        )  # fmt: skip
    ]
    rows = {h.hole: h for h in g.holes}
    behind = [h.hole for h in g.holes if h.status is Status.BEHIND]
    if behind:
        out.append(text("letter.behind", lang, holes=", ".join(map(str, behind))))
    for e in g.episodes:
        ep = e.episode
        worst = rows.get(e.worst_hole) if e.worst_hole is not None else None
        if worst is not None and worst.over is not None and worst.logged is not None:
            if worst.gap is None:
                out.append(
                    text("letter.worst_lead", lang, hole=worst.hole, time=clock(worst.logged, tz),
                         over=_whole_minutes(worst.over))
                )  # fmt: skip
            else:
                out.append(
                    text("letter.worst", lang, hole=worst.hole, time=clock(worst.logged, tz),
                         over=_whole_minutes(worst.over), gap=_whole_minutes(worst.gap))
                )  # fmt: skip
        if ep.end is not None and ep.ended_by == "back_in_position":
            out.append(
                text("letter.episode", lang, first=ep.start_hole, start=clock(ep.start, tz),
                     last=ep.end_hole, end=clock(ep.end, tz))
            )  # fmt: skip
        else:
            out.append(
                text("letter.episode_open", lang, first=ep.start_hole, start=clock(ep.start, tz))
            )
    for u in held:
        if u.group == g.id:
            out.append(
                text_n(
                    "letter.held", u.groups, lang, hole=u.worst.hole, minutes=duration(u.minutes)
                )
            )
    out.extend(explained(g, tz, lang))
    for d in g.acts.decisions:
        if d.decision == "not_time":
            reason = text(f"reason.{d.reason}", lang) if d.reason else text("reason.other", lang)
            out.append(text("letter.not_timed", lang, time=clock(d.at, tz), reason=reason))
    for s in g.acts.spells:
        out.append(text("letter.timed", lang, time=clock(s.start, tz), hole=hole_at(g, s.start)))
        if s.end is not None:
            out.append(text("letter.spell_end", lang, time=clock(s.end, tz)))
    return out


def explained(g: rp.GroupReport, tz: tzinfo, lang: str) -> list[str]:
    """Return why the group was named (out of position, holding the field up), each in two
    paragraphs: the figures and the verdict, then the facts they rest on; the end of an
    episode is said by the episode's own line (docs/explanations.md)."""
    out = []
    for x in g.explanations:
        if x.subject == ex.BACK_IN_POSITION:
            continue
        said = why.say(x, lang, tz)
        out.append(f"{said.title}. " + " ".join(said.sentences))
        facts = text("explain.then", lang).join(f"{time} {line}" for time, line in said.timeline)
        out.append(f"{text('explain.facts', lang)} {facts}.")
    return out


def _player_paragraphs(meta: ReportMeta, p: rp.PlayerReport, lang: str) -> list[str]:
    tz = meta.tz
    out = [text("letter.told", lang, name=p.name, time=clock(a.at, tz), by=a.by) for a in p.told]
    if p.strokes:
        items = [
            text(
                "letter.stroke",
                lang,
                seconds=seconds(s.verdict.stroke.duration, lang),
                hole=s.verdict.stroke.hole,
                allowed=seconds(s.verdict.allowed, lang),
                bad=text("letter.bad", lang) if s.verdict.is_bad_time else "",
            )  # fmt: skip
            for s in p.strokes
        ]
        out.append(text("letter.strokes", lang, name=p.name, list="; ".join(items)))
    for f in p.faults:
        o = f.outcome
        outcome = effect(o.penalty, lang) if o.counted else text(f"why.{o.reason.value}", lang)
        line = text(
            "letter.fault", lang, name=p.name, fault=fault_words(f, meta, lang),
            hole=o.fault.hole, time=clock(o.fault.at, tz), outcome=outcome,
        )  # fmt: skip
        if f.notified is not None:
            line += text("letter.fault_told", lang, time=clock(f.notified.at, tz), by=f.notified.by)
        out.append(line)
    return out


def fault_words(f: rp.FaultReport, meta: ReportMeta, lang: str) -> str:
    """Return what a fault was: a bad time, or a checkpoint breach with its stretch."""
    b = f.breach
    if b is None:
        return text("fault.bad_time", lang)
    return text(
        "fault.checkpoint", lang, taken=duration(b.taken), limit=duration(b.limit),
        holes=f"…{b.after_hole}",
    )  # fmt: skip


def _finish(meta: ReportMeta, g: rp.GroupReport, lang: str) -> str:
    tz = meta.tz
    if g.finish is not None and g.over is not None:
        stopped = text("letter.stopped", lang, minutes=duration(g.stopped)) if g.stopped else ""
        key = "letter.finish" if g.over > timedelta(0) else "letter.finish_within"
        return text(
            key, lang, finish=clock(g.finish, tz), round_time=duration(g.round_time),
            allotted=duration(g.allotted), over=_whole_minutes(g.over), stopped=stopped,
        )  # fmt: skip
    last = max((h for h in g.holes if h.logged is not None), key=lambda h: h.position, default=None)
    if last is None or last.logged is None:
        return ""
    return text("letter.unfinished", lang, hole=last.hole, time=clock(last.logged, tz))


def _concerned(p: rp.PlayerReport) -> bool:
    return bool(p.strokes or p.faults or p.told)


def letters(
    meta: ReportMeta, r: rp.RoundReport, lang: str, per: str = PER_PLAYER
) -> tuple[Letter, ...]:
    """Return the round's letters: one per player (``per="player"``) or per group concerned."""
    out = []
    own = dict(meta.languages)
    for g in r.groups:
        concerned = [p for p in g.players if _concerned(p)]
        if not g.episodes and not concerned:
            continue
        parts: dict[str, tuple[list[str], list[str]]] = {}

        def group_words(
            in_lang: str,
            g: rp.GroupReport = g,
            parts: dict[str, tuple[list[str], list[str]]] = parts,
        ) -> tuple[list[str], list[str]]:
            if in_lang not in parts:  # the group's paragraphs, once per language
                closing = [_finish(meta, g, in_lang), text("letter.closing", in_lang)]
                parts[in_lang] = (_group_paragraphs(meta, g, in_lang, r.field.held_up),
                                  [x for x in closing if x])  # fmt: skip
            return parts[in_lang]

        if per == PER_GROUP:
            spoken = {own.get(p.name) for p in g.players}
            glang = spoken.pop() if len(spoken) == 1 and None not in spoken else lang
            group_part, closing = group_words(glang)
            body = [*group_part]
            for p in g.players:
                body += _player_paragraphs(meta, p, glang)
            names = ", ".join(p.name for p in g.players)
            to = text("letter.to_group", glang, group=g.id, names=names)
            out.append(Letter(to, g.id, tuple(body + closing), glang))
            continue
        for p in g.players if g.episodes else concerned:
            plang = own.get(p.name) or lang
            group_part, closing = group_words(plang)
            body = [*group_part, *_player_paragraphs(meta, p, plang)]
            to = text("letter.to_player", plang, name=p.name, group=g.id)
            out.append(Letter(to, g.id, tuple(body + closing), plang))
    return tuple(out)


def recipients(letters_: Sequence[Letter]) -> tuple[str, ...]:
    """Return whom the letters are to, in order."""
    return tuple(x.to for x in letters_)
