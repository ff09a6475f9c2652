"""The words of the reports and letters, in French and English, and how numbers are written.

Everything a report says in a language is here, so the HTML page, the PDF, the letters and
the CSV say the same. ``effect`` is the one place that states what a penalty does to the
card; it reads the judged penalty (kind, amount, hole, bearer) and nothing else yet, so the
scoring module's card can take its place later without the reports changing.
"""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

from pace.rules.penalties import Penalty

LANGUAGES = ("fr", "en")

TEXTS: dict[str, dict[str, str]] = {
    "title": {"en": "Pace-of-play report", "fr": "Rapport sur le rythme de jeu"},
    "round": {"en": "Round", "fr": "Tour"},
    "course": {"en": "Course", "fr": "Parcours"},
    "day": {"en": "Day", "fr": "Jour"},
    "policy": {"en": "Pace policy", "fr": "Règlement de rythme"},
    "as_of": {"en": "Facts logged up to", "fr": "Faits enregistrés jusqu'à"},
    "in_play": {
        "en": "The round is still in play: groups not finished are reported as they stand.",
        "fr": "Le tour est encore en cours : les parties non terminées sont présentées en l'état.",
    },
    "interval": {"en": "Standard starting interval", "fr": "Intervalle de départ standard"},
    "summary": {"en": "The field", "fr": "Le terrain"},
    "groups": {"en": "Groups", "fr": "Parties"},
    "finished": {"en": "Finished", "fr": "Terminées"},
    "not_finished": {"en": "Not finished", "fr": "Non terminées"},
    "field_chart": {
        "en": "Holes played against the clock: each group's logged completions (solid), its "
        "allotted pace (dotted, same colour), out of position (red), sirens (grey)",
        "fr": "Trous joués selon l'heure : les fins de trou enregistrées de chaque partie "
        "(trait plein), son rythme alloué (pointillé, même couleur), hors position (rouge), "
        "sirènes (gris)",
    },
    "round_times": {
        "en": "Round times against the allotted time",
        "fr": "Temps de jeu par rapport au temps alloué",
    },
    "bands": {
        "en": "Finishing times over the allotment, 10-minute bands",
        "fr": "Temps de fin par rapport au temps alloué, par tranches de 10 minutes",
    },
    "band": {"en": "Minutes over", "fr": "Minutes de retard"},
    "band_range": {"en": "{low} to {high}", "fr": "{low} à {high}"},
    "holes_summary": {"en": "Hole by hole", "fr": "Trou par trou"},
    "holes_chart": {
        "en": "Average minutes over each hole's own allotment (red: slower, green: faster)",
        "fr": "Minutes moyennes au-delà du temps alloué de chaque trou (rouge : plus lent, "
        "vert : plus rapide)",
    },
    "bottlenecks": {"en": "Bottleneck holes", "fr": "Trous goulots"},
    "no_bottleneck": {
        "en": "No hole took longer than its allotment on average.",
        "fr": "Aucun trou n'a pris plus que son temps alloué en moyenne.",
    },
    "stoppages": {"en": "Stops of play (sirens)", "fr": "Arrêts de jeu (sirènes)"},
    "no_stoppage": {"en": "No stop of play.", "fr": "Aucun arrêt de jeu."},
    "stopped_total": {
        "en": "Play stopped {minutes} in all; {group_minutes} of group time on the course "
        "(not counted against anybody).",
        "fr": "Jeu arrêté {minutes} au total ; {group_minutes} de temps de parties sur le "
        "parcours (comptées à personne).",
    },
    "held_up": {"en": "Who held the field up", "fr": "Qui a retenu le terrain"},
    "held_up_hint": {
        "en": "A group out of position (open course ahead) while the groups that completed "
        "the hole right after it were close and over time. Minutes: the held groups' minutes "
        "over at that hole, added up.",
        "fr": "Une partie hors position (parcours libre devant elle) pendant que les parties "
        "qui ont fini le trou juste après elle étaient proches et en retard. Minutes : les "
        "retards des parties retenues à ce trou, additionnés.",
    },
    "nobody_held": {
        "en": "No group held the field up.",
        "fr": "Aucune partie n'a retenu le terrain.",
    },
    "held_line": {
        "en": "Group {group} held up {count} groups at hole {hole} ({time}): {minutes} in all "
        "({behind}); on holes {holes}.",
        "fr": "La partie {group} a retenu {count} parties au trou {hole} ({time}) : {minutes} "
        "au total ({behind}) ; aux trous {holes}.",
    },
    "held_line.one": {
        "en": "Group {group} held up 1 group at hole {hole} ({time}): {minutes} ({behind}); "
        "on holes {holes}.",
        "fr": "La partie {group} a retenu 1 partie au trou {hole} ({time}) : {minutes} "
        "({behind}) ; aux trous {holes}.",
    },
    "group": {"en": "Group", "fr": "Partie"},
    "group_n": {"en": "Group {group}", "fr": "Partie {group}"},
    "start": {"en": "Start", "fr": "Départ"},
    "tee": {"en": "Tee", "fr": "Tee"},
    "players": {"en": "Players", "fr": "Joueurs"},
    "lead": {"en": "lead group", "fr": "partie de tête"},
    "finish": {"en": "Finish", "fr": "Fin"},
    "round_time": {"en": "Round time", "fr": "Temps de jeu"},
    "allotted": {"en": "Allotted", "fr": "Alloué"},
    "allowed": {"en": "Allowed", "fr": "Permis"},
    "stopped": {"en": "Stopped", "fr": "Arrêts"},
    "credited": {"en": "Credited", "fr": "Crédité"},
    "over": {"en": "Over", "fr": "Retard"},
    "status": {"en": "Status", "fr": "Statut"},
    "hole": {"en": "Hole", "fr": "Trou"},
    "par": {"en": "Par", "fr": "Par"},
    "due": {"en": "Due", "fr": "Prévu"},
    "logged": {"en": "Logged", "fr": "Fini à"},
    "gap": {"en": "Gap", "fr": "Écart"},
    "ahead": {"en": "Group ahead", "fr": "Partie devant"},
    "hole_time": {"en": "On the hole", "fr": "Sur le trou"},
    "avg_over": {"en": "Avg over (cumulated)", "fr": "Retard moyen (cumulé)"},
    "avg_hole_over": {"en": "Avg over on the hole", "fr": "Retard moyen sur le trou"},
    "avg_gap": {"en": "Avg gap", "fr": "Écart moyen"},
    "gap_change": {"en": "Gap change", "fr": "Variation d'écart"},
    "minutes_hint": {
        "en": "Minutes: + over the allotted time, − under. Over and gap as judged at each "
        "completion.",
        "fr": "Minutes : + au-delà du temps alloué, − en deçà. Retard et écart tels qu'évalués "
        "à chaque fin de trou.",
    },
    "grid_legend": {
        "en": "In each group's grid, ! marks a completion out of position, ~ one behind "
        "(over time, held up by the group ahead).",
        "fr": "Dans la grille de chaque partie, ! marque une fin de trou hors position, ~ une "
        "fin en retard (au-delà du temps alloué, retenue par la partie devant).",
    },
    "episodes": {"en": "Out of position", "fr": "Hors position"},
    "no_episode": {"en": "Never out of position.", "fr": "Jamais hors position."},
    "from": {"en": "From", "fr": "De"},
    "to": {"en": "To", "fr": "À"},
    "holes": {"en": "Holes", "fr": "Trous"},
    "worst_gap": {"en": "Worst gap", "fr": "Pire écart"},
    "worst_over": {"en": "Worst over", "fr": "Pire retard"},
    "ended_by": {"en": "Ended", "fr": "Fin"},
    "ended.back_in_position": {"en": "back in position", "fr": "revenue en position"},
    "ended.finished": {"en": "round finished", "fr": "tour terminé"},
    "ended.withdrawn": {"en": "withdrawn", "fr": "retirée"},
    "ended.none": {"en": "still out of position", "fr": "toujours hors position"},
    "referees": {"en": "Referees", "fr": "Arbitres"},
    "decisions": {"en": "Timing decisions", "fr": "Décisions de chronométrage"},
    "no_decision": {"en": "No timing decision.", "fr": "Aucune décision de chronométrage."},
    "when": {"en": "When", "fr": "Quand"},
    "decision": {"en": "Decision", "fr": "Décision"},
    "decision.time": {"en": "time the group", "fr": "chronométrer la partie"},
    "decision.not_time": {"en": "not time it", "fr": "ne pas la chronométrer"},
    "reason": {"en": "Reason", "fr": "Motif"},
    "note": {"en": "Note", "fr": "Note"},
    "by": {"en": "By", "fr": "Par"},
    "reason.ruling": {"en": "a ruling", "fr": "une décision arbitrale"},
    "reason.lost_ball": {"en": "a lost ball", "fr": "une balle perdue"},
    "reason.unplayable_ball": {"en": "an unplayable ball", "fr": "une balle injouable"},
    "reason.other": {"en": "other", "fr": "autre"},
    "spells": {"en": "Timed", "fr": "Chronométrée"},
    "spell_line": {
        "en": "from {start} (hole {hole}, by {by}) to {end}",
        "fr": "de {start} (trou {hole}, par {by}) à {end}",
    },
    "not_stopped": {"en": "the end of the log", "fr": "la fin du journal"},
    "back_in_position": {"en": "back in position", "fr": "de retour en position"},
    "credits": {"en": "Time credits", "fr": "Crédits de temps"},
    "credit_line": {
        "en": "{minutes} at {time} by {by}: {reason}",
        "fr": "{minutes} à {time} par {by} : {reason}",
    },
    "player": {"en": "Player", "fr": "Joueur"},
    "told": {"en": "Told the group is timed", "fr": "Information du chronométrage"},
    "strokes": {"en": "Timed strokes", "fr": "Coups chronométrés"},
    "kind": {"en": "Stroke", "fr": "Coup"},
    "kind.par3_tee": {"en": "par-3 tee shot", "fr": "départ d'un par 3"},
    "kind.approach": {"en": "approach", "fr": "approche"},
    "kind.chip_putt": {"en": "chip or putt", "fr": "chip ou putt"},
    "kind.other": {"en": "other", "fr": "autre"},
    "time": {"en": "Time", "fr": "Temps"},
    "bad_time": {"en": "Bad time", "fr": "Faute de temps"},
    "faults": {"en": "Faults and penalties", "fr": "Fautes et pénalités"},
    "fault": {"en": "Fault", "fr": "Faute"},
    "fault.bad_time": {"en": "bad time", "fr": "faute de temps"},
    "fault.checkpoint": {
        "en": "checkpoint breach ({taken} for holes {holes}, limit {limit})",
        "fr": "dépassement au point de contrôle ({taken} pour les trous {holes}, limite {limit})",
    },
    "counted": {"en": "Counted", "fr": "Comptée"},
    "penalty": {"en": "Penalty", "fr": "Pénalité"},
    "effect": {"en": "Effect on the card", "fr": "Effet sur la carte"},
    "notified": {"en": "Player told", "fr": "Information au joueur"},
    "not_notified": {"en": "not told", "fr": "pas encore donnée"},
    "yes": {"en": "yes", "fr": "oui"},
    "no": {"en": "no", "fr": "non"},
    "why.counted": {"en": "counted", "fr": "comptée"},
    "why.previous_not_notified": {
        "en": "not counted: the previous one was not yet told",
        "fr": "non comptée : la précédente n'avait pas encore été notifiée",
    },
    "why.after_disqualification": {
        "en": "not counted: after the disqualification",
        "fr": "non comptée : après la disqualification",
    },
    "why.beyond_ladder": {
        "en": "not counted: beyond the ladder",
        "fr": "non comptée : au-delà de l'échelle",
    },
    "why.not_timed": {
        "en": "not counted: no timing spell held it",
        "fr": "non comptée : hors de toute période de chronométrage",
    },
    "why.group_in_position": {
        "en": "not counted: the group was back in position",
        "fr": "non comptée : la partie était revenue en position",
    },
    "status.not_started": {"en": "not started", "fr": "pas partie"},
    "status.on_pace": {"en": "on pace", "fr": "dans le temps"},
    "status.behind": {"en": "behind", "fr": "en retard"},
    "status.overdue": {"en": "overdue", "fr": "hors délai"},
    "status.out_of_position": {"en": "out of position", "fr": "hors position"},
    "status.finished": {"en": "finished", "fr": "terminé"},
    "status.withdrawn": {"en": "withdrawn", "fr": "retirée"},
    "siren.interruption": {
        "en": "interruption (one long siren)",
        "fr": "interruption (une longue sirène)",
    },
    "siren.suspension": {"en": "suspension (three sirens)", "fr": "suspension (trois sirènes)"},
    "on_course": {"en": "Groups on the course", "fr": "Parties sur le parcours"},
    "duration": {"en": "Duration", "fr": "Durée"},
    "still_stopped": {"en": "not resumed", "fr": "pas reprise"},
    "page": {"en": "page", "fr": "page"},
    "policy_unknown": {
        "en": "The round's pace policy {policy!r} is not in this configuration: faults and "
        "penalties are not judged.",
        "fr": "Le règlement de rythme {policy!r} du tour n'est pas dans cette configuration : "
        "fautes et pénalités ne sont pas évaluées.",
    },
    "exports": {"en": "Export", "fr": "Exporter"},
    "letters": {"en": "Letters", "fr": "Lettres"},
    "effect.warning": {
        "en": "warning (no effect on the score)",
        "fr": "avertissement (sans effet sur le score)",
    },
    "effect.final_warning": {
        "en": "final warning (no effect on the score)",
        "fr": "dernier avertissement (sans effet sur le score)",
    },
    "effect.strokes": {
        "en": "{amount} penalty strokes on hole {hole}",
        "fr": "{amount} coups de pénalité au trou {hole}",
    },
    "effect.strokes.one": {
        "en": "1 penalty stroke on hole {hole}",
        "fr": "1 coup de pénalité au trou {hole}",
    },
    "effect.points": {
        "en": "{amount} penalty points on hole {hole}",
        "fr": "{amount} points de pénalité au trou {hole}",
    },
    "effect.points.one": {
        "en": "1 penalty point on hole {hole}",
        "fr": "1 point de pénalité au trou {hole}",
    },
    "effect.loss_of_hole": {"en": "loss of hole {hole}", "fr": "perte du trou {hole}"},
    "effect.disqualification": {"en": "DQ (disqualified)", "fr": "DQ (disqualification)"},
    "effect.side": {"en": "{effect}, borne by the side", "fr": "{effect}, pour le camp"},
    # letters: facts only, one per page
    "letters_title": {"en": "Pace of play: the facts", "fr": "Rythme de jeu : les faits"},
    "letter.to_player": {"en": "To {name} (group {group})", "fr": "À {name} (partie {group})"},
    "letter.to_group": {
        "en": "To the players of group {group}: {names}",
        "fr": "Aux joueurs de la partie {group} : {names}",
    },
    "letter.opening": {
        "en": "Round {round} of {day} on {course}. Group {group} started at {start} from tee "
        "{tee}.",
        "fr": "Tour {round} du {day} à {course}. La partie {group} est partie à {start} du tee "
        "{tee}.",
    },
    "letter.worst": {
        "en": "Your group finished hole {hole} at {time}, {over} minutes over its allotted time "
        "and {gap} minutes behind the group ahead.",
        "fr": "Votre partie a terminé le trou {hole} à {time}, {over} minutes au-delà de son "
        "temps alloué et {gap} minutes derrière la partie qui la précédait.",
    },
    "letter.worst_lead": {
        "en": "Your group finished hole {hole} at {time}, {over} minutes over its allotted "
        "time, with no group ahead of it.",
        "fr": "Votre partie a terminé le trou {hole} à {time}, {over} minutes au-delà de son "
        "temps alloué, sans partie devant elle.",
    },
    "letter.behind": {
        "en": "On holes {holes} your group was over its allotted time but close behind the group "
        "ahead: in position.",
        "fr": "Aux trous {holes}, votre partie dépassait son temps alloué mais suivait de près la "
        "partie devant elle : en position.",
    },
    "letter.episode": {
        "en": "It was out of position from hole {first} ({start}) to hole {last} ({end}).",
        "fr": "Elle a été hors position du trou {first} ({start}) au trou {last} ({end}).",
    },
    "letter.episode_open": {
        "en": "It was out of position from hole {first} ({start}) to the end of its round.",
        "fr": "Elle a été hors position du trou {first} ({start}) jusqu'à la fin de son tour.",
    },
    "letter.held": {
        "en": "At hole {hole}, the {count} groups that completed it after yours were close "
        "behind and over their allotted time: {minutes} in all.",
        "fr": "Au trou {hole}, les {count} parties qui l'ont terminé après la vôtre la "
        "suivaient de près et dépassaient leur temps alloué : {minutes} au total.",
    },
    "letter.held.one": {
        "en": "At hole {hole}, the group that completed it after yours was close behind and "
        "over its allotted time: {minutes}.",
        "fr": "Au trou {hole}, la partie qui l'a terminé après la vôtre la suivait de près et "
        "dépassait son temps alloué : {minutes}.",
    },
    "letter.not_timed": {
        "en": "At {time} a referee decided not to time your group ({reason}).",
        "fr": "À {time}, un arbitre a décidé de ne pas chronométrer votre partie ({reason}).",
    },
    "letter.timed": {
        "en": "At {time} a referee decided to time your group: you were timed from hole {hole}.",
        "fr": "À {time}, un arbitre a décidé de chronométrer votre partie : vous avez été "
        "chronométrés à partir du trou {hole}.",
    },
    "letter.spell_end": {
        "en": "Timing stopped at {time}.",
        "fr": "Le chronométrage a pris fin à {time}.",
    },
    "letter.told": {
        "en": "{name} was told at {time} by {by} that the group was being timed.",
        "fr": "Information donnée à {name} à {time} par {by} : la partie est chronométrée.",
    },
    "letter.strokes": {
        "en": "Timed strokes of {name}: {list}.",
        "fr": "Coups chronométrés de {name} : {list}.",
    },
    "letter.stroke": {
        "en": "{seconds} on hole {hole} (allowed {allowed}{bad})",
        "fr": "{seconds} au trou {hole} ({allowed} permis{bad})",
    },
    "letter.bad": {"en": ", bad time", "fr": ", faute de temps"},
    "letter.fault": {
        "en": "{name}, {fault} on hole {hole} at {time}: {outcome}.",
        "fr": "{name}, {fault} au trou {hole} à {time} : {outcome}.",
    },
    "letter.fault_told": {
        "en": " Told at {time} by {by}.",
        "fr": " Information donnée à {time} par {by}.",
    },
    "letter.finish": {
        "en": "Your group finished at {finish}: {round_time} for {allotted} allotted, {over} "
        "minutes over{stopped}.",
        "fr": "Votre partie a terminé à {finish} : {round_time} pour {allotted} alloués, {over} "
        "minutes de retard{stopped}.",
    },
    "letter.finish_within": {
        "en": "Your group finished at {finish}: {round_time} for {allotted} allotted, within its "
        "allotted time{stopped}.",
        "fr": "Votre partie a terminé à {finish} : {round_time} pour {allotted} alloués, dans son "
        "temps alloué{stopped}.",
    },
    "letter.stopped": {
        "en": " ({minutes} of stopped play not counted)",
        "fr": " ({minutes} d'arrêt de jeu non comptées)",
    },
    "letter.unfinished": {
        "en": "Your group's last logged hole is hole {hole}, at {time}.",
        "fr": "Le dernier trou enregistré de votre partie est le trou {hole}, à {time}.",
    },
    "letter.closing": {
        "en": "These are the facts logged by the committee's marshals and referees.",
        "fr": "Ces faits sont ceux enregistrés par les commissaires et les arbitres du comité.",
    },
    "letter.none": {
        "en": "Nobody to write to: no group was out of position and no stroke was timed.",
        "fr": "Personne à qui écrire : aucune partie hors position et aucun coup chronométré.",
    },
}


def text(key: str, lang: str, **values: object) -> str:
    """Return the text of ``key`` in ``lang`` (English when missing), ``{name}`` filled in.

    >>> text("group_n", "fr", group="7")
    'Partie 7'
    """
    entry = TEXTS.get(key)
    if entry is None:
        return key
    template = entry.get(lang) or entry["en"]
    return template.format(**values) if values else template


def text_n(key: str, count: int, lang: str, **values: object) -> str:
    """Return ``key`` for ``count`` things: its ``.one`` form when there is exactly one.

    >>> text_n("effect.strokes", 1, "fr", amount=1, hole=4)
    '1 coup de pénalité au trou 4'
    """
    if count == 1 and f"{key}.one" in TEXTS:
        key = f"{key}.one"
    return text(key, lang, count=count, **values)


def clock(instant: datetime | None, tz: tzinfo, seconds: bool = False) -> str:
    """Return a local clock time, ``HH:MM`` (or ``HH:MM:SS``), or an empty string."""
    if instant is None:
        return ""
    return instant.astimezone(tz).strftime("%H:%M:%S" if seconds else "%H:%M")


def minutes_value(d: timedelta | None) -> float | None:
    """Return a duration in minutes rounded to the hundredth (the JSON's numbers), or None.

    >>> minutes_value(timedelta(minutes=3, seconds=30)), minutes_value(None)
    (3.5, None)
    """
    return None if d is None else round(d.total_seconds() / 60, 2)


def signed_minutes(d: timedelta | None, lang: str = "en") -> str:
    """Return minutes over as people read them: ``+9``, ``−2``, ``0`` (rounded to the minute).

    >>> signed_minutes(timedelta(minutes=8, seconds=40)), signed_minutes(timedelta(minutes=-2))
    ('+9', '−2')
    """
    if d is None:
        return ""
    n = round(d.total_seconds() / 60)
    return "0" if n == 0 else (f"+{n}" if n > 0 else f"−{-n}")


def duration(d: timedelta | None, lang: str = "en") -> str:
    """Return a duration as ``4 h 41`` or ``38 min`` (rounded to the minute).

    >>> duration(timedelta(hours=4, minutes=41)), duration(timedelta(minutes=38))
    ('4 h 41', '38 min')
    """
    if d is None:
        return ""
    total = round(d.total_seconds() / 60)
    sign = "−" if total < 0 else ""
    total = abs(total)
    if total >= 60:
        return f"{sign}{total // 60} h {total % 60:02d}"
    return f"{sign}{total} min"


def seconds(d: timedelta | None, lang: str = "en") -> str:
    """Return a stroke's time in seconds, one decimal, in the language's notation.

    >>> seconds(timedelta(seconds=46.2), "fr"), seconds(timedelta(seconds=40), "en")
    ('46,2 s', '40.0 s')
    """
    if d is None:
        return ""
    value = f"{d.total_seconds():.1f}"
    return (value.replace(".", ",") if lang == "fr" else value) + " s"


def effect(penalty: Penalty | None, lang: str) -> str:
    """Return what a counted penalty does to the card, in words ("1 penalty stroke on hole 14").

    This is the only place that states the effect (RULES.md §6, §7); it reads the judged
    penalty until the scoring module's card can be read instead.

    >>> effect(Penalty("strokes", 1, 14), "en"), effect(Penalty("loss_of_hole", 0, 14), "fr")
    ('1 penalty stroke on hole 14', 'perte du trou 14')
    >>> effect(Penalty("strokes", 2, 16), "fr")
    '2 coups de pénalité au trou 16'
    >>> effect(Penalty("disqualification", 0, 9, "side"), "en")
    'DQ (disqualified), borne by the side'
    """
    if penalty is None:
        return ""
    words = text_n(
        f"effect.{penalty.kind}", penalty.amount, lang, amount=penalty.amount, hole=penalty.hole
    )
    if penalty.bearer == "side":
        words = text("effect.side", lang, effect=words)
    return words
