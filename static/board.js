// The facts-only pace board for players and the public (DESIGN.md, pages): for each group,
// its players, tee and start, the time it is expected to complete each hole, the times
// it did, and "on the clock" while referees time it. No status, no minutes over, no gap:
// facts, no blame. Live through the same socket events as the dashboard.
import { clock, connect, el, rememberLanguage, request, serverNow, t } from "./common.js";

const app = document.getElementById("app");
const ROUND = app.dataset.round;
const SNAPSHOT_URL = `/api/rounds/${encodeURIComponent(ROUND)}/board`;
const REFRESH_MS = 60000;

const state = { snapshot: null };

const $ = (id) => document.getElementById(id);
const tz = () => (state.snapshot && state.snapshot.timezone) || undefined;
const holes = () => state.snapshot.course.holes.slice().sort((a, b) => a.number - b.number);
const timed = (group) => Boolean(((state.snapshot.timing || {})[group] || {}).timed);

// -- data -------------------------------------------------------------------------------------

function setSnapshot(snapshot) {
  state.snapshot = snapshot;
  snapshot.timing = snapshot.timing || {};
  render();
}

let refreshTimer = null;

function refreshSoon(delay = 250) {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, delay);
}

async function refresh() {
  try {
    const response = await fetch(SNAPSHOT_URL, { headers: { Accept: "application/json" } });
    const body = await response.json();
    if (body.ok) setSnapshot(body.snapshot);
  } catch (err) {
    console.warn("pace: snapshot refresh failed", err);
  }
}

function start() {
  const socket = connect({
    onConnect: (s) =>
      request(s, "join_round", { round: ROUND })
        .then((ack) => ack && ack.ok && setSnapshot(ack.snapshot))
        .catch(() => {}),
    onStatus: (online) => {
      const conn = $("conn");
      conn.className = `conn ${online ? "on" : "off"}`;
      conn.textContent = online ? t("live.online") : t("live.offline_short");
    },
  });
  const mine = (msg) => msg && msg.round === ROUND && state.snapshot;
  socket.on("group_updated", (msg) => {
    if (!mine(msg)) return;
    const rows = state.snapshot.groups;
    const i = rows.findIndex((r) => r.group === msg.group.group);
    if (i >= 0) rows[i] = msg.group;
    else rows.push(msg.group);
    updateRow(msg.group);
  });
  socket.on("timing_changed", (msg) => {
    if (!mine(msg)) return;
    state.snapshot.timing[msg.group] = msg.timing;
    const row = state.snapshot.groups.find((r) => r.group === msg.group);
    if (row) updateRow(row);
  });
  for (const name of ["hole_logged", "hole_time_corrected", "event_voided", "siren_recorded"]) {
    socket.on(name, (msg) => mine(msg) && refreshSoon());
  }
  setInterval(refresh, REFRESH_MS);
  setInterval(showNow, 1000);
}

// -- rendering --------------------------------------------------------------------------------

function showNow() {
  if (state.snapshot) $("now").textContent = clock(serverNow(), tz());
}

function render() {
  const s = state.snapshot;
  $("suspended").hidden = !s.suspended;
  $("course-name").textContent = s.course.name;
  showNow();
  const hs = holes();
  $("board-head").replaceChildren(
    el(
      "tr",
      {},
      el("th", { scope: "col", class: "b-group" }, t("board.col.group")),
      el("th", { scope: "col", class: "b-players" }, t("board.col.players")),
      el("th", { scope: "col", class: "b-tee" }, t("board.col.tee")),
      el("th", { scope: "col", class: "b-start" }, t("board.col.start")),
      ...hs.map((h) =>
        el(
          "th",
          {
            scope: "col",
            class: "b-hole",
            title: t("dash.col.hole", { hole: h.number, par: h.par }),
          },
          String(h.number),
          el("small", {}, `p${h.par}`),
        ),
      ),
    ),
  );
  $("board-body").replaceChildren(...s.groups.map((row) => boardRow(row, hs)));
}

function updateRow(row) {
  const tr = [...$("board-body").children].find((x) => x.dataset.group === row.group);
  const fresh = boardRow(row, holes());
  if (!tr) render();
  else if (tr.outerHTML !== fresh.outerHTML) tr.replaceWith(fresh);
}

function boardRow(row, hs) {
  const onClock = timed(row.group);
  return el(
    "tr",
    { class: `board-row${onClock ? " timed" : ""}`, dataset: { group: row.group } },
    el(
      "th",
      { scope: "row", class: "b-group" },
      el("span", { class: "b-id" }, row.group),
      onClock ? el("span", { class: "on-clock" }, t("timing.on_clock")) : null,
    ),
    el(
      "td",
      { class: "b-players" },
      ...row.players.map((p) => el("span", { class: "b-player" }, p)),
    ),
    el("td", { class: "b-tee" }, String(row.tee)),
    el("td", { class: "b-start" }, clock(row.start, tz())),
    ...hs.map((h) => holeCell(row, h.number)),
  );
}

function holeCell(row, number) {
  const i = row.order.indexOf(number);
  const due = i >= 0 && row.due ? clock(row.due[i], tz()) : "";
  const logged = row.holes[String(number)];
  const done = logged ? clock(logged.at, tz()) : "";
  const title = t("board.hole_cell", {
    hole: number,
    due,
    done: done ? t("board.hole_done", { time: done }) : "",
  });
  return el(
    "td",
    {
      class: `b-hole${logged ? " done" : ""}`,
      dataset: { group: row.group, hole: String(number) },
      title,
    },
    el("span", { class: "b-due" }, due),
    el("span", { class: "b-done" }, done),
  );
}

rememberLanguage();
start();
