// The dashboard's course strip (issue 40): live, the groups where the feed's rows put them now
// (redrawn on each `group_updated` and as the clock moves them along); rewound, the field as
// GET /api/rounds/<round>/strip?at= read it at the slider's instant (the log as it stood then,
// or with the corrections logged since), a small cache keeping the instants already read; ahead
// of now, the live rows projected on, faded, with their 80 % ranges. Play moves the slider on
// at the chosen speed.
//
// Issue 46: an answer is drawn only when it is for the instant the slider shows when it comes
// (a fast drag asks for many instants, and their answers come back in any order); an answer
// for an instant no longer asked is kept in the cache, never drawn. The cache holds the log as
// it stood when each instant was read: when the log moves (a correction, a void, a late tap:
// the feed's rows change), it is emptied and the instant shown read again (`logMoved`), so the
// strip draws what GET .../status?at= says now, never a picture from before a correction.
import { clock, serverNow } from "../common.js";
import { renderStrip } from "../strip.js";
import { openDetail } from "./detail.js";
import { $, ROUND, shown, state, tz } from "./state.js";

const STRIP_URL = `/api/rounds/${encodeURIComponent(ROUND)}/strip`;
const CACHE = 240; // instants kept (a minute each: four hours of the day)
const cache = new Map();
const pending = new Set(); // `minute|reading|log` asked and not answered yet
// `wanted`: the key (`minute|reading`) of the instant the slider shows, null when live or ahead
// `log`: how many times the log moved (an answer asked before a move is neither kept nor drawn)
const strip = { at: null, playing: null, shown: null, wanted: null, log: 0, answers: 0, geometry: null, last: null };
const GEOMETRY_URL = `/api/rounds/${encodeURIComponent(ROUND)}/geometry`;

/** The slider's bounds, in minutes of the day: the first start to the last group's due end. */
function dayBounds() {
  const rows = state.snapshot.groups;
  const starts = rows.map((r) => Date.parse(r.start)).filter((x) => !Number.isNaN(x));
  const ends = rows.map((r) => Date.parse((r.due || []).at(-1))).filter((x) => !Number.isNaN(x));
  const lo = Math.min(...starts) - 10 * 60000;
  const hi = Math.max(...ends, serverNow().getTime()) + 30 * 60000;
  return [lo, hi];
}

export function setupStrip() {
  // the course's own map, when the committee gave it one: read once, the strip drawn on it
  fetch(GEOMETRY_URL, { credentials: "same-origin" })
    .then((r) => r.json())
    .then((body) => {
      if (!body.ok || !body.geometry) return;
      strip.geometry = body.geometry;
      $("strip-view").hidden = false;
      redraw();
    })
    .catch(() => {});
  $("strip-map").addEventListener("change", redraw);
  const slider = $("strip-at");
  slider.addEventListener("input", () => {
    stop();
    rewindTo(Number(slider.value) * 60000);
  });
  $("strip-now").addEventListener("click", () => {
    stop();
    strip.at = null;
    strip.wanted = null;
    renderStripNow();
  });
  $("strip-corrected").addEventListener("change", () => strip.at !== null && rewindTo(strip.at));
  $("strip-play").addEventListener("click", () => (strip.playing ? stop() : play()));
}

function stop() {
  if (!strip.playing) return;
  clearInterval(strip.playing);
  strip.playing = null;
  $("strip-play").textContent = $("strip-play").dataset.play;
  $("strip-play").setAttribute("aria-pressed", "false");
}

function play() {
  const [lo, hi] = dayBounds();
  let at = strip.at ?? serverNow().getTime();
  if (at >= hi) at = lo;
  const stepMs = 250;
  strip.playing = setInterval(() => {
    at += Number($("strip-speed").value) * stepMs;
    if (at >= hi) {
      stop();
      at = hi;
    }
    rewindTo(at);
  }, stepMs);
  $("strip-play").textContent = $("strip-play").dataset.pause;
  $("strip-play").setAttribute("aria-pressed", "true");
}

/** Show the field at `at` (ms): read from the server up to now, projected beyond it. */
function rewindTo(at) {
  strip.at = at;
  const now = serverNow().getTime();
  $("strip-at").value = String(Math.round(at / 60000));
  if (at >= now) {
    strip.wanted = null;
    showWhen(at, true);
    draw(state.snapshot.groups, at, state.snapshot.held_up, true);
    return;
  }
  const reading = $("strip-corrected").checked ? "corrected" : "known";
  const minute = Math.floor(at / 60000);
  const key = `${minute}|${reading}`;
  strip.wanted = key;
  const known = cache.get(key);
  showWhen(minute * 60000, false);
  if (known) {
    draw(known.groups, minute * 60000, known.held_up, false);
    return;
  }
  read(key, minute, reading);
}

/**
 * Read the field at `minute` in `reading` from the server, once at a time: the answer goes in
 * the cache, and is drawn only if the slider still shows that instant when it comes.
 */
function read(key, minute, reading) {
  const log = strip.log;
  const asked = `${key}|${log}`;
  if (pending.has(asked)) return; // asked already: its answer draws it if still wanted
  pending.add(asked);
  const iso = new Date(minute * 60000).toISOString();
  fetch(`${STRIP_URL}?at=${encodeURIComponent(iso)}&reading=${reading}`, { credentials: "same-origin" })
    .then((r) => r.json())
    .then((body) => {
      $("strip").dataset.answers = String(++strip.answers); // answers read (tests)
      // the log moved while it was read: it may be stale, and logMoved asked again
      if (!body.ok || log !== strip.log) return;
      cache.set(key, body);
      if (cache.size > CACHE) cache.delete(cache.keys().next().value);
      if (strip.wanted === key) draw(body.groups, minute * 60000, body.held_up, false);
    })
    .catch(() => {})
    .finally(() => pending.delete(asked));
}

/**
 * The round's log may have moved (a delta of its rows or of who holds the field up, or the
 * snapshot read again after a missed one): every instant read is forgotten, and the one shown
 * is read again, or projected again from the new rows when ahead of now.
 */
export function logMoved() {
  strip.log += 1;
  cache.clear();
  if (strip.at !== null) rewindTo(strip.at);
}

function showWhen(at, ahead) {
  const when = $("strip-when");
  when.textContent = clock(new Date(at), tz());
  when.dataset.at = new Date(at).toISOString();
  $("strip").dataset.mode = ahead ? "ahead" : strip.at === null ? "live" : "rewound";
  $("strip-mode").textContent = $("strip-mode").dataset[ahead ? "ahead" : strip.at === null ? "live" : "rewound"];
}

function redraw() {
  if (strip.last) draw(...strip.last);
}

function draw(rows, at, heldUp, ahead) {
  strip.shown = at;
  strip.last = [rows, at, heldUp, ahead];
  const map = strip.geometry && $("strip-map").checked ? strip.geometry : null;
  // where the phones put the groups (issue 48): now only, never rewound nor projected
  const places = strip.at === null && !ahead ? state.places : null;
  renderStrip($("strip-lanes"), rows, at, { heldUp, ahead, map, onOpen: openDetail, timeZone: tz(), places });
  $("strip").dataset.drawn = new Date(at).toISOString(); // the instant drawn (tests, bench)
}

/** Draw the live strip (after the snapshot, a delta, or as the clock moves the groups on). */
export function renderStripNow() {
  if (!state.snapshot || strip.at !== null) return;
  const [lo, hi] = dayBounds();
  const slider = $("strip-at");
  slider.min = String(Math.floor(lo / 60000));
  slider.max = String(Math.ceil(hi / 60000));
  const now = serverNow().getTime();
  slider.value = String(Math.round(now / 60000));
  showWhen(now, false);
  // the minutes that grow with the clock (a late group's gap) as the grid shows them
  draw(state.snapshot.groups.map(shown), now, state.snapshot.held_up, false);
}
