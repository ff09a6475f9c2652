"""The three languages in a browser (issue 41): the header's menu, remembered per device, and
a first visit in the browser's language (a Flemish phone sends ``nl-BE``).

A real ``pace serve`` with round R1 (tests/browser/conftest.py), real Chromium contexts: each
context is a device with its own cookies.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

MARSHAL = "/rounds/R1/marshal"
BOARD = "/rounds/R1/board"
PHONE = {"width": 390, "height": 844}


def test_a_flemish_phone_opens_the_marshal_page_in_dutch(server, new_context):
    # first visit, no cookie: Accept-Language nl-BE alone is Dutch
    page = new_context(locale="nl-BE", viewport=PHONE).new_page()
    page.goto(server.url + MARSHAL)
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.locator("#pending")).to_have_text("Alle tikken verstuurd")
    page.locator("label[for='hole-1']").click()
    expect(page.get_by_role("button", name="Flight 1 heeft hole 1 uitgeholed")).to_be_visible()
    menu = page.get_by_role("navigation", name="Taal")
    expect(menu.get_by_role("link", name="Nederlands")).to_have_attribute("aria-current", "true")
    # on a phone the menu shows the codes; the names are the links' names
    expect(menu.locator("a.lang .lang-code")).to_have_text(["FR", "EN", "NL"])


def test_the_language_chosen_in_the_menu_is_kept_by_the_device(server, new_context):
    context = new_context(locale="en-GB", viewport=PHONE)
    page = context.new_page()
    page.goto(server.url + BOARD)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("navigation", name="Language").get_by_role("link", name="Nederlands").click()
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.locator("h1")).to_contain_text("Tempobord")
    # reloaded without ?lang=, and another page of the same device: still Dutch
    page.goto(server.url + BOARD)
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    other = context.new_page()
    other.goto(server.url + MARSHAL)
    expect(other.locator("html")).to_have_attribute("lang", "nl")
    expect(other.locator("#pending")).to_have_text("Alle tikken verstuurd")
    # another device with the same browser language keeps its own
    fresh = new_context(locale="en-GB").new_page()
    fresh.goto(server.url + BOARD)
    expect(fresh.locator("html")).to_have_attribute("lang", "en")
    # and the menu takes the device back to French
    other.get_by_role("navigation", name="Taal").get_by_role("link", name="Français").click()
    expect(other.locator("html")).to_have_attribute("lang", "fr")
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "fr")


def test_the_browsers_order_of_languages_is_followed(server, new_context):
    # a Brussels browser set to French first, Dutch second: French
    page = new_context(locale="fr-BE", extra_http_headers={
        "Accept-Language": "fr-BE,fr;q=0.9,nl-BE;q=0.8,nl;q=0.7"}).new_page()  # fmt: skip
    page.goto(server.url + BOARD)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    # a language pace does not speak is passed over for the next one
    page = new_context(extra_http_headers={"Accept-Language": "de-BE,nl;q=0.8"}).new_page()
    page.goto(server.url + BOARD)
    expect(page.locator("html")).to_have_attribute("lang", "nl")


def test_signing_in_stores_no_language_nobody_chose(server, new_context):
    # a Dutch phone signs in with the join form: its pages stay Dutch because the browser
    # says so, and no cookie pins the language (issue 47): the device follows its browser
    context = new_context(locale="nl-BE", viewport=PHONE)
    page = context.new_page()
    page.goto(server.url + "/join")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    assert "lang=" not in (page.locator("form.code-form").get_attribute("action") or "")
    page.locator("input[name='code']").fill(server.code("marshal"))
    page.locator("form.code-form button[type='submit']").click()
    page.wait_for_url(lambda url: "/join" not in url)
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    assert "pace_lang" not in {c["name"] for c in context.cookies()}
    # a language chosen in the menu is carried by the form and kept
    page.goto(server.url + "/join?lang=fr")
    assert "lang=fr" in (page.locator("form.code-form").get_attribute("action") or "")
    assert {c["name"]: c["value"] for c in context.cookies()}.get("pace_lang") == "fr"


def test_the_audits_filter_stores_no_language_nobody_chose(server, browser):
    # issue 47: the audit's and the offenders' filter forms sent the browser's language as
    # ?lang=, which stored it in the device's cookie
    context = browser.new_context(locale="nl-BE")
    page = context.new_page()
    page.goto(f"{server.url}/join?code={server.code('committee')}&next=/rounds/R1/audit")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    page.locator("form button[type='submit']").first.click()
    page.wait_for_load_state()
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    assert "lang=" not in page.url
    assert "pace_lang" not in {c["name"] for c in context.cookies()}
    context.close()


def test_a_refusal_reaches_a_dutch_marshal_in_dutch(server, new_context):
    # issue 47: a socket refusal carries its sentence in the device's language (`translation`)
    # and the page shows that one, not the English `message` kept for scripts and logs
    import uuid

    page = new_context(locale="nl-BE", viewport=PHONE).new_page()
    page.goto(server.url + MARSHAL)
    expect(page.locator("#pending")).to_have_text("Alle tikken verstuurd")
    for name in ("round_finish", "round_final"):  # the results made final meanwhile
        now = server.get_json("/api/rounds/R1/snapshot")["snapshot"]["at"]
        answer = server.post_json(f"/api/commands/{name}",
                                  {"id": str(uuid.uuid4()), "round": "R1", "device_time": now},
                                  token=server.token("committee"))  # fmt: skip
        assert answer["ok"], answer
    page.locator("label[for='hole-1']").click()
    page.get_by_role("button", name="Flight 1 heeft hole 1 uitgeholed").click()
    refused = page.locator("#taps li.entry.st-refused")
    expect(refused).to_have_count(1)
    error = refused.locator("p.error")
    expect(error).to_contain_text("definitief")  # the catalogue's Dutch sentence
    expect(error).not_to_contain_text("cannot be added")  # not the English message
