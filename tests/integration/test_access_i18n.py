"""The access pages in French and English: /join, /login, the access codes, the audit, refusals.

French is asked for by the browser (``Accept-Language``) or by ``?lang=fr``; English is the
default and ``?lang=en`` wins over a French browser. The error sentences shown in the forms
(wrong code, too many tries, expired form) follow the page's language; text typed by people
stays escaped in both.
"""

from __future__ import annotations

import html

import pytest
from drivers import ROUND, MarshalDriver

FRENCH_BROWSER = {"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"}
ENGLISH_BROWSER = {"Accept-Language": "en-GB,en;q=0.8"}
ASK = ("header", "query")


def url(path: str, lang: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}lang={lang}"


def fetch(client, path: str, lang: str, ask: str, method: str = "get", **kwargs):
    """Request ``path`` in ``lang``, asked for by the browser's header or by ``?lang=``."""
    send = getattr(client, method)
    if ask == "header":
        headers = FRENCH_BROWSER if lang == "fr" else ENGLISH_BROWSER
        return send(path, headers=headers, **kwargs)
    return send(url(path, lang), **kwargs)


def text(response) -> str:
    """Return the page as a person reads it (entities such as ``&#39;`` decoded)."""
    return html.unescape(response.get_data(as_text=True))


def csrf_of(client) -> str:
    with client.session_transaction() as s:
        return s["csrf"]


# -- the pages of everybody: /join and /login ---------------------------------------------------


@pytest.mark.parametrize("ask", ASK)
def test_the_join_page_in_french(app, ask):
    r = fetch(app.test_client(), "/join", "fr", ask)
    page = text(r)
    assert r.status_code == 200 and '<html lang="fr">' in page
    assert "<title>Code d'accès · pace</title>" in page
    assert "Saisissez votre code d'accès" in page
    assert "Le comité remet à chaque commissaire, arbitre et spectateur un code" in page
    assert ">Entrer</button>" in page
    assert "Comité : connectez-vous avec le code secret du comité" in page
    assert "Enter your access code" not in page and ">Open</button>" not in page


@pytest.mark.parametrize("ask", ASK)
def test_the_join_page_in_english(app, ask):
    page = text(fetch(app.test_client(), "/join", "en", ask))
    assert '<html lang="en">' in page
    assert "Enter your access code" in page and ">Open</button>" in page
    assert "Committee: sign in with the committee secret" in page
    assert "Saisissez" not in page


@pytest.mark.parametrize("ask", ASK)
def test_the_login_page_in_french_and_english(app, ask):
    fr = text(fetch(app.test_client(), "/login", "fr", ask))
    assert "Connexion du comité" in fr and ">Se connecter</button>" in fr
    assert "Le code secret du comité a été affiché une seule fois par <code>pace init</code>" in fr
    assert "(ou par le premier <code>pace serve</code>)." in fr
    assert "Code secret <input" in fr and "Committee sign-in" not in fr
    en = text(fetch(app.test_client(), "/login", "en", ask))
    assert "Committee sign-in" in en and ">Sign in</button>" in en
    assert "The committee secret was printed once by <code>pace init</code>" in en
    assert "Connexion" not in en


def test_the_query_wins_over_the_browser(app):
    fr = text(app.test_client().get("/join?lang=fr", headers=ENGLISH_BROWSER))
    assert "Saisissez votre code d'accès" in fr
    en = text(app.test_client().get("/join?lang=en", headers=FRENCH_BROWSER))
    assert "Enter your access code" in en
    assert "Enter your access code" in text(app.test_client().get("/join"))


def test_the_forms_keep_the_language_they_were_shown_in(app):
    page = text(app.test_client().get("/join?lang=fr&next=/rounds/R1/marshal"))
    assert 'action="/join?lang=fr"' in page and 'href="/login?lang=fr"' in page
    assert 'action="/login?lang=fr"' in text(app.test_client().get("/login?lang=fr"))


# -- the error sentences of the forms -------------------------------------------------------------


@pytest.mark.parametrize("ask", ASK)
def test_a_wrong_code_is_explained_in_french(app, ask):
    web = app.test_client()
    fetch(web, "/join", "fr", ask)
    r = fetch(
        web, "/join", "fr", ask, method="post", data={"code": "ZZZZ-ZZZZ", "csrf": csrf_of(web)}
    )
    page = text(r)
    assert r.status_code == 400 and 'class="error" role="alert"' in page
    assert "Ce code n'est pas valable (ou son tour est terminé)" in page
    assert "feuille des horaires" in page and "is not valid" not in page
    with web.session_transaction() as s:
        assert "token" not in s


def test_a_printed_link_with_a_wrong_code_is_explained_in_french(app):
    r = app.test_client().get("/join?code=ZZZZ-ZZZZ", headers=FRENCH_BROWSER)
    assert r.status_code == 400 and "Ce code n'est pas valable" in text(r)


@pytest.mark.parametrize("ask", ASK)
def test_a_wrong_code_is_explained_in_english(app, ask):
    web = app.test_client()
    fetch(web, "/join", "en", ask)
    r = fetch(
        web, "/join", "en", ask, method="post", data={"code": "ZZZZ-ZZZZ", "csrf": csrf_of(web)}
    )
    assert r.status_code == 400
    assert "This code is not valid (or its round is over)" in text(r)


@pytest.mark.parametrize("lang", ("fr", "en"))
def test_too_many_wrong_codes_are_explained_in_the_pages_language(app, lang):
    web = app.test_client()
    web.get(url("/join", lang))
    csrf = csrf_of(web)
    for _ in range(5):
        web.post(url("/join", lang), data={"code": "ZZZZ-ZZZZ", "csrf": csrf})
    r = web.post(url("/join", lang), data={"code": "ZZZZ-ZZZZ", "csrf": csrf})
    expected = {
        "fr": "Trop de codes erronés : patientez une minute avant de réessayer.",
        "en": "Too many wrong codes: wait a minute before trying again.",
    }
    assert r.status_code == 429 and expected[lang] in text(r)


@pytest.mark.parametrize("ask", ASK)
def test_an_expired_form_is_explained_in_french(app, ask):
    code = app.extensions["pace"].access.create_code(ROUND, "marshal")
    r = fetch(app.test_client(), "/join", "fr", ask, method="post", data={"code": code})
    assert r.status_code == 403
    assert "Ce formulaire a expiré ou ne provient pas de ce site" in text(r)
    en = fetch(app.test_client(), "/join", "en", ask, method="post", data={"code": code})
    assert "This form has expired or did not come from this site" in text(en)


def test_a_wrong_committee_secret_is_explained_in_french(app):
    app.extensions["pace"].access.ensure_committee_account()
    web = app.test_client()
    web.get("/login?lang=fr")
    r = web.post("/login?lang=fr", data={"code": "not-the-secret", "csrf": csrf_of(web)})
    page = text(r)
    assert r.status_code == 400 and "Connexion du comité" in page
    assert "Ce code n'est pas valable" in page


# -- the committee's access codes ----------------------------------------------------------------


@pytest.mark.parametrize("ask", ASK)
def test_the_access_page_in_french(app, login, ask):
    app.extensions["pace"].access.create_code(ROUND, "referee", "arbitre chef")
    page = text(fetch(login("committee"), f"/rounds/{ROUND}/access", "fr", ask))
    assert '<html lang="fr">' in page and "<title>Accès · R1 · pace</title>" in page
    assert "Codes d'accès du tour R1" in page and "Codes créés pour ce tour" in page
    for role in ("Comité", "Arbitre", "Commissaire", "Spectateur"):
        assert f"> {role}</label>" in page
    assert "Libellé <input" in page and 'placeholder="commissaire du trou 7"' in page
    assert ">Créer les codes</button>" in page
    assert "<th>Rôle</th>" in page and "<th>Créé (heure locale)</th>" in page
    assert "<td>Arbitre</td><td>arbitre chef</td>" in page
    assert "Access codes for" not in page and "Make codes" not in page


@pytest.mark.parametrize("ask", ASK)
def test_the_access_page_in_english(app, login, ask):
    page = text(fetch(login("committee"), f"/rounds/{ROUND}/access", "en", ask))
    assert "Access codes for R1" in page and ">Make codes</button>" in page
    assert "> Marshal</label>" in page and "Codes made for this round" in page
    assert "Créer" not in page


def test_codes_made_in_french_are_shown_once_in_french_and_escaped(app, login):
    committee = login("committee")
    committee.get(f"/rounds/{ROUND}/access?lang=fr")
    evil = "<script>alert(1)</script>"
    r = committee.post(
        f"/rounds/{ROUND}/access?lang=fr",
        data={"role": ["marshal", "viewer"], "label": evil, "csrf": csrf_of(committee)},
    )
    raw = r.get_data(as_text=True)
    assert r.status_code == 200 and evil not in raw and "&lt;script&gt;" in raw
    page = text(r)
    assert "Chaque code n'est affiché qu'une seule fois" in page
    assert "<h2>Commissaire</h2>" in page and "<h2>Spectateur</h2>" in page
    assert "/join?code=" in page
    assert 'alt="QR code du lien « Commissaire »"' in page
    assert 'data-role="marshal"' in page  # the role itself stays the machine's word


def test_a_forged_access_form_is_explained_in_french(app, login):
    committee = login("committee")
    committee.get(f"/rounds/{ROUND}/access")
    before = len(app.extensions["pace"].store.access_codes(round=ROUND))
    r = committee.post(
        f"/rounds/{ROUND}/access",
        data={"role": "marshal", "csrf": "forged"},
        headers=FRENCH_BROWSER,
    )
    assert len(app.extensions["pace"].store.access_codes(round=ROUND)) == before
    assert "Ce formulaire a expiré ou ne provient pas de ce site" in text(r)


# -- the audit ------------------------------------------------------------------------------------


@pytest.mark.parametrize("ask", ASK)
@pytest.mark.parametrize("role", ("committee", "referee"))
def test_the_audit_page_in_french_and_english(app, login, ask, role):
    fr = text(fetch(login(role), f"/rounds/{ROUND}/audit?raw=1", "fr", ask))
    assert '<html lang="fr">' in fr and "<title>Journal · R1 · pace</title>" in fr
    assert "Journal des événements de R1" in fr and "Aucun événement." in fr
    assert ">Filtrer</button>" in fr and "Export CSV" in fr
    assert "<th>Partie</th>" in fr and "<th>Motif</th>" in fr and "<th>Appareil</th>" in fr
    assert '<option value="">toutes</option>' in fr
    assert "Event log" not in fr and "No events." not in fr
    en = text(fetch(login(role), f"/rounds/{ROUND}/audit?raw=1", "en", ask))
    assert "Event log of R1" in en and "No events." in en and ">Filter</button>" in en
    assert "<th>Group</th>" in en and "<th>Reason</th>" in en
    readable = text(fetch(login(role), f"/rounds/{ROUND}/audit", "fr", ask))
    assert "<th>Quoi</th>" in readable and "<th>Qui</th>" in readable


def test_the_audit_in_french_keeps_the_facts_and_escapes_names(app, connect, clock, login):
    evil = "<img src=x onerror=alert(1)>"
    marshal = MarshalDriver(connect("marshal", "phone-1", name=evil), clock.now)
    marshal.tap("1", 1, "08:40")
    r = login("referee").get(f"/rounds/{ROUND}/audit?lang=fr&type=hole_completed&raw=1")
    raw = r.get_data(as_text=True)
    assert evil not in raw and "&lt;img src=x" in raw
    assert "hole_completed</td>" in raw and "08:40:00" in raw and "Aucun événement" not in raw
    readable = login("referee").get(f"/rounds/{ROUND}/audit?lang=fr").get_data(as_text=True)
    assert "Trou 1 terminé par la partie 1" in readable and evil not in readable
    # filtering keeps the language
    assert '<input type="hidden" name="lang" value="fr">' in raw
    csv_text = login("referee").get(f"/rounds/{ROUND}/audit.csv?lang=fr").get_data(as_text=True)
    assert csv_text.startswith("seq,at,recorded_at,type,group,hole,role,name,device")


# -- refusals --------------------------------------------------------------------------------------


@pytest.mark.parametrize("ask", ASK)
def test_a_refused_page_is_explained_in_french(login, ask):
    r = fetch(login("marshal"), f"/rounds/{ROUND}/access", "fr", ask)
    page = text(r)
    assert r.status_code == 403 and '<html lang="fr">' in page
    assert "<h1>Accès refusé</h1>" in page
    assert "Votre accès ne permet pas d'ouvrir cette page" in page
    # issue 14, point 10: a full sentence, in French
    assert (
        "Vous êtes connecté comme commissaire : la page « Accès » est réservée au comité." in page
    )
    assert ">Saisir un code d'accès</a>" in page and ">Accueil</a>" in page
    assert "forbidden" not in page and "may not" not in page


@pytest.mark.parametrize("ask", ASK)
def test_a_refused_page_is_explained_in_english_with_the_reason(login, ask):
    r = fetch(login("viewer"), f"/rounds/{ROUND}/audit", "en", ask)
    page = text(r)
    assert r.status_code == 403 and "<h1>Access refused</h1>" in page
    assert "Your access does not open this page" in page
    # issue 14, point 10: full sentences, not "a viewer may not audit page"
    sentence = "You are signed in as a viewer: the page “Audit” is for the committee or a referee"
    assert f"{sentence} only." in page
    assert "audit page" not in page
    assert ">Enter an access code</a>" in page and ">Home</a>" in page


def test_a_page_without_a_session_still_leads_to_the_join_form(app):
    r = app.test_client().get(f"/rounds/{ROUND}/audit?lang=fr")
    assert r.status_code == 302 and "/join?next=" in r.headers["Location"]
    join = app.test_client().get(r.headers["Location"], headers=FRENCH_BROWSER)
    assert "Saisissez votre code d'accès" in text(join)


def test_the_next_page_stays_escaped_in_french(app):
    evil = '/x"><script>alert(1)</script>'
    raw = app.test_client().get("/join", query_string={"next": evil, "lang": "fr"})
    page = raw.get_data(as_text=True)
    assert "<script>alert(1)" not in page and "&lt;script&gt;" in page


def test_the_home_page_speaks_french_to_a_french_browser_signed_in_or_not(app, login):
    fr = {"Accept-Language": "fr-FR,fr;q=0.9"}
    anonymous = app.test_client().get("/", headers=fr).get_data(as_text=True)
    assert "Entrer votre code d&#39;accès" in anonymous and "Connexion du comité" in anonymous
    committee = login("committee", None).get("/", headers=fr).get_data(as_text=True)
    assert "Connecté en tant que" in committee and "Comité" in committee
    assert "Se déconnecter" in committee and "Journal" in committee and "Signed in" not in committee


def test_refusals_over_the_api_and_sockets_are_sentences(login, connect):
    """Issue 14, point 10: "a viewer may not dashboard page" becomes a sentence."""
    r = login("viewer").get(f"/api/rounds/{ROUND}/snapshot")
    assert r.json["error"]["message"] == (
        f"a viewer may not read /api/rounds/{ROUND}/snapshot; only the committee, a referee or"
        " a marshal may"
    )
    page = login("viewer").get(f"/rounds/{ROUND}/dashboard?lang=en")
    assert "the page “Referee dashboard” is for the committee or a referee only" in text(page)
    marshal = connect("marshal", "phone")
    ack = marshal.emit("record_siren", {"id": "x"}, callback=True)
    assert ack["error"]["message"] == "a marshal may not send record_siren; only the committee may"
