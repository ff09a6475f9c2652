"""A course's map from an OpenStreetMap export (issue 40): read from .osm XML or GeoJSON,
checked against the course hole by hole, and hostile files refused before they cost anything.

The sample export (tests/data/formats/course_louiseville.osm) is the project's own: the demo's
layout (``pace.demo.geography``) for the Louiseville course.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from pace import formats
from pace.demo import geography
from pace.formats.geometry import MAX_BYTES, geometry_geojson, parse_geometry
from pace.rules.errors import FileFormatError

DATA = Path(__file__).resolve().parents[2] / "data" / "formats"
COURSE = formats.load_course(str(DATA / "course_louiseville.toml"))
SAMPLE = (DATA / "course_louiseville.osm").read_bytes()


def problems(data: bytes | str, name: str = "map.osm") -> list[str]:
    raw = data.encode() if isinstance(data, str) else data
    with pytest.raises(FileFormatError) as caught:
        parse_geometry(raw, name, COURSE)
    return [p.message for p in caught.value.problems]


def test_the_sample_export_gives_every_hole_its_line_tee_and_green():
    g = parse_geometry(SAMPLE, "course_louiseville.osm", COURSE)
    assert g["source"] == "course_louiseville.osm"
    assert [h["number"] for h in g["holes"]] == list(range(1, 19))
    assert [h["par"] for h in g["holes"]] == [h.par for h in COURSE.holes]
    for h in g["holes"]:
        assert len(h["line"]) >= 2
        assert h["tee_area"] and h["green_area"]  # the areas nearest the line's ends
        # the tee and green are the areas' centres, near the line's ends
        assert (
            abs(h["tee"][0] - h["line"][0][0]) < 1e-3
            and abs(h["green"][1] - h["line"][-1][1]) < 1e-3
        )


def test_the_sample_was_made_by_the_demos_layout():
    assert SAMPLE.decode() == geography.osm_xml(COURSE)


def test_its_geojson_export_reads_back_to_the_same_map():
    g = parse_geometry(SAMPLE, "course_louiseville.osm", COURSE)
    again = parse_geometry(geometry_geojson(g).encode(), "course_louiseville.geojson", COURSE)
    assert again["holes"] == g["holes"]


def test_a_hole_missing_a_wrong_par_and_an_unknown_ref_are_each_named():
    text = geography.osm_xml(COURSE, skip=[7], wrong_par=[3])
    text = text.replace('v="12"/>', 'v="19"/>', 1)  # hole 12's ref becomes 19
    found = problems(text)
    assert "hole 3: par 4 in the file, par 3 in the course" in found
    assert "hole 7: not in the file (no golf=hole way with ref=7)" in found
    assert any(p.startswith("hole '19'") and "the course has no such hole (holes 1–18)" in p
               for p in found)  # fmt: skip
    assert "hole 12: not in the file (no golf=hole way with ref=12)" in found


def test_a_hole_twice_and_a_hole_without_ref_are_refused():
    text = geography.osm_xml(COURSE).replace('v="2"/>', 'v="1"/>', 1)
    found = problems(text)
    assert any(p.startswith("hole 1: found 2 times") for p in found), found
    text = geography.osm_xml(COURSE).replace('<tag k="ref" v="5"/>', "", 1)
    assert any("golf=hole without a ref" in p for p in problems(text))


def test_entity_expansion_is_refused_before_the_parser_sees_it():
    laughs = (
        '<?xml version="1.0"?>\n<!DOCTYPE osm [\n <!ENTITY a "aaaaaaaaaa">\n'
        + "".join(
            f' <!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">\n' for i in range(9)
        )
        + ']>\n<osm><node id="1" lat="50" lon="4"><tag k="name" v="&j;"/></node></osm>'
    )
    started = time.perf_counter()
    found = problems(laughs)
    assert time.perf_counter() - started < 0.5
    assert found == [
        "the file declares a document type or entities (<!DOCTYPE, <!ENTITY): an"
        " OpenStreetMap export has none, and they can expand without bound; refused"
    ]
    external = '<!DOCTYPE osm [<!ENTITY x SYSTEM "file:///etc/passwd">]><osm>&x;</osm>'
    assert "refused" in problems(external)[0]


def test_a_huge_file_is_refused_by_its_size():
    found = problems(b"<osm>" + b" " * MAX_BYTES + b"</osm>")
    assert len(found) == 1 and "more than the 5 MB a course's map may take" in found[0]


def test_neither_xml_nor_geojson_and_broken_files_say_so():
    assert problems("golf=hole") == ["neither an OpenStreetMap XML export (.osm) nor GeoJSON"]
    assert problems("<osm><way>")[0].startswith("not readable as XML")
    assert "not <osm>" in problems("<gpx/>")[0]
    assert problems('{"type": "Feature"}', "m.geojson") == ["not a GeoJSON FeatureCollection"]
    bad = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"golf": "hole", "ref": "1"},
         "geometry": {"type": "LineString", "coordinates": [[400, 95], [4, 50]]}}]}  # fmt: skip
    assert "not longitudes and latitudes" in problems(json.dumps(bad), "m.geojson")[0]
