// Ending a group's timing and granting it time: the stop form (prompted when the server says
// the group is back in position), "players told" after a spell that stopped by itself, the
// reminder to tell the players, and the time credit form with its answer.
import { clock, t } from "../common.js";
import { timingOf } from "../live.js";
import { command, outbox, pendingFor } from "./commands.js";
import { $, state, tz } from "./state.js";

export function setupForms() {
  $("credit-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const minutes = Number($("credit-minutes").value);
    const reason = $("credit-reason").value.trim();
    if (!state.group || !(minutes > 0) || !reason) return;
    if (pendingFor("grant_time_credit", (p) => p.group === state.group)) return;
    const entry = command("grant_time_credit", { group: state.group, minutes, reason });
    $("credit-form").reset();
    $("credit-result").dataset.entry = entry.id;
    renderCreditResult();
  });
  $("stop-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (!state.group || !timingOf(state.snapshot, state.group).timed) return;
    if (pendingFor("stop_timing", (p) => p.group === state.group)) return;
    const reason = $("stop-reason").value.trim();
    const fields = { group: state.group };
    if (reason) fields.reason = reason;
    command("stop_timing", fields);
    $("stop-reason").value = "";
  });
  $("players-told").addEventListener("click", () => {
    // the spell stopped by itself: this stop records that the players were told, as a code
    // the pages say in their own language (issue 47; docs/protocol.md, "stop_timing")
    if (!state.group || pendingFor("stop_timing", (p) => p.group === state.group)) return;
    command("stop_timing", { group: state.group, reason: "players_told" });
  });
}

function renderCreditResult() {
  const node = $("credit-result");
  const entry = outbox.entries.find((e) => e.id === node.dataset.entry);
  if (!entry) {
    node.textContent = "";
    return;
  }
  const p = entry.payload;
  node.className = `st-${entry.state}`;
  node.textContent =
    entry.state === "confirmed"
      ? t("clock.credit_done", { minutes: p.minutes, group: p.group })
      : entry.state === "refused"
        ? t("live.error", { message: entry.error })
        : t("clock.sending");
  $("credit-grant").disabled = entry.state === "sent" || entry.state === "queued";
}

/** The group's last spell when it stopped by itself and no referee confirmed it since. */
function endedByItself(timing) {
  const last = (timing.spells || []).slice(-1)[0];
  if (timing.timed || !last || last.ended_by !== "back_in_position" || last.stopped) return null;
  return last;
}

export function renderStop(row, timing) {
  const ended = endedByItself(timing);
  $("auto-stopped").hidden = !ended;
  if (ended) {
    const hole = ended.hole ? t("clock.auto_stopped_hole", { hole: ended.hole }) : "";
    $("auto-stopped-text").textContent = t("clock.auto_stopped", {
      group: row.group,
      time: clock(ended.until, tz()),
      hole,
    });
    const telling = pendingFor("stop_timing", (p) => p.group === row.group);
    $("players-told").disabled = telling;
    $("players-told").textContent = telling ? t("clock.sending") : t("clock.players_told");
  }
  const prompted = timing.timed && state.prompts.has(row.group);
  $("stop-box").hidden = !timing.timed;
  $("stop-box").className = `stop-box${prompted ? " prompted" : ""}`;
  const stopping = pendingFor("stop_timing", (p) => p.group === row.group);
  $("stop-timing").disabled = stopping;
  $("stop-timing").textContent = stopping ? t("clock.sending") : t("clock.stop_timing");
  $("stopped-note").hidden = !(state.stoppedNote === row.group && !timing.timed);
  renderCreditResult();
}
