// The dashboard's link to the server: it joins the round (its answer is the snapshot) and
// lives on the round's deltas (live.js's feed, numbered by `rev`): it applies each in turn and
// reads the snapshot again only when it missed one (docs/protocol.md, "Deltas"); the snapshot
// fetched again now and then is the slow safety net. A late group's minutes are shown again
// every few seconds, projected from its row's `at` and `moving`.
import { clock, connect, joinRound, showConnection } from "../common.js";
import { deltaFeed, follow, mergePenalties, snapshotFeed, upsertGroup } from "../live.js";
import {
  alertRaised,
  alertResolved,
  refreshLiveNumbers,
  removeAlert,
  renderAlerts,
  stopTimingPrompted,
  takeAlerts,
  untimed,
} from "./alerts.js";
import { fetchFaults, renderDetail } from "./detail.js";
import { renderGrid, updateRow } from "./grid.js";
import { renderHeldUp, renderPenalties } from "./panels.js";
import { $, ROUND, showError, state, tz } from "./state.js";
import { setupPlaces } from "./places.js";
import { logMoved, renderStripNow } from "./strip.js";

const SNAPSHOT_URL = `/api/rounds/${encodeURIComponent(ROUND)}/snapshot`;
const REFRESH_MS = 60000;
// how often the minutes the page projects are shown again (they are shown to 0.1 min)
const PROJECT_MS = 5000;

function setSnapshot(snapshot) {
  snapshot.timing = snapshot.timing || {};
  snapshot.penalties = snapshot.penalties || [];
  state.snapshot = snapshot;
  takeAlerts(snapshot);
  renderAll();
  // a snapshot holding deltas the page has not applied (or unnumbered): the log may have moved
  if (typeof snapshot.rev !== "number" || snapshot.rev !== deltas.rev) logMoved();
  deltas.start(snapshot); // the deltas that came while it was read, numbered after it
}

const feed = snapshotFeed(SNAPSHOT_URL, setSnapshot);
// a missed delta: join again (its answer is the snapshot), once
const deltas = deltaFeed(() => join(state.socket));

function join(socket) {
  joinRound(socket, { round: ROUND }, setSnapshot, (message) =>
    showError($("field-error"), message),
  );
}

export function start() {
  const socket = connect({
    onConnect: join,
    onStatus: (online) => showConnection($("conn"), online),
  });
  state.socket = socket;
  follow(socket, ROUND, () => state.snapshot, deltas.wrap({
    group_updated: (msg) => {
      upsertGroup(state.snapshot, msg.group);
      updateRow(msg.group);
      renderStripNow();
      logMoved(); // a tap, a correction, a void: the rewound strip reads its instant again
      refreshLiveNumbers(msg.group.group);
      if (state.detail === msg.group.group) renderDetail();
    },
    alert_raised: alertRaised,
    alert_resolved: alertResolved,
    stop_timing_prompted: stopTimingPrompted,
    timing_changed: (msg) => {
      state.snapshot.timing[msg.group] = msg.timing;
      if (!msg.timing.timed) untimed(msg.group);
      const row = state.snapshot.groups.find((r) => r.group === msg.group);
      if (row) updateRow(row);
      renderPenalties();
      if (state.detail === msg.group) renderDetail();
    },
    penalties_changed: (msg) => {
      mergePenalties(state.snapshot, msg);
      renderPenalties();
      if (state.detail === msg.group) {
        renderDetail();
        fetchFaults(msg.group); // its every fault as it stands now
      }
    },
    alert_acknowledged: (msg) => removeAlert(msg.payload && msg.payload.alert),
    round_changed: (msg) => {
      Object.assign(state.snapshot, msg.parts || {});
      if ("suspended" in (msg.parts || {})) $("suspended").hidden = !state.snapshot.suspended;
      if ("held_up" in (msg.parts || {})) renderHeldUp();
      if ("held_up" in (msg.parts || {}) || "groups" in (msg.parts || {})) renderStripNow();
      logMoved(); // a siren, a change of the draw, who holds the field up
    },
  }));
  setInterval(feed.refresh, REFRESH_MS);
  setInterval(projectMinutes, PROJECT_MS);
  setupPlaces(() => {
    if (!state.snapshot) return;
    renderGrid();
    renderStripNow();
  });
}

/** Show again the rows (and their alerts' live minutes) whose minutes grow with the clock. */
function projectMinutes() {
  if (!state.snapshot) return;
  renderStripNow(); // the groups move on along their holes with the clock
  for (const row of state.snapshot.groups) {
    if (!(row.moving || []).length) continue;
    updateRow(row);
    refreshLiveNumbers(row.group);
    if (state.detail === row.group) renderDetail();
  }
}

function renderAll() {
  $("suspended").hidden = !state.snapshot.suspended;
  $("as-of").textContent = clock(state.snapshot.at, tz(), { seconds: true });
  $("course-name").textContent = state.snapshot.course.name;
  renderGrid();
  renderAlerts();
  renderPenalties();
  renderHeldUp();
  renderStripNow();
  if (state.detail) {
    renderDetail();
    fetchFaults(state.detail); // a snapshot read again: the detail's faults too
  }
}
