"""The audit's type filter in the page's language (issue 47): each kind of event by its label,
the raw kind sent; a kind the round has none of, or one pace does not know, shows no event and
says so in the page's language."""

from __future__ import annotations

from drivers import ROUND, MarshalDriver


def audit(login, query: str) -> str:
    return login("referee").get(f"/rounds/{ROUND}/audit?{query}").get_data(as_text=True)


def test_the_type_filter_says_each_kind_in_the_pages_language(connect, clock, login):
    marshal = MarshalDriver(connect("marshal", "phone-1", name="Paul"), clock.now)
    tap = marshal.tap("1", 1, "08:14")
    marshal.correct(tap["id"], "08:15", "tapped late")
    dutch = audit(login, "lang=nl")
    assert '<option value="hole_completed">Hole uitgespeeld</option>' in dutch
    assert '<option value="hole_time_corrected">Tijd van een hole verbeterd</option>' in dutch
    assert ">hole_completed<" not in dutch and ">hole_time_corrected<" not in dutch
    french = audit(login, "lang=fr&type=hole_time_corrected")
    assert (
        '<option value="hole_time_corrected" selected>Heure d&#39;un trou corrigée</option>'
        in french
    )
    assert 'class="t-hole_time_corrected"' in french and 'class="t-hole_completed"' not in french


def test_a_kind_with_no_event_is_shown_chosen_and_says_there_is_none(connect, clock, login):
    MarshalDriver(connect("marshal", "phone-1"), clock.now).tap("1", 1, "08:14")
    page = audit(login, "lang=nl&type=siren")
    assert '<option value="siren" selected>Sirene</option>' in page
    assert "Geen gebeurtenissen." in page and 'class="t-hole_completed"' not in page
    # a kind pace does not know: no event, no option made of it, the page in its language
    page = audit(login, "lang=nl&type=%3Cb%3Enope")
    assert "Geen gebeurtenissen." in page and 'class="t-hole_completed"' not in page
    assert "<b>nope" not in page and "nope</option>" not in page and " selected>" not in page
