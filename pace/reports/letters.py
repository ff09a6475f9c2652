"""Facts-only letters after the round, one per player (or per group), in French, English or Dutch.

Each letter is in its player's language where the draw gives one (its ``language`` column),
else in the language asked for (the round's); a group's letter is in its players' language
when they share one.


A letter states what was logged, with no judgement: the hole where the group was furthest
over its allotted time, how far behind the group ahead, when it was out of position, when
and by whom it was timed and the players told, each timed stroke, each fault and what it
cost (``words.effect``), and the round time. Who gets one: every player (group) whose group
was out of position, or who had a stroke timed or a fault.

A letter never names a group on its own reports alone (issue 46, docs/reports.md "Letters"):
an out-of-position episode is named only when an official saw one of the completions that
put or kept the group out of position (``EpisodeReport.seen_by_official``), its worst hole
given among those; a hold-up only when an official saw the group complete that hole. And
it says truly where its hole times came from: the officials, the groups' cards, or how many
of each (:func:`sources`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo

from pace import i18n
from pace.documents.report import ReportMeta
from pace.reports import why
from pace.reports.words import (
    author,
    clock,
    duration,
    effect,
    seconds,
    text,
    text_n,
)
from pace.rules import explain as ex
from pace.rules import report as rp
from pace.rules import reported
from pace.rules.model import HoleCompletion, Status

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


def named(g: rp.GroupReport) -> tuple[rp.EpisodeReport, ...]:
    """Return the group's episodes a letter names: those an official saw (issue 46)."""
    return tuple(e for e in g.episodes if e.seen_by_official)


def _official(row: rp.HoleRow | None) -> bool:
    return row is not None and row.logged is not None and row.source == reported.OFFICIAL


def _worst(e: rp.EpisodeReport, rows: Mapping[int, rp.HoleRow]) -> rp.HoleRow | None:
    """Return the completion a letter gives for episode ``e``: the furthest over among those
    judged out of position that an official saw (the report's worst when none was judged)."""
    if not e.judged:
        return rows.get(e.worst_hole) if e.worst_hole is not None else None
    seen = [rows[h] for h in e.judged if _official(rows.get(h))]
    return max(seen, key=lambda r: r.over or timedelta(0), default=None)


def held_named(g: rp.GroupReport, held: Sequence[rp.HoldUp]) -> list[rp.HoldUp]:
    """Return the group's hold-ups a letter names: at a hole an official saw it complete."""
    rows = {h.hole: h for h in g.holes}
    return [u for u in held if u.group == g.id and _official(rows.get(u.worst.hole))]


def _batched_ahead(g: rp.GroupReport, row: rp.HoleRow, seen: why.Seen) -> HoleCompletion | None:
    """Return the report of ``row``'s hole that another group entered in a batch before the
    group completed it, when nobody was seen completing the hole before (a following group)."""
    if g.plan.lead or row.gap is not None or row.logged is None:
        return None
    found = [c for c in seen.batched
             if c.hole == row.hole and c.group != g.id and c.at <= row.logged]  # fmt: skip
    return max(found, key=lambda c: c.at, default=None)


def _group_paragraphs(
    meta: ReportMeta,
    g: rp.GroupReport,
    lang: str,
    held: Sequence[rp.HoldUp] = (),
    seen: why.Seen | None = None,
) -> list[str]:
    tz = meta.tz
    seen = seen or why.Seen()
    out = [
        text(
            "letter.opening",
            lang,
            round=meta.round,
            day=i18n.day_text(meta.day, lang),
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
    for e in named(g):
        ep = e.episode
        worst = _worst(e, rows)
        if worst is not None and worst.over is not None and worst.logged is not None:
            time, over = clock(worst.logged, tz), _whole_minutes(worst.over)
            batch = _batched_ahead(g, worst, seen)
            if batch is not None:
                out.append(text("letter.worst_batched", lang, hole=worst.hole, time=time,
                                over=over, ahead=batch.group))  # fmt: skip
            elif worst.gap is None:
                out.append(text("letter.worst_lead", lang, hole=worst.hole, time=time, over=over))
            else:
                out.append(text("letter.worst", lang, hole=worst.hole, time=time, over=over,
                                gap=_whole_minutes(worst.gap)))  # fmt: skip
        if ep.end is not None and ep.ended_by == "back_in_position":
            out.append(
                text("letter.episode", lang, first=ep.start_hole, start=clock(ep.start, tz),
                     last=ep.end_hole, end=clock(ep.end, tz))
            )  # fmt: skip
        else:
            out.append(
                text("letter.episode_open", lang, first=ep.start_hole, start=clock(ep.start, tz))
            )
    unnamed = [e for e in g.episodes if not e.seen_by_official]
    if unnamed:
        # issue 46: what the group's own reports alone would suggest is neither said nor hinted
        # (nor what its positions alone would, issue 48)
        rows = {h.hole: h for h in g.holes}
        holes = [h for e in unnamed for h in (e.judged or (e.episode.start_hole,))]
        by_positions = all(
            rows.get(h) is not None and rows[h].source == reported.POSITION for h in holes
        )
        out.append(text("letter.positions_only" if by_positions else "letter.reports_only", lang))
    for u in held_named(g, held):
        out.append(
            text_n("letter.held", u.groups, lang, hole=u.worst.hole, minutes=duration(u.minutes))
        )
    out.extend(explained(g, tz, lang, seen, held))
    for d in g.acts.decisions:
        if d.decision == "not_time":
            reason = text(f"reason.{d.reason}", lang) if d.reason else text("reason.other", lang)
            out.append(text("letter.not_timed", lang, time=clock(d.at, tz), reason=reason))
    for s in g.acts.spells:
        out.append(text("letter.timed", lang, time=clock(s.start, tz), hole=hole_at(g, s.start)))
        if s.end is not None:
            out.append(text("letter.spell_end", lang, time=clock(s.end, tz)))
    return out


def told(g: rp.GroupReport, held: Sequence[rp.HoldUp]) -> list[ex.Explanation]:
    """Return the explanations a letter gives of ``g``: the start of each episode it names and
    each hold-up it names (the end of an episode is said by the episode's own line)."""
    starts = {e.episode.start for e in named(g)}
    holes = {u.worst.hole for u in held_named(g, held)}
    return [
        x
        for x in g.explanations
        if (x.subject == ex.OUT_OF_POSITION and x.at in starts)
        or (x.subject == ex.HELD_UP and x.hole in holes)
    ]


def explained(
    g: rp.GroupReport,
    tz: tzinfo,
    lang: str,
    seen: why.Seen | None = None,
    held: Sequence[rp.HoldUp] | None = None,
) -> list[str]:
    """Return why the group was named (out of position, holding the field up), each in two
    paragraphs: the figures and the verdict, then the facts they rest on; the end of an
    episode is said by the episode's own line (docs/explanations.md). With ``held`` (the
    field's hold-ups), only what a letter names (:func:`told`, issue 46)."""
    out = []
    for x in g.explanations if held is None else told(g, held):
        if x.subject == ex.BACK_IN_POSITION:
            continue
        said = why.say(x, lang, tz, seen)
        out.append(f"{said.title}. " + " ".join(said.sentences))
        facts = text("explain.then", lang).join(f"{time} {line}" for time, line in said.timeline)
        out.append(f"{text('explain.facts', lang)} {facts}.")
    return out


def hole_sources(r: rp.RoundReport) -> dict[tuple[str, int], str]:
    """Return who saw each completion of the report: (group, hole) to ``official``/``group``."""
    return {(g.id, h.hole): h.source for g in r.groups for h in g.holes if h.logged is not None}


def sources(
    r: rp.RoundReport, g: rp.GroupReport, known: Mapping[tuple[str, int], str] | None = None
) -> tuple[int, int]:
    """Return how many of the hole times a letter to ``g`` gives an official logged and how
    many the groups entered on their cards (issue 46): every completion of the group's own
    (its round, its finish, its holes over time) and those of the other groups it cites (the
    group ahead at an episode's worst hole, the groups in the facts of its explanations).
    ``known``: :func:`hole_sources` of ``r``, read once for every letter."""
    known = hole_sources(r) if known is None else known
    cited = {(g.id, h.hole) for h in g.holes if h.logged is not None}
    rows = {h.hole: h for h in g.holes}
    for e in named(g):
        worst = _worst(e, rows)
        if worst is not None and worst.ahead is not None:
            cited.add((worst.ahead, worst.hole))
    for x in told(g, r.field.held_up):
        for ln in x.timeline:
            if ln.kind in (ex.TAP, ex.AHEAD) and ln.group is not None and ln.hole is not None:
                cited.add((ln.group, ln.hole))
    found = [known.get(key) for key in cited]
    return (sum(1 for s in found if s == reported.OFFICIAL),
            sum(1 for s in found if s == reported.GROUP),
            sum(1 for s in found if s == reported.POSITION))  # fmt: skip


def closing(counts: tuple[int, int, int], acts: bool, lang: str) -> list[str]:
    """Return where a letter's facts came from, truly (issues 46, 48): the officials alone (the
    sentence every letter said before), the groups' cards alone, the positions of the groups'
    phones alone, or how many of each; when hole times came from anyone but the officials,
    also that the referees logged their own acts (``acts``)."""
    officials, groups, positions = counts
    if not groups and not positions:
        return [text("letter.closing", lang)]
    if positions:
        if not officials and not groups:
            said = [text("letter.closing_positions", lang)]
        else:
            parts = [text_n(f"letter.source.{kind}", n, lang) for kind, n in
                     (("officials", officials), ("groups", groups), ("positions", positions))
                     if n]  # fmt: skip
            said = [text("letter.closing_mixed", lang, list="; ".join(parts))]
    elif not officials:
        said = [text("letter.closing_groups", lang)]
    else:
        said = [text("letter.closing_both", lang,
                     officials=text_n("letter.source.officials", officials, lang),
                     groups=text_n("letter.source.groups", groups, lang))]  # fmt: skip
    if acts:
        said.append(text("letter.closing_acts", lang))
    return said


def _player_paragraphs(meta: ReportMeta, p: rp.PlayerReport, lang: str) -> list[str]:
    tz = meta.tz
    out = [text("letter.told", lang, name=p.name, time=clock(a.at, tz), by=author(a.by, lang))
           for a in p.told]  # fmt: skip
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
            line += text("letter.fault_told", lang, time=clock(f.notified.at, tz),
                         by=author(f.notified.by, lang))  # fmt: skip
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


def _acts(g: rp.GroupReport, players: Sequence[rp.PlayerReport]) -> bool:
    """Return whether a letter about ``g`` to ``players`` gives a referee's act."""
    return bool(g.acts.decisions or g.acts.spells) or any(map(_concerned, players))


def letters(
    meta: ReportMeta, r: rp.RoundReport, lang: str, per: str = PER_PLAYER
) -> tuple[Letter, ...]:
    """Return the round's letters: one per player (``per="player"``) or per group concerned.

    A group whose every episode rests on its own reports alone is not out of position for
    a letter (:func:`named`): its players get one only for a stroke timed, a fault or a
    notice (issue 46)."""
    out = []
    own = dict(meta.languages)
    seen = why.Seen.of(r)
    known = hole_sources(r)
    for g in r.groups:
        concerned = [p for p in g.players if _concerned(p)]
        if not named(g) and not concerned:
            continue
        parts: dict[str, tuple[list[str], str]] = {}
        counts = sources(r, g, known)

        def group_words(
            in_lang: str,
            g: rp.GroupReport = g,
            parts: dict[str, tuple[list[str], str]] = parts,
        ) -> tuple[list[str], str]:
            if in_lang not in parts:  # the group's paragraphs, once per language
                parts[in_lang] = (_group_paragraphs(meta, g, in_lang, r.field.held_up, seen),
                                  _finish(meta, g, in_lang))  # fmt: skip
            return parts[in_lang]

        def ending(
            finish: str,
            players: Sequence[rp.PlayerReport],
            in_lang: str,
            g: rp.GroupReport = g,
            counts: tuple[int, int] = counts,
        ) -> list[str]:
            return [x for x in (finish, *closing(counts, _acts(g, players), in_lang)) if x]

        if per == PER_GROUP:
            spoken = {own.get(p.name) for p in g.players}
            glang = spoken.pop() if len(spoken) == 1 and None not in spoken else lang
            group_part, finish = group_words(glang)
            body = [*group_part]
            for p in g.players:
                body += _player_paragraphs(meta, p, glang)
            names = ", ".join(p.name for p in g.players)
            to = text("letter.to_group", glang, group=g.id, names=names)
            body += ending(finish, g.players, glang)
            out.append(Letter(to, g.id, tuple(body), glang))
            continue
        for p in g.players if named(g) else concerned:
            plang = own.get(p.name) or lang
            group_part, finish = group_words(plang)
            body = [*group_part, *_player_paragraphs(meta, p, plang), *ending(finish, [p], plang)]
            to = text("letter.to_player", plang, name=p.name, group=g.id)
            out.append(Letter(to, g.id, tuple(body), plang))
    return tuple(out)


def recipients(letters_: Sequence[Letter]) -> tuple[str, ...]:
    """Return whom the letters are to, in order."""
    return tuple(x.to for x in letters_)
