// The shot clock's link to the server: it joins the round (its answer is the snapshot), lives
// on the round's deltas (live.js's feed, numbered by `rev`) and the acks of its commands, and
// sends the outbox whenever the socket is connected. A missed delta, a reconnection or a
// stroke refused not_timed: it joins again, once.
import { connect, errorLine, joinRound, load } from "../common.js";
import { deltaFeed, follow, mergePenalties, timingOf, upsertGroup } from "../live.js";
import { outbox } from "./commands.js";
import { $, KEYS, ROUND, heard, redraw, rowOf, state } from "./state.js";

let liveSocket = null;
const deltas = deltaFeed(() => liveSocket && join(liveSocket));
outbox.stale = () => liveSocket && join(liveSocket);

/** Draw the list of my actions, kept out of the page until the groups are drawn above it (or
 * cannot be): drawn earlier, the groups coming in would push it down (docs/performance.md). */
function showLog() {
  $("log-box").hidden = false;
}

function setSnapshot(snapshot) {
  state.snapshot = snapshot;
  snapshot.timing = snapshot.timing || {};
  snapshot.penalties = snapshot.penalties || [];
  // the prompts are the open stop_timing alerts: one resolved (the group's state passed)
  // or acknowledged is gone from the snapshot, and from this page
  state.prompts = new Map(
    (snapshot.alerts || []).filter(isPrompt).map((a) => [a.group, a.reason || "back_in_position"]),
  );
  if (state.group && !rowOf(state.group)) state.group = null;
  heard.snapshot = ++heard.count;
  redraw.all();
  showLog();
  deltas.start(snapshot);
}

function join(socket) {
  joinRound(
    socket,
    { round: ROUND },
    (snapshot) => {
      setSnapshot(snapshot);
      outbox.drain();
    },
    (message) => {
      $("groups").replaceChildren(errorLine(message));
      showLog();
    },
  );
}

/** Is `alert` an open prompt to stop timing its group, raised since the group is timed? */
function isPrompt(alert) {
  if (!alert || alert.kind !== "stop_timing") return false;
  const timing = timingOf(state.snapshot, alert.group);
  if (!timing.timed) return false;
  return !timing.since || !alert.at || Date.parse(alert.at) >= Date.parse(timing.since);
}

function prompt(group, reason) {
  if (state.prompts.has(group)) return;
  state.prompts.set(group, reason || "back_in_position");
  if (group === state.group && navigator.vibrate) navigator.vibrate([300, 100, 300]);
  redraw.groups();
  redraw.panel();
}

/** A prompt to stop timing `group` is gone: draw the group without it. */
function unprompt(group) {
  if (group && state.prompts.delete(group)) {
    redraw.groups();
    redraw.panel();
  }
}

/** Connect, follow the round's deltas, and send the outbox now and then. */
export function start() {
  const socket = connect({
    name: load(KEYS.name, null),
    onConnect: join,
    onStatus: (online) => {
      state.online = online;
      redraw.bar();
      if (!online) showLog(); // no groups to wait for: what is waiting to be sent
    },
  });
  liveSocket = socket;
  outbox.socket = socket;
  follow(socket, ROUND, () => state.snapshot, deltas.wrap({
    group_updated: (msg) => {
      upsertGroup(state.snapshot, msg.group);
      redraw.groups();
      if (msg.group.group === state.group) redraw.panel();
    },
    timing_changed: (msg) => {
      state.snapshot.timing[msg.group] = msg.timing;
      heard.groups.set(msg.group, ++heard.count);
      if (!msg.timing.timed) state.prompts.delete(msg.group);
      redraw.groups();
      redraw.panel();
    },
    penalties_changed: (msg) => {
      mergePenalties(state.snapshot, msg);
      redraw.panel();
    },
    stop_timing_prompted: (msg) => prompt(msg.group, msg.reason),
    alert_raised: (msg) => isPrompt(msg.alert) && prompt(msg.alert.group, msg.alert.reason),
    alert_resolved: (msg) => {
      const p = msg.payload || {};
      if (p.kind === "stop_timing") unprompt(p.group);
    },
    alert_acknowledged: (msg) => {
      const p = msg.payload || {};
      unprompt(String(p.alert || "").startsWith("stop_timing:") ? p.alert.split(":")[1] : null);
    },
    round_changed: (msg) => Object.assign(state.snapshot, msg.parts || {}),
  }));
  setInterval(() => {
    outbox.drain();
    redraw.bar();
  }, 5000);
}
