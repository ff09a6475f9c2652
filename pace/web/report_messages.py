"""French and English of the report's pages and the dashboard's hold-up panel (issue 12).

Joined to ``pace.web.i18n.MESSAGES``; the report itself speaks through ``pace.reports.words``.
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "page.report": {"en": "Report", "fr": "Rapport"},
    "page.offenders": {"en": "Repeat offenders", "fr": "Récidivistes"},
    "offenders.title": {"en": "Repeat offenders", "fr": "Joueurs récidivistes"},
    "offenders.days": {"en": "Days back", "fr": "Jours en arrière"},
    "offenders.window": {
        "en": "Rounds from {since} to {until}.",
        "fr": "Tours du {since} au {until}.",
    },
    "offenders.hint": {
        "en": "Players whose group was out of position, or who had bad times or penalties; the "
        "most recent first. A player is known by his name as printed on the draw.",
        "fr": "Joueurs dont la partie a été hors position, ou qui ont eu des fautes de temps ou "
        "des pénalités ; les plus récents d'abord. Un joueur est reconnu à son nom tel "
        "qu'imprimé sur le tirage.",
    },
    "offenders.player": {"en": "Player", "fr": "Joueur"},
    "offenders.latest": {"en": "Latest", "fr": "Dernier"},
    "offenders.rounds": {"en": "Rounds", "fr": "Tours"},
    "offenders.group": {"en": "group", "fr": "partie"},
    "offenders.episodes": {"en": "Out of position", "fr": "Hors position"},
    "offenders.bad_times": {"en": "Bad times", "fr": "Fautes de temps"},
    "offenders.penalties": {"en": "Penalties", "fr": "Pénalités"},
    "offenders.none": {
        "en": "Nobody: no episode, bad time or penalty in these rounds.",
        "fr": "Personne : aucun hors-position, faute de temps ni pénalité dans ces tours.",
    },
    "dash.held_up": {"en": "Holding the field up", "fr": "Retient le terrain"},
    "dash.held_up.none": {"en": "Nobody so far.", "fr": "Personne pour l'instant."},
    "dash.held_up.line": {
        "en": "Group {group}: {count} held at hole {hole}, {minutes} min over in all",
        "fr": "Partie {group} : {count} retenue(s) au trou {hole}, {minutes} min de retard au "
        "total",
    },
    "dash.held_up.now": {"en": "now", "fr": "en cours"},
    "dash.held_up.hint": {
        "en": "Out of position with open course ahead while the groups just behind are close "
        "and over time; minutes: theirs over, added up.",
        "fr": "Hors position avec le parcours libre devant, pendant que les parties juste "
        "derrière suivent de près et sont en retard ; minutes : leurs retards additionnés.",
    },
    "dash.links.report": {"en": "Report", "fr": "Rapport"},
    "report.job.running": {
        "en": "Building the PDF… {done}/{total}",
        "fr": "Création du PDF… {done}/{total}",
    },
    "report.job.done": {"en": "PDF ready: downloading.", "fr": "PDF prêt : téléchargement."},
    "report.job.failed": {"en": "The PDF failed: {error}", "fr": "Le PDF a échoué : {error}"},
}
