// The referees' dashboard: the field as groups × holes, the open alerts with acknowledge,
// a group's detail, and the committee's sirens. Group rows pushed by the server
// (group_updated) are applied as they come; after any other fact the snapshot is fetched
// again, which is simple and always right.
import {
  clock,
  connect,
  deviceClock,
  deviceNow,
  el,
  errorText,
  isoWithOffset,
  joinRound,
  minutes,
  overClass,
  rememberLanguage,
  request,
  showConnection,
  statusBadge,
  t,
  tn,
  uuid4,
} from "./common.js";
import {
  FACTS,
  follow,
  holeHeader,
  mergePenalties,
  onClock,
  replaceRow,
  snapshotFeed,
  sortedHoles,
  timingOf,
  toldCount,
  upsertGroup,
} from "./live.js";
import { awaiting, faultItem, ladderText, penaltyRow } from "./penalties.js";

const app = document.getElementById("app");
const ROUND = app.dataset.round;
const SNAPSHOT_URL = `/api/rounds/${encodeURIComponent(ROUND)}/snapshot`;
const REFRESH_MS = 60000;
const SIRENS = ["interruption", "suspension", "resume"];

const state = {
  snapshot: null,
  alerts: [], // open alerts, newest first, those of one group together (arrange)
  resolved: [], // alerts whose situation ended (alert_resolved), the latest first
  socket: null,
  detail: null, // group id shown in the detail dialog
  siren: null, // {kind, at} waiting for confirmation
};

const $ = (id) => document.getElementById(id);
const tz = () => (state.snapshot && state.snapshot.timezone) || undefined;
const holes = () => sortedHoles(state.snapshot);

// -- data ---------------------------------------------------------------------------------

function setSnapshot(snapshot) {
  snapshot.timing = snapshot.timing || {};
  snapshot.penalties = snapshot.penalties || [];
  state.snapshot = snapshot;
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
  renderAll();
}

const isTimed = (group) => Boolean(timingOf(state.snapshot, group).timed);
// where the round's faults come from: timed strokes, or checkpoints (mauricie)
const faultsFrom = () => ((state.snapshot && state.snapshot.policy_detail) || {}).faults_from;

const feed = snapshotFeed(SNAPSHOT_URL, setSnapshot);

function join(socket) {
  joinRound(socket, { round: ROUND }, setSnapshot, (message) =>
    showError($("field-error"), message),
  );
}

function start() {
  const socket = connect({
    onConnect: join,
    onStatus: (online) => showConnection($("conn"), online),
  });
  state.socket = socket;
  follow(socket, ROUND, () => state.snapshot, {
    group_updated: (msg) => {
      upsertGroup(state.snapshot, msg.group);
      updateRow(msg.group);
      refreshLiveNumbers(msg.group.group);
      if (state.detail === msg.group.group) renderDetail();
    },
    ...feed.after([...FACTS, "siren_recorded", "stroke_recorded"]),
    alert_raised: (msg) => {
      if (state.alerts.some((a) => a.key === msg.alert.key)) return;
      if (msg.alert.kind === "stop_timing") {
        // the server's alert replaces the prompt shown from stop_timing_prompted
        state.alerts = state.alerts.filter((a) => !(a.local && a.group === msg.alert.group));
      }
      state.alerts = arrange([{ ...msg.alert, fresh: true }, ...state.alerts]);
      renderAlerts();
    },
    alert_resolved: (msg) => {
      const key = msg.payload && msg.payload.alert;
      const a = state.alerts.find((x) => x.key === key);
      state.alerts = state.alerts.filter((x) => x.key !== key);
      if (a && !state.resolved.some((x) => x.key === key)) {
        state.resolved.unshift({ ...a, fresh: false, resolved_at: msg.at });
      }
      renderAlerts();
    },
    stop_timing_prompted: (msg) => {
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
    },
    timing_changed: (msg) => {
      state.snapshot.timing[msg.group] = msg.timing;
      if (!msg.timing.timed) {
        state.alerts = state.alerts.filter((a) => !(a.local && a.group === msg.group));
        renderAlerts();
      }
      const row = state.snapshot.groups.find((r) => r.group === msg.group);
      if (row) updateRow(row);
      renderPenalties();
      if (state.detail === msg.group) renderDetail();
    },
    penalties_changed: (msg) => {
      mergePenalties(state.snapshot, msg);
      renderPenalties();
      if (state.detail === msg.group) renderDetail();
    },
    alert_acknowledged: (msg) => removeAlert(msg.payload && msg.payload.alert),
  });
  setInterval(feed.refresh, REFRESH_MS);
}

// -- grid ---------------------------------------------------------------------------------

function renderAll() {
  $("suspended").hidden = !state.snapshot.suspended;
  $("as-of").textContent = clock(state.snapshot.at, tz(), { seconds: true });
  $("course-name").textContent = state.snapshot.course.name;
  renderGrid();
  renderAlerts();
  renderPenalties();
  renderHeldUp();
  if (state.detail) renderDetail();
}

function renderGrid() {
  const hs = holes();
  const head = el(
    "tr",
    {},
    el("th", { class: "c-group", scope: "col" }, t("dash.col.group")),
    el("th", { scope: "col" }, t("dash.col.status")),
    el("th", { class: "num", scope: "col" }, t("dash.col.over")),
    el("th", { class: "num", scope: "col" }, t("dash.col.gap")),
    el("th", { class: "num", scope: "col" }, t("dash.col.interval")),
    el("th", { class: "num", scope: "col" }, t("dash.col.finish")),
    ...hs.map((h) => holeHeader(h, "hole")),
  );
  $("grid-head").replaceChildren(head);
  $("grid-body").replaceChildren(...state.snapshot.groups.map((row) => gridRow(row, hs)));
}

/** Replace one group's row, only when what it shows has changed (the tick sends many). */
function updateRow(row) {
  if (!replaceRow($("grid-body"), gridRow(row, holes()))) renderGrid();
}

function gridRow(row, hs) {
  const open = () => openDetail(row.group);
  return el(
    "tr",
    { class: "group-row", dataset: { group: row.group, status: row.status }, onclick: open },
    el(
      "th",
      { class: "c-group", scope: "row" },
      el("button", { type: "button", class: "link", title: row.players.join(", ") }, row.group),
      isTimed(row.group) ? onClock() : null,
    ),
    el("td", { class: "c-status" }, statusBadge(row.status)),
    el(
      "td",
      { class: `num c-over ${overClass(row.over_min)}` },
      minutes(row.over_min, { signed: true }),
    ),
    el("td", { class: "num c-gap" }, minutes(row.gap_min)),
    el("td", { class: "num c-interval" }, minutes(row.interval_min)),
    el("td", { class: "num c-finish" }, clock(row.projected_finish, tz())),
    ...hs.map((h) => holeCell(row, h.number)),
  );
}

function holeCell(row, number) {
  const logged = row.holes[String(number)];
  const inPlay = !logged && row.hole === number && row.status !== "finished";
  const classes = ["hole", logged ? overClass(logged.over_min) : "", inPlay ? "in-play" : ""];
  const title = logged
    ? `${clock(logged.at, tz(), { seconds: true })} (${minutes(logged.over_min, { signed: true })} min)`
    : "";
  return el(
    "td",
    { class: classes.join(" ").trim(), dataset: { group: row.group, hole: String(number) }, title },
    logged ? clock(logged.at, tz()) : "",
  );
}

// -- group detail -------------------------------------------------------------------------

function openDetail(group) {
  state.detail = group;
  renderDetail();
  const dialog = $("detail");
  if (!dialog.open) dialog.showModal();
}

function renderDetail() {
  const row = state.snapshot.groups.find((r) => r.group === state.detail);
  const dialog = $("detail");
  if (!row) {
    dialog.close();
    return;
  }
  const numbers = el(
    "dl",
    { class: "numbers" },
    el("dt", {}, t("dash.col.over")),
    el("dd", {}, minutes(row.over_min, { signed: true })),
    el("dt", {}, t("dash.col.gap")),
    el("dd", {}, minutes(row.gap_min)),
    el("dt", {}, t("dash.col.interval")),
    el("dd", {}, minutes(row.interval_min)),
    el("dt", {}, t("dash.col.finish")),
    el("dd", {}, clock(row.projected_finish, tz())),
  );
  const table = el(
    "table",
    { class: "detail-holes" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", {}, t("live.hole", { hole: "" }).trim()),
        el("th", {}, t("dash.detail.due")),
        el("th", {}, t("dash.detail.logged")),
        el("th", { class: "num" }, t("dash.detail.over")),
      ),
    ),
    el(
      "tbody",
      {},
      ...row.order.map((hole, i) => {
        const logged = row.holes[String(hole)];
        return el(
          "tr",
          { dataset: { hole: String(hole) }, class: !logged && row.hole === hole ? "in-play" : "" },
          el("td", {}, String(hole)),
          el("td", {}, clock(row.due[i], tz())),
          el(
            "td",
            { class: logged ? overClass(logged.over_min) : "" },
            logged ? clock(logged.at, tz(), { seconds: true }) : "",
          ),
          el("td", { class: "num" }, logged ? minutes(logged.over_min, { signed: true }) : ""),
        );
      }),
    ),
  );
  dialog.replaceChildren(
    el(
      "div",
      { class: "detail-head" },
      el("h2", { id: "detail-title" }, t("live.group", { group: row.group })),
      statusBadge(row.status),
      el("button", { type: "button", class: "close", onclick: closeDetail }, t("live.close")),
    ),
    el("p", {}, t("dash.detail.tee", { tee: row.tee, time: clock(row.start, tz()) })),
    el("h3", {}, t("dash.detail.players")),
    el("ul", { class: "players" }, ...row.players.map((p) => el("li", {}, p))),
    numbers,
    timingSection(row),
    table,
  );
}

/** Who is timed in the group, who was told, and each player's bad times and penalties. */
function timingSection(row) {
  const timing = timingOf(state.snapshot, row.group);
  const told = timing.told || [];
  const last = (timing.spells || []).slice(-1)[0];
  const line = timing.timed
    ? [onClock(timing.since, tz()), " ", toldCount(row, timing)]
    : last && last.ended_by === "back_in_position"
      ? [
          el(
            "span",
            { class: "ended-by-itself" },
            t("timing.ended_by_itself", { time: clock(last.until, tz()) }),
          ),
        ]
      : [t("timing.not_timed")];
  return el(
    "section",
    { class: "detail-timing" },
    el("h3", {}, t("dash.timing")),
    el("p", {}, ...line),
    el(
      "ul",
      { class: "pen-players" },
      ...row.players.map((name) => {
        const pen = penaltyRow(state.snapshot, row.group, name);
        return el(
          "li",
          { dataset: { player: name } },
          el("strong", {}, name),
          " · ",
          timing.timed && told.includes(name)
            ? el("span", { class: "told-tick" }, t("clock.told_timed"), " · ")
            : null,
          ladderText(pen, faultsFrom()),
          pen.disqualified ? el("span", { class: "dq-badge" }, t("pen.disqualified")) : null,
          pen.faults && pen.faults.length ? faultList(pen.faults) : null,
        );
      }),
    ),
  );
}

function faultList(faults) {
  return el(
    "ol",
    { class: "faults" },
    ...faults.map((f) =>
      faultItem(
        f,
        f.awaiting_notification,
        f.counted && f.awaiting_notification
          ? el("span", { class: "f-awaiting" }, t("pen.awaiting"))
          : null,
      ),
    ),
  );
}

// -- penalties panel ----------------------------------------------------------------------

/** Who is holding the field up (the report's reading, live): going on first, then the rest. */
function renderHeldUp() {
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
          ),
        )
      : [el("li", { class: "hint" }, t("dash.held_up.none"))]),
  );
}

function renderPenalties() {
  const list = $("penalties");
  const checkpoints = faultsFrom() === "checkpoints";
  $("penalties-title").textContent = t(checkpoints ? "dash.penalties.checkpoints" : "dash.penalties");
  const rows = state.snapshot.penalties.filter((r) => (r.faults || []).length);
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
        faultList(r.faults),
      ),
    ),
  );
}

function closeDetail() {
  state.detail = null;
  $("detail").close();
}

// -- alerts -------------------------------------------------------------------------------

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

function alertText(a) {
  const known = ["out_of_position", "overdue", "back_in_position", "stop_timing"];
  let key = known.includes(a.kind) ? `dash.alert.${a.kind}` : "dash.alert.other";
  if (a.kind === "stop_timing" && a.reason === "in_position") key = "dash.alert.stop_timing_in_position";
  return t(key, { group: a.group, hole: a.hole ?? "", kind: a.kind });
}

function renderAlerts() {
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
  const row = state.snapshot && state.snapshot.groups.find((r) => r.group === a.group);
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
function refreshLiveNumbers(group) {
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
    numbers.length ? el("div", { class: "alert-numbers" }, ...numbers) : null,
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

function removeAlert(key) {
  const before = state.alerts.length + state.resolved.length;
  state.alerts = state.alerts.filter((x) => x.key !== key);
  state.resolved = state.resolved.filter((x) => x.key !== key);
  if (state.alerts.length + state.resolved.length !== before) renderAlerts();
}

function showError(node, message) {
  node.textContent = t("live.error", { message });
  node.hidden = false;
}

// -- sirens -------------------------------------------------------------------------------

function setupSirens() {
  $("siren-buttons").replaceChildren(
    ...SIRENS.map((kind) =>
      el(
        "button",
        {
          type: "button",
          class: `siren k-${kind}`,
          dataset: { kind },
          onclick: () => askSiren(kind),
        },
        t(`dash.siren.${kind}`),
      ),
    ),
  );
}

function askSiren(kind) {
  // the instant is the press of the siren button, not the confirmation
  state.siren = { kind, at: deviceNow() }; // the server's clock on a demo's fast clock
  const box = $("siren-confirm");
  box.replaceChildren(
    el(
      "p",
      {},
      t("dash.siren.confirm", {
        kind: t(`dash.siren.${kind}`),
        time: clock(new Date(state.siren.at.getTime() - deviceClock.offsetMs), tz(), {
          seconds: true,
        }),
      }),
    ),
    el(
      "button",
      { type: "button", class: "primary confirm", onclick: recordSiren },
      t("live.confirm"),
    ),
    el("button", { type: "button", class: "cancel", onclick: cancelSiren }, t("live.cancel")),
  );
  box.hidden = false;
}

function cancelSiren() {
  state.siren = null;
  $("siren-confirm").hidden = true;
}

async function recordSiren() {
  const { kind, at } = state.siren;
  const result = $("siren-result");
  cancelSiren();
  const payload = {
    id: uuid4(),
    round: ROUND,
    kind,
    at: isoWithOffset(at),
    device_time: isoWithOffset(),
  };
  try {
    const ack = await request(state.socket, "record_siren", payload);
    if (ack && ack.ok) {
      result.className = "ok";
      result.textContent = t("dash.siren.recorded", {
        kind: t(`dash.siren.${kind}`),
        time: clock(ack.at, tz(), { seconds: true }),
      });
      feed.refreshSoon(0);
    } else {
      showError(result, errorText(ack));
      result.className = "error";
    }
  } catch (err) {
    showError(result, t("live.offline_short"));
    result.className = "error";
  }
  result.hidden = false;
}

rememberLanguage();
$("detail").addEventListener("close", () => (state.detail = null));
setupSirens();
start();
