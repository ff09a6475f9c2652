"""French and English of the audit's sentences (issue 14, point 15): one per kind of event.

Part of the pages' catalogue (``pace.web.i18n.MESSAGES``). ``{what}`` is the event's own
sentence, ``{who}`` its author ("marshal Paul"), ``{clock}`` the phone's clock offset.
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "audit.raw": {"en": "Raw log", "fr": "Journal brut"},
    "audit.readable": {"en": "Readable log", "fr": "Journal lisible"},
    "audit.excel": {"en": "CSV for Excel (;)", "fr": "CSV pour Excel (;)"},
    "audit.col.what": {"en": "What", "fr": "Quoi"},
    "audit.col.who": {"en": "Who", "fr": "Qui"},
    "audit.who": {"en": "{role} {name}", "fr": "{role} {name}"},
    "audit.system": {"en": "pace (the scheduler)", "fr": "pace (le planificateur)"},
    "audit.import": {"en": "import by {name}", "fr": "import par {name}"},
    "audit.clock": {"en": "phone clock {offset} s", "fr": "horloge du téléphone {offset} s"},
    "audit.role.committee": {"en": "committee", "fr": "comité"},
    "audit.role.referee": {"en": "referee", "fr": "arbitre"},
    "audit.role.marshal": {"en": "marshal", "fr": "commissaire"},
    "audit.role.viewer": {"en": "viewer", "fr": "spectateur"},
    "audit.what.hole_completed": {
        "en": "Hole {hole} completed by group {group}",
        "fr": "Trou {hole} terminé par la partie {group}",
    },
    "audit.what.hole_time_corrected": {
        "en": "Time of {target} corrected to {time}",
        "fr": "Heure de {target} corrigée à {time}",
    },
    "audit.what.event_voided": {"en": "{target} voided", "fr": "{target} annulé(e)"},
    "audit.what.siren": {"en": "Siren: {kind}", "fr": "Sirène : {kind}"},
    "audit.what.siren.interruption": {
        "en": "interruption (one long siren)",
        "fr": "interruption (une longue sirène)",
    },
    "audit.what.siren.suspension": {
        "en": "suspension (three sirens)",
        "fr": "suspension (trois sirènes)",
    },
    "audit.what.siren.resume": {"en": "play resumes (two sirens)", "fr": "reprise (deux sirènes)"},
    "audit.what.alert_raised": {"en": "Alert: {alert}", "fr": "Alerte : {alert}"},
    "audit.what.alert_acknowledged": {
        "en": "Alert acknowledged: {alert}",
        "fr": "Alerte prise en compte : {alert}",
    },
    "audit.what.alert_resolved": {
        "en": "Alert resolved (its situation ended): {alert}",
        "fr": "Alerte résolue (sa situation a pris fin) : {alert}",
    },
    "audit.what.timing_decided.time": {
        "en": "Group {group} to be timed",
        "fr": "Partie {group} à chronométrer",
    },
    "audit.what.timing_decided.not_time": {
        "en": "Group {group} not timed ({reason})",
        "fr": "Partie {group} non chronométrée ({reason})",
    },
    "audit.what.player_told_timed": {
        "en": "{player} (group {group}) told the group is timed",
        "fr": "{player} (partie {group}) informé(e) du chronométrage",
    },
    "audit.what.stroke_timed": {
        "en": "Stroke of {player} (group {group}) timed on hole {hole}: {seconds} s",
        "fr": "Coup de {player} (partie {group}) chronométré au trou {hole} : {seconds} s",
    },
    "audit.what.player_notified": {
        "en": "{player} (group {group}) told of a fault",
        "fr": "Faute signifiée à {player} (partie {group})",
    },
    "audit.what.time_credit_granted": {
        "en": "Group {group} credited {minutes} min",
        "fr": "Crédit de {minutes} min à la partie {group}",
    },
    "audit.what.timing_stopped": {
        "en": "Timing of group {group} stopped",
        "fr": "Chronométrage de la partie {group} arrêté",
    },
    "audit.what.group_withdrawn": {"en": "Group {group} withdrawn", "fr": "Partie {group} retirée"},
    "audit.what.other": {"en": "{type}", "fr": "{type}"},
    "audit.target.hole": {
        "en": "hole {hole} of group {group}",
        "fr": "trou {hole} de la partie {group}",
    },
    "audit.target.other": {"en": "event #{seq}", "fr": "événement n° {seq}"},
}
