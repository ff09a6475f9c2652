"""Letters of rounds timed by the groups' own reports (issue 46, docs/reports.md "Letters").

A letter never names a group out of position on its own reports alone, always says truly where
its hole times came from, and says the truth when the group ahead entered a hole only in a
batch. Each round here is a small log of reports (``source: group``, a scorer's device) and
officials' taps (a marshal's), read by the facts fold and the report as the server reads them.
"""

from __future__ import annotations

from datetime import date

import pytest

from pace.documents.report import ReportMeta
from pace.reports import html, letters, why, words
from pace.rules import facts as factsmod
from pace.rules import policies, report
from pace.rules.events import Event
from tests.builders import at, make_course, make_group, make_setup

SCORER = {"role": "scorer", "device": "phone-b"}
MARSHAL = {"role": "marshal", "name": "Hélène"}
META = ReportMeta("R", "Club", date(2025, 6, 14), "UTC", "frbg", "stroke_play", "individual")
#: six holes of 15 minutes; A leads, B follows at a 10-minute interval
SETUP = make_setup(make_course(pars=[4] * 6), [make_group("A", "08:00"), make_group("B", "08:10")])
#: A on pace, every hole reported by its own scorer
A_HOLES = {1: "08:14", 2: "08:28", 3: "08:42", 4: "08:56", 5: "09:10", 6: "09:24"}
#: B out of position on holes 1-2 (back on 3) and again on hole 5 (back on 6)
B_HOLES = {1: "08:35", 2: "08:42", 3: "08:52", 4: "09:00", 5: "09:30", 6: "09:38"}


def done(group: str, hole: int, hhmm: str, official: bool = False) -> Event:
    payload: dict[str, object] = {"group": group, "hole": hole}
    if not official:
        payload["source"] = "group"
    return Event(f"{group}{hole}", "hole_completed", "R", at(hhmm), payload,
                 by=MARSHAL if official else SCORER)  # fmt: skip


def told(group: str, player: str, hhmm: str) -> Event:
    referee = {"role": "referee", "name": "Anne"}
    return Event(f"told-{player}", "player_told_timed", "R", at(hhmm),
                 {"group": group, "player": player}, by=referee)  # fmt: skip


def round_of(
    *events: Event, official: frozenset[tuple[str, int]] = frozenset()
) -> report.RoundReport:
    log = [done("A", h, t, ("A", h) in official) for h, t in A_HOLES.items()]
    log += [done("B", h, t, ("B", h) in official) for h, t in B_HOLES.items()]
    log += events
    log.sort(key=lambda e: e.at)
    return report.build_report(SETUP, factsmod.fold(log), log, policies.FRBG, at("12:00"))


def test_the_report_still_finds_both_episodes_and_says_which_an_official_saw():
    r = round_of(official=frozenset({("B", 5)}))
    first, second = r.group("B").episodes
    assert (first.episode.start_hole, first.judged, first.seen_by_official) == (1, (1, 2), False)
    assert (second.episode.start_hole, second.judged, second.seen_by_official) == (5, (5,), True)


def test_a_round_timed_by_reports_alone_names_nobody():
    r = round_of()
    assert [e.episode.start_hole for e in r.group("B").episodes] == [1, 5]  # the rules saw them
    assert letters.letters(META, r, "en") == ()  # nobody is written to on reports alone
    page = html.letters_html(META, r, "en")
    assert "no official saw a group out of position" in page
    assert "no group was out of position" not in page  # the rules did find two episodes


@pytest.mark.parametrize(
    "lang, not_enough, source, acts",
    [
        ("en", "are not enough to establish anything",
         "The hole times in this letter were entered by the groups' scorers on their cards; no "
         "marshal or referee saw them.",
         "The referees' decisions, timings and notices were logged by the referees."),
        ("fr", "ne suffisent pas à établir quoi que ce soit",
         "Les heures de trou de cette lettre ont été saisies par les marqueurs des parties sur "
         "leur carte ; aucun commissaire ni arbitre ne les a relevées.",
         "Les décisions, chronométrages et informations des arbitres ont été enregistrés par les "
         "arbitres."),
        ("nl", "volstaan niet om iets over haar positie op de baan vast te stellen",
         "De holetijden in deze brief werden door de scorers van de flights op hun kaart "
         "ingevoerd; geen marshal of scheidsrechter heeft ze gezien.",
         "De beslissingen, timings en verwittigingen van de scheidsrechters werden door de "
         "scheidsrechters geregistreerd."),
    ],
)  # fmt: skip
def test_a_letter_sent_for_another_reason_accuses_nobody_and_says_the_cards_gave_its_times(
    lang, not_enough, source, acts
):
    r = round_of(told("B", "B1", "09:05"))
    [letter] = letters.letters(META, r, lang)
    said = " ".join(letter.paragraphs)
    assert "B1" in letter.to
    assert "hole 1 (08:35)" not in said and "(08:35)" not in said  # no episode named
    assert not any(x in said for x in ("out of position", "hors position", "uit positie"))
    assert not_enough in said
    assert letter.paragraphs[-2:] == (source, acts)
    assert "marshals and referees" not in source


@pytest.mark.parametrize(
    "lang, source",
    [
        ("en", "Of the hole times in this letter, 1 was logged by the committee's marshals and "
               "referees, and 6 were entered by the groups' scorers on their cards."),
        ("fr", "Parmi les heures de trou de cette lettre, 1 a été enregistrée par les commissaires "
               "et les arbitres du comité, et 6 ont été saisies par les marqueurs des parties sur "
               "leur carte."),
        ("nl", "Van de holetijden in deze brief: 1 werd geregistreerd door de marshals en "
               "scheidsrechters van het comité, en 6 werden door de scorers van de flights op hun "
               "kaart ingevoerd."),
    ],
)  # fmt: skip
def test_a_mixed_round_names_only_the_episode_an_official_saw_and_counts_each_source(lang, source):
    r = round_of(official=frozenset({("B", 5)}))
    sent = letters.letters(META, r, lang)
    assert [x.to for x in sent] == [words.text("letter.to_player", lang, name=f"B{i}",
                                                      group="B") for i in range(1, 5)]  # fmt: skip
    said = " ".join(sent[0].paragraphs)
    assert "(09:30)" in said and "(08:35)" not in said  # the second episode, not the first
    assert sent[0].paragraphs[-1] == source  # no referee act: no sentence about them
    # B's six holes (one an official's tap) and A's hole 5, ahead of it there
    assert letters.sources(r, r.group("B")) == (1, 6, 0)


def test_the_named_episodes_worst_hole_is_one_an_official_saw():
    # B's third hole an official's tap too: the episode of holes 1-2 stays unnamed (3 is back
    # in position), the second episode's hole 5 is the official's, over 5 min, 20 min behind A
    r = round_of(official=frozenset({("B", 5)}))
    [letter, *_] = letters.letters(META, r, "en")
    assert ("Your group finished hole 5 at 09:30, 5 minutes over its allotted time and 20 "
            "minutes behind the group ahead.") in letter.paragraphs  # fmt: skip
    assert "It was out of position from hole 5 (09:30) to hole 6 (09:38)." in letter.paragraphs
    assert not any("from hole 1" in p for p in letter.paragraphs)


def test_an_episode_an_official_kept_going_is_named_though_a_report_began_it():
    # B's hole 2 (still out of position) tapped by a marshal: the first episode rests on it
    r = round_of(official=frozenset({("B", 2)}))
    first, _ = r.group("B").episodes
    assert first.seen_by_official
    [letter, *_] = letters.letters(META, r, "en")
    assert "It was out of position from hole 1 (08:35) to hole 3 (08:52)." in letter.paragraphs
    # its worst hole as an official saw it: hole 2, not hole 1 (the report, 10 min over)
    assert any(p.startswith("Your group finished hole 2 at 08:42, 2 minutes over")
               for p in letter.paragraphs)  # fmt: skip
    assert not any(p.startswith("Your group finished hole 1 at") for p in letter.paragraphs)


def test_a_round_of_officials_taps_reads_as_before():
    every = frozenset((g, h) for g in "AB" for h in range(1, 7))
    r = round_of(official=every)
    sent = letters.letters(META, r, "en")
    assert len(sent) == 4
    assert sent[0].paragraphs[-1] == (
        "These are the facts logged by the committee's marshals and referees."
    )
    assert not any("entered on its own card" in p for p in sent[0].paragraphs)
    assert any("from hole 1 (08:35)" in p for p in sent[0].paragraphs)


def test_the_explanation_says_which_completions_the_groups_reported():
    r = round_of(official=frozenset({("B", 5)}))
    [letter, *_] = letters.letters(META, r, "en")
    facts = next(p for p in letter.paragraphs if p.startswith("The facts:"))
    assert "group A, ahead, reports on its card that it completed hole 5" in facts
    assert "group B completes hole 5 — Hélène" in facts


# -- the group ahead entered the hole only in a batch -----------------------------------------

#: A enters holes 1 and 2 within a minute on the 3rd tee: hole 1 is not a fact. B's hole 1,
#: tapped by a marshal, 10 min over: nobody was seen completing hole 1 before it.
BATCH = [
    done("A", 1, "08:29"),
    done("A", 2, "08:29:30"),
    done("A", 3, "08:44"),
    done("B", 1, "08:35", official=True),
]


def batch_round() -> report.RoundReport:
    return report.build_report(SETUP, factsmod.fold(BATCH), BATCH, policies.FRBG, at("09:00"))


def test_the_report_keeps_the_reports_a_batch_left_out():
    r = batch_round()
    assert [(c.group, c.hole, c.at) for c in r.batched] == [("A", 1, at("08:29"))]
    assert r.group("B").holes[0].gap is None  # the rules judge B as a lead group there


@pytest.mark.parametrize(
    "lang, worst, because",
    [
        ("en", "Your group finished hole 1 at 08:35, 10 minutes over its allotted time; group A, "
               "ahead of it, entered hole 1 on its card only together with a later hole, so when "
               "it completed hole 1, and the gap to it, are not known.",
         "Group A completed hole 1 before it but entered it on its card only together with a "
         "later hole (at 08:29): when it completed hole 1 is not known, so no gap can be "
         "measured and it is judged as a lead group."),
        ("fr", "Votre partie a terminé le trou 1 à 08:35, 10 minutes au-delà de son temps alloué ; "
               "la partie A, qui la précédait, n'a saisi le trou 1 sur sa carte qu'avec un trou "
               "suivant : on ne sait donc pas quand elle a terminé le trou 1, ni l'écart qui les "
               "séparait.",
         "La partie A a terminé le trou 1 avant elle, mais ne l'a saisi sur sa carte qu'avec un "
         "trou suivant (à 08:29)"),
        ("nl", "Uw flight speelde hole 1 uit om 08:35, 10 minuten boven de toegestane tijd; "
               "flight A, die ervoor speelde, voerde hole 1 pas samen met een latere hole op haar "
               "kaart in, zodat niet bekend is wanneer ze hole 1 uitspeelde, noch de afstand tot "
               "haar.",
         "Flight A speelde hole 1 vóór haar uit, maar voerde die pas samen met een latere hole op "
         "haar kaart in (om 08:29)"),
    ],
)  # fmt: skip
def test_a_letter_says_the_group_ahead_entered_the_hole_only_in_a_batch(lang, worst, because):
    [letter, *_] = letters.letters(META, batch_round(), lang)
    said = " ".join(letter.paragraphs)
    assert worst in letter.paragraphs
    assert because in said
    for nobody in ("No group was seen completing hole 1", "with no group ahead of it",
                   "Aucune partie n’a été vue", "sans partie devant elle",
                   "Geen enkele flight werd hole 1"):  # fmt: skip
        assert nobody not in said


def test_the_reports_explanation_says_it_too():
    r = batch_round()
    [x] = [x for x in r.group("B").explanations if x.subject == "out_of_position"]
    said = " ".join(why.say(x, "en", META.tz, why.Seen.of(r)).sentences)
    assert "Group A completed hole 1 before it but entered it on its card only" in said
    assert "No group was seen completing hole 1" not in said
    page = html.report_html(META, r, "en")
    assert "Group A completed hole 1 before it but entered it on its card only" in page
    assert "No group was seen completing hole 1" not in page


def test_nobody_seen_ahead_and_no_batch_still_reads_as_before():
    log = [done("B", 1, "08:35", official=True)]
    r = report.build_report(SETUP, factsmod.fold(log), log, policies.FRBG, at("09:00"))
    [letter, *_] = letters.letters(META, r, "en")
    assert ("Your group finished hole 1 at 08:35, 10 minutes over its allotted time, with no "
            "group ahead of it.") in letter.paragraphs  # fmt: skip
    assert "No group was seen completing hole 1 before it" in " ".join(letter.paragraphs)


def test_the_fact_cited_for_a_hole_both_saw_is_the_officials_tap_that_counts():
    # B reported hole 5 at 09:28 and a marshal tapped it at 09:30: the tap counts (docs/status.md,
    # "an official's tap wins"), so the facts name the marshal and the tap's event, not the card
    r = round_of(Event("B5-card", "hole_completed", "R", at("09:28"), {"group": "B", "hole": 5,
                                                                       "source": "group"},
                       by=SCORER), official=frozenset({("B", 5)}))  # fmt: skip
    [letter, *_] = letters.letters(META, r, "en")
    facts = next(p for p in letter.paragraphs if p.startswith("The facts:"))
    assert "09:30 group B completes hole 5 — Hélène, event B5" in facts
    assert "scorer" not in facts.split("09:30 group B")[1].split(";")[0]


def test_positions_alone_name_nobody_and_an_official_still_does():
    # issue 48: a completion inferred from the group's positions is no official's observation
    def by_positions(group: str, hole: int, hhmm: str, official: bool = False) -> Event:
        e = done(group, hole, hhmm, official)
        if official:
            return e
        payload = {**e.payload, "source": "position", "earliest": at(hhmm).isoformat(),
                   "latest": at(hhmm).isoformat()}  # fmt: skip
        return Event(e.id, e.type, e.round, e.at, payload, by={"role": "positions"})

    log = [by_positions("A", h, t) for h, t in A_HOLES.items()]
    log += [by_positions("B", h, t, (h == 5)) for h, t in B_HOLES.items()]
    log.sort(key=lambda e: e.at)
    r = report.build_report(SETUP, factsmod.fold(log), log, policies.FRBG, at("12:00"))
    first, second = r.group("B").episodes
    assert (first.episode.start_hole, first.seen_by_official) == (1, False)
    assert (second.episode.start_hole, second.seen_by_official) == (5, True)
    assert [e.episode.start_hole for e in letters.named(r.group("B"))] == [5]


@pytest.mark.parametrize(
    "lang, closing, only",
    [
        ("en", "inferred from the positions of the groups' phones",
         "inferred from the positions of your group's phone are not enough"),
        ("fr", "déduites des positions des téléphones des parties",
         "déduites des positions du téléphone de votre partie ne suffisent pas"),
        ("nl", "afgeleid uit de posities van de telefoons van de flights",
         "afgeleid uit de posities van de telefoon van uw flight volstaan niet"),
    ],
)
def test_a_letter_says_its_hole_times_came_from_the_phones_positions(lang, closing, only):
    # B's hole 5 seen by an official, every other hole inferred from positions: the letter
    # names the 5th's episode only and says where each of its hole times came from
    def by_positions(group: str, hole: int, hhmm: str, official: bool = False) -> Event:
        if official:
            return done(group, hole, hhmm, True)
        return Event(f"{group}{hole}", "hole_completed", "R", at(hhmm),
                     {"group": group, "hole": hole, "source": "position",
                      "earliest": at(hhmm).isoformat(), "latest": at(hhmm).isoformat()},
                     by={"role": "positions"})  # fmt: skip

    log = [by_positions("A", h, t) for h, t in A_HOLES.items()]
    log += [by_positions("B", h, t, h == 5) for h, t in B_HOLES.items()]
    log.sort(key=lambda e: e.at)
    r = report.build_report(SETUP, factsmod.fold(log), log, policies.FRBG, at("12:00"))
    official, groups, positions = letters.sources(r, r.group("B"))
    assert (official, groups) == (1, 0) and positions > 0
    sent = [x for x in letters.letters(META, r, lang) if x.group == "B"]
    text = " ".join(" ".join(x.paragraphs) for x in sent)
    assert closing in text and only in text
    assert "scorers" not in text and "marqueurs" not in text and "scorers van" not in text
