// What the pages that follow a whole round live share (the board, the dashboard, the shot
// clock): the snapshot fetched again after a burst of facts, the round's socket events, the
// group rows and timing as the server pushes them, and the grid's header and rows.
// Data is always put in the page with textContent (el).
import { clock, el, t, tn } from "./common.js";

/** The facts after which a page fetches the snapshot again (simple and always right). */
export const FACTS = ["hole_logged", "hole_time_corrected", "event_voided"];

/**
 * The snapshot at `url`, handed to `apply(snapshot)`: `refresh()` fetches it now,
 * `refreshSoon()` once, shortly after a burst of events, and `after(events)` gives the
 * handlers (for `follow`) that call `refreshSoon()` after each of `events`.
 */
export function snapshotFeed(url, apply) {
  let timer = null;
  async function refresh() {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      const body = await response.json();
      if (body.ok) apply(body.snapshot);
    } catch (err) {
      console.warn("pace: snapshot refresh failed", err);
    }
  }
  function refreshSoon(delay = 250) {
    clearTimeout(timer);
    timer = setTimeout(refresh, delay);
  }
  const after = (events) => Object.fromEntries(events.map((name) => [name, () => refreshSoon()]));
  return { refresh, refreshSoon, after };
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
    el("small", {}, `p${hole.par}`),
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
