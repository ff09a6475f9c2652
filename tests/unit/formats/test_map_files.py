"""Maps as clubs find them (issue 46): a site with several courses, mapped by its golf courses'
areas and names or by its refs (``1W``, ``1 - #2``), is matched to the course the committee
chooses, with the holes matched shown before anything is stored; a file saved with a byte
order mark reads; and every malformed file (wrong types, deep nesting, entities in any
encoding, the wrong encoding, an empty or oversized file) is refused in a sentence.

The sites are tests/data/formats/maps (``make_maps.py`` made them), each as ``.osm`` and as
GeoJSON; they are checked against ``course_nine.toml`` (the West and Old courses' pars).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pace import formats
from pace.formats import mapfile
from pace.formats.geometry import MapFileError, match_map, parse_geometry
from pace.rules.errors import FileFormatError

MAPS = Path(__file__).resolve().parents[2] / "data" / "formats" / "maps"
NINE = formats.load_course(str(MAPS / "course_nine.toml"))
BOTH = pytest.mark.parametrize("ext", ["osm", "geojson"])


def read(name: str) -> bytes:
    return (MAPS / name).read_bytes()


def refusal(data: bytes | str, **choice: str) -> FileFormatError:
    raw = data.encode() if isinstance(data, str) else data
    with pytest.raises(FileFormatError) as caught:
        match_map(raw, "map.geojson", NINE, **choice)
    return caught.value


def problems(data: bytes | str, **choice: str) -> list[str]:
    return [p.message for p in refusal(data, **choice).problems]


def collection(*features: object) -> str:
    return json.dumps({"type": "FeatureCollection", "features": list(features)})


def hole(ref: object = "1", coords: object = ((4.0, 50.0), (4.0, 50.003)), **props: object):
    return {"type": "Feature", "properties": {"golf": "hole", "ref": ref, **props},
            "geometry": {"type": "LineString", "coordinates": coords}}  # fmt: skip


# -- a site with several courses -----------------------------------------------------------


@BOTH
def test_a_site_with_two_courses_is_refused_until_one_is_chosen_and_lists_them(ext):
    for site, names in (("melbourne", ["West Course", "East Course"]),
                        ("links", ["Old Course", "New Course"])):  # fmt: skip
        e = refusal(read(f"{site}.{ext}"))
        assert isinstance(e, MapFileError) and e.code == "map_course_required"
        assert [c.value for c in e.choices] == names
        assert [p.message for p in e.problems] == [
            f"the file holds 2 courses; choose the one to import: course {names[0]!r} (9 holes),"
            f" course {names[1]!r} (9 holes)"
        ]


@BOTH
def test_the_course_chosen_by_its_openstreetmap_name_gives_its_holes_only(ext):
    west = match_map(read(f"melbourne.{ext}"), "m", NINE, map_course="west  COURSE")
    assert west.chosen is not None and west.chosen.value == "West Course"
    assert [(h["number"], h["ref"], h["par"], h["length"]) for h in west.holes][:2] == [
        (1, "1W", "4", "310 m"), (2, "2W", "4", "320 m")]  # fmt: skip
    assert west.holes[0]["name"] == "Tea Tree" and west.holes[1]["name"] is None
    assert west.geometry["holes"][0]["line"][0] == [145.03, -37.972]
    # the East course (a multipolygon relation in .osm, a MultiPolygon in GeoJSON) is checked
    # against the course like any other: its hole 2 is a par 3
    assert problems(read(f"melbourne.{ext}"), map_course="East Course") == [
        "hole 2: par 3 in the file, par 4 in the course"
    ]


@BOTH
def test_courses_told_apart_by_their_area_or_by_golf_course_name_alone(ext):
    # St Andrews' way: plain refs 1 … 9 on both courses
    old = match_map(read(f"links.{ext}"), "l", NINE, map_course="Old Course")
    new = match_map(read(f"links.{ext}"), "l", NINE, map_course="New Course")
    assert [h["ref"] for h in old.holes] == [str(n) for n in range(1, 10)]
    assert old.geometry["holes"][0]["line"][0][0] == -2.82
    assert new.geometry["holes"][0]["line"][0][0] == -2.808


@BOTH
def test_the_course_chosen_by_a_ref_pattern(ext):
    # Pinehurst's way: "1 - #2"; spaces and case do not count in the pattern
    two = match_map(read(f"pinehurst.{ext}"), "p", NINE, ref_pattern="*-#2")
    assert [h["ref"] for h in two.holes][:2] == ["1 - #2", "2 - #2"]
    assert [c.value for c in two.choices] == ["* - #2", "* - #4"]
    west = match_map(read(f"melbourne.{ext}"), "m", NINE, ref_pattern="*w")
    assert [h["ref"] for h in west.holes][-1] == "9W"


def test_a_choice_that_names_nothing_in_the_file_says_what_it_holds():
    data = read("melbourne.geojson")
    assert problems(data, map_course="Composite") == [
        "the file has no golf course 'Composite' with holes; its courses: course 'West Course'"
        " (9 holes), course 'East Course' (9 holes)"
    ]
    assert problems(data, ref_pattern="W") == [
        "ref pattern 'W': put one * where the hole number goes (*W for 1W, 2W, …)"
    ]
    assert problems(data, ref_pattern="*N")[0].startswith("no hole's ref fits the pattern '*N'")
    assert problems(data, map_course="West Course", ref_pattern="*W") == [
        "choose the course by its name or by a ref pattern, not both"
    ]


def test_a_file_of_one_course_behaves_as_before_even_with_refs_like_1w():
    # one course with its own pattern (Royal Melbourne's West alone) needs no choice
    west = collection(*(hole(f"{n}W", ((4.0 + n / 1000, 50.0), (4.0 + n / 1000, 50.003)),
                             par=str(p)) for n, p in zip(range(1, 10), [4, 4, 3, 5, 4, 4, 3, 5, 4],
                                                         strict=True)))  # fmt: skip
    found = match_map(west.encode(), "w.geojson", NINE)
    assert found.chosen is None and [h["number"] for h in found.holes] == list(range(1, 10))
    # a plain file's hole missing is named with the ref it should have
    assert "hole 9: not in the file (no golf=hole way with ref=9W)" in problems(
        west.replace('"9W"', '"19W"')
    )


# -- files as clubs save them --------------------------------------------------------------


@BOTH
def test_a_file_saved_by_notepad_with_a_byte_order_mark_is_read(ext):
    data = read(f"notepad.{ext}")
    assert data.startswith(b"\xef\xbb\xbf") and b"\r\n" in data
    g = parse_geometry(data, f"notepad.{ext}", NINE)
    assert [h["number"] for h in g["holes"]] == list(range(1, 10))
    assert parse_geometry(data[3:], "plain", NINE)["holes"] == g["holes"]


def test_utf16_files_with_their_byte_order_mark_are_read_too():
    text = read("notepad.geojson")[3:].decode()
    assert len(parse_geometry(text.encode("utf-16"), "u16", NINE)["holes"]) == 9
    osm = read("notepad.osm")[3:].decode().replace("'UTF-8'", "'UTF-16'")
    assert len(parse_geometry(osm.encode("utf-16"), "u16", NINE)["holes"]) == 9


# -- every malformed file refused in words -----------------------------------------------------

LAUGHS = (
    '<?xml version="1.0" encoding="{}"?>\n<!DOCTYPE osm [\n <!ENTITY a "aaaaaaaaaa">\n'
    + "".join(f' <!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">\n' for i in range(9))
    + ']>\n<osm><node id="1" lat="50" lon="4"><tag k="name" v="&j;"/></node></osm>'
)
DECLARES = (
    "the file declares a document type or entities (<!DOCTYPE, <!ENTITY): an OpenStreetMap"
    " export has none, and they can expand without bound; refused"
)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-16-le", "utf-16-be"])
def test_entity_expansion_is_refused_in_any_encoding(encoding):
    # the former check read raw bytes for "<!DOCTYPE": UTF-16 passed it, and only expat's
    # own limit stopped the expansion; defusedxml refuses the declaration once decoded
    data = LAUGHS.format("UTF-16" if "16" in encoding else "UTF-8").encode(encoding)
    assert problems(data) == [DECLARES]


def test_an_encoding_xml_cannot_read_is_refused_unread():
    assert problems(LAUGHS.format("UTF-32").encode("utf-32")) == [
        "not readable as XML: not well-formed (invalid token): line 1, column 1"
    ]


EMPTY = "the file is empty; expected an OpenStreetMap export (.osm XML or GeoJSON)"
MALFORMED = {
    "empty": (b"", EMPTY),
    "a byte-order mark alone": (b"\xef\xbb\xbf\r\n", EMPTY),
    "binary": (bytes(range(256)), "neither an OpenStreetMap XML export (.osm) nor GeoJSON"),
    "features not objects": (
        collection(1, "x", None, [], True),
        "feature 1 is a number, not a GeoJSON feature (an object)",
    ),
    "features an object": (
        '{"type": "FeatureCollection", "features": {}}',
        "the FeatureCollection's features are an object, not a list",
    ),
    "properties a list": (
        collection({"type": "Feature", "properties": [1]}),
        "feature 1: its properties are a list, not an object",
    ),
    "ref a list": (collection(hole([1])), "feature 1: its ref is a list, not a text or a number"),
    "geometry a text": (
        collection({"type": "Feature", "properties": {"golf": "hole", "ref": "1"},
                    "geometry": "LineString"}),  # fmt: skip
        "feature 1 (golf=hole): its geometry is a text, not a GeoJSON geometry",
    ),
    "coordinates texts": (
        collection(hole("1", ["4", "50"])),
        "feature 1 (golf=hole): its coordinates are not longitudes and latitudes",
    ),
    "coordinates an object": (
        collection({"type": "Feature", "properties": {"golf": "tee"},
                    "geometry": {"type": "Polygon", "coordinates": {"0": 1}}}),  # fmt: skip
        "feature 1 (golf=tee): its coordinates are not longitudes and latitudes",
    ),
    "coordinates booleans": (
        collection(hole("1", [[True, 50], [4, 50]])),
        "feature 1 (golf=hole): its coordinates are not longitudes and latitudes",
    ),
    "a golf course as a line": (
        collection({"type": "Feature", "properties": {"leisure": "golf_course", "name": "X"},
                    "geometry": {"type": "LineString", "coordinates": [[4, 50], [4, 51]]}}),
        "feature 1 (leisure=golf_course): a LineString, not an area",
    ),  # fmt: skip
    "JSON nested 100,000 deep": (
        b"[" * 100_000 + b"]" * 100_000,
        "the JSON is nested too deep to be GeoJSON (a map nests 6 levels)",
    ),
    "an object nested 100,000 deep": (
        b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
        "the JSON is nested too deep to be GeoJSON (a map nests 6 levels)",
    ),
    "XML nested 100,000 deep": (
        b"<osm>" + b"<a>" * 100_000 + b"</a>" * 100_000 + b"</osm>",
        "the XML nests elements more than 8 deep (an OpenStreetMap export nests 3): not an"
        " OpenStreetMap export",
    ),
    "invalid UTF-8 in JSON": (
        b'{"type": "FeatureCollection", "features": [], "name": "\xff"}',
        "the file is not UTF-8 text (byte 56 cannot be read as such); save it as UTF-8",
    ),
    "invalid UTF-8 in XML": (
        b'<osm><node id="\xff"/></osm>',
        "not readable as XML: not well-formed (invalid token): line 1, column 15",
    ),
    "external entity": (
        b'<!DOCTYPE osm [<!ENTITY x SYSTEM "file:///etc/passwd">]><osm>&x;</osm>', DECLARES
    ),
    "a doctype alone": (b'<?xml version="1.0"?><!DOCTYPE osm><osm/>', DECLARES),
    "not osm": (b"<gpx/>", "the root element is <gpx>, not <osm>: not an OpenStreetMap export"),
    "broken XML": (b"<osm><way>", "not readable as XML: no element found: line 1, column 10"),
    "a Feature alone": ('{"type": "Feature"}', "not a GeoJSON FeatureCollection"),
    "a way's node missing": (
        b'<osm><way id="7"><nd ref="1"/><tag k="golf" v="hole"/></way></osm>',
        "way 7 (golf=hole): node 1 is not in the file",
    ),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_every_malformed_file_is_refused_with_a_sentence(case):
    data, first = MALFORMED[case]
    assert problems(data)[0] == first


def test_a_million_bad_features_list_fifty_problems_and_count_the_rest():
    found = problems(collection(*[1] * 200_000))
    assert len(found) == mapfile.MAX_PROBLEMS + 1
    assert found[-1] == "199950 more problems not listed"


def test_the_size_refused_is_the_files_real_size():
    # 6 MB said "5.0 MB" when the file was cut at the limit before it was measured
    assert problems(b" " * (6 * 1024 * 1024)) == [
        "the file is 6.0 MB: more than the 5 MB a course's map may take (export only the"
        " course's area)"
    ]
    just_over = mapfile.size_problem(mapfile.MAX_BYTES + 1, "f")
    assert just_over is not None and "the file is 5.1 MB" in just_over.message
    assert mapfile.size_problem(mapfile.MAX_BYTES, "f") is None


def test_an_area_drawn_to_make_placing_the_holes_quadratic_is_refused():
    zigzag = [[i * 1e-5, float(i % 2)] for i in range(40_000)] + [[0.0, 0.0]]
    area = {"type": "Feature", "properties": {"leisure": "golf_course", "name": "Z"},
            "geometry": {"type": "Polygon", "coordinates": [zigzag]}}  # fmt: skip
    holes = [hole(str(k % 9 + 1), [[0.1, 0.5], [0.1, 0.6]]) for k in range(15_000)]
    # refused by the count of checks, not by a clock (speed is measured by benches, not tests)
    assert problems(collection(area, *holes)) == [
        "the golf courses' areas are drawn with too many points to place the holes in them"
        " (more than 2000000 checks); export only the course's area"
    ]
