// The shot clock itself: the kind of stroke, the hole, START and STOP (one tap each, a bounce
// ignored), the countdown with its buzz at the limit, and the verdict and penalty the server
// judged from the stroke's answer.
import { announce, el, isoWithOffset, pageInstant, t } from "../common.js";
import { timingOf } from "../live.js";
import { outcomeText, penaltyRow, seconds } from "../penalties.js";
import { command, outbox, pendingFor } from "./commands.js";
import { notifyButton } from "./players.js";
import { tickSearch } from "./search.js";
import { $, KINDS, allowance, currentHole, kindsOffered, paint, redraw, state } from "./state.js";

export const TICK_MS = 100;
const DEBOUNCE_MS = 700; // a second tap this soon after START or STOP is a bounce

function renderKinds() {
  const offered = kindsOffered();
  if (!offered.some((k) => k.key === state.kind)) state.kind = "other";
  paint($("kinds"), [state.kind, ...offered.map((k) => [k.key, allowance(k.key)])], () =>
    offered.map((k) =>
      el(
        "button",
        {
          type: "button",
          role: "radio",
          class: `kind${state.kind === k.key ? " chosen" : ""}`,
          dataset: { kind: k.key },
          "aria-checked": state.kind === k.key ? "true" : "false",
          onclick: () => {
            state.kind = k.key;
            renderKinds();
            tick();
          },
        },
        el("span", { class: "k-name" }, t(`clock.kind.${k.key}`)),
        el("span", { class: "k-secs" }, t("clock.seconds", { n: allowance(k.key) })),
      ),
    ),
  );
}

export function renderClockControls(row, timing) {
  renderKinds();
  const running = Boolean(state.run && !state.run.stopped);
  const player = running ? state.run.player : state.next;
  $("next-name").textContent = player || t("clock.nobody");
  const select = $("hole");
  const hole = running ? state.run.hole : currentHole();
  const options = row.order.map(String);
  if (select.dataset.sig !== options.join(",")) {
    select.dataset.sig = options.join(",");
    select.replaceChildren(...row.order.map((h) => el("option", { value: String(h) }, String(h))));
  }
  select.value = String(hole);
  select.disabled = running;
  $("between").checked = running ? state.run.between : state.between;
  $("between").disabled = running;
  const button = $("startstop");
  button.textContent = running ? t("clock.stop") : t("clock.start");
  button.className = `startstop ${running ? "stop" : "start"}`;
  button.disabled = !running && !(timing.timed && state.next);
  $("cancel-run").hidden = !running;
  // nothing to time: out of the way
  $("clock-dock").hidden = !running && !timing.timed;
  $("clock-box").hidden = !running && !timing.timed;
  let hint = "";
  if (running) hint = t("clock.running", { player: state.run.player });
  else if (!timing.timed) hint = t("clock.need_timed");
  else if (!state.next) hint = t("clock.need_next");
  else hint = t("clock.ready", { player: state.next });
  $("clock-hint").textContent = hint;
  renderResult();
  tick();
}

function startStop() {
  const now = new Date(); // the instant of the tap, on this device's clock
  if (now.getTime() - state.lastTap < DEBOUNCE_MS) return;
  if (state.run && !state.run.stopped) {
    state.lastTap = now.getTime();
    stopStroke(now);
    return;
  }
  const timing = timingOf(state.snapshot, state.group);
  if (!timing.timed || !state.next) return;
  state.lastTap = now.getTime();
  state.run = {
    group: state.group,
    player: state.next,
    hole: currentHole(),
    between: state.between,
    started: now,
    stopped: null,
    kind: null,
    entry: null,
  };
  if (navigator.vibrate) navigator.vibrate(40);
  redraw.panel();
}

function stopStroke(now) {
  const run = state.run;
  run.stopped = now;
  run.kind = state.kind;
  const k = KINDS.find((x) => x.key === run.kind);
  // the stroke keeps its real duration, and ends at the page clock's instant of the stop
  // (the server's on a demo's fast clock: docs/protocol.md, "The server's rate")
  const stopped = pageInstant(run.stopped.getTime());
  const started = new Date(stopped.getTime() - (run.stopped - run.started));
  const fields = {
    group: run.group,
    player: run.player,
    hole: run.hole,
    kind: k.kind,
    first_to_play: k.first,
    started: isoWithOffset(started),
    stopped: isoWithOffset(stopped),
    device_time: isoWithOffset(pageInstant(now.getTime())),
  };
  if (run.between) fields.between_holes = true;
  run.entry = command("record_stroke", fields).id;
  // the next stroke is someone else's, of its own kind: choose again
  state.next = null;
  state.kind = "other";
  state.between = false;
  if (navigator.vibrate) navigator.vibrate(40);
  redraw.panel();
}

function cancelRun() {
  if (!state.run || state.run.stopped) return;
  state.run = null;
  redraw.panel();
}

/** Update the countdown: seconds left, red at the limit, seconds over after it. */
export function tick() {
  tickSearch();
  const run = state.run;
  const box = $("countdown");
  const key = run && run.stopped ? run.kind : state.kind;
  const allowed = allowance(key);
  if (!run) {
    $("secs").textContent = allowed === null ? "–" : String(allowed);
    $("secs-unit").textContent = t("clock.left");
    $("secs-of").textContent = t("clock.of", { n: allowed, elapsed: seconds(0) });
    box.className = "countdown idle";
    return;
  }
  const end = run.stopped || new Date();
  const elapsed = (end.getTime() - run.started.getTime()) / 1000;
  const left = allowed - elapsed;
  const over = left < 0 || (left === 0 && run.stopped === null);
  $("secs").textContent = over ? `+${Math.floor(-left)}` : String(Math.ceil(left));
  $("secs-unit").textContent = over ? t("clock.over") : t("clock.left");
  $("secs-of").textContent = t("clock.of", {
    n: allowed,
    elapsed: seconds(Math.floor(elapsed * 10) / 10),
  });
  const cls = ["countdown", run.stopped ? "stopped" : "running"];
  if (over) cls.push("over");
  else if (left <= 10) cls.push("near");
  box.className = cls.join(" ");
  if (over && !run.stopped && !run.buzzed) {
    run.buzzed = true;
    if (navigator.vibrate) navigator.vibrate([400, 100, 400]);
    announce(t("clock.expired", { player: run.player, n: allowed }));
  }
}

function renderResult() {
  const box = $("result");
  const run = state.run;
  const entry = run && run.entry && outbox.entries.find((e) => e.id === run.entry);
  if (!entry) {
    box.hidden = true;
    box.dataset.sig = "";
    box.replaceChildren();
    return;
  }
  const p = entry.payload;
  const ack = entry.ack || {};
  // the fault as it stands now: the player may have been told of it since
  const fault = penaltyRow(state.snapshot, p.group, p.player).faults.find((x) => x.id === p.id);
  const telling = pendingFor("notify_player", (x) => x.fault === p.id);
  const sig = [entry.id, entry.state, entry.error, ack, fault, telling];
  const v = ack.verdict;
  const o = ack.outcome;
  let cls = `result st-${entry.state}`;
  if (entry.state === "confirmed" && v) cls += v.bad_time ? " bad" : " ok";
  box.className = cls;
  box.dataset.state = entry.state;
  box.dataset.bad = v ? String(Boolean(v.bad_time)) : "";
  box.hidden = false;
  paint(box, sig, () => {
    const duration = seconds((Date.parse(p.stopped) - Date.parse(p.started)) / 1000);
    if (entry.state === "refused") {
      const vars = { player: p.player, message: entry.error };
      return [el("p", { class: "error" }, t("clock.result.refused", vars))];
    }
    if (entry.state !== "confirmed") {
      return [el("p", {}, t("clock.result.waiting", { player: p.player, duration }))];
    }
    if (!v) return [el("p", { class: "verdict" }, `${p.player}: ${duration} s`)];
    const vars = { duration: seconds(v.duration_s), allowed: seconds(v.allowed_s) };
    if (v.bad_time && run.told !== entry.id) {
      run.told = entry.id; // once per stroke, not at every redraw
      announce(`${p.player}: ${t("clock.verdict.bad", vars)}`);
    }
    const parts = [
      el(
        "p",
        { class: "verdict" },
        `${p.player}: `,
        t(v.bad_time ? "clock.verdict.bad" : "clock.verdict.ok", vars),
      ),
    ];
    if (o) {
      const what = o.counted ? "counted" : "uncounted";
      parts.push(el("p", { class: `outcome ${what}` }, outcomeText(o)));
      if (o.counted && (fault ? fault.awaiting_notification : true)) {
        parts.push(
          el("p", { class: "hint" }, t("clock.tell_now")),
          notifyButton(p.group, p.player, p.id),
        );
      }
    }
    return parts;
  });
}

/** START/STOP, cancel, the hole and "between holes". */
export function setupClock() {
  $("startstop").addEventListener("click", startStop);
  $("cancel-run").addEventListener("click", cancelRun);
  $("hole").addEventListener("change", (ev) => {
    state.hole = { group: state.group, hole: Number(ev.target.value) };
    renderKinds();
    tick();
  });
  $("between").addEventListener("change", (ev) => {
    state.between = ev.target.checked;
    renderKinds();
    tick();
  });
}
