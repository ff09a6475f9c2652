// The marshal's page: choose the holes covered, tap when a group holes out, see each tap
// go from queued to sent to confirmed (the outbox in queue.js), undo or correct it, and
// see the referees' requests to check an overdue group nearby.
import {
  clock,
  connect,
  connectionAtStart,
  deviceClock,
  deviceNow,
  el,
  entryItem,
  errorLine,
  instantAt,
  isoWithOffset,
  joinRound,
  keepOffline,
  load,
  loaded,
  rememberLanguage,
  removeButton,
  save,
  showConnection,
  statusBadge,
  t,
  uuid4,
} from "./common.js";
import { Outbox } from "./queue.js";

const app = document.getElementById("app");
const ROUND = app.dataset.round;
const KEYS = {
  outbox: `pace.queue.${ROUND}`,
  holes: `pace.marshal.holes.${ROUND}`,
  snapshot: `pace.snapshot.${ROUND}`,
  name: "pace.name",
  seen: `pace.marshal.seen.${ROUND}`,
};
const SHOWN = 8; // groups listed before "show more"
const REASONS = ["undo", "wrong_group", "wrong_hole", "late_tap"];

const state = {
  snapshot: load(KEYS.snapshot, null),
  holes: new Set(load(KEYS.holes, [])),
  online: connectionAtStart(),
  expanded: false,
  checks: [], // {round, group, hole, alert}: requests to look for an overdue group
  // {group, hole, at, earliest, latest, reason, alert}: missed taps to confirm (tap_missing)
  missing: [],
  seen: new Set(load(KEYS.seen, [])), // alert keys of the checks dismissed
  panel: null, // {target, mode: "undo" | "correct", reason, time, error}
};
const outbox = new Outbox(KEYS.outbox, () => renderAll());

const $ = (id) => document.getElementById(id);
const tz = () => (state.snapshot && state.snapshot.timezone) || undefined;
const toServer = (iso) => new Date(Date.parse(iso) - deviceClock.offsetMs);

// -- taps -------------------------------------------------------------------------------------

function tap(group, hole) {
  const at = isoWithOffset(deviceNow()); // the server's clock on a demo's fast clock
  const id = uuid4();
  outbox.add("hole_completed", { id, round: ROUND, group, hole, at, device_time: at });
  if (navigator.vibrate) navigator.vibrate(30);
}

function isUndone(id) {
  return outbox.followUps(id).some((e) => e.kind === "void_event");
}

// -- socket -------------------------------------------------------------------------------

function join() {
  const holes = [...state.holes].sort((a, b) => a - b);
  joinRound(
    outbox.socket,
    { round: ROUND, holes },
    (snapshot) => {
      state.snapshot = snapshot;
      save(KEYS.snapshot, snapshot);
      checksFromSnapshot();
      renderHoles();
      renderAll();
      outbox.drain();
    },
    (message) => {
      $("due").replaceChildren(errorLine(message));
      loaded();
    },
  );
}

function start() {
  outbox.socket = connect({
    name: load(KEYS.name, null),
    onConnect: join,
    onStatus: (online) => {
      state.online = online;
      renderBar();
    },
  });
  outbox.socket.on("group_updated", (msg) => {
    if (!state.snapshot || !msg || msg.round !== ROUND) return;
    const rows = state.snapshot.groups;
    const i = rows.findIndex((r) => r.group === msg.group.group);
    if (i >= 0) rows[i] = msg.group;
    const logged = msg.group.holes;
    const before = state.checks.length;
    state.checks = state.checks.filter(
      (c) => c.group !== msg.group.group || !logged[String(c.hole)],
    );
    const missing = state.missing.length;
    state.missing = state.missing.filter(
      (m) => m.group !== msg.group.group || !logged[String(m.hole)],
    );
    if (state.checks.length !== before || state.missing.length !== missing) renderChecks();
    renderDue();
  });
  outbox.socket.on("check_requested", (msg) => {
    if (msg && msg.round === ROUND) addCheck(msg);
  });
  outbox.socket.on("tap_missing", (msg) => {
    if (msg && msg.round === ROUND) addMissing(msg);
  });
  // a request to look for a group ends when a referee saw it, or when its situation ended
  for (const event of ["alert_acknowledged", "alert_resolved"]) {
    outbox.socket.on(event, (msg) => {
      if (!msg || msg.round !== ROUND || !msg.payload) return;
      state.checks = state.checks.filter((c) => c.alert !== msg.payload.alert);
      state.missing = state.missing.filter((m) => m.alert !== msg.payload.alert);
      renderChecks();
    });
  }
  setInterval(() => {
    outbox.drain();
    renderBar();
  }, 5000);
}

// -- rendering ----------------------------------------------------------------------------

function renderBar() {
  const conn = $("conn");
  showConnection(conn, state.online);
  conn.title = state.online === false ? t("live.offline") : "";
  $("offline-note").hidden = state.online !== false;
  const pending = outbox.pending();
  const box = $("pending");
  box.dataset.count = String(pending.length);
  box.className = `pending ${pending.length ? "waiting" : "clear"}`;
  if (pending.length === 0) {
    box.textContent = t("marshal.pending_none");
  } else {
    const oldest = pending.reduce((a, b) =>
      Date.parse(a.created) <= Date.parse(b.created) ? a : b,
    );
    box.textContent = t("marshal.pending", {
      count: pending.length,
      time: clock(toServer(oldest.created), tz(), { seconds: true }),
    });
  }
}

function addCheck(check) {
  if (state.seen.has(check.alert) || state.checks.some((c) => c.alert === check.alert)) return;
  state.checks.push(check);
  renderChecks();
  if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
}

function addMissing(m) {
  if (state.missing.some((x) => x.alert === m.alert)) return;
  state.missing.push({ ...m, time: clock(m.at, tz()), error: "" });
  renderChecks();
  if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
}

/**
 * Log the missed tap, late, at the time shown (the estimate, or the one the marshal typed):
 * the real tap replaces the estimate (docs/estimates.md).
 */
function confirmMissing(m) {
  const day = state.snapshot && state.snapshot.day;
  const chosen = instantAt(day, m.time, tz());
  if (!chosen) {
    m.error = t("marshal.bad_time");
    renderChecks();
    return;
  }
  // the time is on the server's clock (as shown); the server applies this device's offset
  const at = isoWithOffset(new Date(chosen.getTime() + deviceClock.offsetMs));
  outbox.add("hole_completed", {
    id: uuid4(),
    round: ROUND,
    group: m.group,
    hole: m.hole,
    at,
    device_time: isoWithOffset(),
  });
  state.missing = state.missing.filter((x) => x !== m);
  renderChecks();
}

function missingCard(m) {
  const input = el("input", {
    type: "text",
    inputmode: "numeric",
    value: m.time,
    "aria-label": t("marshal.missing.time"),
    oninput: (ev) => {
      m.time = ev.target.value;
    },
  });
  const bounds = {
    earliest: m.earliest ? clock(m.earliest, tz()) : "",
    latest: m.latest ? clock(m.latest, tz()) : t("marshal.missing.now"),
  };
  return el(
    "div",
    { class: "check missing", role: "alert", dataset: { group: m.group, hole: String(m.hole) } },
    el("span", {}, t("marshal.missing", { group: m.group, hole: m.hole, ...bounds })),
    input,
    el("button", { type: "button", class: "confirm", onclick: () => confirmMissing(m) },
      t("marshal.missing.log")),
    m.error ? errorLine(m.error) : null,
  );
}

/** The open overdue alerts near my holes, for a page that joined after they were raised. */
function checksFromSnapshot() {
  const rows = new Map(state.snapshot.groups.map((r) => [r.group, r]));
  // the server names the holes whose marshals should look (alert.check_holes, around the loop)
  const watched = new Map(
    (state.snapshot.alerts || []).map((a) => [a.key, a.check_holes || [a.hole]]),
  );
  const near = (key, hole) => (watched.get(key) || [hole]).some((h) => state.holes.has(h));
  state.checks = state.checks.filter((c) => near(c.alert, c.hole));
  state.missing = state.missing.filter((m) => state.holes.has(m.hole));
  for (const a of state.snapshot.alerts || []) {
    const row = rows.get(a.group);
    // a missed tap's prompt for the marshals of its check_holes (none: the round asks the
    // group's scorer, issue 46)
    const asked = a.kind === "missing_tap" && (a.check_holes || []).some((h) => state.holes.has(h));
    if (asked && state.holes.has(a.hole) && row && !row.holes[String(a.hole)]) {
      addMissing({ round: ROUND, group: a.group, hole: a.hole, at: a.at, earliest: a.earliest,
        latest: a.latest, reason: a.reason, alert: a.key });
      continue;
    }
    if (a.kind !== "overdue" || !a.hole || !near(a.key, a.hole) || !row) continue;
    if (row.holes[String(a.hole)]) continue;
    addCheck({ round: ROUND, group: a.group, hole: a.hole, alert: a.key });
  }
  renderChecks();
}

function dismissCheck(c) {
  state.checks = state.checks.filter((x) => x !== c);
  state.seen.add(c.alert);
  save(KEYS.seen, [...state.seen].slice(-200));
  renderChecks();
}

function renderChecks() {
  $("checks").replaceChildren(
    ...state.missing.map(missingCard),
    ...state.checks.map((c) =>
      el(
        "div",
        { class: "check", role: "alert", dataset: { group: c.group, hole: String(c.hole) } },
        el("span", {}, t("marshal.check", { group: c.group, hole: c.hole })),
        el("button", { type: "button", onclick: () => dismissCheck(c) }, t("marshal.dismiss")),
      ),
    ),
  );
}

function renderHoles() {
  const box = $("holes");
  if (!state.snapshot) return;
  const numbers = state.snapshot.course.holes.map((h) => h.number);
  box.replaceChildren(
    ...numbers.map((n) => {
      const input = el("input", {
        type: "checkbox",
        id: `hole-${n}`,
        value: String(n),
        checked: state.holes.has(n),
        onchange: (ev) => {
          if (ev.target.checked) state.holes.add(n);
          else state.holes.delete(n);
          save(KEYS.holes, [...state.holes]);
          renderHolesSummary();
          renderDue();
          if (outbox.socket && outbox.socket.connected) join();
        },
      });
      return el("label", { class: "chip", for: `hole-${n}` }, input, el("span", {}, String(n)));
    }),
  );
  renderHolesSummary();
}

function renderHolesSummary() {
  const chosen = [...state.holes].sort((a, b) => a - b);
  $("holes-chosen").textContent = chosen.length ? `: ${chosen.join(", ")}` : "";
}

function dueItems() {
  const s = state.snapshot;
  const items = [];
  const waiting = new Set(
    outbox
      .pending()
      .filter((e) => e.kind === "hole_completed")
      .map((e) => `${e.payload.group}|${e.payload.hole}`),
  );
  s.groups.forEach((row, drawIndex) => {
    if (row.status === "withdrawn") return;
    for (const hole of state.holes) {
      const i = row.order.indexOf(hole);
      // a hole only the group reported (issue 39) stays due: a marshal's tap wins over it
      const logged = row.holes[String(hole)];
      if (i < 0 || (logged && logged.source !== "group") || waiting.has(`${row.group}|${hole}`))
        continue;
      items.push({ row, hole, due: row.due[i], drawIndex });
    }
  });
  items.sort((a, b) => Date.parse(a.due) - Date.parse(b.due) || a.drawIndex - b.drawIndex);
  return items;
}

// The cards already on screen are kept and updated in place: the scheduler's updates come
// every few seconds and must never swap a button under the marshal's finger.
const cards = new Map(); // "group|hole" -> card element
const moreButton = el("button", {
  type: "button",
  class: "more",
  onclick: () => {
    state.expanded = true;
    renderDue();
  },
});

function dueCard(row, hole) {
  const key = `${row.group}|${hole}`;
  let card = cards.get(key);
  if (!card) {
    card = el(
      "div",
      { class: "due-item", dataset: { group: row.group, hole: String(hole) } },
      el(
        "button",
        {
          type: "button",
          class: "tap",
          dataset: { group: row.group, hole: String(hole) },
          onclick: () => tap(row.group, hole),
        },
        t("marshal.tap", { group: row.group, hole }),
      ),
      el(
        "div",
        { class: "meta" },
        el("span", { class: "due-time" }),
        statusBadge(row.status),
        el("span", { class: "players" }),
      ),
    );
    cards.set(key, card);
  }
  return card;
}

function updateCard(card, row, due) {
  const reported = row.holes[card.dataset.hole];
  let time = t("marshal.due_at", { time: clock(due, tz()) });
  if (reported && reported.source === "group")
    time = t("marshal.reported_by_group", { time: clock(reported.at, tz()) });
  card.classList.toggle("by-group", Boolean(reported && reported.source === "group"));
  const dueTime = card.querySelector(".due-time");
  if (dueTime.textContent !== time) dueTime.textContent = time;
  const badge = card.querySelector(".badge");
  if (badge.dataset.status !== row.status) badge.replaceWith(statusBadge(row.status));
  const players = row.players.join(", ");
  const names = card.querySelector(".players");
  if (names.textContent !== players) names.textContent = players;
}

function showOnly(box, nodes) {
  nodes.forEach((node, i) => {
    if (box.children[i] !== node) box.insertBefore(node, box.children[i] || null);
  });
  while (box.children.length > nodes.length) box.lastElementChild.remove();
}

function renderDue() {
  const box = $("due");
  if (!state.snapshot) return;
  let nodes;
  if (state.holes.size === 0) {
    nodes = [el("p", { class: "hint" }, t("marshal.choose_holes"))];
  } else {
    const items = dueItems();
    const shown = state.expanded ? items : items.slice(0, SHOWN);
    nodes = shown.map(({ row, hole, due }) => {
      const card = dueCard(row, hole);
      updateCard(card, row, due);
      return card;
    });
    const keep = new Set(shown.map(({ row, hole }) => `${row.group}|${hole}`));
    for (const key of [...cards.keys()]) if (!keep.has(key)) cards.delete(key);
    if (items.length === 0) nodes.push(el("p", { class: "hint" }, t("marshal.none_due")));
    if (items.length > shown.length) {
      moreButton.textContent = t("marshal.more", { count: items.length - shown.length });
      nodes.push(moreButton);
    }
  }
  showOnly(box, nodes);
}

function tapLabel(p) {
  return t("marshal.kind.hole_completed", {
    group: t("live.group", { group: p.group }),
    hole: p.hole,
  });
}

function entryTime(e) {
  const at =
    e.server_at && e.kind === "hole_completed"
      ? new Date(e.server_at)
      : toServer(e.payload.at || e.created);
  return clock(at, tz(), { seconds: true });
}

function entryLabel(e) {
  if (e.kind === "hole_completed") return tapLabel(e.payload);
  const target = outbox.entries.find((x) => x.id === e.payload.target);
  const what = target ? tapLabel(target.payload) : e.payload.target.slice(0, 8);
  if (e.kind === "void_event") return t("marshal.kind.void_event", { target: what });
  return t("marshal.kind.correct_hole_time", { target: what, time: e.label_time || "" });
}

function renderQueue() {
  const list = $("taps");
  const entries = outbox.entries.slice().reverse().slice(0, 25);
  if (entries.length === 0) {
    list.replaceChildren(el("li", { class: "hint" }, t("marshal.no_taps")));
    renderBar();
    return;
  }
  list.replaceChildren(...entries.map(renderEntry));
  renderBar();
}

function renderEntry(e) {
  const item = entryItem(e, entryLabel(e), entryTime(e));
  const ups = e.kind === "hole_completed" ? outbox.followUps(e.id) : [];
  if (isUndone(e.id)) item.append(el("p", { class: "note" }, t("marshal.undone")));
  const fixed = ups.filter((x) => x.kind === "correct_hole_time").pop();
  if (fixed && !isUndone(e.id))
    item.append(el("p", { class: "note" }, t("marshal.corrected", { time: fixed.label_time })));
  const actions = el("div", { class: "actions" });
  if (e.kind === "hole_completed" && e.state === "confirmed" && !isUndone(e.id)) {
    actions.append(
      el(
        "button",
        { type: "button", class: "undo", onclick: () => openPanel(e, "undo") },
        t("marshal.undo"),
      ),
      el(
        "button",
        { type: "button", class: "fix", onclick: () => openPanel(e, "correct") },
        t("marshal.correct"),
      ),
    );
  }
  if (e.state === "queued" || e.state === "refused") {
    actions.append(removeButton(() => removeEntry(e)));
  }
  if (actions.childNodes.length) item.append(actions);
  if (state.panel && state.panel.target === e.id) item.append(renderPanel(e));
  return item;
}

function removeEntry(e) {
  outbox.remove(e); // not one in flight: its answer decides
}

// -- undo and correct -----------------------------------------------------------------------

function openPanel(e, mode) {
  const current = outbox
    .followUps(e.id)
    .filter((x) => x.kind === "correct_hole_time")
    .pop();
  state.panel = {
    target: e.id,
    mode,
    reason: mode === "undo" ? "undo" : "late_tap",
    time: current ? current.label_time : entryTime(e),
    error: "",
  };
  renderQueue();
}

function closePanel() {
  state.panel = null;
  renderQueue();
}

function renderPanel(e) {
  const p = state.panel;
  const reason = el(
    "select",
    { class: "reason", onchange: (ev) => (p.reason = ev.target.value) },
    ...REASONS.map((r) =>
      el("option", { value: r, selected: r === p.reason }, t(`marshal.reason.${r}`)),
    ),
  );
  const form = el("form", { class: `panel ${p.mode}`, onsubmit: (ev) => submitPanel(ev, e) });
  if (p.mode === "correct") {
    form.append(
      el(
        "label",
        {},
        t("marshal.new_time"),
        el("input", {
          type: "time",
          step: "1",
          class: "new-time",
          value: p.time,
          required: true,
          oninput: (ev) => (p.time = ev.target.value),
        }),
      ),
    );
  }
  form.append(el("label", {}, t("marshal.reason"), reason));
  if (p.error) form.append(el("p", { class: "error" }, p.error));
  form.append(
    el(
      "div",
      { class: "actions" },
      el(
        "button",
        { type: "submit", class: "primary" },
        p.mode === "undo" ? t("marshal.confirm_undo") : t("marshal.save_time"),
      ),
      el("button", { type: "button", onclick: closePanel }, t("live.cancel")),
    ),
  );
  return form;
}

function submitPanel(ev, e) {
  ev.preventDefault();
  const p = state.panel;
  const reason = t(`marshal.reason.${p.reason}`);
  if (p.mode === "undo") {
    outbox.add("void_event", { id: uuid4(), round: ROUND, target: e.id, reason });
  } else {
    const chosen = state.snapshot && instantAt(state.snapshot.day, p.time, tz());
    if (!chosen) {
      p.error = t("marshal.bad_time");
      renderQueue();
      return;
    }
    // The time typed is on the server's clock (as shown); the server applies this
    // device's offset to `at`, so send it on the device's clock.
    const at = isoWithOffset(new Date(chosen.getTime() + deviceClock.offsetMs));
    outbox.add(
      "correct_hole_time",
      { id: uuid4(), round: ROUND, target: e.id, at, device_time: isoWithOffset(), reason },
      { label_time: clock(chosen, tz(), { seconds: true }) },
    );
  }
  state.panel = null;
  renderQueue();
}

// -- my name ------------------------------------------------------------------------------------

function setupName() {
  const input = $("me-name");
  input.value = load(KEYS.name, "") || "";
  $("me-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    save(KEYS.name, name || null);
    if (outbox.socket) {
      outbox.socket.auth = { ...outbox.socket.auth, name: name || null };
      outbox.socket.disconnect().connect();
    }
  });
}

function renderAll() {
  renderBar();
  renderDue();
  renderQueue();
  if (state.snapshot) loaded(); // the holes and the groups due are drawn: show the page
}

rememberLanguage();
setupName();
$("holes-box").open = state.holes.size === 0; // chosen once, then out of the way
renderHoles();
renderAll();
start();
keepOffline(() => {
  app.dataset.offline = "ready"; // the page opens again with no signal
});
