"""A real ``pace serve`` answers the operator's probes without a session (issue 29)."""

from __future__ import annotations

import json
import urllib.request

import pytest
from livesupport import live_server

pytestmark = pytest.mark.e2e


def anonymous_get(url: str) -> tuple[int, dict, dict]:
    """GET ``url`` with no cookie and no token: the status, the JSON body and the headers."""
    with urllib.request.urlopen(urllib.request.Request(url), timeout=10) as r:
        return r.status, json.loads(r.read()), dict(r.headers)


def test_healthz_and_readyz_answer_200_without_a_session(tmp_path):
    with live_server(tmp_path, extra_args=["--tick", "1"]) as server:
        status, body, headers = anonymous_get(server.url + "/healthz")
        assert status == 200 and body == {"ok": True}
        status, body, headers = anonymous_get(server.url + "/readyz")
        assert status == 200, body
        # the serving process runs its scheduler: the readiness covers it
        assert body == {"ok": True, "checks": {"store": {"ok": True}, "scheduler": {"ok": True}}}
        assert "Set-Cookie" not in headers  # no session was opened for a probe
