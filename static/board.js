// The facts-only pace board for players and the public (docs/protocol.md, "The board's feed"): for each group,
// its players, tee and start, the time it is expected to complete each hole, the times
// it did, and "on the clock" while referees time it. No status, no minutes over, no gap:
// facts, no blame. Live on the board's own feed of numbered deltas (docs/protocol.md, "The
// board's feed"): the board joined once, then each board_changed applied as it comes.
import {
  clock,
  connect,
  el,
  errorText,
  loaded,
  rememberLanguage,
  request,
  serverNow,
  showConnection,
  t,
} from "./common.js";
import {
  deltaFeed,
  follow,
  holeHeader,
  onClock,
  replaceRow,
  sortedHoles,
  timingOf,
  upsertGroup,
} from "./live.js";
import { findRows } from "./find.js";
import { renderStrip } from "./strip.js";

const app = document.getElementById("app");
const ROUND = app.dataset.round;

const state = { snapshot: null, geometry: null };
// a wall screen shows every group: when the board is taller than the screen it moves down a
// screenful every PAUSE seconds and back to the top (?pause=N, in seconds; 0 stops it)
const asked = Number(new URLSearchParams(window.location.search).get("pause"));
const PAUSE_S = Number.isFinite(asked) && asked >= 0 && window.location.search.includes("pause=")
  ? asked
  : 12;

const $ = (id) => document.getElementById(id);
// a player's own group or name (issue 47): the rows that match it, kept as the board is redrawn
const find = findRows($("find"), $("board-body"), {
  rows: "tr.board-row",
  words: (row) => ({
    group: row.dataset.group,
    names: [...row.querySelectorAll(".b-player")].map((p) => p.dataset.player),
  }),
  none: $("find-none"),
  lines: "tr.tee-line",
  found: showNextHole,
});

/**
 * One group found: its next hole to complete (or its last, once finished) is brought into
 * view beside its number and start, which stay put as a phone's board scrolls sideways.
 */
function showNextHole(rows) {
  const wrap = document.querySelector(".board-wrap");
  if (rows.length !== 1 || wrap.scrollWidth <= wrap.clientWidth) return;
  const cells = [...rows[0].querySelectorAll("td.b-hole")];
  const next = cells.find((c) => !c.classList.contains("done") && !c.classList.contains("off"))
    || cells[cells.length - 1];
  const group = rows[0].querySelector(".b-group");
  const start = rows[0].querySelector(".b-start");
  if (!next || !group || !start) return;
  // the hole just right of the number and the start (where they stick), the hole before it
  // showing too
  const prior = next.previousElementSibling;
  const before = prior && prior.matches("td.b-hole") ? prior.offsetWidth : 0;
  const x = next.getBoundingClientRect().left - $("board").getBoundingClientRect().left;
  wrap.scrollLeft = x - before - group.offsetWidth - start.offsetWidth;
}
const tz = () => (state.snapshot && state.snapshot.timezone) || undefined;
const holes = () => sortedHoles(state.snapshot);
const timed = (group) => Boolean(timingOf(state.snapshot, group).timed);

// -- data -------------------------------------------------------------------------------------

function setSnapshot(snapshot) {
  state.snapshot = snapshot;
  snapshot.timing = snapshot.timing || {};
  snapshot.disqualified = snapshot.disqualified || [];
  render();
  deltas.start(snapshot); // the deltas that came while it was read, numbered after it
}

/** Apply one delta of the board's feed: only the fields that changed are in it. */
function applyDelta(msg) {
  const s = state.snapshot;
  const changed = new Set();
  for (const row of msg.groups || []) {
    upsertGroup(s, row);
    changed.add(row.group);
  }
  for (const [group, timing] of Object.entries(msg.timing || {})) {
    s.timing[group] = timing;
    changed.add(group);
  }
  if (msg.disqualified) {
    const before = s.disqualified;
    s.disqualified = msg.disqualified;
    for (const d of [...before, ...msg.disqualified]) changed.add(d.group);
  }
  if (typeof msg.suspended === "boolean") {
    s.suspended = msg.suspended;
    $("suspended").hidden = !s.suspended;
  }
  for (const group of changed) {
    const row = s.groups.find((r) => r.group === group);
    if (row) updateRow(row);
  }
}

let socket = null;
// a missed delta: join again (its answer is the board), once
const deltas = deltaFeed(() => socket && join(socket), ["board_changed"]);

function join(s) {
  request(s, "join_board", { round: ROUND })
    .then((ack) => (ack && ack.ok ? setSnapshot(ack.snapshot) : showRefusal(errorText(ack))))
    .catch(() => {}); // disconnected meanwhile: "connect" joins again
}

function showRefusal(message) {
  const cell = el("td", { class: "hint error" }, t("live.error", { message }));
  $("board-body").replaceChildren(el("tr", {}, cell));
  loaded();
}

function start() {
  socket = connect({
    onConnect: join,
    onStatus: (online) => showConnection($("conn"), online),
  });
  // the board's room hears nothing but board_changed (docs/protocol.md)
  follow(socket, ROUND, () => state.snapshot, deltas.wrap({ board_changed: applyDelta }));
  setInterval(showNow, 1000);
  setInterval(drawStrip, 30000); // a group's start passes with the clock
  readGeometry();
  if (PAUSE_S > 0) setInterval(scrollOn, PAUSE_S * 1000);
}

/** Show the next screenful of the board, or the top again after the last one. */
function scrollOn() {
  const doc = document.scrollingElement || document.documentElement;
  const room = window.innerHeight - ($("board-head").offsetHeight || 0) - 16;
  if (doc.scrollHeight <= window.innerHeight + 4) return; // everything is on the screen
  const bottom = doc.scrollTop + window.innerHeight >= doc.scrollHeight - 4;
  window.scrollTo({ top: bottom ? 0 : doc.scrollTop + Math.max(room, 100), behavior: "auto" });
}

// -- rendering --------------------------------------------------------------------------------

function showNow() {
  if (state.snapshot) $("now").textContent = clock(serverNow(), tz());
}

function render() {
  const s = state.snapshot;
  loaded();
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
      ...hs.map((h) => holeHeader(h, "b-hole")),
    ),
  );
  $("board-body").replaceChildren(...bodyRows(s.groups, hs));
  find();
  drawStrip();
}

/**
 * The course strip in its facts-only form (issue 40): each group on the hole after the last it
 * completed (or is estimated to have), no status, no time over, no gap; a group that has
 * withdrawn is not drawn (its row says it withdrew).
 */
function drawStrip() {
  const s = state.snapshot;
  if (!s) return;
  const now = serverNow().getTime();
  const rows = s.groups.map((row) => {
    const order = row.order || [];
    const seen = (h) => (row.holes || {})[String(h)] || (row.estimated || {})[String(h)];
    let done = 0;
    order.forEach((h, i) => {
      if (seen(h)) done = i + 1;
    });
    // a withdrawn group is on the course no more: not drawn, as on the dashboard (issue 46)
    const status = row.withdrawn
      ? "withdrawn"
      : done >= order.length
        ? "finished"
        : now < Date.parse(row.start)
          ? "not_started"
          : "playing";
    return { ...row, holes_completed: done, status, estimate: row.estimated ? { holes: row.estimated } : null };
  });
  renderStrip($("strip-lanes"), rows, now, { facts: true, map: state.geometry, timeZone: tz() });
}

/** The course's own map, when it has one: read once, the facts-only strip drawn on it. */
function readGeometry() {
  fetch(`/api/rounds/${encodeURIComponent(ROUND)}/geometry`, { credentials: "same-origin" })
    .then((r) => r.json())
    .then((body) => {
      if (!body.ok || !body.geometry) return;
      state.geometry = body.geometry;
      drawStrip();
    })
    .catch(() => {});
}

/** The groups in draw order; with several starting tees (a crossover), a line names each. */
function bodyRows(groups, hs) {
  const tees = [...new Set(groups.map((g) => g.tee))];
  if (tees.length !== 2) return groups.map((row) => boardRow(row, hs));
  const out = [];
  for (const tee of tees) {
    out.push(
      el(
        "tr",
        { class: "tee-line", dataset: { tee: String(tee) } },
        el("th", { colspan: String(4 + hs.length), scope: "rowgroup" }, t("board.from_tee", { tee })),
      ),
    );
    for (const row of groups.filter((g) => g.tee === tee)) out.push(boardRow(row, hs));
  }
  return out;
}

const isDq = (group, player) =>
  ((state.snapshot && state.snapshot.disqualified) || []).some(
    (d) => d.group === group && d.player === player,
  );

function updateRow(row) {
  if (!replaceRow($("board-body"), boardRow(row, holes()))) render();
  else find();
  drawStrip();
}

/**
 * A group's row: its players, tee, start and holes. A group that has withdrawn says so by its
 * number, and keeps the holes it completed; the holes it will not play are due no more.
 */
function boardRow(row, hs) {
  const isTimed = timed(row.group);
  return el(
    "tr",
    {
      class: `board-row${isTimed ? " timed" : ""}${row.withdrawn ? " withdrawn" : ""}`,
      dataset: { group: row.group },
    },
    el(
      "th",
      { scope: "row", class: "b-group" },
      el("span", { class: "b-id" }, row.group),
      isTimed ? onClock() : null,
      row.withdrawn ? el("span", { class: "b-withdrawn" }, t("status.withdrawn")) : null,
    ),
    el(
      "td",
      { class: "b-players" },
      ...row.players.map((p) =>
        el(
          "span",
          { class: `b-player${isDq(row.group, p) ? " dq" : ""}`, dataset: { player: p } },
          p,
          isDq(row.group, p)
            ? el("abbr", { class: "dq-mark", title: t("board.dq_title") }, ` ${t("board.dq")}`)
            : null,
        ),
      ),
    ),
    el("td", { class: "b-tee" }, String(row.tee)),
    el("td", { class: "b-start" }, clock(row.start, tz())),
    ...hs.map((h) => holeCell(row, h.number)),
  );
}

function holeCell(row, number) {
  const i = row.order.indexOf(number);
  const logged = row.holes[String(number)];
  if (row.withdrawn && !logged) {
    return el("td", { class: "b-hole off", dataset: { group: row.group, hole: String(number) } });
  }
  const due = i >= 0 && row.due ? clock(row.due[i], tz()) : "";
  // a missed tap's estimate (docs/estimates.md): ≈, its bounds in the title
  const guess = !logged && row.estimated ? row.estimated[String(number)] : null;
  // issue 39: a completion the group reported itself is marked, as an estimate is
  const byGroup = Boolean(logged && logged.source === "group");
  const done = logged
    ? `${clock(logged.at, tz())}${byGroup ? "*" : ""}`
    : guess
      ? `≈${clock(guess.at, tz())}`
      : "";
  const title = t("board.hole_cell", {
    hole: number,
    due,
    done: logged
      ? t(byGroup ? "board.hole_reported" : "board.hole_done", { time: clock(logged.at, tz()) })
      : guess
        ? t("board.hole_estimated", {
            time: clock(guess.at, tz()),
            earliest: clock(guess.earliest, tz()),
            latest: guess.latest ? clock(guess.latest, tz()) : t("board.estimate_now"),
          })
        : "",
  });
  return el(
    "td",
    {
      class: `b-hole${logged ? " done" : ""}${guess ? " estimated" : ""}${byGroup ? " by-group" : ""}`,
      dataset: { group: row.group, hole: String(number) },
      title,
    },
    el("span", { class: "b-due" }, due),
    el("span", { class: "b-done" }, done),
  );
}

rememberLanguage();
start();
