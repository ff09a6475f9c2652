// The panel of the group followed: the prompt to stop timing it, its timing state, the
// decision to time it or not (with the reason and note of "don't time"), then its players,
// the shot clock and the stop and credit forms (players.js, clock.js, stop.js).
import { clock, el, statusBadge, t } from "../common.js";
import { onClock, timingOf, toldCount } from "../live.js";
import { renderClockControls } from "./clock.js";
import { command, pendingFor } from "./commands.js";
import { renderPlayers } from "./players.js";
import { $, paint, rowOf, state, tz } from "./state.js";
import { renderStop } from "./stop.js";

const REASONS = ["ruling", "lost_ball", "unplayable_ball", "other"];

export function renderPanel() {
  const row = rowOf(state.group);
  $("panel").hidden = !row;
  if (!row) return;
  const timing = timingOf(state.snapshot, row.group);
  renderPrompt(row, timing);
  renderTiming(row, timing);
  renderDecision(row, timing);
  renderPlayers(row, timing);
  renderClockControls(row, timing);
  renderStop(row, timing);
}

function renderPrompt(row, timing) {
  const box = $("prompt");
  const on = timing.timed && state.prompts.has(row.group);
  box.hidden = !on;
  const key = state.prompts.get(row.group) === "in_position" ? "clock.prompt_in_position" : "clock.prompt";
  box.textContent = on ? t(key, { group: row.group }) : "";
}

function renderTiming(row, timing) {
  const box = $("timing-state");
  const parts = [el("strong", {}, t("live.group", { group: row.group })), statusBadge(row.status)];
  if (timing.timed) {
    parts.push(
      onClock(timing.since, tz()),
      el("span", { class: "told-count" }, toldCount(row, timing)),
    );
  } else {
    parts.push(el("span", { class: "not-timed" }, t("timing.not_timed")));
    const last = (timing.decisions || []).slice(-1)[0];
    if (last) {
      parts.push(
        el(
          "span",
          { class: "hint last-decision" },
          t("timing.last_decision", {
            decision: t(`timing.decision.${last.decision}`),
            reason: last.reason ? ` (${t(`timing.reason.${last.reason}`)})` : "",
            time: clock(last.at, tz()),
          }),
        ),
      );
    }
  }
  const sig = [row.group, row.status, timing.timed, timing.since, timing.told, timing.decisions];
  paint(box, sig, () => parts);
}

function renderDecision(row, timing) {
  const box = $("decision");
  const sending = pendingFor("decide_timing", (p) => p.group === row.group);
  const form = state.dontTime;
  // not the note: typing in it must not rebuild the form under the finger
  const sig = [row.group, timing.timed, sending, form && { reason: form.reason }];
  paint(box, sig, () => {
    if (timing.timed) return [];
    const out = [
      el(
        "div",
        { class: "actions" },
        el(
          "button",
          {
            type: "button",
            id: "decide-time",
            class: "primary big",
            disabled: sending,
            onclick: decideTime,
          },
          sending ? t("clock.sending") : t("clock.time"),
        ),
        el(
          "button",
          {
            type: "button",
            id: "decide-not",
            disabled: sending,
            "aria-expanded": form ? "true" : "false",
            onclick: () => {
              state.dontTime = state.dontTime ? null : { reason: null, note: "" };
              renderPanel();
            },
          },
          t("clock.dont_time"),
        ),
      ),
    ];
    if (form) out.push(dontTimeForm(form, sending));
    return out;
  });
}

function dontTimeForm(form, sending) {
  const note = el("input", {
    id: "dont-note",
    maxlength: "200",
    value: form.note,
    oninput: (ev) => (form.note = ev.target.value),
  });
  return el(
    "form",
    { class: "panel dont-time", onsubmit: decideNotTime },
    el("p", { class: "label" }, t("clock.dont_time_why")),
    el(
      "div",
      { class: "chips reasons", role: "radiogroup" },
      ...REASONS.map((r) =>
        el(
          "button",
          {
            type: "button",
            role: "radio",
            class: `reason-chip${form.reason === r ? " chosen" : ""}`,
            dataset: { reason: r },
            "aria-checked": form.reason === r ? "true" : "false",
            onclick: () => {
              form.reason = r;
              renderPanel();
            },
          },
          t(`timing.reason.${r}`),
        ),
      ),
    ),
    el("label", {}, t("clock.note"), note),
    el(
      "button",
      { type: "submit", class: "primary", disabled: sending || !form.reason },
      t("clock.record_dont_time"),
    ),
  );
}

function decideTime() {
  if (pendingFor("decide_timing", (p) => p.group === state.group)) return;
  state.dontTime = null;
  command("decide_timing", { group: state.group, decision: "time" });
}

function decideNotTime(ev) {
  ev.preventDefault();
  const form = state.dontTime;
  if (!form || !form.reason || pendingFor("decide_timing", (p) => p.group === state.group)) return;
  const fields = { group: state.group, decision: "not_time", reason: form.reason };
  if (form.note.trim()) fields.note = form.note.trim();
  state.dontTime = null;
  command("decide_timing", fields);
}
