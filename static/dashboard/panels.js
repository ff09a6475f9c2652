// The side panels of the field's state: the bad times and penalties (those waiting to be
// told marked), and who is holding the field up.
import { el, t, tn } from "../common.js";
import { awaiting, unlistedText } from "../penalties.js";
import { faultList, openDetail } from "./detail.js";
import { $, ROUND, faultsFrom, state } from "./state.js";
import { fetchedWhy } from "./why.js";

/** Who is holding the field up (the report's reading, live): going on first, then the rest. */
export function renderHeldUp() {
  const rows = (state.snapshot.held_up || []).slice();
  rows.sort((a, b) => Number(b.ongoing) - Number(a.ongoing));
  $("held-up").replaceChildren(
    ...(rows.length
      ? rows.map((r) =>
          el(
            "li",
            { class: `held${r.ongoing ? " ongoing" : ""}`, dataset: { group: r.group } },
            tn("dash.held_up.line", r.groups, {
              group: r.group,
              count: r.groups,
              hole: r.hole,
              minutes: Math.round(r.minutes),
            }),
            r.ongoing ? el("span", { class: "badge" }, ` ${t("dash.held_up.now")}`) : null,
            fetchedWhy(`/api/rounds/${encodeURIComponent(ROUND)}/held_up/${encodeURIComponent(r.group)}/why`, r),
          ),
        )
      : [el("li", { class: "hint" }, t("dash.held_up.none"))]),
  );
}

/** The bad times and penalties of the field: each player's counted faults, those still to tell
 * marked, and how many did not count (the group's detail lists them). */
export function renderPenalties() {
  const list = $("penalties");
  const checkpoints = faultsFrom() === "checkpoints";
  $("penalties-title").textContent = t(checkpoints ? "dash.penalties.checkpoints" : "dash.penalties");
  const rows = state.snapshot.penalties.filter((r) => (r.faults || []).length || r.uncounted);
  const order = new Map(state.snapshot.groups.map((r, i) => [r.group, i]));
  rows.sort((a, b) => (order.get(a.group) ?? 0) - (order.get(b.group) ?? 0));
  $("penalty-count").textContent = rows.length ? `(${rows.length})` : "";
  if (rows.length === 0) {
    const none = checkpoints ? "dash.no_penalties.checkpoints" : "dash.no_penalties";
    list.replaceChildren(el("li", { class: "hint" }, t(none)));
    return;
  }
  list.replaceChildren(
    ...rows.map((r) =>
      el(
        "li",
        {
          class: `pen-row${awaiting(r).length ? " awaiting" : ""}${r.disqualified ? " dq" : ""}`,
          dataset: { group: r.group, player: r.player },
        },
        el(
          "div",
          { class: "pen-head" },
          el(
            "button",
            { type: "button", class: "link", onclick: () => openDetail(r.group) },
            t("live.group", { group: r.group }),
          ),
          el("strong", {}, r.player),
          r.strokes_total
            ? el("span", { class: "strokes" }, tn("pen.strokes_total", r.strokes_total))
            : null,
          r.disqualified ? el("span", { class: "dq-badge" }, t("pen.disqualified")) : null,
        ),
        (r.faults || []).length ? faultList(r.faults) : null,
        // the faults that did not count are listed in the group's detail (fetched there)
        unlistedText(r)
          ? el(
              "button",
              { type: "button", class: "link unlisted", onclick: () => openDetail(r.group) },
              unlistedText(r),
            )
          : null,
      ),
    ),
  );
}
