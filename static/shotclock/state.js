// The shot clock's state: what the page holds (the round's snapshot, the group followed, the
// stroke being timed) and what it reads from it (the policy's seconds, the hole in play, the
// kinds of stroke offered). The other modules of static/shotclock/ import from here; none of
// them is imported here.
import { connectionAtStart, load } from "../common.js";

const app = document.getElementById("app");
export const ROUND = app.dataset.round;
export const KEYS = {
  outbox: `pace.shotclock.queue.${ROUND}`,
  group: `pace.shotclock.group.${ROUND}`,
  name: "pace.name",
};
// One tap chooses the kind of stroke and whether the player is the first to play: the
// three kinds that earn the first to play the extra seconds, and everything else.
export const KINDS = [
  { key: "par3_tee", kind: "par3_tee", first: true },
  { key: "approach", kind: "approach", first: true },
  { key: "chip_putt", kind: "chip_putt", first: true },
  { key: "other", kind: "other", first: false },
];
const POLICY_DEFAULTS = { ball_search_s: 180 };

export const state = {
  snapshot: null,
  online: connectionAtStart(),
  group: load(KEYS.group, null), // the group followed
  next: null, // the player who plays next
  kind: "other",
  hole: null, // {group, hole}: a hole chosen by hand instead of the hole in play
  between: false,
  run: null, // {group, player, hole, between, started, stopped, kind, entry}
  lastTap: 0,
  dontTime: null, // {reason, note} while the "don't time" form is open
  prompts: new Map(), // group → why the server asks to stop timing it (the alert's reason)
  stoppedNote: null, // group whose timing this page stopped: tell the players
  search: null, // {started, stopped}
};

// What the page last heard of each group's timing, counted: a delta (timing_changed) or a
// snapshot. An ack's timing is applied only when nothing newer was heard since its command was
// sent (the round's delta usually comes before the ack, and another referee's may follow it).
export const heard = { count: 0, snapshot: 0, groups: new Map() };
export const heardSince = (group, mark) =>
  Math.max(heard.snapshot, heard.groups.get(group) || 0) > mark;

const nothing = () => {};
/**
 * Draw again a part of the page. shotclock.js puts the views' functions here once they are
 * loaded: the modules the views import (the outbox, the feed) and a view that redraws another
 * ask through this instead of importing it, so no module imports one that imports it.
 */
export const redraw = { all: nothing, bar: nothing, groups: nothing, panel: nothing, log: nothing };

export const $ = (id) => document.getElementById(id);
export const tz = () => (state.snapshot && state.snapshot.timezone) || undefined;

// -- the round's state ----------------------------------------------------------------------

export function policy() {
  return { ...POLICY_DEFAULTS, ...((state.snapshot && state.snapshot.policy_detail) || {}) };
}

/** The seconds allowed for a stroke kind, as the server's rules give them (null before the
 * round's snapshot has arrived). */
export function allowance(key) {
  const given = policy().allowances_s || {};
  return key in given ? given[key] : null;
}

export function rows() {
  return (state.snapshot && state.snapshot.groups) || [];
}

export function rowOf(group) {
  return rows().find((r) => r.group === group) || null;
}

/** The hole the group is playing: the first of its order not logged yet. */
export function holeInPlay(row) {
  if (!row) return null;
  const next = row.order.find((h) => !row.holes[String(h)]);
  if (next !== undefined) return next;
  return row.hole || row.order[row.order.length - 1];
}

export function currentHole() {
  const row = rowOf(state.group);
  if (state.hole && state.hole.group === state.group) return state.hole.hole;
  return holeInPlay(row);
}

/** The par of the hole the next stroke is judged on: between holes, the next hole's tee. */
function judgedPar(row) {
  if (!row || !state.snapshot) return null;
  const running = state.run && !state.run.stopped;
  let hole = running ? state.run.hole : currentHole();
  const between = running ? state.run.between : state.between;
  if (between) {
    const i = row.order.indexOf(hole);
    if (i >= 0 && i + 1 < row.order.length) hole = row.order[i + 1];
  }
  const found = state.snapshot.course.holes.find((h) => h.number === hole);
  return found ? found.par : null;
}

/** The kinds of stroke offered: the par-3 tee shot only where the hole's par is 3 (§4.3). */
export function kindsOffered() {
  const par = judgedPar(rowOf(state.group));
  return KINDS.filter((k) => k.key !== "par3_tee" || par === 3);
}

/** Only rebuild `node` when what it shows has changed: never swap a button needlessly. */
export function paint(node, signature, build) {
  const sig = JSON.stringify(signature);
  if (node.dataset.sig === sig) return;
  node.dataset.sig = sig;
  node.replaceChildren(...build());
}
