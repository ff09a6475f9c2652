"""The documents' pages have the other pages' language menu (issue 47): the round's report, its
letters and its results sheet, in Chromium. Choosing Nederlands (or Français) in the menu
renders the page again in that language and keeps the page's other query parameters (the
report's course strip at ``?strip_at=``, the letters ``?per=group``); the menu is the same on
every page (tests/browser/test_languages.py), the base pages' links keep their parameters too.
A player opens the results sheet on a phone: looked at 360 px wide (/tmp/i47msgs-*.png).

A real ``pace serve`` with round R1 (tests/browser/conftest.py), signed in as the committee.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from livesupport import ROUND
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}


def choose(page: Page, menu_name: str, language: str) -> dict[str, list[str]]:
    """Click ``language`` in the page's language menu (named ``menu_name``); return the new
    address's query."""
    menu = page.get_by_role("navigation", name=menu_name)
    with page.expect_navigation():
        menu.get_by_role("link", name=language).click()
    return parse_qs(urlsplit(page.url).query)


def test_the_reports_menu_renders_it_in_dutch_and_keeps_its_course_strip(server, new_context):
    page = new_context(locale="en-GB", viewport=NARROW).new_page()
    page.goto(f"{server.url}/rounds/{ROUND}/report?strip_at=09:30")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("h1")).to_have_text("Pace-of-play report")
    menu = page.get_by_role("navigation", name="Language")
    expect(menu.get_by_role("link", name="English")).to_have_attribute("aria-current", "true")
    query = choose(page, "Language", "Nederlands")
    assert query == {"strip_at": ["09:30"], "lang": ["nl"]}
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.locator("h1")).to_have_text("Rapport speeltempo")
    page.screenshot(path="/tmp/i47msgs-report-nl-360.png")
    # the strip is still the one of 09:30, now said in Dutch
    expect(page.locator("body")).to_contain_text("09:30")
    menu = page.get_by_role("navigation", name="Taal")
    expect(menu.get_by_role("link", name="Nederlands")).to_have_attribute("aria-current", "true")
    # and back to French, the strip kept again
    assert choose(page, "Taal", "Français") == {"strip_at": ["09:30"], "lang": ["fr"]}
    expect(page.locator("h1")).to_have_text("Rapport sur le rythme de jeu")


def test_the_letters_menu_renders_them_in_dutch_and_keeps_one_per_group(server, new_context):
    page = new_context(locale="fr-BE", viewport=NARROW).new_page()
    page.goto(f"{server.url}/rounds/{ROUND}/letters?per=group")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("p.empty")).to_have_text(
        "Personne à qui écrire : aucune partie hors position et aucun coup chronométré."
    )
    query = choose(page, "Langue", "Nederlands")
    assert query == {"per": ["group"], "lang": ["nl"]}
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.locator("p.empty")).to_have_text(
        "Niemand om te schrijven: geen enkele flight was uit positie en geen enkele slag werd "
        "getimed."
    )
    page.screenshot(path="/tmp/i47msgs-letters-nl-360.png")


def test_the_results_sheets_menu_renders_it_in_dutch_on_a_phone(server, new_context):
    page = new_context(locale="en-GB", viewport=NARROW).new_page()
    page.goto(f"{server.url}/rounds/{ROUND}/results?class=A")
    expect(page.locator("h1")).to_have_text(f"Results · {ROUND}")
    menu = page.get_by_role("navigation", name="Language")
    # on a phone the menu shows the codes, the links keep their names
    expect(menu.locator("a.lang .lang-code")).to_have_text(["FR", "EN", "NL"])
    # (its style, static/doc-langs.css: the codes shown, the names hidden, 48 px to tap)
    expect(menu.locator("a.lang .lang-code").first).to_be_visible()
    expect(menu.locator("a.lang .lang-name").first).to_have_css("position", "absolute")
    box = menu.locator("a.lang").first.bounding_box()
    assert box and box["height"] >= 48 and box["width"] >= 48, box
    page.screenshot(path="/tmp/i47msgs-results-en-360.png", full_page=True)
    assert choose(page, "Language", "Nederlands") == {"class": ["A"], "lang": ["nl"]}
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.locator("h1")).to_have_text(f"Uitslagen · {ROUND}")
    # the sheet's PDF link follows the language chosen
    assert "lang=nl" in (page.locator("#sheet-pdf").get_attribute("href") or "")
    # nothing wider than the phone
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW["width"], width
    page.screenshot(path="/tmp/i47msgs-results-nl-360.png", full_page=True)


def test_a_base_pages_menu_keeps_its_query_too(server, new_context):
    # the offenders' page over 30 days, chosen in Dutch: still over 30 days
    page = new_context(locale="en-GB").new_page()
    page.goto(f"{server.url}/offenders?days=30")
    assert choose(page, "Language", "Nederlands") == {"days": ["30"], "lang": ["nl"]}
    expect(page.locator("html")).to_have_attribute("lang", "nl")
