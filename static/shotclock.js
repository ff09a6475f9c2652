// The referee's shot clock (phone first, docs/rules.md §4–§6): choose the group, decide to time
// it or not, tell each player, time each stroke with one tap to start and one to stop,
// see the verdict and the penalty the server judged, tell players of their bad times,
// grant a time credit, stop timing when the group is back in position; and a lost-ball
// search timer. Every command goes through an outbox (queue.js): it keeps its own id,
// survives a closed page and is sent again, same id, until the server answers.
import {
  clock,
  connect,
  deviceNow,
  el,
  entryItem,
  errorLine,
  isoWithOffset,
  joinRound,
  load,
  pageInstant,
  rememberLanguage,
  removeButton,
  save,
  showConnection,
  statusBadge,
  t,
  tn,
  uuid4,
} from "./common.js";
import {
  deltaFeed,
  follow,
  mergePenalties,
  onClock,
  timingOf,
  toldCount,
  upsertGroup,
} from "./live.js";
import { faultItem, ladderText, outcomeText, penaltyRow, seconds } from "./penalties.js";
import { Outbox } from "./queue.js";

const app = document.getElementById("app");
const ROUND = app.dataset.round;
const KEYS = {
  outbox: `pace.shotclock.queue.${ROUND}`,
  group: `pace.shotclock.group.${ROUND}`,
  name: "pace.name",
};
const REASONS = ["ruling", "lost_ball", "unplayable_ball", "other"];
// One tap chooses the kind of stroke and whether the player is the first to play: the
// three kinds that earn the first to play the extra seconds, and everything else.
const KINDS = [
  { key: "par3_tee", kind: "par3_tee", first: true },
  { key: "approach", kind: "approach", first: true },
  { key: "chip_putt", kind: "chip_putt", first: true },
  { key: "other", kind: "other", first: false },
];
const POLICY_DEFAULTS = { ball_search_s: 180 };
const URGENCY = ["out_of_position", "overdue", "behind", "on_pace", "not_started", "finished"];
const TICK_MS = 100;
const DEBOUNCE_MS = 700; // a second tap this soon after START or STOP is a bounce

// The answers of the commands sent, by id, caught on their way to the outbox (see `catching`).
const answers = new Map();

// What the page last heard of each group's timing, counted: a delta (timing_changed) or a
// snapshot. An ack's timing is applied only when nothing newer was heard since its command was
// sent (the round's delta usually comes before the ack, and another referee's may follow it).
const heard = { count: 0, snapshot: 0, groups: new Map() };
const heardSince = (group, mark) =>
  Math.max(heard.snapshot, heard.groups.get(group) || 0) > mark;

/** The outbox of queue.js, keeping each answer: a timed stroke's ack carries its verdict. */
class RefereeOutbox extends Outbox {
  async send(entry) {
    const mark = heard.count;
    const went = await super.send(entry);
    const ack = answers.get(entry.id);
    answers.delete(entry.id);
    if (entry.state === "confirmed" && ack) {
      entry.ack = ack;
      confirmed(entry, mark);
      this.update();
    } else if (entry.state === "refused" && entry.code === "not_timed") {
      // the server holds no spell where this page saw one: what it holds is stale, read it
      // again, once
      if (liveSocket) join(liveSocket);
    }
    return went;
  }
}

/** Wrap `socket` so that the acks of the commands emitted through it are kept in `answers`. */
function catching(socket) {
  return new Proxy(socket, {
    get(target, prop) {
      if (prop === "timeout") {
        return (ms) => {
          const timed = target.timeout(ms);
          return {
            emit(event, payload, callback) {
              timed.emit(event, payload, (err, ack) => {
                if (!err && payload && typeof payload.id === "string") answers.set(payload.id, ack);
                callback(err, ack);
              });
            },
          };
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const state = {
  snapshot: null,
  online: false,
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
const outbox = new RefereeOutbox(KEYS.outbox, () => {
  renderBar();
  renderLog();
  renderPanel();
});

const $ = (id) => document.getElementById(id);
const tz = () => (state.snapshot && state.snapshot.timezone) || undefined;

// -- the round's state ----------------------------------------------------------------------

function policy() {
  return { ...POLICY_DEFAULTS, ...((state.snapshot && state.snapshot.policy_detail) || {}) };
}

/** The seconds allowed for a stroke kind, as the server's rules give them (null before the
 * round's snapshot has arrived). */
function allowance(key) {
  const given = policy().allowances_s || {};
  return key in given ? given[key] : null;
}

function rows() {
  return (state.snapshot && state.snapshot.groups) || [];
}

function rowOf(group) {
  return rows().find((r) => r.group === group) || null;
}


/** The hole the group is playing: the first of its order not logged yet. */
function holeInPlay(row) {
  if (!row) return null;
  const next = row.order.find((h) => !row.holes[String(h)]);
  if (next !== undefined) return next;
  return row.hole || row.order[row.order.length - 1];
}

function currentHole() {
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
function kindsOffered() {
  const par = judgedPar(rowOf(state.group));
  return KINDS.filter((k) => k.key !== "par3_tee" || par === 3);
}

/** Is a command of `kind` for which `test(payload)` holds still waiting for its answer? */
function pendingFor(kind, test = () => true) {
  return outbox
    .pending()
    .some((e) => e.kind === kind && e.payload.round === ROUND && test(e.payload));
}

/**
 * Queue a command. Every command but a timed stroke (which has its start and stop) carries
 * `at`, this device's instant of the act: sent later from the outbox, it still records when
 * the referee acted (the server corrects it with `device_time`, rewritten at each send).
 */
function command(kind, fields) {
  const now = isoWithOffset(deviceNow());
  const when = kind === "record_stroke" ? {} : { at: now, device_time: now };
  return outbox.add(kind, { id: uuid4(), round: ROUND, ...when, ...fields });
}

// -- socket ---------------------------------------------------------------------------------

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
  renderAll();
  deltas.start(snapshot);
}

// the page lives on the round's deltas and its commands' acks; a missed delta (or a reconnect,
// or a stroke refused not_timed): join again, once
let liveSocket = null;
const deltas = deltaFeed(() => liveSocket && join(liveSocket));

function join(socket) {
  joinRound(
    socket,
    { round: ROUND },
    (snapshot) => {
      setSnapshot(snapshot);
      outbox.drain();
    },
    (message) => $("groups").replaceChildren(errorLine(message)),
  );
}

/** Is `alert` an open prompt to stop timing its group, raised since the group is timed? */
function isPrompt(alert) {
  if (!alert || alert.kind !== "stop_timing") return false;
  const timing = timingOf(state.snapshot, alert.group);
  if (!timing.timed) return false;
  return !timing.since || !alert.at || Date.parse(alert.at) >= Date.parse(timing.since);
}

/**
 * A command was confirmed (`mark`: what the page had heard when it was sent): its ack is
 * applied; what else it changed (penalty rows, rows, prompts) comes as the round's deltas.
 */
function confirmed(entry, mark) {
  // an answer that carries the group's timing is applied at once: no second decision (unless
  // a delta or a snapshot told of the group's timing since: it is as new, or newer)
  const group = entry.payload.group;
  if (entry.ack.timing && state.snapshot && !heardSince(group, mark)) {
    state.snapshot.timing[group] = entry.ack.timing;
    if (!entry.ack.timing.timed) state.prompts.delete(group);
  }
  if (entry.kind === "stop_timing") {
    // a stop after the spell ended by itself says the players were told: no reminder
    const spells = (entry.ack.timing && entry.ack.timing.spells) || [];
    const last = spells[spells.length - 1];
    const ended = last && last.ended_by === "back_in_position";
    state.stoppedNote = ended ? null : entry.payload.group;
    state.prompts.delete(entry.payload.group);
  }
  renderGroups();
}

function start() {
  const socket = connect({
    name: load(KEYS.name, null),
    onConnect: join,
    onStatus: (online) => {
      state.online = online;
      renderBar();
    },
  });
  liveSocket = socket;
  outbox.socket = catching(socket);
  follow(socket, ROUND, () => state.snapshot, deltas.wrap({
    group_updated: (msg) => {
      upsertGroup(state.snapshot, msg.group);
      renderGroups();
      if (msg.group.group === state.group) renderPanel();
    },
    timing_changed: (msg) => {
      state.snapshot.timing[msg.group] = msg.timing;
      heard.groups.set(msg.group, ++heard.count);
      if (!msg.timing.timed) state.prompts.delete(msg.group);
      renderGroups();
      renderPanel();
    },
    penalties_changed: (msg) => {
      mergePenalties(state.snapshot, msg);
      renderPanel();
    },
    stop_timing_prompted: (msg) => prompt(msg.group, msg.reason),
    alert_raised: (msg) => isPrompt(msg.alert) && prompt(msg.alert.group, msg.alert.reason),
    alert_resolved: (msg) => {
      const p = msg.payload || {};
      if (p.kind === "stop_timing" && state.prompts.delete(p.group)) {
        renderGroups();
        renderPanel();
      }
    },
    alert_acknowledged: (msg) => {
      const p = msg.payload || {};
      const group = String(p.alert || "").startsWith("stop_timing:") ? p.alert.split(":")[1] : null;
      if (group && state.prompts.delete(group)) {
        renderGroups();
        renderPanel();
      }
    },
    round_changed: (msg) => Object.assign(state.snapshot, msg.parts || {}),
  }));
  setInterval(() => {
    outbox.drain();
    renderBar();
  }, 5000);
  setInterval(tick, TICK_MS);
}

function prompt(group, reason) {
  if (state.prompts.has(group)) return;
  state.prompts.set(group, reason || "back_in_position");
  if (group === state.group && navigator.vibrate) navigator.vibrate([300, 100, 300]);
  renderGroups();
  renderPanel();
}

// -- rendering: bar, groups -------------------------------------------------------------------

function renderAll() {
  renderBar();
  renderGroups();
  renderPanel();
  renderLog();
}

function renderBar() {
  showConnection($("conn"), state.online);
  const count = outbox.pending().length;
  const box = $("pending");
  box.dataset.count = String(count);
  box.className = `pending ${count ? "waiting" : "clear"}`;
  box.textContent = count ? t("clock.pending", { count }) : t("clock.pending_none");
  const p = policy();
  const detail = state.snapshot && state.snapshot.policy_detail;
  $("policy").className = `policy${detail && detail.error ? " error" : ""}`;
  $("policy").textContent = !detail
    ? ""
    : detail.error
      ? t("live.error", { message: detail.error })
      : t("clock.policy", {
          name: p.name,
          allowed: allowance("other"),
          extra: allowance("chip_putt"),
        });
}

function urgency(row) {
  const timed = timingOf(state.snapshot, row.group).timed || state.prompts.has(row.group);
  const i = URGENCY.indexOf(row.status);
  return (timed ? 0 : 10) + (i < 0 ? URGENCY.length : i);
}

/** Only rebuild `node` when what it shows has changed: never swap a button needlessly. */
function paint(node, signature, build) {
  const sig = JSON.stringify(signature);
  if (node.dataset.sig === sig) return;
  node.dataset.sig = sig;
  node.replaceChildren(...build());
}

function renderGroups() {
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
  renderPanel();
  $("panel").scrollIntoView({ block: "start" });
}

// -- rendering: the group panel ----------------------------------------------------------------

function renderPanel() {
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

function renderPlayers(row, timing) {
  const running = Boolean(state.run && !state.run.stopped);
  const list = $("players");
  $("players-hint").hidden = !timing.timed || running;
  const pend = outbox
    .pending()
    .filter((e) => e.payload.group === row.group)
    .map((e) => [e.kind, e.payload.player, e.payload.fault || ""]);
  const pens = row.players.map((p) => penaltyRow(state.snapshot, row.group, p));
  const sig = [row.group, row.players, timing.timed, timing.told, pens, pend, state.next, running];
  paint(list, sig, () =>
    row.players.map((name, i) => playerItem(row, timing, name, pens[i], running)),
  );
}

function playerItem(row, timing, name, pen, running) {
  const told = (timing.told || []).includes(name);
  const isNext = state.next === name;
  const telling = pendingFor(
    "tell_player_timed",
    (p) => p.group === row.group && p.player === name,
  );
  const item = el("li", {
    class: `player${isNext ? " next" : ""}${pen.disqualified ? " dq" : ""}`,
    dataset: { player: name },
  });
  const head = el(
    "div",
    { class: "player-head" },
    el(
      "button",
      {
        type: "button",
        class: "player-pick",
        "aria-pressed": isNext ? "true" : "false",
        disabled: !timing.timed || running || pen.disqualified,
        onclick: () => {
          state.next = state.next === name ? null : name;
          renderPanel();
        },
      },
      el("span", { class: "p-name" }, name),
      isNext ? el("span", { class: "next-badge" }, t("clock.next_badge")) : null,
    ),
  );
  if (timing.timed) {
    head.append(
      told
        ? el("span", { class: "told-tick" }, t("clock.told_timed"))
        : el(
            "button",
            {
              type: "button",
              class: "tell-timed",
              disabled: telling,
              onclick: () => tellTimed(row.group, name),
            },
            telling ? t("clock.sending") : `☐ ${t("clock.tell_timed")}`,
          ),
    );
  }
  item.append(head);
  const ladder = el("div", { class: "ladder" }, el("span", {}, ladderText(pen)));
  if (pen.strokes_total)
    ladder.append(
      el("span", { class: "strokes" }, tn("pen.strokes_total", pen.strokes_total)),
    );
  if (pen.disqualified) ladder.append(el("span", { class: "dq-badge" }, t("pen.disqualified")));
  item.append(ladder);
  if ((pen.faults || []).length) {
    item.append(
      el(
        "ol",
        { class: "faults" },
        ...pen.faults.map((f) => playerFault(row.group, name, f)),
      ),
    );
  }
  return item;
}

function playerFault(group, player, f) {
  const wait = f.counted && f.awaiting_notification;
  return faultItem(
    f,
    wait,
    wait
      ? notifyButton(group, player, f.id)
      : f.counted
        ? el("span", { class: "f-told" }, `✓ ${t("pen.told")}`)
        : null,
  );
}

function notifyButton(group, player, fault) {
  const sending = pendingFor(
    "notify_player",
    (p) => p.group === group && p.player === player && p.fault === fault,
  );
  return el(
    "button",
    {
      type: "button",
      class: "notify",
      disabled: sending,
      dataset: { fault },
      onclick: () => notify(group, player, fault),
    },
    sending ? t("clock.sending") : t("clock.notify"),
  );
}

function tellTimed(group, player) {
  if (pendingFor("tell_player_timed", (p) => p.group === group && p.player === player)) return;
  command("tell_player_timed", { group, player });
}

function notify(group, player, fault) {
  const same = (p) => p.group === group && p.player === player && p.fault === fault;
  if (pendingFor("notify_player", same)) return;
  command("notify_player", { group, player, fault });
}

// -- the shot clock ---------------------------------------------------------------------------

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

function renderClockControls(row, timing) {
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
  renderPanel();
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
  renderPanel();
}

function cancelRun() {
  if (!state.run || state.run.stopped) return;
  state.run = null;
  renderPanel();
}

/** Update the countdown: seconds left, red at the limit, seconds over after it. */
function tick() {
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

// -- lost-ball search --------------------------------------------------------------------------

function mmss(s) {
  const whole = Math.max(0, Math.floor(s));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function tickSearch() {
  const limit = policy().ball_search_s;
  $("search-limit").textContent = t("clock.search_limit", { min: seconds(limit / 60) });
  const s = state.search;
  const box = $("search-time");
  if (!s) {
    box.textContent = mmss(limit);
    box.className = "search-time idle";
  } else {
    const elapsed = ((s.stopped || new Date()).getTime() - s.started.getTime()) / 1000;
    const left = limit - elapsed;
    box.textContent = left > 0 ? mmss(Math.ceil(left)) : `+${mmss(-left)}`;
    box.className = `search-time ${left > 0 ? (left <= 30 ? "near" : "running") : "over"}`;
    box.title = left > 0 ? "" : t("clock.search_over");
    if (left <= 0 && !s.stopped && !s.buzzed) {
      s.buzzed = true;
      if (navigator.vibrate) navigator.vibrate([600, 200, 600]);
    }
  }
  $("search-start").hidden = Boolean(s && !s.stopped);
  $("search-stop").hidden = !(s && !s.stopped);
  $("search-reset").hidden = !(s && s.stopped);
}

function setupSearch() {
  $("search-start").addEventListener("click", () => {
    state.search = { started: new Date(), stopped: null };
    tickSearch();
  });
  $("search-stop").addEventListener("click", () => {
    if (state.search) state.search.stopped = new Date();
    tickSearch();
  });
  $("search-reset").addEventListener("click", () => {
    state.search = null;
    tickSearch();
  });
}

// -- credit, stop timing ------------------------------------------------------------------------

function setupForms() {
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
  $("players-told").addEventListener("click", () => {
    // the spell stopped by itself: this stop records that the players were told
    if (!state.group || pendingFor("stop_timing", (p) => p.group === state.group)) return;
    command("stop_timing", { group: state.group, reason: "back in position: players told" });
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

function renderStop(row, timing) {
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

// -- my actions ----------------------------------------------------------------------------------

function entryLabel(e) {
  const p = e.payload;
  switch (e.kind) {
    case "decide_timing":
      return t(`clock.log.decide_timing.${p.decision}`, {
        group: p.group,
        reason: p.reason ? t(`timing.reason.${p.reason}`) : "",
      });
    case "record_stroke":
      return t("clock.log.record_stroke", {
        player: p.player,
        hole: p.hole,
        duration: seconds((Date.parse(p.stopped) - Date.parse(p.started)) / 1000),
      });
    case "grant_time_credit":
      return t("clock.log.grant_time_credit", p);
    default:
      return t(`clock.log.${e.kind}`, p);
  }
}

function renderLog() {
  const list = $("log");
  const entries = outbox.entries
    .filter((e) => e.payload.round === ROUND)
    .slice()
    .reverse()
    .slice(0, 20);
  if (entries.length === 0) {
    list.replaceChildren(el("li", { class: "hint" }, t("clock.no_log")));
    return;
  }
  list.replaceChildren(
    ...entries.map((e) => {
      const when = e.server_at ? clock(e.server_at, tz(), { seconds: true }) : "";
      const item = entryItem(e, entryLabel(e), when);
      if (e.state === "refused" || e.state === "queued") {
        item.append(el("div", { class: "actions" }, removeButton(() => outbox.remove(e))));
      }
      return item;
    }),
  );
}

rememberLanguage();
setupSearch();
setupForms();
$("groups-box").open = !state.group;
renderAll();
start();
