"""A browser meets a refusal as a page in its language, a client as JSON (issue 47): an address
with no page, an unknown round's leaderboard, the cards form sent with no count."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_a_dutch_browser_gets_its_refusals_as_dutch_pages(server, browser):
    context = browser.new_context(locale="nl-BE")
    page = context.new_page()
    answer = page.goto(server.url + "/nope")
    assert answer is not None and answer.status == 404
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.locator("h1")).to_have_text("Pagina niet gevonden")
    answer = page.goto(server.url + "/rounds/NOPE/leaderboard")
    assert answer is not None and answer.status == 404
    expect(page.locator("h1")).to_have_text("Onbekende ronde")
    assert "unknown_round" not in page.locator("main").inner_text()
    context.close()


def test_the_cards_form_sent_with_no_count_answers_a_page_in_the_pages_language(server, browser):
    context = browser.new_context(locale="fr-BE")
    page = context.new_page()
    page.goto(f"{server.url}/join?code={server.code('committee')}&next=/rounds/R1/changes")
    expect(page.locator("form#cards")).to_be_visible()
    with page.expect_navigation():
        page.locator("form#cards button[type='submit']").click()  # every count left at 0
    expect(page.locator("h1")).to_have_text("Formulaire incomplet")
    expect(page.locator("main")).to_contain_text("revenez en arrière")
    context.close()


def test_a_client_still_gets_json(server):
    for path, accept in (("/nope", "application/json"), ("/rounds/NOPE/leaderboard", "*/*")):
        request = urllib.request.Request(server.url + path, headers={"Accept": accept})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        body = json.loads(refused.value.read())
        assert refused.value.code == 404 and body["ok"] is False, body


def test_a_rounds_code_refused_the_console_is_told_so_in_dutch(server, browser):
    # issue 47: R1's committee code does not open the console's pages over every round; the
    # page refusing it says why in the browser's language, not in English
    context = browser.new_context(locale="nl-BE")
    page = context.new_page()
    page.goto(f"{server.url}/join?code={server.code('committee')}")
    page.goto(f"{server.url}/courses")
    expect(page.locator("p.hint.detail")).to_contain_text(
        "uw toegangscode geldt alleen voor ronde 'R1'"
    )
    expect(page.locator("body")).not_to_contain_text("your access code")
    context.close()
