"""Static assets fingerprinted, cached long and compressed (issue 29, part 2; pace/web/assets.py).

In-process against the real static folder: the pages name versioned URLs, the module imports
inside the scripts are versioned too, an answer to the current version is immutable for a
year, any other is revalidated, bodies come in brotli or gzip as asked, and the service worker
precaches the very URLs the pages use. A copy of a folder checks that a change in an imported
module gives new versions up to the page's script.
"""

from __future__ import annotations

import gzip
import re
import shutil
from pathlib import Path

import brotli
from drivers import ROUND

from pace.web import assets

STATIC = Path(__file__).resolve().parents[2] / "static"
#: a versioned static URL in a page or a script
VERSIONED = re.compile(r"/static/([\w./-]+)\?v=([0-9a-f]{12})")


def test_the_marshal_page_names_versioned_urls_served_immutable_and_compressed(login):
    client = login("marshal")
    page = client.get(f"/rounds/{ROUND}/marshal").get_data(as_text=True)
    named = dict(VERSIONED.findall(page))
    assert {"marshal.js", "pace.css", "vendor/socket.io.min.js"} <= named.keys(), named
    for path, version in named.items():
        raw = (STATIC / path).read_bytes()
        for encoding, decode in (("br", brotli.decompress), ("gzip", gzip.decompress)):
            r = client.get(
                f"/static/{path}?v={version}",
                headers={"Accept-Encoding": f"{encoding}, identity"},
            )
            assert r.status_code == 200
            assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            if len(raw) < assets.MIN_COMPRESS:  # the favicon: sent as it is
                assert "Content-Encoding" not in r.headers and r.get_data() == raw
                continue
            assert r.headers["Content-Encoding"] == encoding
            assert "Accept-Encoding" in r.headers["Vary"]
            body = decode(r.get_data())
            if path.endswith(".js") and b"import" in raw:
                assert body != raw  # its imports carry versions
            else:
                assert body == raw
            assert len(r.get_data()) < len(raw)


def test_module_imports_are_versioned_and_the_versions_are_the_current_ones(login):
    client = login("referee")
    page = client.get(f"/rounds/{ROUND}/shotclock").get_data(as_text=True)
    version = dict(VERSIONED.findall(page))["shotclock.js"]
    script = client.get(f"/static/shotclock.js?v={version}").get_data(as_text=True)
    imported = re.findall(r'from "(\.\.?/[^"]+)"', script)
    assert len(imported) >= 8
    for spec in imported:
        path, _, v = spec.partition("?v=")
        assert v, f"{spec} is not versioned"
        target = f"/static/{Path(path).as_posix().removeprefix('./')}"
        r = client.get(f"{target}?v={v}")
        assert r.status_code == 200 and "immutable" in r.headers["Cache-Control"], spec
        # its own imports are versioned as well (../common.js from static/shotclock/)
        assert "?v=" in r.get_data(as_text=True) or b"import" not in r.get_data()


def test_an_unversioned_or_old_url_is_revalidated_with_its_etag(client):
    for url in ("/static/common.js", "/static/common.js?v=000000000000"):
        r = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200 and r.headers["Cache-Control"] == "no-cache"
        etag = r.headers["ETag"]
        again = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
        assert again.status_code == 304 and again.get_data() == b""
    plain = client.get("/static/common.js", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers
    assert plain.get_data() == (STATIC / "common.js").read_bytes()  # it imports nothing
    assert client.get("/static/%2e%2e/pace/app.py").status_code == 404
    assert client.get("/static/nothing-here.js").status_code == 404


def test_the_service_worker_precaches_the_urls_the_pages_name(login):
    client = login("marshal")
    page = client.get(f"/rounds/{ROUND}/marshal").get_data(as_text=True)
    worker = client.get("/sw.js")
    assert worker.headers["Cache-Control"] == "no-cache"
    script = worker.get_data(as_text=True)
    precached = dict(VERSIONED.findall(script))
    assert "__PACE_VERSION__" not in script
    for path, version in VERSIONED.findall(page):
        if path != "favicon.svg":
            assert precached.get(path) == version, path
    # and what marshal.js imports, as its served body names it
    marshal = client.get(f"/static/marshal.js?v={precached['marshal.js']}").get_data(as_text=True)
    for spec in re.findall(r'from "\./([^"]+)"', marshal):
        path, _, version = spec.partition("?v=")
        assert precached.get(path) == version, spec


def test_a_change_in_an_imported_module_gives_new_versions_up_to_the_page(tmp_path):
    folder = tmp_path / "static"
    (folder / "parts").mkdir(parents=True)
    (folder / "page.js").write_text('import { a } from "./parts/a.js";\nconsole.log(a);\n')
    (folder / "parts" / "a.js").write_text('import { b } from "../b.js";\nexport const a = b;\n')
    (folder / "b.js").write_text('import { a } from "./parts/a.js";\nexport const b = 1;\n')
    (folder / "other.css").write_text("body { color: black }\n")
    before = {p: a.version for p, a in assets.build(folder).items()}
    page = assets.build(folder)["page.js"].body.decode()
    assert f'"./parts/a.js?v={before["parts/a.js"]}"' in page
    (folder / "b.js").write_text('import { a } from "./parts/a.js";\nexport const b = 2;\n')
    after = {p: a.version for p, a in assets.build(folder).items()}
    changed = {p for p in before if before[p] != after[p]}
    assert changed == {"page.js", "parts/a.js", "b.js"}  # a cycle a ↔ b is no trouble
    shutil.rmtree(folder)


def test_pages_and_the_worker_come_compressed_and_answer_304_when_unchanged(login):
    client = login("marshal")
    tags = {}
    for url in (f"/rounds/{ROUND}/marshal", "/sw.js"):
        first = client.get(url, headers={"Accept-Encoding": "br"})
        assert first.headers["Content-Encoding"] == "br"
        assert first.headers["Cache-Control"].endswith("no-cache")
        plain = client.get(url, headers={"Accept-Encoding": "identity"}).get_data()
        assert brotli.decompress(first.get_data()) == plain
        assert len(first.get_data()) * 2 < len(plain)
        tags[url] = first.headers["ETag"]
        again = client.get(
            url, headers={"Accept-Encoding": "br", "If-None-Match": first.headers["ETag"]}
        )
        assert again.status_code == 304 and again.get_data() == b"", url
    # the page in another language is another body: another tag, never a 304 for the other
    french = client.get(
        f"/rounds/{ROUND}/marshal?lang=fr",
        headers={"Accept-Encoding": "br", "If-None-Match": tags[f"/rounds/{ROUND}/marshal"]},
    )
    assert french.status_code == 200 and french.headers["ETag"] != tags[f"/rounds/{ROUND}/marshal"]


def test_the_api_reads_come_compressed_and_its_commands_as_they_are(client):
    read = client.get(f"/api/rounds/{ROUND}/snapshot", headers={"Accept-Encoding": "gzip"})
    assert read.headers["Content-Encoding"] == "gzip" and "ETag" in read.headers
    plain = client.get(f"/api/rounds/{ROUND}/snapshot").get_data()
    assert gzip.decompress(read.get_data()) == plain
    command = client.post(
        "/api/commands/hole_completed", json={}, headers={"Accept-Encoding": "br, gzip"}
    )
    assert "Content-Encoding" not in command.headers and command.json["ok"] is False
