"""The live pages keep their layout as the round's data comes in (issue 29 §2).

Lighthouse counts a quarter of a page's performance on its layout shift (CLS): on a phone
the page is painted before its round's data has come through the socket, and whatever was
drawn then and moves when the data is drawn counts against it (docs/performance.md). Here
each measured page is opened at Lighthouse's phone size on a slow network (so it is painted
well before its data), and Chromium's own layout-shift entries are summed until the data is
drawn: under 0.01 (Lighthouse's "good" is 0.1; the pages' own residue, the connection's dot
changing width, is about 0.001).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ROUND = "R1"
PHONE = {"width": 412, "height": 823}  # Lighthouse's default mobile screen (a Moto G Power)
#: one round trip on a slow mobile network: page, stylesheet and scripts, the socket's
#: handshake and the join each take at least one, so the data comes seconds after the paint
LATENCY_MS = 400
#: each page, and what of its round's data shows it has been drawn
DRAWN = {
    "marshal": "#holes .chip",
    "shotclock": "button.group-choice",
    "scorecard": "#group option[value='1']",
    "leaderboard": "tr.lb-row",
    "board": "tr.board-row",
}

# Sums the layout shifts from the start of the page (with what moved, to say so when it
# fails) and notes the frame in which the round's data was first drawn.
OBSERVER = """
window.__shifts = [];
const keep = (entries) => {
  for (const e of entries) {
    if (e.hadRecentInput) continue;
    const moved = (e.sources || []).map((s) => {
      const n = s.node;
      if (!n || !n.tagName) return "?";
      const name = n.tagName.toLowerCase() + (n.id ? "#" + n.id : "")
        + [...n.classList].map((c) => "." + c).join("");
      return `${name} y ${Math.round(s.previousRect.y)}->${Math.round(s.currentRect.y)}`;
    });
    window.__shifts.push({ value: e.value, moved });
  }
};
const observer = new PerformanceObserver((list) => keep(list.getEntries()));
observer.observe({ type: "layout-shift", buffered: true });
// the shifts so far, those not yet handed to the observer's callback included
window.__collect = () => (keep(observer.takeRecords()), window.__shifts);
window.__drawn = null;
(function look() {
  if (document.querySelector(%s)) window.__drawn = performance.now();
  else requestAnimationFrame(look);
})();
"""


def test_the_live_pages_do_not_move_when_their_data_comes(server, new_context):
    failures = []
    for name, drawn in DRAWN.items():
        context = new_context(viewport=PHONE, device_scale_factor=1.75, is_mobile=True)
        context.add_init_script(OBSERVER % repr(drawn))
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": LATENCY_MS, "downloadThroughput": 200_000,
             "uploadThroughput": 100_000},
        )  # fmt: skip
        page.goto(f"{server.url}/rounds/{ROUND}/{name}")
        expect(page.locator(drawn).first).to_be_attached(timeout=30_000)
        page.wait_for_function("window.__drawn !== null")
        painted = page.evaluate(
            "performance.getEntriesByName('first-contentful-paint').map((e) => e.startTime)"
        )
        drawn_at = page.evaluate("window.__drawn")
        # the page was seen before its data: else there was nothing that could have moved
        assert painted and painted[0] < drawn_at, (name, painted, drawn_at)
        # two frames on: the frame that drew the data has been laid out and its shifts noted
        page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        shifts = page.evaluate("window.__collect()")
        total = sum(s["value"] for s in shifts)
        if total >= 0.01:
            failures.append(f"{name}: {total:.3f} {[s['moved'] for s in shifts]}")
        context.close()
    assert failures == []
