"""French and English for the referees' words: timing, bad times, checkpoint breaches,
penalties, the shot clock and the dashboard's timing (RULES.md §4–§6).

Part of the pages' catalogue (``pace.web.i18n.MESSAGES``); kept apart so the catalogue stays
readable. Wording stays free of gender: a player, the players, the group.
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # referee timing, shared by the shot clock, the dashboard and the board
    "page.shotclock": {"en": "Shot clock", "fr": "Chronomètre"},
    "page.board": {"en": "Pace board", "fr": "Tableau du rythme"},
    "timing.on_clock": {"en": "On the clock", "fr": "Chronométrée"},
    "timing.on_clock_since": {
        "en": "On the clock since {time}",
        "fr": "Chronométrée depuis {time}",
    },
    "timing.told_count": {
        "en": "{told} of {count} players told",
        "fr": "{told} joueur(s) sur {count} informé(s)",
    },
    "timing.not_timed": {"en": "Not being timed", "fr": "Pas chronométrée"},
    "timing.decision.time": {"en": "timed", "fr": "chronométrée"},
    "timing.decision.not_time": {"en": "not timed", "fr": "non chronométrée"},
    "timing.last_decision": {
        "en": "Last decision: {decision}{reason}, {time}",
        "fr": "Dernière décision : {decision}{reason}, {time}",
    },
    "timing.reason.ruling": {"en": "ruling", "fr": "décision arbitrale"},
    "timing.reason.lost_ball": {"en": "lost ball", "fr": "balle perdue"},
    "timing.reason.unplayable_ball": {"en": "unplayable ball", "fr": "balle injouable"},
    "timing.reason.other": {"en": "other", "fr": "autre"},
    "ord.1": {"en": "1st", "fr": "1re"},
    "ord.2": {"en": "2nd", "fr": "2e"},
    "ord.3": {"en": "3rd", "fr": "3e"},
    "ord.n": {"en": "{n}th", "fr": "{n}e"},
    # ordinals of a masculine noun in French (un dépassement): 1er, 2e, …
    "ord.m.1": {"en": "1st", "fr": "1er"},
    "pen.warning": {"en": "warning", "fr": "avertissement"},
    "pen.final_warning": {"en": "final warning", "fr": "dernier avertissement"},
    "pen.strokes.1": {"en": "one-stroke penalty", "fr": "un coup de pénalité"},
    "pen.strokes.2": {"en": "two-stroke penalty", "fr": "deux coups de pénalité"},
    "pen.strokes": {"en": "{n}-stroke penalty", "fr": "{n} coups de pénalité"},
    "pen.points.1": {"en": "one-point penalty", "fr": "un point de pénalité"},
    "pen.points": {"en": "{n}-point penalty", "fr": "{n} points de pénalité"},
    "pen.loss_of_hole": {"en": "loss of hole", "fr": "perte du trou"},
    "pen.disqualification": {"en": "disqualification", "fr": "disqualification"},
    "pen.on_hole": {"en": "{penalty} on hole {hole}", "fr": "{penalty} au trou {hole}"},
    "pen.side": {"en": "{penalty} (the side)", "fr": "{penalty} (le camp)"},
    "pen.counted.bad_time": {
        "en": "{ordinal} bad time: {penalty}",
        "fr": "{ordinal} faute de temps : {penalty}",
    },
    "pen.counted.checkpoint": {
        "en": "{ordinal} checkpoint breach: {penalty}",
        "fr": "{ordinal} dépassement au point de contrôle : {penalty}",
    },
    "pen.checkpoint": {"en": "checkpoint breach", "fr": "dépassement au point de contrôle"},
    "pen.stretch": {
        "en": "holes {first}–{last}: {taken} min for {limit}",
        "fr": "trous {first} à {last} : {taken} min pour {limit}",
    },
    "pen.not_counted.previous_not_notified": {
        "en": "not counted: the previous fault was not yet told to the player",
        "fr": "non comptée : la faute précédente n'a pas encore été signifiée",
    },
    "pen.not_counted.group_in_position": {
        "en": "not counted: the group was back in position, timing had stopped",
        "fr": "non comptée : la partie était revenue en position, le chronométrage était arrêté",
    },
    "pen.not_counted.not_timed": {
        "en": "not counted: the group was not being timed",
        "fr": "non comptée : la partie n'était pas chronométrée",
    },
    "pen.not_counted.after_disqualification": {
        "en": "not counted: the player is already disqualified",
        "fr": "non comptée : le joueur est déjà disqualifié",
    },
    "pen.not_counted.beyond_ladder": {
        "en": "not counted: past the last step of the ladder",
        "fr": "non comptée : au-delà de la dernière étape de l'échelle",
    },
    "pen.not_counted": {"en": "not counted ({reason})", "fr": "non comptée ({reason})"},
    "pen.awaiting": {"en": "to tell the player", "fr": "à signifier au joueur"},
    "pen.told": {"en": "told", "fr": "signifiée"},
    "pen.timed": {"en": "{duration} s for {allowed} s", "fr": "{duration} s pour {allowed} s"},
    "pen.hole": {"en": "hole {hole}", "fr": "trou {hole}"},
    "pen.none": {"en": "No bad time", "fr": "Aucune faute de temps"},
    "pen.none.checkpoints": {"en": "No checkpoint breach", "fr": "Aucun dépassement"},
    "pen.ladder": {
        "en": "{count} counted · last: {penalty}",
        "fr": "{count} comptée(s) · dernière : {penalty}",
    },
    "pen.strokes_total": {"en": "+{n} stroke(s)", "fr": "+{n} coup(s)"},
    "pen.disqualified": {"en": "Disqualified", "fr": "Disqualification"},
    # shot clock (referee, phone first)
    "clock.group": {"en": "Group", "fr": "Partie"},
    "clock.choose_group": {
        "en": "Choose the group you are with: groups out of position and on the clock come first.",
        "fr": "Choisissez la partie suivie : les parties hors position et chronométrées d'abord.",
    },
    "clock.change": {"en": "change", "fr": "changer"},
    "clock.hole_in_play": {"en": "hole {hole}", "fr": "trou {hole}"},
    "clock.pending_none": {"en": "All sent", "fr": "Tout est envoyé"},
    "clock.pending": {"en": "{count} waiting to be sent", "fr": "{count} en attente d'envoi"},
    "clock.time": {"en": "Time this group", "fr": "Chronométrer cette partie"},
    "clock.dont_time": {"en": "Don't time…", "fr": "Ne pas chronométrer…"},
    "clock.dont_time_why": {
        "en": "Why not time it? (mitigating circumstance)",
        "fr": "Pourquoi ne pas la chronométrer ? (circonstance atténuante)",
    },
    "clock.note": {"en": "Note (optional)", "fr": "Note (facultatif)"},
    "clock.record_dont_time": {"en": "Record: not timed", "fr": "Enregistrer : non chronométrée"},
    "clock.sending": {"en": "Sending…", "fr": "Envoi…"},
    "clock.players": {"en": "Players", "fr": "Joueurs"},
    "clock.players_hint": {
        "en": "Tap the player who plays next.",
        "fr": "Touchez le joueur qui joue ensuite.",
    },
    "clock.tell_timed": {"en": "Told: being timed", "fr": "Chronométrage annoncé"},
    "clock.told_timed": {"en": "✓ Told of the timing", "fr": "✓ Chronométrage annoncé"},
    "clock.next": {"en": "Next to play", "fr": "Au tour de"},
    "clock.next_badge": {"en": "next", "fr": "au tour"},
    "clock.nobody": {"en": "tap a player", "fr": "touchez un joueur"},
    "clock.hole": {"en": "Hole", "fr": "Trou"},
    "clock.kind": {"en": "Stroke", "fr": "Coup"},
    "clock.kind.par3_tee": {
        "en": "1st to play · par-3 tee shot",
        "fr": "Joue en premier · départ d'un par 3",
    },
    "clock.kind.approach": {"en": "1st to play · approach", "fr": "Joue en premier · approche"},
    "clock.kind.chip_putt": {
        "en": "1st to play · chip or putt",
        "fr": "Joue en premier · chip ou putt",
    },
    "clock.kind.other": {"en": "Any other stroke", "fr": "Tout autre coup"},
    "clock.seconds": {"en": "{n} s", "fr": "{n} s"},
    "clock.between": {
        "en": "Between holes (a penalty goes to the next hole)",
        "fr": "Entre deux trous (la pénalité va au trou suivant)",
    },
    "clock.left": {"en": "seconds left", "fr": "secondes restantes"},
    "clock.over": {"en": "seconds over", "fr": "secondes de trop"},
    "clock.of": {
        "en": "allowed {n} s · elapsed {elapsed} s",
        "fr": "permis {n} s · écoulé {elapsed} s",
    },
    "clock.start": {"en": "START", "fr": "DÉPART"},
    "clock.stop": {"en": "STOP", "fr": "STOP"},
    "clock.cancel_run": {"en": "Cancel: don't record", "fr": "Annuler : ne pas enregistrer"},
    "clock.need_timed": {
        "en": "Decide to time this group first.",
        "fr": "Décidez d'abord de chronométrer cette partie.",
    },
    "clock.need_next": {
        "en": "Tap the player who plays next.",
        "fr": "Touchez le joueur qui joue ensuite.",
    },
    "clock.ready": {
        "en": "START when {player} may play: their turn, at the ball, no interference.",
        "fr": "DÉPART quand {player} peut jouer : son tour, à sa balle, sans gêne.",
    },
    "clock.running": {"en": "Timing {player}…", "fr": "Chronométrage de {player}…"},
    "clock.verdict.bad": {
        "en": "Bad time: {duration} s for {allowed} s",
        "fr": "Faute de temps : {duration} s pour {allowed} s",
    },
    "clock.verdict.ok": {
        "en": "In time: {duration} s of {allowed} s",
        "fr": "Dans le temps : {duration} s sur {allowed} s",
    },
    "clock.result.waiting": {
        "en": "{player}: {duration} s, waiting to be sent",
        "fr": "{player} : {duration} s, en attente d'envoi",
    },
    "clock.result.refused": {
        "en": "{player}: not recorded. {message}",
        "fr": "{player} : non enregistré. {message}",
    },
    "clock.tell_now": {
        "en": "Tell the player now, then tap “Player told”.",
        "fr": "Signifiez la faute maintenant, puis touchez « Signifiée ».",
    },
    "clock.notify": {"en": "Player told", "fr": "Signifiée"},
    "clock.search": {"en": "Lost-ball search", "fr": "Recherche de balle"},
    "clock.search_limit": {"en": "{min} min allowed", "fr": "{min} min permises"},
    "clock.search_start": {"en": "Start search", "fr": "Début de recherche"},
    "clock.search_stop": {"en": "Stop", "fr": "Arrêt"},
    "clock.search_reset": {"en": "Reset", "fr": "Remise à zéro"},
    "clock.search_over": {"en": "Search time is up", "fr": "Temps de recherche écoulé"},
    "clock.credit": {"en": "Time credit", "fr": "Crédit de temps"},
    "clock.credit_minutes": {"en": "Minutes", "fr": "Minutes"},
    "clock.credit_reason": {"en": "Reason (e.g. ruling)", "fr": "Motif (p. ex. décision)"},
    "clock.credit_grant": {"en": "Grant the credit", "fr": "Accorder le crédit"},
    "clock.credit_done": {
        "en": "+{minutes} min granted to group {group}",
        "fr": "+{minutes} min accordées à la partie {group}",
    },
    "clock.stop_timing": {"en": "Stop timing", "fr": "Arrêter le chronométrage"},
    "clock.stop_reason": {"en": "Reason (optional)", "fr": "Motif (facultatif)"},
    "clock.prompt": {
        "en": "Group {group} is back in position: stop timing and tell the players.",
        "fr": "La partie {group} est revenue en position : arrêtez le chronométrage et "
        "informez les joueurs.",
    },
    "clock.auto_stopped": {
        "en": "Timing of group {group} stopped by itself at {time}: the group is back in "
        "position{hole}. Tell each player the group is no longer timed.",
        "fr": "Le chronométrage de la partie {group} s'est arrêté de lui-même à {time} : la "
        "partie est revenue en position{hole}. Informez chaque joueur qu'elle n'est plus "
        "chronométrée.",
    },
    "clock.auto_stopped_hole": {"en": " (hole {hole})", "fr": " (trou {hole})"},
    "clock.players_told": {"en": "Players told", "fr": "Joueurs informés"},
    "clock.stopped_reminder": {
        "en": "Timing stopped: tell each player the group is no longer timed.",
        "fr": "Chronométrage arrêté : informez chaque joueur que la partie n'est plus "
        "chronométrée.",
    },
    "clock.log": {"en": "My actions", "fr": "Mes actions"},
    "clock.no_log": {"en": "Nothing sent yet.", "fr": "Rien d'envoyé pour l'instant."},
    "clock.log.decide_timing.time": {
        "en": "Group {group}: timed",
        "fr": "Partie {group} : chronométrée",
    },
    "clock.log.decide_timing.not_time": {
        "en": "Group {group}: not timed ({reason})",
        "fr": "Partie {group} : non chronométrée ({reason})",
    },
    "clock.log.tell_player_timed": {
        "en": "{player} told of the timing",
        "fr": "Chronométrage annoncé à {player}",
    },
    "clock.log.record_stroke": {
        "en": "{player} · hole {hole} · {duration} s",
        "fr": "{player} · trou {hole} · {duration} s",
    },
    "clock.log.notify_player": {
        "en": "{player} told of a fault",
        "fr": "Faute signifiée à {player}",
    },
    "clock.log.grant_time_credit": {
        "en": "Group {group}: +{minutes} min ({reason})",
        "fr": "Partie {group} : +{minutes} min ({reason})",
    },
    "clock.log.stop_timing": {
        "en": "Group {group}: timing stopped",
        "fr": "Partie {group} : chronométrage arrêté",
    },
    "clock.policy": {
        "en": "{name}: {allowed} s, {extra} s for the 1st to play",
        "fr": "{name} : {allowed} s, {extra} s pour le 1er à jouer",
    },
    # dashboard additions
    "dash.penalties": {"en": "Bad times and penalties", "fr": "Fautes de temps et pénalités"},
    "dash.penalties.checkpoints": {
        "en": "Checkpoint breaches and penalties",
        "fr": "Dépassements au point de contrôle et pénalités",
    },
    "dash.no_penalties": {"en": "No bad time yet.", "fr": "Aucune faute de temps."},
    "dash.no_penalties.checkpoints": {
        "en": "No checkpoint breach yet.",
        "fr": "Aucun dépassement au point de contrôle.",
    },
    "timing.ended_by_itself": {
        "en": "Timing stopped by itself at {time}: back in position",
        "fr": "Chronométrage arrêté de lui-même à {time} : revenue en position",
    },
    "dash.timing": {"en": "Timing", "fr": "Chronométrage"},
    "dash.alert.stop_timing": {
        "en": "Group {group} back in position: timing stops, tell the players",
        "fr": "Partie {group} revenue en position : le chronométrage s'arrête, informer les "
        "joueurs",
    },
    "dash.links.shotclock": {"en": "Shot clock", "fr": "Chronomètre"},
    "dash.links.board": {"en": "Pace board", "fr": "Tableau du rythme"},
}
