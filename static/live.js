// What the pages that follow a whole round live share (the board, the dashboard, the shot
// clock): a feed of numbered deltas (the round's: the dashboard, the shot clock; the board's
// own), the snapshot fetched again (the dashboard's slow safety net), the socket events, the
// group rows and timing as the server pushes them (projected to now), and the grid's header
// and rows.
// Data is always put in the page with textContent (el).
import { clock, el, t, tn } from "./common.js";

/**
 * The snapshot at `url`, handed to `apply(snapshot)` by `refresh()` (the dashboard's slow
 * safety net: pages live on deltas).
 */
export function snapshotFeed(url, apply) {
  async function refresh() {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      const body = await response.json();
      if (body.ok) apply(body.snapshot);
    } catch (err) {
      console.warn("pace: snapshot refresh failed", err);
    }
  }
  return { refresh };
}

/** The events of the round's feed: each carries `rev` (docs/protocol.md, "Deltas"). */
export const DELTAS = [
  "group_updated",
  "alert_raised",
  "alert_acknowledged",
  "alert_resolved",
  "penalties_changed",
  "timing_changed",
  "round_changed",
];

/**
 * The round's feed of deltas (docs/protocol.md, "Deltas"): `start(snapshot)` takes the
 * snapshot's `rev`; `wrap(handlers)` returns handlers that apply a delta only when it is the
 * next one, ignore those the snapshot already includes, and on a number that skips call
 * `rejoin()` once and keep what arrives meanwhile, applied after the new snapshot if numbered
 * after its `rev`. A message without `rev` (not a delta) is applied as it comes. `names` are
 * the feed's delta events (the board's feed has its own: ["board_changed"]).
 */
export function deltaFeed(rejoin, names = DELTAS) {
  let rev = null;
  let waiting = null; // deltas that came while the page re-reads the snapshot
  const handlers = {};
  function take(name, msg) {
    if (typeof msg.rev !== "number" || rev === null) return true;
    if (waiting !== null) {
      waiting.push([name, msg]);
      return false;
    }
    if (msg.rev <= rev) return false; // the snapshot holds it
    if (msg.rev === rev + 1) {
      rev = msg.rev;
      return true;
    }
    waiting = [[name, msg]]; // missed one: read the snapshot again, once
    rejoin();
    return false;
  }
  return {
    start(snapshot) {
      rev = typeof snapshot.rev === "number" ? snapshot.rev : null;
      const held = waiting || [];
      waiting = null;
      held.sort((a, b) => a[1].rev - b[1].rev);
      for (const [name, msg] of held) if (take(name, msg)) handlers[name](msg);
    },
    wrap(given) {
      // a delta the page shows nothing of still counts in the numbering
      const all = { ...Object.fromEntries(names.map((name) => [name, () => {}])), ...given };
      const out = {};
      for (const [name, handler] of Object.entries(all)) {
        handlers[name] = handler;
        out[name] = (msg) => {
          if (take(name, msg)) handler(msg);
        };
      }
      return out;
    },
    get rev() {
      return rev;
    },
  };
}

/**
 * A group row as it stands at `nowMs` (server time): the figures the server marks `moving`
 * (`over_min`, `gap_min`, `projected_finish`) grown by the minutes since the row's `at`
 * (docs/protocol.md, group rows); the server sends the row again when anything else changes.
 */
export function projected(row, nowMs) {
  const moving = row.moving || [];
  const at = Date.parse(row.at);
  if (!moving.length || Number.isNaN(at) || !(nowMs > at)) return row;
  const ms = nowMs - at;
  const grown = (value) => Math.round((value + ms / 60000) * 100) / 100;
  const out = { ...row };
  if (moving.includes("over_min") && typeof row.over_min === "number") {
    out.over_min = grown(row.over_min);
  }
  if (moving.includes("gap_min") && typeof row.gap_min === "number") {
    out.gap_min = grown(row.gap_min);
  }
  if (moving.includes("projected_finish") && row.projected_finish) {
    out.projected_finish = new Date(Date.parse(row.projected_finish) + ms).toISOString();
  }
  return out;
}

/**
 * Listen on `socket` to the events named in `handlers`; each handler gets the message, only
 * when it is of `round` and the page has its snapshot (`current()`).
 */
export function follow(socket, round, current, handlers) {
  for (const [event, handler] of Object.entries(handlers)) {
    socket.on(event, (msg) => {
      if (msg && msg.round === round && current()) handler(msg);
    });
  }
}

/** Put a group's row pushed by the server (group_updated) in the snapshot, new or not. */
export function upsertGroup(snapshot, row) {
  const rows = snapshot.groups;
  const i = rows.findIndex((r) => r.group === row.group);
  if (i >= 0) rows[i] = row;
  else rows.push(row);
}

/** Put a group's penalties pushed by the server (penalties_changed) in the snapshot. */
export function mergePenalties(snapshot, msg) {
  const others = snapshot.penalties.filter((r) => r.group !== msg.group);
  snapshot.penalties = others.concat(msg.players || []);
}

/** The timing of `group` (timed or not, since, told, decisions), with defaults. */
export function timingOf(snapshot, group) {
  const all = (snapshot && snapshot.timing) || {};
  return all[group] || { timed: false, since: null, told: [], decisions: [] };
}

/** "On the clock", and since when if known. */
export function onClock(since, timeZone) {
  return el(
    "span",
    { class: "on-clock" },
    since ? t("timing.on_clock_since", { time: clock(since, timeZone) }) : t("timing.on_clock"),
  );
}

/** "2 of 4 told": how many of the group's players were told they are timed. */
export function toldCount(row, timing) {
  const told = row.players.filter((p) => (timing.told || []).includes(p)).length;
  return tn("timing.told_count", told, { told, count: row.players.length });
}

/** The course's holes by number. */
export function sortedHoles(snapshot) {
  return snapshot.course.holes.slice().sort((a, b) => a.number - b.number);
}

/** A hole's column header: its number, its par below, and both in words as the title. */
export function holeHeader(hole, cls) {
  return el(
    "th",
    { scope: "col", class: cls, title: t("dash.col.hole", { hole: hole.number, par: hole.par }) },
    String(hole.number),
    el("small", {}, t("dash.col.par", { par: hole.par })),
  );
}

/**
 * Replace the row of `fresh`'s group in `body`, only when what it shows has changed (the tick
 * sends many); return false when the group has no row yet.
 */
export function replaceRow(body, fresh) {
  const tr = [...body.children].find((x) => x.dataset.group === fresh.dataset.group);
  if (!tr) return false;
  if (tr.outerHTML !== fresh.outerHTML) tr.replaceWith(fresh);
  return true;
}
