"""French and English for the pages: the language comes from the browser and can be switched.

``?lang=fr`` (or ``en``) switches and is remembered in a cookie; otherwise the
browser's ``Accept-Language`` decides. Texts live in ``MESSAGES``; pages get ``t(key)``
and the JavaScript gets the same catalogue as JSON.
"""

from __future__ import annotations

from typing import Any

from flask import request

from pace.web import referee_messages, report_messages, scoring_messages

LANGUAGES = ("en", "fr")
COOKIE = "pace_lang"

MESSAGES: dict[str, dict[str, str]] = {
    # the referees' words (timing, penalties, shot clock) are in pace.web.referee_messages
    **referee_messages.MESSAGES,
    "app.tagline": {
        "en": "Pace-of-play timing for golf and swin-golf competitions",
        "fr": "Chronométrage du rythme de jeu pour les compétitions de golf et de swin-golf",
    },
    "home.rounds": {"en": "Rounds", "fr": "Tours"},
    "home.none": {
        "en": "No round yet. Import a course and a draw: pace import course FILE,"
        " then pace import draw FILE --round NAME.",
        "fr": "Aucun tour pour l'instant. Importez un parcours et un tirage :"
        " pace import course FICHIER, puis pace import draw FICHIER --round NOM.",
    },
    "round.day": {"en": "Day", "fr": "Jour"},
    "round.course": {"en": "Course", "fr": "Parcours"},
    "round.groups": {"en": "Groups", "fr": "Parties"},
    "round.events": {"en": "Events", "fr": "Événements"},
    "page.marshal": {"en": "Marshal", "fr": "Commissaire"},
    "page.dashboard": {"en": "Referee dashboard", "fr": "Tableau des arbitres"},
    "lang.switch": {"en": "Français", "fr": "English"},
    # shared by the live pages
    "live.online": {"en": "Online", "fr": "En ligne"},
    "live.offline": {
        "en": "Offline: taps are kept on this phone and sent when the signal returns",
        "fr": "Hors ligne : les saisies restent sur ce téléphone et partent au retour du réseau",
    },
    "live.offline_short": {"en": "Offline", "fr": "Hors ligne"},
    "live.loading": {"en": "Loading the round…", "fr": "Chargement du tour…"},
    "live.error": {"en": "Error: {message}", "fr": "Erreur : {message}"},
    "live.cancel": {"en": "Cancel", "fr": "Annuler"},
    "live.close": {"en": "Close", "fr": "Fermer"},
    "live.confirm": {"en": "Confirm", "fr": "Confirmer"},
    "live.group": {"en": "Group {group}", "fr": "Partie {group}"},
    "live.hole": {"en": "Hole {hole}", "fr": "Trou {hole}"},
    "live.minutes": {"en": "{value} min", "fr": "{value} min"},
    "status.not_started": {"en": "Not started", "fr": "Pas partie"},
    "status.on_pace": {"en": "On pace", "fr": "Dans le temps"},
    "status.behind": {"en": "Behind", "fr": "En retard"},
    "status.overdue": {"en": "Overdue", "fr": "Hors délai"},
    "status.out_of_position": {"en": "Out of position", "fr": "Hors position"},
    "status.finished": {"en": "Finished", "fr": "Terminé"},
    "status.withdrawn": {"en": "Withdrawn", "fr": "Retirée"},
    # marshal page
    "marshal.title": {"en": "Marshal · {round}", "fr": "Commissaire · {round}"},
    "marshal.holes": {"en": "Holes I cover", "fr": "Trous que je couvre"},
    "marshal.holes_hint": {
        "en": "Choose the hole(s) you watch; this phone remembers them.",
        "fr": "Choisissez le ou les trous surveillés ; ce téléphone s'en souvient.",
    },
    "marshal.choose_holes": {
        "en": "Choose at least one hole above to see the groups due.",
        "fr": "Choisissez au moins un trou ci-dessus pour voir les parties attendues.",
    },
    "marshal.due": {"en": "Groups due next", "fr": "Parties attendues"},
    "marshal.none_due": {
        "en": "Every group has been logged on these holes.",
        "fr": "Toutes les parties sont saisies sur ces trous.",
    },
    "marshal.tap": {
        "en": "Group {group} holed out on {hole}",
        "fr": "Partie {group} a fini le {hole}",
    },
    "marshal.due_at": {"en": "due {time}", "fr": "attendue à {time}"},
    "marshal.more": {"en": "Show {count} more", "fr": "Afficher {count} de plus"},
    "marshal.pending_none": {"en": "All taps sent", "fr": "Toutes les saisies sont envoyées"},
    "marshal.pending": {
        "en": "{count} waiting to be sent · oldest since {time}",
        "fr": "{count} en attente d'envoi · la plus ancienne depuis {time}",
    },
    "marshal.taps": {"en": "My taps", "fr": "Mes saisies"},
    "marshal.no_taps": {"en": "No tap yet.", "fr": "Aucune saisie pour l'instant."},
    "marshal.state.queued": {"en": "queued", "fr": "en attente"},
    "marshal.state.sent": {"en": "sent", "fr": "envoyée"},
    "marshal.state.confirmed": {"en": "confirmed", "fr": "confirmée"},
    "marshal.state.refused": {"en": "refused", "fr": "refusée"},
    "marshal.kind.hole_completed": {"en": "{group} · hole {hole}", "fr": "{group} · trou {hole}"},
    "marshal.kind.void_event": {"en": "Undo: {target}", "fr": "Annulation : {target}"},
    "marshal.kind.correct_hole_time": {
        "en": "Time corrected: {target} → {time}",
        "fr": "Heure corrigée : {target} → {time}",
    },
    "marshal.undone": {"en": "undone", "fr": "annulée"},
    "marshal.corrected": {"en": "corrected to {time}", "fr": "corrigée à {time}"},
    "marshal.undo": {"en": "Undo", "fr": "Annuler"},
    "marshal.correct": {"en": "Correct the time", "fr": "Corriger l'heure"},
    "marshal.remove": {"en": "Remove", "fr": "Retirer"},
    "marshal.reason": {"en": "Reason", "fr": "Motif"},
    "marshal.reason.undo": {"en": "tapped by mistake", "fr": "saisie par erreur"},
    "marshal.reason.wrong_group": {"en": "wrong group", "fr": "mauvaise partie"},
    "marshal.reason.wrong_hole": {"en": "wrong hole", "fr": "mauvais trou"},
    "marshal.reason.late_tap": {"en": "tapped late", "fr": "saisie tardive"},
    "marshal.confirm_undo": {"en": "Undo this tap", "fr": "Annuler cette saisie"},
    "marshal.new_time": {
        "en": "Real time (round's local time)",
        "fr": "Heure réelle (heure locale du tour)",
    },
    "marshal.save_time": {"en": "Save the new time", "fr": "Enregistrer la nouvelle heure"},
    "marshal.bad_time": {
        "en": "Enter a time such as 10:42",
        "fr": "Saisissez une heure, par exemple 10:42",
    },
    "marshal.check": {
        "en": "Please check group {group} near hole {hole}: it is overdue",
        "fr": "Vérifiez la partie {group} près du trou {hole} : elle est hors délai",
    },
    "marshal.dismiss": {"en": "Seen", "fr": "Vu"},
    "marshal.me": {"en": "My name (optional)", "fr": "Mon nom (facultatif)"},
    "marshal.save": {"en": "Save", "fr": "Enregistrer"},
    # referee dashboard
    "dash.title": {"en": "Dashboard · {round}", "fr": "Tableau · {round}"},
    "dash.field": {"en": "The field", "fr": "Le terrain"},
    "dash.col.group": {"en": "Group", "fr": "Partie"},
    "dash.col.status": {"en": "Status", "fr": "Statut"},
    "dash.col.over": {"en": "Over", "fr": "Retard"},
    "dash.col.gap": {"en": "Gap", "fr": "Écart"},
    "dash.col.interval": {"en": "Interval", "fr": "Intervalle"},
    "dash.col.finish": {"en": "Finish", "fr": "Arrivée"},
    "dash.col.hole": {"en": "Hole {hole}, par {par}", "fr": "Trou {hole}, par {par}"},
    "dash.minutes_hint": {
        "en": "Over: minutes over the allotted time (+ late, − early). Gap and interval: minutes. "
        "Finish: projected.",
        "fr": "Retard : minutes au-delà du temps alloué (+ en retard, − en avance). Écart et "
        "intervalle : minutes. Arrivée : prévue.",
    },
    "dash.legend": {
        "en": "Hole times against the allotment",
        "fr": "Temps aux trous par rapport au temps alloué",
    },
    "dash.legend.ok": {"en": "on time or early", "fr": "à l'heure ou en avance"},
    "dash.legend.warn": {"en": "up to 2 min over", "fr": "jusqu'à 2 min de retard"},
    "dash.legend.late": {"en": "more than 2 min over", "fr": "plus de 2 min de retard"},
    "dash.legend.due": {"en": "hole in play", "fr": "trou en cours"},
    "dash.alerts": {"en": "Alerts", "fr": "Alertes"},
    "dash.no_alerts": {"en": "No open alert.", "fr": "Aucune alerte ouverte."},
    "dash.ack": {"en": "Acknowledge", "fr": "Pris en compte"},
    "dash.alert.out_of_position": {
        "en": "Group {group} out of position (hole {hole})",
        "fr": "Partie {group} hors position (trou {hole})",
    },
    "dash.alert.overdue": {
        "en": "Group {group} overdue on hole {hole}",
        "fr": "Partie {group} hors délai au trou {hole}",
    },
    "dash.alert.back_in_position": {
        "en": "Group {group} back in position (hole {hole})",
        "fr": "Partie {group} de retour en position (trou {hole})",
    },
    "dash.alert.other": {"en": "Group {group}: {kind}", "fr": "Partie {group} : {kind}"},
    "dash.alert.over": {"en": "over {over} min", "fr": "retard {over} min"},
    "dash.alert.gap": {"en": "gap {gap} min", "fr": "écart {gap} min"},
    "dash.suspended": {
        "en": "Play suspended: the clocks are stopped",
        "fr": "Jeu suspendu : les horloges sont arrêtées",
    },
    "dash.sirens": {"en": "Sirens (committee)", "fr": "Sirènes (comité)"},
    "dash.siren.interruption": {
        "en": "Interruption · one long siren",
        "fr": "Interruption · une longue sirène",
    },
    "dash.siren.suspension": {
        "en": "Suspension · three sirens",
        "fr": "Suspension · trois sirènes",
    },
    "dash.siren.resume": {"en": "Resume · two sirens", "fr": "Reprise · deux sirènes"},
    "dash.siren.confirm": {
        "en": "Record “{kind}” now, at {time}?",
        "fr": "Enregistrer « {kind} » maintenant, à {time} ?",
    },
    "dash.siren.recorded": {
        "en": "Recorded: {kind} at {time}",
        "fr": "Enregistré : {kind} à {time}",
    },
    "dash.detail.players": {"en": "Players", "fr": "Joueurs"},
    "dash.detail.tee": {"en": "Tee {tee}, start {time}", "fr": "Départ du {tee}, à {time}"},
    "dash.detail.due": {"en": "Due", "fr": "Attendue"},
    "dash.detail.logged": {"en": "Logged", "fr": "Saisie"},
    "dash.detail.over": {"en": "Over (min)", "fr": "Retard (min)"},
    "dash.detail.hint": {
        "en": "Click a group for its detail.",
        "fr": "Cliquez sur une partie pour son détail.",
    },
    # the facts-only board (players and public)
    "board.col.group": {"en": "Group", "fr": "Partie"},
    "board.col.players": {"en": "Players", "fr": "Joueurs"},
    "board.col.tee": {"en": "Tee", "fr": "Départ"},
    "board.col.start": {"en": "Start", "fr": "Heure"},
    "board.expected": {"en": "expected", "fr": "prévue"},
    "board.completed": {"en": "completed", "fr": "terminé"},
    "board.legend": {
        "en": "Each hole: the time the group is expected to finish it, and below, in bold, "
        "when it did. Times are local.",
        "fr": "Chaque trou : l'heure à laquelle la partie doit le terminer et, en dessous en "
        "gras, l'heure à laquelle elle l'a terminé. Heures locales.",
    },
    "board.hole_cell": {
        "en": "Hole {hole}: expected {due}{done}",
        "fr": "Trou {hole} : prévue {due}{done}",
    },
    "board.hole_done": {"en": ", completed {time}", "fr": ", terminé {time}"},
    "board.suspended": {"en": "Play is suspended", "fr": "Le jeu est suspendu"},
    # access: the roles, signing in, the access codes, the audit
    "home.enter_code": {"en": "Enter your access code", "fr": "Entrer votre code d'accès"},
    "home.committee_login": {"en": "Committee sign-in", "fr": "Connexion du comité"},
    "home.signed_in_as": {"en": "Signed in as", "fr": "Connecté en tant que"},
    "home.sign_out": {"en": "Sign out", "fr": "Se déconnecter"},
    "role.committee": {"en": "Committee", "fr": "Comité"},
    "role.referee": {"en": "Referee", "fr": "Arbitre"},
    "role.marshal": {"en": "Marshal", "fr": "Commissaire"},
    "role.viewer": {"en": "Viewer", "fr": "Spectateur"},
    "page.join": {"en": "Access code", "fr": "Code d'accès"},
    "page.login": {"en": "Committee", "fr": "Comité"},
    "page.access": {"en": "Access", "fr": "Accès"},
    "page.audit": {"en": "Audit", "fr": "Journal"},
    "join.title": {"en": "Enter your access code", "fr": "Saisissez votre code d'accès"},
    "join.hint": {
        "en": "The committee gives each marshal, referee and viewer a code for the round "
        "(on the timing sheet).",
        "fr": "Le comité remet à chaque commissaire, arbitre et spectateur un code pour le tour "
        "(sur la feuille des horaires).",
    },
    "join.code": {"en": "Code", "fr": "Code"},
    "join.submit": {"en": "Open", "fr": "Entrer"},
    "join.committee": {
        "en": "Committee: sign in with the committee secret",
        "fr": "Comité : connectez-vous avec le code secret du comité",
    },
    "login.title": {"en": "Committee sign-in", "fr": "Connexion du comité"},
    # the hint is cut around the commands <code>pace init</code> and <code>pace serve</code>
    "login.hint_1": {
        "en": "The committee secret was printed once by ",
        "fr": "Le code secret du comité a été affiché une seule fois par ",
    },
    "login.hint_2": {"en": " (or the first ", "fr": " (ou par le premier "},
    "login.hint_3": {"en": ").", "fr": ")."},
    "login.secret": {"en": "Secret", "fr": "Code secret"},
    "login.submit": {"en": "Sign in", "fr": "Se connecter"},
    "access.error.invalid_code": {
        "en": "This code is not valid (or its round is over): check it on the timing sheet.",
        "fr": "Ce code n'est pas valable (ou son tour est terminé) : vérifiez-le sur la feuille "
        "des horaires.",
    },
    "access.error.invalid_payload": {
        "en": "This label cannot be stored (control characters or invalid text): retype it.",
        "fr": "Ce libellé ne peut être enregistré (caractères de contrôle ou texte invalide) :"
        " retapez-le.",
    },
    "access.error.rate_limited": {
        "en": "Too many wrong codes: wait a minute before trying again.",
        "fr": "Trop de codes erronés : patientez une minute avant de réessayer.",
    },
    "access.error.csrf_failed": {
        "en": "This form has expired or did not come from this site: reload the page and send it "
        "again.",
        "fr": "Ce formulaire a expiré ou ne provient pas de ce site : rechargez la page et "
        "envoyez-le à nouveau.",
    },
    "access.title": {"en": "Access codes for {round}", "fr": "Codes d'accès du tour {round}"},
    "access.shown_once": {
        "en": "Each code is shown this once: print this page with the timing sheet now.",
        "fr": "Chaque code n'est affiché qu'une seule fois : imprimez cette page maintenant, "
        "avec la feuille des horaires.",
    },
    "access.qr_alt": {"en": "QR code of the {role} link", "fr": "QR code du lien « {role} »"},
    "access.label": {"en": "Label", "fr": "Libellé"},
    "access.label_example": {"en": "hole 7 marshal", "fr": "commissaire du trou 7"},
    "access.make": {"en": "Make codes", "fr": "Créer les codes"},
    "access.made": {"en": "Codes made for this round", "fr": "Codes créés pour ce tour"},
    "access.col.id": {"en": "#", "fr": "N°"},
    "access.col.role": {"en": "Role", "fr": "Rôle"},
    "access.col.label": {"en": "Label", "fr": "Libellé"},
    "access.col.created": {"en": "Made (UTC)", "fr": "Créé (UTC)"},
    "access.col.prefix": {"en": "Begins with", "fr": "Commence par"},
    "access.col.state": {"en": "State", "fr": "État"},
    "access.revoke": {"en": "Revoke (ends its sessions)", "fr": "Révoquer (ferme ses sessions)"},
    "access.revoked": {"en": "revoked", "fr": "révoqué"},
    "audit.title": {"en": "Event log of {round}", "fr": "Journal des événements de {round}"},
    "audit.type": {"en": "Type", "fr": "Type"},
    "audit.group": {"en": "Group", "fr": "Partie"},
    "audit.all_types": {"en": "all", "fr": "tous"},
    "audit.all_groups": {"en": "all", "fr": "toutes"},
    "audit.filter": {"en": "Filter", "fr": "Filtrer"},
    "audit.csv": {"en": "CSV export", "fr": "Export CSV"},
    "audit.none": {"en": "No events.", "fr": "Aucun événement."},
    "audit.col.seq": {"en": "#", "fr": "N°"},
    "audit.col.at": {"en": "At", "fr": "Heure"},
    "audit.col.recorded_at": {"en": "Recorded at", "fr": "Enregistré à"},
    "audit.col.type": {"en": "Type", "fr": "Type"},
    "audit.col.group": {"en": "Group", "fr": "Partie"},
    "audit.col.hole": {"en": "Hole", "fr": "Trou"},
    "audit.col.role": {"en": "Role", "fr": "Rôle"},
    "audit.col.name": {"en": "Name", "fr": "Nom"},
    "audit.col.device": {"en": "Device", "fr": "Appareil"},
    "audit.col.target": {"en": "Target", "fr": "Cible"},
    "audit.col.reason": {"en": "Reason", "fr": "Motif"},
    "audit.col.details": {"en": "Details", "fr": "Détails"},
    "message.title.forbidden": {"en": "Access refused", "fr": "Accès refusé"},
    "message.forbidden": {
        "en": "Your access does not open this page: ask the committee for an access code of "
        "the right role.",
        "fr": "Votre accès ne permet pas d'ouvrir cette page : demandez au comité un code "
        "d'accès du rôle qui convient.",
    },
    "message.title.csrf_failed": {"en": "Form expired", "fr": "Formulaire expiré"},
    "message.csrf_failed": {
        "en": "This form has expired or did not come from this site: reload the page and send it "
        "again.",
        "fr": "Ce formulaire a expiré ou ne provient pas de ce site : rechargez la page et "
        "envoyez-le à nouveau.",
    },
    "message.title.unauthorized": {"en": "Not signed in", "fr": "Non connecté"},
    "message.unauthorized": {
        "en": "You are not signed in (or your session ended): enter your access code.",
        "fr": "Vous n'êtes pas connecté (ou votre session a pris fin) : saisissez votre code "
        "d'accès.",
    },
    "message.join": {"en": "Enter an access code", "fr": "Saisir un code d'accès"},
    "message.home": {"en": "Home", "fr": "Accueil"},
}
MESSAGES.update(report_messages.MESSAGES)
MESSAGES.update(scoring_messages.MESSAGES)


def current_language() -> str:
    """Return the page language: ``?lang=``, else the cookie, else the browser's choice."""
    asked = request.args.get("lang")
    if asked in LANGUAGES:
        return asked
    cookie = request.cookies.get(COOKIE)
    if cookie in LANGUAGES:
        return cookie
    return request.accept_languages.best_match(LANGUAGES) or "en"


def translate(key: str, lang: str) -> str:
    """Return the text of ``key`` in ``lang`` (English, then the key, when missing)."""
    texts = MESSAGES.get(key)
    if texts is None:
        return key
    return texts.get(lang) or texts.get("en") or key


def catalogue(lang: str) -> dict[str, str]:
    """Return every text in ``lang``, for the pages' JavaScript."""
    return {key: translate(key, lang) for key in MESSAGES}


def page_context() -> dict[str, Any]:
    """Return what every template needs: ``lang``, ``other_lang``, ``t`` and ``messages``."""
    lang = current_language()
    return {
        "lang": lang,
        "other_lang": "fr" if lang == "en" else "en",
        "t": lambda key: translate(key, lang),
        "messages": catalogue(lang),
    }
