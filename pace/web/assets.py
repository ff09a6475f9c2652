"""The static assets: fingerprinted URLs, cached a year, served compressed (issue 29).

- ``url_for("static", filename=...)`` gains ``?v=<version>``: the first 12 hex digits of a
  SHA-256 over the file and every module it imports, directly or not. A page of a new release
  names new URLs, so a phone picks up the release at its next load; an answer to the URL of
  the current version is ``Cache-Control: public, max-age=31536000, immutable`` (a load asks
  the network nothing for it). Any other URL of a static file (no ``v``, or an old one) is
  ``no-cache`` with an ETag: the browser revalidates it at every use.
- The pages' scripts are ES modules importing each other by relative path
  (``import ... from "./common.js"``). Their imports are versioned when served: each relative
  specifier gets the ``?v=`` of the file it names. A version covers the whole import closure,
  so a change deep in ``common.js`` gives new versions to every module that imports it, up to
  the page's script: the cache can never hold a mix of two releases. An import map would do
  the same from the page, but it is an inline script, which the CSP forbids (``script-src
  'self'``); ``no-cache`` modules would cost a revalidation per module at every load.
- Bodies are compressed once per version, in memory (brotli, gzip), and served as the
  browser's ``Accept-Encoding`` asks (``Vary: Accept-Encoding``): the files are small
  (~330 KB in all), and compressing each once beats compressing each answer again
  (flask-compress does that, and would also compress the API's small live answers).
- The service worker (``/sw.js``) precaches the same versioned URLs: its ``"/static/..."``
  literals are rewritten with their versions, and its ``VERSION`` is a digest of them all.
- The pages (HTML), the API's reads (``GET``, JSON) and the service worker's script are
  compressed as they go out (brotli at a fast quality, or gzip) and carry an ETag of their
  content with ``no-cache``: the browser's check for a new worker and the marshal page's
  network-first reload under the worker are answered ``304 Not Modified`` when nothing
  changed (a reload moves ~1 KB, not ~25 KB), and a page's first read of the round (the
  leaderboard's: ~90 KB of JSON) crosses a weak signal as a fifth of it. Commands (``POST``)
  and Socket.IO are left as they are: small, many, and live.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import posixpath
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import brotli  # type: ignore[import-untyped]
from flask import Flask, Response, abort, current_app, request

#: ``Cache-Control`` of an answer to the current version's URL, and of any other
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
#: how often (seconds) the folder is looked at again for edited files (a developer's reload)
RESCAN_SECONDS = 1.0
#: smaller bodies are sent as they are: the encoding's framing would eat the gain
MIN_COMPRESS = 512
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")

#: a relative module specifier in a static import, ``export ... from`` or ``import()``
IMPORT = re.compile(r"""(\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.\.?/[^"'?#]+\.m?js)\2""")
#: a static file's path in the service worker's script
WORKER_URL = re.compile(r"""(["'])/static/([^"'?#]+)\1""")


@dataclass
class Asset:
    """One static file as served: its body, version, type and compressed bodies."""

    path: str
    raw: bytes
    imports: tuple[str, ...]
    mimetype: str
    version: str = ""
    body: bytes = b""
    encoded: dict[str, bytes] = field(default_factory=dict)

    def encoding(self, name: str) -> bytes:
        """Return the body compressed with ``name`` ("br" or "gzip"), made once."""
        if name not in self.encoded:
            if name == "br":
                self.encoded[name] = brotli.compress(self.body, quality=11)
            else:
                self.encoded[name] = gzip.compress(self.body, compresslevel=9, mtime=0)
        return self.encoded[name]

    @property
    def compressible(self) -> bool:
        return len(self.body) >= MIN_COMPRESS and self.mimetype.startswith(COMPRESSIBLE)


def _mimetype(path: str) -> str:
    if path.endswith((".js", ".mjs")):
        return "text/javascript"
    return mimetypes.guess_type(path)[0] or "application/octet-stream"


def _imports(path: str, raw: bytes) -> tuple[str, ...]:
    if not path.endswith((".js", ".mjs")):
        return ()
    here = posixpath.dirname(path)
    text = raw.decode("utf-8", errors="replace")
    return tuple(posixpath.normpath(posixpath.join(here, m[2])) for m in IMPORT.findall(text))


def _closure(name: str, files: dict[str, Asset]) -> list[str]:
    """Return ``name`` and every file it imports, directly or not (cycles allowed), sorted."""
    seen, todo = {name}, [name]
    while todo:
        for dep in files[todo.pop()].imports:
            if dep in files and dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return sorted(seen)


def _versioned_imports(asset: Asset, files: dict[str, Asset]) -> bytes:
    here = posixpath.dirname(asset.path)

    def add_version(m: re.Match[str]) -> str:
        target = files.get(posixpath.normpath(posixpath.join(here, m[3])))
        if target is None:
            return m[0]
        return f"{m[1]}{m[2]}{m[3]}?v={target.version}{m[2]}"

    return IMPORT.sub(add_version, asset.raw.decode("utf-8")).encode("utf-8")


def build(folder: Path) -> dict[str, Asset]:
    """Read every file of ``folder``; return them by relative path, versioned and rewritten."""
    files: dict[str, Asset] = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            path = p.relative_to(folder).as_posix()
            raw = p.read_bytes()
            files[path] = Asset(path, raw, _imports(path, raw), _mimetype(path))
    for name, asset in files.items():
        digest = hashlib.sha256()
        for dep in _closure(name, files):
            digest.update(dep.encode() + b"\0" + files[dep].raw + b"\0")
        asset.version = digest.hexdigest()[:12]
    for asset in files.values():
        asset.body = _versioned_imports(asset, files) if asset.imports else asset.raw
    return files


class Assets:
    """The static folder as served; looked at again at most once a ``RESCAN_SECONDS``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._signature: tuple[tuple[str, int, int], ...] = ()
        self._files: dict[str, Asset] = {}
        self._checked = float("-inf")

    def files(self) -> dict[str, Asset]:
        """Return the files as served now (read again when one changed)."""
        now = time.monotonic()
        if now - self._checked < RESCAN_SECONDS:
            return self._files
        with self._lock:
            signature = tuple(
                (p.as_posix(), s.st_mtime_ns, s.st_size)
                for p in sorted(self.folder.rglob("*"))
                if p.is_file() and (s := p.stat())
            )
            if signature != self._signature:
                self._files = build(self.folder)
                self._signature = signature
            self._checked = now
        return self._files

    def version(self, filename: str) -> str | None:
        """Return the version of ``filename`` (None: no such file)."""
        asset = self.files().get(filename)
        return asset.version if asset else None

    def worker_script(self) -> str:
        """Return the service worker's script with versioned URLs and its ``VERSION``."""
        files = self.files()
        script = files["sw.js"].raw.decode("utf-8")

        def add_version(m: re.Match[str]) -> str:
            asset = files.get(m[2])
            if asset is None:
                return m[0]
            return f"{m[1]}/static/{m[2]}?v={asset.version}{m[1]}"

        script = WORKER_URL.sub(add_version, script)
        digest = hashlib.sha256()
        for path, asset in files.items():
            digest.update(f"{path}\0{asset.version}\0".encode())
        return script.replace("__PACE_VERSION__", digest.hexdigest()[:16], 1)

    def serve(self, filename: str) -> Response:
        """Answer ``GET /static/<filename>``: compressed as asked, cached as its URL allows."""
        asset = self.files().get(filename)
        if asset is None:
            abort(404)
        chosen = accepted(asset.compressible)
        body = asset.encoding(chosen) if chosen else asset.body
        response = Response(body, mimetype=asset.mimetype)
        if chosen:
            response.headers["Content-Encoding"] = chosen
        if asset.compressible:
            response.vary.add("Accept-Encoding")
        response.set_etag(f"{asset.version}-{chosen or 'identity'}")
        current = request.args.get("v") == asset.version
        response.headers["Cache-Control"] = IMMUTABLE if current else REVALIDATE
        response.make_conditional(request)
        return response


#: brotli's quality for answers compressed as they go out (11, the files' once-only quality,
#: takes ~20 ms for a page; 5 takes under 1 ms and loses a few per cent)
LIVE_QUALITY = 5


def accepted(compressible: bool) -> str:
    """Return the encoding to send this request's answer in: "br", "gzip" or ""."""
    if not compressible:
        return ""
    offered = request.accept_encodings
    return next((e for e in ("br", "gzip") if offered[e]), "")


def revalidated(response: Response) -> Response:
    """Compress a dynamic answer as the browser asks, tag it with an ETag of its content and
    ``no-cache`` (private: it may depend on the session), and answer 304 to a matching
    ``If-None-Match``."""
    if response.direct_passthrough or response.is_streamed or response.status_code != 200:
        return response
    body = response.get_data()
    tag = hashlib.sha256(body).hexdigest()[:20]
    chosen = accepted(len(body) >= MIN_COMPRESS)
    if chosen == "br":
        response.set_data(brotli.compress(body, quality=LIVE_QUALITY))
    elif chosen == "gzip":
        response.set_data(gzip.compress(body, compresslevel=6, mtime=0))
    if chosen:
        response.headers["Content-Encoding"] = chosen
    response.vary.add("Accept-Encoding")
    response.set_etag(f"{tag}-{chosen or 'identity'}")
    response.headers.setdefault("Cache-Control", "private, no-cache")
    response.make_conditional(request)  # 304 and no body when the tag matches
    return response


def install(app: Flask) -> Assets:
    """Serve ``app``'s static folder through ``Assets``, version its ``url_for`` URLs, and
    compress and tag its pages."""
    assets = Assets(Path(app.static_folder or "static"))
    app.extensions["pace_assets"] = assets
    app.view_functions["static"] = assets.serve

    # registered first, so run last: after the security headers and the JSON escaping
    @app.after_request
    def finish_page(response: Response) -> Response:
        if request.method == "GET" and response.mimetype in ("text/html", "application/json"):
            return revalidated(response)
        return response

    @app.url_defaults
    def versioned(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "v" not in values and "filename" in values:
            version = assets.version(values["filename"])
            if version is not None:
                values["v"] = version

    return assets


def current_assets() -> Assets:
    """Return the running app's ``Assets``."""
    assets: Assets = current_app.extensions["pace_assets"]
    return assets
