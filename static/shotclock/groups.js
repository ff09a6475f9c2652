// The shot clock's list of groups: the most urgent first (timed, then by status), each with
// its status, whether it is on the clock and the hole it plays; a tap follows that group.
import { el, save, statusBadge, t } from "../common.js";
import { onClock, timingOf } from "../live.js";
import { $, KEYS, holeInPlay, paint, redraw, rowOf, rows, state } from "./state.js";

const URGENCY = ["out_of_position", "overdue", "behind", "on_pace", "not_started", "finished"];

function urgency(row) {
  const timed = timingOf(state.snapshot, row.group).timed || state.prompts.has(row.group);
  const i = URGENCY.indexOf(row.status);
  return (timed ? 0 : 10) + (i < 0 ? URGENCY.length : i);
}

export function renderGroups() {
  if (!state.snapshot) return;
  const sorted = rows()
    .map((row, i) => ({ row, i }))
    .sort((a, b) => urgency(a.row) - urgency(b.row) || a.i - b.i)
    .map((x) => x.row);
  const signature = sorted.map((r) => [
    r.group,
    r.status,
    holeInPlay(r),
    timingOf(state.snapshot, r.group).timed,
    r.group === state.group,
  ]);
  paint($("groups"), signature, () => sorted.map(groupButton));
  const chosen = rowOf(state.group);
  $("group-chosen").textContent = chosen ? ` ${chosen.group} · ${t("clock.change")}` : "";
}

function groupButton(row) {
  const timed = timingOf(state.snapshot, row.group).timed;
  const hole = holeInPlay(row);
  return el(
    "button",
    {
      type: "button",
      class: `group-choice${row.group === state.group ? " chosen" : ""}`,
      dataset: { group: row.group, status: row.status },
      "aria-pressed": row.group === state.group ? "true" : "false",
      onclick: () => chooseGroup(row.group),
    },
    el("span", { class: "g-name" }, t("live.group", { group: row.group })),
    statusBadge(row.status),
    timed ? onClock() : null,
    hole && row.status !== "finished" && row.status !== "not_started"
      ? el("span", { class: "g-hole" }, t("clock.hole_in_play", { hole }))
      : null,
    el("span", { class: "g-players" }, row.players.join(", ")),
  );
}

function chooseGroup(group) {
  if (state.run && !state.run.stopped && state.run.group !== group) return; // timing a stroke
  if (state.group !== group) {
    state.next = null;
    state.hole = null;
    state.dontTime = null;
    state.stoppedNote = null;
    if (state.run && state.run.stopped) state.run = null; // that result was another group's
  }
  state.group = group;
  save(KEYS.group, group);
  $("groups-box").open = false;
  renderGroups();
  redraw.panel();
  $("panel").scrollIntoView({ block: "start" });
}
