// The dashboard's alerts: the open ones (newest first, those of one group together), each
// with its minutes when raised and now, and Acknowledge; the resolved ones below; and what
// the round's deltas change in them. A prompt to stop timing that came as
// stop_timing_prompted without an alert of the server is this page's own.
import { announce, clock, el, errorText, minutes, request, t, uuid4 } from "../common.js";
import { $, ROUND, isTimed, showError, shown, state, tz } from "./state.js";
import { whyDetails } from "./why.js";

/**
 * Alerts newest first, those of one group together: groups in the order of their newest
 * alert (the server's order, pace.rules.alerts.arrange, kept as alerts come and go).
 */
function arrange(alerts) {
  const ms = (a) => Date.parse(a.at) || 0;
  const newest = new Map();
  for (const a of alerts) newest.set(a.group, Math.max(newest.get(a.group) ?? -Infinity, ms(a)));
  return alerts
    .slice()
    .sort((x, y) => newest.get(y.group) - newest.get(x.group) || ms(y) - ms(x));
}

// -- what the snapshot and the deltas change ------------------------------------------------

/** Take the snapshot's alerts (it is already `state.snapshot`). */
export function takeAlerts(snapshot) {
  // prompts to stop timing that came as stop_timing_prompted stay while the group is timed
  // and no alert of the server stands for them
  const kept = state.alerts.filter(
    (a) =>
      a.local &&
      isTimed(a.group) &&
      !snapshot.alerts.some((x) => x.kind === "stop_timing" && x.group === a.group),
  );
  state.alerts = arrange(kept.concat(snapshot.alerts));
  state.resolved = snapshot.resolved_alerts || [];
}

export function alertRaised(msg) {
  // announced once: an alert this page holds open already (the same raise heard twice, say
  // from a server restarted after a crash) is neither added nor announced again
  if (state.alerts.some((a) => a.key === msg.alert.key)) return;
  // re-opened (the corrected log calls for it again, docs/protocol.md): out of the resolved list
  state.resolved = state.resolved.filter((a) => a.key !== msg.alert.key);
  if (msg.alert.kind === "stop_timing") {
    // the server's alert replaces the prompt shown from stop_timing_prompted
    state.alerts = state.alerts.filter((a) => !(a.local && a.group === msg.alert.group));
  }
  state.alerts = arrange([{ ...msg.alert, fresh: true }, ...state.alerts]);
  renderAlerts();
  announce(alertText(msg.alert)); // heard without looking at the list
}

export function alertResolved(msg) {
  const key = msg.payload && msg.payload.alert;
  const a = state.alerts.find((x) => x.key === key);
  state.alerts = state.alerts.filter((x) => x.key !== key);
  if (a && !state.resolved.some((x) => x.key === key)) {
    state.resolved.unshift({ ...a, fresh: false, resolved_at: msg.at });
  }
  renderAlerts();
}

export function stopTimingPrompted(msg) {
  if (state.alerts.some((a) => a.kind === "stop_timing" && a.group === msg.group)) return;
  state.alerts.unshift({
    // the prompt names its alert (acknowledged like any other); else it is this page's own
    key: msg.alert || `stop_timing_prompted:${msg.group}:${msg.at}`,
    kind: "stop_timing",
    group: msg.group,
    hole: null,
    at: msg.at,
    local: !msg.alert,
    fresh: true,
  });
  renderAlerts();
  announce(alertText(state.alerts[0]));
}

/** `group` is no longer timed: this page's own prompts to stop timing it go. */
export function untimed(group) {
  state.alerts = state.alerts.filter((a) => !(a.local && a.group === group));
  renderAlerts();
}

export function removeAlert(key) {
  const before = state.alerts.length + state.resolved.length;
  state.alerts = state.alerts.filter((x) => x.key !== key);
  state.resolved = state.resolved.filter((x) => x.key !== key);
  if (state.alerts.length + state.resolved.length !== before) renderAlerts();
}

// -- the lists ------------------------------------------------------------------------------

function alertText(a) {
  const known = ["out_of_position", "overdue", "back_in_position", "stop_timing", "missing_tap"];
  let key = known.includes(a.kind) ? `dash.alert.${a.kind}` : "dash.alert.other";
  if (a.kind === "stop_timing" && a.reason === "in_position") key = "dash.alert.stop_timing_in_position";
  // a round with no marshal asks the group's scorer (no check_holes: no marshal was asked)
  if (a.kind === "missing_tap" && !(a.check_holes && a.check_holes.length)) key = "dash.alert.missing_tap_scorer";
  const extra = {};
  if (a.kind === "missing_tap") {
    // the prompt to confirm a missed tap's estimate: its instant and bounds (docs/estimates.md)
    extra.time = clock(a.at, tz());
    extra.earliest = a.earliest ? clock(a.earliest, tz()) : "";
    extra.latest = a.latest ? clock(a.latest, tz()) : t("dash.estimate.now");
  }
  return t(key, { group: a.group, hole: a.hole ?? "", kind: a.kind, ...extra });
}

export function renderAlerts() {
  const list = $("alerts");
  $("alert-count").textContent = state.alerts.length ? `(${state.alerts.length})` : "";
  if (state.alerts.length === 0) {
    list.replaceChildren(el("li", { class: "hint" }, t("dash.no_alerts")));
  } else {
    list.replaceChildren(...state.alerts.map(renderAlert));
  }
  renderResolved();
}

/** The alerts whose situation ended: out of the open list, still there to read. */
function renderResolved() {
  const box = $("resolved-box");
  box.hidden = state.resolved.length === 0;
  $("resolved-count").textContent = state.resolved.length ? `(${state.resolved.length})` : "";
  $("resolved").replaceChildren(
    ...state.resolved.map((a) =>
      el(
        "li",
        { class: `alert resolved k-${a.kind}`, dataset: { key: a.key, kind: a.kind, group: a.group } },
        el(
          "div",
          { class: "alert-text" },
          el("span", {}, alertText(a)),
          el("span", { class: "when" }, clock(a.at, tz())),
        ),
        el(
          "div",
          { class: "alert-numbers" },
          t("dash.alert.resolved_at", { time: clock(a.resolved_at, tz()) }),
        ),
        a.why ? whyDetails(a.key) : null,
      ),
    ),
  );
}

/** Minutes over and gap of an alert: as when it was raised and, while it stands, now. */
function alertNumbers(a) {
  const parts = [];
  if (a.over_min !== null && a.over_min !== undefined) {
    parts.push(t("dash.alert.over", { over: minutes(a.over_min, { signed: true }) }));
  }
  if (a.gap_min !== null && a.gap_min !== undefined) {
    parts.push(t("dash.alert.gap", { gap: minutes(a.gap_min) }));
  }
  const raw = state.snapshot && state.snapshot.groups.find((r) => r.group === a.group);
  const row = raw && shown(raw);
  const live = [];
  if (row && ["overdue", "out_of_position"].includes(a.kind)) {
    if (row.over_min !== null && row.over_min !== undefined) {
      live.push(t("dash.alert.over", { over: minutes(row.over_min, { signed: true }) }));
    }
    if (row.gap_min !== null && row.gap_min !== undefined && a.kind === "out_of_position") {
      live.push(t("dash.alert.gap", { gap: minutes(row.gap_min) }));
    }
  }
  const out = [];
  if (parts.length) {
    out.push(el("span", { class: "at-raise" }, t("dash.alert.when_raised", { numbers: parts.join(" · ") })));
  }
  if (live.length) {
    out.push(el("span", { class: "live" }, t("dash.alert.now", { numbers: live.join(" · ") })));
  }
  return out;
}

/** Put a group's live minutes beside its alerts, in place: the buttons stay where they are. */
export function refreshLiveNumbers(group) {
  for (const item of $("alerts").querySelectorAll("li.alert")) {
    if (item.dataset.group !== group) continue;
    const a = state.alerts.find((x) => x.key === item.dataset.key);
    const box = item.querySelector(".alert-numbers");
    if (!a || !box) continue;
    const fresh = alertNumbers(a);
    if (box.textContent !== fresh.map((n) => n.textContent).join("")) box.replaceChildren(...fresh);
  }
}

function renderAlert(a) {
  const numbers = alertNumbers(a);
  const error = el("p", { class: "error", hidden: true });
  const button = el("button", { type: "button", class: "ack" }, t("dash.ack"));
  button.addEventListener("click", () => acknowledge(a, button, error));
  return el(
    "li",
    {
      class: `alert k-${a.kind}${a.fresh ? " fresh" : ""}`,
      dataset: { key: a.key, kind: a.kind, group: a.group },
    },
    el(
      "div",
      { class: "alert-text" },
      el("strong", {}, alertText(a)),
      el("span", { class: "when" }, clock(a.at, tz())),
    ),
    // issue 39: the status rests on the group's own report: look before timing
    a.reported_by_group
      ? el("p", { class: "reported-by-group" }, t("dash.alert.reported_by_group"))
      : null,
    // issue 48: the status rests on a completion inferred from the group's positions
    // a fix of its phone showed it still on the hole in play past its limits (its reason)
    a.from_positions
      ? el(
          "p",
          { class: "from-positions" },
          a.reason === "seen_on_hole"
            ? t("dash.alert.seen_on_hole", { hole: a.hole ?? "", time: clock(a.at, tz()) })
            : t("dash.alert.from_positions"),
        )
      : null,
    numbers.length ? el("div", { class: "alert-numbers" }, ...numbers) : null,
    a.why ? whyDetails(a.key) : null,
    error,
    button,
  );
}

async function acknowledge(a, button, error) {
  if (a.local) {
    removeAlert(a.key); // a prompt shown from stop_timing_prompted: nothing to record
    return;
  }
  button.disabled = true;
  try {
    const ack = await request(state.socket, "acknowledge_alert", {
      id: uuid4(),
      round: ROUND,
      alert: a.key,
    });
    if (ack && (ack.ok || (ack.error && ack.error.code === "already_done"))) {
      removeAlert(a.key);
      return;
    }
    showError(error, errorText(ack));
  } catch (err) {
    showError(error, t("live.offline_short"));
  }
  button.disabled = false;
}
