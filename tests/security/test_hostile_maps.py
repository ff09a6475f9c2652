"""Hostile and malformed map files over the wire (issue 46): a real ``pace serve`` (the arena),
real HTTP, from the committee secret's session, the one that may give a course its map. Each
file (features that are not objects, JSON or XML nested 100,000 deep, entity expansion in
UTF-8 and in UTF-16, invalid UTF-8, an empty or a 6 MB file) is refused by the preview and by
the upload with a clear error in the shared shape, an HTTP 4xx, its problems in the page's
language; nothing is stored and the server's log stays clean (no traceback: these were HTTP
500s). A site with two courses is previewed, refused until one is chosen, and stored as
chosen; the other roles may not send a map at all.
"""

from __future__ import annotations

import json
import urllib.parse
from pathlib import Path

import pytest
from security.arena import Arena, is_refusal
from security.test_console import multipart, post

pytestmark = pytest.mark.e2e

MAPS = Path(__file__).resolve().parents[1] / "data" / "formats" / "maps"
NINE = "Nine of the West"
FRENCH = {"Accept-Language": "fr-BE,fr;q=0.9"}
LAUGHS = (
    '<?xml version="1.0" encoding="{}"?><!DOCTYPE osm [<!ENTITY a "aaaaaaaaaa">'
    + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9))
    + ']><osm><node id="1" lat="50" lon="4"><tag k="name" v="&j;"/></node></osm>'
)

#: name: (file, the error's code, the first problem as the French page shows it)
HOSTILE = {
    "features not objects": (
        b'{"type": "FeatureCollection", "features": [1, "x", null, []]}', "invalid_file",
        "élément 1 est un nombre, pas une feature GeoJSON (un objet)",
    ),
    "JSON 100,000 deep": (
        b"[" * 100_000 + b"]" * 100_000, "invalid_file",
        "le JSON est imbriqué trop profondément pour être du GeoJSON (un plan imbrique 6"
        " niveaux)",
    ),
    "XML 100,000 deep": (
        b"<osm>" + b"<a>" * 100_000 + b"</a>" * 100_000 + b"</osm>", "invalid_file",
        "le XML imbrique des éléments sur plus de 8 niveaux (un export OpenStreetMap en imbrique"
        " 3) : ce n'est pas un export OpenStreetMap",
    ),
    "billion laughs UTF-8": (
        LAUGHS.format("UTF-8").encode(), "invalid_file",
        "le fichier déclare un type de document ou des entités (<!DOCTYPE, <!ENTITY) : un export"
        " OpenStreetMap n'en a pas, et elles peuvent s'étendre sans limite ; refusé",
    ),
    "billion laughs UTF-16": (
        LAUGHS.format("UTF-16").encode("utf-16"), "invalid_file",
        "le fichier déclare un type de document ou des entités (<!DOCTYPE, <!ENTITY) : un export"
        " OpenStreetMap n'en a pas, et elles peuvent s'étendre sans limite ; refusé",
    ),
    "invalid UTF-8": (
        b'{"type": "FeatureCollection", "features": [], "x": "\xff"}', "invalid_file",
        "le fichier n'est pas du texte UTF-8 (l'octet 53 ne se lit pas ainsi) ; enregistrez-le"
        " en UTF-8",
    ),
    "empty": (
        b"", "invalid_file",
        "le fichier est vide ; attendu : un export OpenStreetMap (.osm XML ou GeoJSON)",
    ),
    "wrong types": (
        b'{"type": "FeatureCollection", "features": [{"type": "Feature", "properties":'
        b' {"golf": "hole", "ref": [1]}, "geometry": null}]}', "invalid_file",
        "élément 1 : son ref est une liste, pas un texte ou un nombre",
    ),
    "six megabytes": (
        b"<osm>" + b" " * (6 * 1024 * 1024) + b"</osm>", "payload_too_large",
        "le fichier fait 6.0 Mo : plus que les 5 Mo que peut prendre le plan d'un parcours"
        " (n'exportez que la zone du parcours)",
    ),
}  # fmt: skip


def stored(arena: Arena) -> dict | None:
    quoted = urllib.parse.quote(NINE, safe="")
    return arena.get(f"/api/courses/{quoted}/geometry", "admin")["geometry"]


@pytest.fixture(scope="module")
def nine(arena: Arena) -> Arena:
    """The arena with the nine-hole course the map files are checked against."""
    data = (MAPS / "course_nine.toml").read_bytes()
    status, answer = post(arena, "/api/courses/upload", "admin", {}, {"file": ("c.toml", data)})
    assert status == 200, answer
    return arena


def send(arena: Arena, path: str, data: bytes, name: str = "map.geojson", role: str = "admin",
         headers: dict[str, str] | None = None, **choice: str) -> tuple[int, dict]:  # fmt: skip
    body, kind = multipart({"course": NINE, **choice}, {"file": (name, data)})
    status, _, answer = arena.request("POST", path, role, body,
                                      {"Content-Type": kind, **(headers or {})})  # fmt: skip
    return status, json.loads(answer)


@pytest.mark.parametrize("case", sorted(HOSTILE))
@pytest.mark.parametrize("path", ["/api/courses/geometry/preview", "/api/courses/geometry"])
def test_a_hostile_map_is_refused_in_the_pages_language_and_stores_nothing(nine, case, path):
    data, code, french = HOSTILE[case]
    before = stored(nine)
    status, answer = send(nine, path, data, headers=FRENCH)
    assert 400 <= status < 500 and is_refusal(answer), (status, answer)
    assert answer["error"]["code"] == code
    assert answer["problems"][0]["message"] == french
    if code == "payload_too_large":
        assert status == 413
        assert answer["error"]["message"].startswith("the file is 6.0 MB: more than the 5 MB")
    assert stored(nine) == before
    nine.assert_log_clean()


def test_a_site_of_two_courses_is_previewed_chosen_and_stored_as_chosen(nine):
    site = (MAPS / "melbourne.osm").read_bytes()
    status, answer = send(nine, "/api/courses/geometry", site, "melbourne.osm")
    assert status == 400 and answer["error"]["code"] == "map_course_required"
    assert [(c["kind"], c["value"], c["holes"], c["first"], c["last"]) for c in answer["choices"]
            ] == [("course", "West Course", 9, "1W", "9W"), ("course", "East Course", 9, "1E",
                                                             "9E")]  # fmt: skip
    assert stored(nine) is None
    status, preview = send(nine, "/api/courses/geometry/preview", site, "melbourne.osm",
                           map_course="West Course")  # fmt: skip
    assert status == 200 and preview["stored"] is False and stored(nine) is None
    assert preview["chosen"]["value"] == "West Course"
    assert preview["holes"][0] == {"number": 1, "ref": "1W", "par": "4", "length": "310 m",
                                   "name": "Tea Tree"}  # fmt: skip
    # the other course is checked against the course like any: its hole 2 is a par 3
    status, east = send(nine, "/api/courses/geometry", site, "melbourne.osm",
                        ref_pattern="*E")  # fmt: skip
    assert status == 400 and [p["message"] for p in east["problems"]] == [
        "hole 2: par 3 in the file, par 4 in the course"
    ]
    status, done = send(nine, "/api/courses/geometry", site, "melbourne.osm",
                        map_course="West Course")  # fmt: skip
    assert status == 200 and done["holes"] == 9, done
    geometry = stored(nine)
    assert geometry and geometry["source"] == "melbourne.osm"
    assert geometry["holes"][0]["line"][0] == [145.03, -37.972]  # West's first tee
    nine.assert_log_clean()


@pytest.mark.parametrize("role", ["committee", "referee", "marshal", "viewer"])
def test_only_the_committee_secret_may_send_a_map(nine, role):
    # a round's committee code may not change a course (docs/access.md)
    data = (MAPS / "notepad.geojson").read_bytes()
    for path in ("/api/courses/geometry/preview", "/api/courses/geometry"):
        status, answer = send(nine, path, data, role=role)
        assert status == 403 and answer["error"]["code"] == "forbidden", (path, answer)
