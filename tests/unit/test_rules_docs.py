"""The rules and the file formats are cited by section: every section cited exists.

The code, the tests, the benches and the docs cite ``docs/rules.md §4.6`` and ``docs/formats.md
§5`` (``rules.md §4.6`` inside docs/). A citation of a section that docs/rules.md or
docs/formats.md does not have, or of the rulebooks outside the repository by their bare shared
names, fails here, naming the file and the line.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
#: where citations are looked for: everything of the project but the git machinery
SCANNED = ("pace", "tests", "bench", "docs", "static", "templates", "README.md", "config.toml")
SUFFIXES = {".py", ".md", ".toml", ".js", ".html", ".txt", ".csv", ".json", ".css"}
SELF = Path(__file__).resolve()

_NUMBER = r"\d+(?:\.\d+)*"
#: ``rules.md §4.6``, ``docs/formats.md §5``, and what follows in the same citation:
#: ``§3, §9``, ``§4.3 and §4.5``, ``§4–§6``, ``§1–3``
CITATION = re.compile(
    rf"(?<![\w-])(?:docs/)?(?P<doc>rules|formats)\.md (?P<refs>§{_NUMBER}"
    rf"(?:\s*[–-]\s*§?{_NUMBER}|(?:,\s*|\s+and\s+)§{_NUMBER})*)"
)
#: the shared rulebooks' own names, which a reader of the repository does not have
BARE = re.compile(r"(?<![\w/.-])(?:RULES|FORMATS)\.md\b")
#: every document outside the repository (the names are split so that this file does not
#: name them itself): the rulebooks, the design and stack notes, the style guide, their folder
_FOLDER = "sha" + "red"
OUTSIDE = re.compile(
    r"(?<![\w/.-])(?:RULES|FORMATS|DESIGN|ST" + r"YLE)\.md\b|(?<![\w-])TECH-" + r"NOTES\b"
    rf"|(?:\.\./|/work/|(?<![\w./-])){_FOLDER}/(?=[A-Z]|hooks|seeds)"
)
HEADING = re.compile(rf"^#{{2,3}} +(?P<number>{_NUMBER})\.? ", re.MULTILINE)
LINK = re.compile(r"\]\((?P<file>[\w./-]+\.md)?#(?P<anchor>[^)\s]+)\)")


def sections(text: str) -> set[str]:
    """Return the section numbers of a document: its ``## 4.`` and ``### 4.6`` headings.

    >>> sorted(sections("# T\\n## 1. One\\n### 1.2 Sub\\n## Words\\n"))
    ['1', '1.2']
    """
    return {m["number"] for m in HEADING.finditer(text)}


def cited(text: str) -> list[tuple[int, str, str]]:
    """Return every section cited in ``text``: (line, document, section number).

    >>> cited("see docs/rules.md §3, §9 and formats.md §5.\\nrules.md §4–§6 (§7 alone: not)")
    ... # doctest: +NORMALIZE_WHITESPACE
    [(1, 'rules', '3'), (1, 'rules', '9'), (1, 'formats', '5'),
     (2, 'rules', '4'), (2, 'rules', '6')]
    """
    out = []
    for m in CITATION.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        out.extend((line, m["doc"], number) for number in re.findall(_NUMBER, m["refs"]))
    return out


def broken(text: str, known: dict[str, set[str]]) -> list[str]:
    """Return the citations of ``text`` whose section ``known[document]`` lacks."""
    return [
        f"line {line}: {doc}.md §{number}"
        for line, doc, number in cited(text)
        if number not in known[doc]
    ]


def bare(text: str) -> list[int]:
    """Return the lines of ``text`` that name a shared rulebook by its bare name."""
    return [text.count("\n", 0, m.start()) + 1 for m in BARE.finditer(text)]


def slug(heading: str) -> str:
    """Return the anchor a Markdown heading gets (GitHub's rule).

    >>> slug("### Timing spells (§4.1, §4.6, §4.7)"), slug("## 4. The status (`pace status`)")
    ('timing-spells-41-46-47', '4-the-status-pace-status')
    """
    text = heading.lstrip("#").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Return the anchors of a Markdown file's headings."""
    text = path.read_text(encoding="utf-8")
    return {slug(line) for line in text.splitlines() if re.match(r"#{1,6} ", line)}


def project_files() -> list[Path]:
    out = []
    for name in SCANNED:
        path = ROOT / name
        candidates = [path] if path.is_file() else sorted(path.rglob("*"))
        out += [
            p
            for p in candidates
            if p.is_file()
            and p.suffix in SUFFIXES
            and p.resolve() != SELF
            and "__pycache__" not in p.parts
        ]
    return out


def known_sections() -> dict[str, set[str]]:
    return {
        doc: sections((DOCS / f"{doc}.md").read_text(encoding="utf-8"))
        for doc in ("rules", "formats")
    }


def test_the_checker_catches_a_made_up_citation():
    known = {"rules": {"1", "3", "4", "4.6", "10.1"}, "formats": {"1", "5"}}
    text = (
        "# the clock (docs/rules.md §4.6, §10.1)\n"
        "# made up: docs/rules.md §4.9 and the formats' docs/formats.md §12\n"
        "# a range whose end is missing: rules.md §1–§7\n"
    )
    assert broken(text, known) == [
        "line 2: rules.md §4.9",
        "line 2: formats.md §12",
        "line 3: rules.md §7",
    ]
    rulebooks = "see " + "RULES" + ".md §3 and " + "FORMATS" + ".md\nnot docs/rules.md §3\n"
    assert bare(rulebooks) == [1, 1]


def test_the_rules_keep_the_rulebook_numbering():
    known = known_sections()
    assert {str(n) for n in range(1, 11)} <= known["rules"]
    assert {"4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7", "10.1"} <= known["rules"]
    assert {str(n) for n in range(1, 11)} <= known["formats"]


def test_every_cited_section_exists():
    known = known_sections()
    found = [
        f"{p.relative_to(ROOT)}, {problem}"
        for p in project_files()
        for problem in broken(p.read_text(encoding="utf-8", errors="replace"), known)
    ]
    assert not found, "citations of sections that do not exist:\n" + "\n".join(found)


def test_citations_are_numerous_enough_to_mean_something():
    # the scan must see the code's citations: an empty scan would pass the test above
    counts = {"rules": 0, "formats": 0}
    for p in project_files():
        for _, doc, _ in cited(p.read_text(encoding="utf-8", errors="replace")):
            counts[doc] += 1
    assert counts["rules"] > 150 and counts["formats"] > 40, counts


def test_no_file_cites_the_shared_rulebooks_by_their_bare_names():
    found = [
        f"{p.relative_to(ROOT)}, line {line}"
        for p in project_files()
        for line in bare(p.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not found, "cite docs/rules.md or docs/formats.md instead:\n" + "\n".join(found)


def test_the_rules_and_formats_links_reach_their_sections():
    for name in ("rules.md", "formats.md"):
        doc = DOCS / name
        missing = [
            f"{m['file'] or name}#{m['anchor']}"
            for m in LINK.finditer(doc.read_text(encoding="utf-8"))
            if m["anchor"] not in anchors(DOCS / (m["file"] or name))
        ]
        assert not missing, f"docs/{name}: links to headings that do not exist: {missing}"


def tracked_files() -> list[Path]:
    """Return the repository's tracked text files (``git ls-files``), or every project file
    when this is no git checkout."""
    try:
        listed = (
            subprocess.run(
                ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=30
            )
            .stdout.decode("utf-8")
            .split("\0")
        )
    except (OSError, subprocess.SubprocessError):
        return project_files()
    paths = [ROOT / name for name in listed if name]
    return [p for p in paths if p.is_file() and p.resolve() != SELF and text_file(p)]


def text_file(path: Path) -> bool:
    """Return whether ``path`` reads as UTF-8 text (no NUL byte in its first 8 kB)."""
    with path.open("rb") as f:
        return b"\0" not in f.read(8192)


def outside(text: str) -> list[int]:
    """Return the lines of ``text`` that cite a document outside the repository."""
    return [text.count("\n", 0, m.start()) + 1 for m in OUTSIDE.finditer(text)]


def test_the_outside_documents_are_caught_by_every_name():
    names = ["DESIGN", "ST" + "YLE", "RULES", "FORMATS"]
    text = "\n".join(f"see {n}.md §3" for n in names) + "\n(" + "TECH" + "-NOTES, SQLite)\n"
    text += f"../{_FOLDER}/" + "RULES" + f".md\n/work/{_FOLDER}/hooks\n"
    text += f"docs/rules.md §3, docs/architecture.md, a {_FOLDER}/ link, static/{_FOLDER}/x\n"
    assert outside(text) == [1, 2, 3, 4, 5, 6, 7]


def test_no_tracked_file_cites_a_document_outside_the_repository():
    files = tracked_files()
    assert len(files) > 300, "the scan must see the repository's files"
    found = [
        f"{p.relative_to(ROOT)}, line {line}"
        for p in files
        for line in outside(p.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not found, (
        "cite the project's own docs (docs/architecture.md, docs/rules.md, docs/formats.md, "
        "docs/testing.md...) instead:\n" + "\n".join(found)
    )
