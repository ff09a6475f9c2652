"""French and English of the scoring pages: the scorer's card and the public leaderboard.

Merged into ``pace.web.i18n.MESSAGES`` (the pages' one catalogue).
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "page.scorecard": {"en": "Scorecard", "fr": "Carte de score"},
    "page.leaderboard": {"en": "Leaderboard", "fr": "Classement"},
    "role.scorer": {"en": "Scorer", "fr": "Marqueur"},
    # how a round is scored
    "scoring.stroke": {"en": "Stroke play", "fr": "Stroke play"},
    "scoring.stableford": {"en": "Stableford", "fr": "Stableford"},
    "scoring.match": {"en": "Match play", "fr": "Match play"},
    "scoring.bogey": {"en": "Bogey", "fr": "Contre bogey"},
    "scoring.par": {"en": "Par", "fr": "Contre le par"},
    "scoring.net": {"en": "net", "fr": "net"},
    "scoring.gross": {"en": "gross", "fr": "brut"},
    "format.individual": {"en": "individual", "fr": "individuel"},
    "format.foursome": {"en": "foursome", "fr": "foursome"},
    "format.threesome": {"en": "threesome", "fr": "threesome"},
    "format.greensome": {"en": "greensome", "fr": "greensome"},
    "format.four_ball": {"en": "four-ball", "fr": "quatre balles"},
    "format.best_ball": {"en": "best ball", "fr": "meilleure balle"},
    # the scorer's page
    "scorecard.group": {"en": "Group", "fr": "Partie"},
    "scorecard.choose_group": {"en": "Choose a group", "fr": "Choisissez une partie"},
    "scorecard.group_option": {
        "en": "Group {group} · {time} · {players}",
        "fr": "Partie {group} · {time} · {players}",
    },
    "scorecard.hole_title": {"en": "Hole {hole} · par {par}", "fr": "Trou {hole} · par {par}"},
    "scorecard.stroke_index": {"en": "stroke index {si}", "fr": "handicap {si}"},
    "scorecard.less": {"en": "One stroke less for {name}", "fr": "Un coup de moins pour {name}"},
    "scorecard.more": {"en": "One stroke more for {name}", "fr": "Un coup de plus pour {name}"},
    "scorecard.strokes_of": {"en": "Strokes of {name}", "fr": "Coups de {name}"},
    "scorecard.no_score": {"en": "No score", "fr": "Pas de score"},
    "scorecard.no_score_short": {"en": "–", "fr": "–"},
    "scorecard.conceded": {"en": "Conceded the hole", "fr": "Trou concédé"},
    "scorecard.record": {"en": "Record hole {hole}", "fr": "Enregistrer le trou {hole}"},
    "scorecard.unchanged": {
        "en": "Hole {hole} is already recorded so",
        "fr": "Le trou {hole} est déjà enregistré ainsi",
    },
    "scorecard.remove": {"en": "Remove the score", "fr": "Retirer le score"},
    "scorecard.reason_correct": {"en": "corrected on the card", "fr": "corrigé sur la carte"},
    "scorecard.reason_remove": {"en": "removed on the card", "fr": "retiré de la carte"},
    "scorecard.card": {"en": "Card", "fr": "Carte"},
    "scorecard.col.hole": {"en": "Hole", "fr": "Trou"},
    "scorecard.col.par": {"en": "Par", "fr": "Par"},
    "scorecard.total": {"en": "Total", "fr": "Total"},
    "scorecard.standing": {"en": "Standing", "fr": "Situation"},
    "scorecard.penalties": {
        "en": "Penalties from the pace side",
        "fr": "Pénalités venues du rythme de jeu",
    },
    "scorecard.no_penalties": {
        "en": "No penalty on this card.",
        "fr": "Aucune pénalité sur cette carte.",
    },
    "scorecard.entries": {"en": "My entries", "fr": "Mes saisies"},
    "scorecard.no_entries": {
        "en": "Nothing entered from this device yet.",
        "fr": "Rien n'a encore été saisi sur cet appareil.",
    },
    "scorecard.pending_none": {"en": "All scores sent", "fr": "Tous les scores sont envoyés"},
    "scorecard.pending": {
        "en": "{count} waiting to be sent · oldest since {time}",
        "fr": "{count} en attente d'envoi · la plus ancienne depuis {time}",
    },
    "scorecard.offline": {
        "en": "Offline: scores are kept on this device and sent when the signal returns",
        "fr": "Hors ligne : les scores restent sur cet appareil et partent au retour du réseau",
    },
    "scorecard.kind.record_score": {
        "en": "{name}, hole {hole}: {strokes}",
        "fr": "{name}, trou {hole} : {strokes}",
    },
    "scorecard.kind.correct_score": {
        "en": "{name}, hole {hole}: corrected to {strokes}",
        "fr": "{name}, trou {hole} : corrigé en {strokes}",
    },
    "scorecard.kind.void_event": {
        "en": "{name}, hole {hole}: score removed",
        "fr": "{name}, trou {hole} : score retiré",
    },
    "scorecard.pending_cell": {"en": "not sent yet", "fr": "pas encore envoyé"},
    "scorecard.setting": {
        "en": "Scoring of the round (committee)",
        "fr": "Formule de jeu du tour (comité)",
    },
    "scorecard.setting_scoring": {"en": "Scoring", "fr": "Formule"},
    "scorecard.setting_net": {"en": "Net (strokes received)", "fr": "Net (coups reçus)"},
    "scorecard.setting_allowance": {
        "en": "Allowance % (empty: config.toml's)",
        "fr": "Pourcentage d'allocation (vide : celui de config.toml)",
    },
    "scorecard.setting_save": {"en": "Save", "fr": "Enregistrer"},
    "scorecard.no_card": {
        "en": "This card is not on this device yet: connect once to load it.",
        "fr": "Cette carte n'est pas encore sur cet appareil : "
        "connectez-vous une fois pour la charger.",
    },
    # the leaderboard
    "leaderboard.all": {"en": "Overall", "fr": "Général"},
    "leaderboard.class": {"en": "Class {name}", "fr": "Série {name}"},
    "leaderboard.classes": {"en": "Classes", "fr": "Séries"},
    "leaderboard.live": {
        "en": "Live: cards in play rank on their score so far",
        "fr": "En direct : les cartes en cours sont classées sur leur score",
    },
    "leaderboard.final": {
        "en": "Final: every card is in",
        "fr": "Définitif : toutes les cartes sont rendues",
    },
    "leaderboard.col.pos": {"en": "Pos.", "fr": "Pl."},
    "leaderboard.col.player": {"en": "Player", "fr": "Joueur"},
    "leaderboard.col.thru": {"en": "Thru", "fr": "Trous"},
    "leaderboard.col.to_par": {"en": "To par", "fr": "+/−"},
    "leaderboard.col.score": {"en": "Score", "fr": "Score"},
    "leaderboard.col.points": {"en": "Points", "fr": "Points"},
    "leaderboard.col.result": {"en": "Result", "fr": "Résultat"},
    "leaderboard.col.gross": {"en": "Gross", "fr": "Brut"},
    "leaderboard.col.net": {"en": "Net", "fr": "Net"},
    "leaderboard.col.class": {"en": "Class", "fr": "Série"},
    "leaderboard.col.penalties": {"en": "Penalties", "fr": "Pénalités"},
    "leaderboard.even": {"en": "E", "fr": "Par"},
    "leaderboard.thru_done": {"en": "F", "fr": "T"},
    "leaderboard.not_started": {"en": "not started", "fr": "à venir"},
    "leaderboard.tied": {"en": "T{position}", "fr": "Ex {position}"},
    "leaderboard.countback": {"en": "countback {text}", "fr": "départage {text}"},
    "leaderboard.points": {"en": "{value} pts", "fr": "{value} pts"},
    "leaderboard.nr": {"en": "NR", "fr": "NR"},
    "leaderboard.dq": {"en": "DQ", "fr": "DQ"},
    "leaderboard.dq_reason": {"en": "Disqualified: {reason}", "fr": "Disqualifié : {reason}"},
    "leaderboard.nr_reason": {
        "en": "No return: a hole without score",
        "fr": "Pas de carte valable : un trou sans score",
    },
    "leaderboard.empty": {"en": "No score yet.", "fr": "Aucun score pour l'instant."},
    "leaderboard.matches": {"en": "Matches", "fr": "Matchs"},
    "leaderboard.vs": {"en": "{a} vs {b}", "fr": "{a} contre {b}"},
    "leaderboard.match_state": {"en": "{result}", "fr": "{result}"},
    "leaderboard.penalties_error": {
        "en": "Pace penalties are not shown: {message}",
        "fr": "Les pénalités de rythme ne sont pas affichées : {message}",
    },
    "leaderboard.legend": {
        "en": "A red mark is a pace-of-play penalty on the card; tap it for the reason.",
        "fr": "Une marque rouge est une pénalité de rythme de jeu sur la carte ; "
        "touchez-la pour en voir la raison.",
    },
    # what a pace penalty does to a card, and why (the leaderboard's and the card's marks)
    "pen.strokes": {"en": "+{value} on hole {hole}", "fr": "+{value} au trou {hole}"},
    "pen.points_off": {"en": "−{value} points", "fr": "−{value} points"},
    "pen.holes_off": {"en": "−{value} hole", "fr": "−{value} trou"},
    "pen.loss_of_hole": {"en": "hole {hole} lost", "fr": "trou {hole} perdu"},
    "pen.disqualification": {"en": "disqualified", "fr": "disqualification"},
    "pen.why.bad_time": {
        "en": "slow play: bad time no. {rank} of {player}, hole {hole}",
        "fr": "jeu lent : faute de temps n° {rank} de {player}, trou {hole}",
    },
    "pen.why.checkpoint": {
        "en": "slow play: checkpoint breach no. {rank} of {player}",
        "fr": "jeu lent : dépassement au point de contrôle n° {rank} de {player}",
    },
    "pen.mark": {"en": "Penalty: {text}", "fr": "Pénalité : {text}"},
}
