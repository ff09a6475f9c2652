// The dashboard's state: the round's snapshot as the deltas keep it, the open and resolved
// alerts, the group shown in detail, the siren waiting for confirmation; and what the views
// read from it. The other modules of static/dashboard/ import from here.
import { serverNow, t } from "../common.js";
import { projected, sortedHoles, timingOf } from "../live.js";

const app = document.getElementById("app");
export const ROUND = app.dataset.round;

export const state = {
  snapshot: null,
  alerts: [], // open alerts, newest first, those of one group together (arrange)
  resolved: [], // alerts whose situation ended (alert_resolved), the latest first
  socket: null,
  detail: null, // group id shown in the detail dialog
  // the detail's group's every fault, fetched when it opens: {group, rows} or {group, error}
  faults: null,
  siren: null, // {kind, at} waiting for confirmation
  // where the groups whose phones share stand on their holes (issue 48): GET .../places
  places: {},
};

export const $ = (id) => document.getElementById(id);
export const tz = () => (state.snapshot && state.snapshot.timezone) || undefined;
export const holes = () => sortedHoles(state.snapshot);

/** A group's row as it stands now: its moving minutes projected on the server's clock. */
export const shown = (row) => projected(row, serverNow().getTime());

export const isTimed = (group) => Boolean(timingOf(state.snapshot, group).timed);
// where the round's faults come from: timed strokes, or checkpoints (mauricie)
export const faultsFrom = () =>
  ((state.snapshot && state.snapshot.policy_detail) || {}).faults_from;

export function showError(node, message) {
  node.textContent = t("live.error", { message });
  node.hidden = false;
}
