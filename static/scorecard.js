// The scorer's page (phone first): one group's card at a time. Choose the group, then a
// hole: each ball (player, or side in one-ball formats) gets its strokes with − and +, or
// "no score"; "Record hole N" queues one command per ball in the outbox of queue.js (each
// with its own id, kept on the device, sent in order when connected), the same outbox as the
// marshal's. A score already recorded is corrected (correct_score) or removed (void_event),
// never written twice. The card shows every ball's strokes and the penalties the pace side
// counted (timed strokes, checkpoints): they arrive from the referees' judgement, nobody
// types them in.
//
// Where the round takes the groups' own reports (docs/status.md, "Groups' reports"), the
// moment the last ball's score of a hole is entered queues group_completed with the device's
// instant (the same outbox: with no signal it waits and goes later with that instant), and
// "We've finished hole N" reports a hole before its scores. "Our pace" shows the group its own
// pace as facts: when the hole in play is due, minutes over or under, the gap to the group ahead.
//
// Where the round allows positions (issue 48), the page asks once whether the group shares
// its phone's position, and then sends it (positions.js; docs/positions.md).
import {
  clock,
  connect,
  connectionAtStart,
  deviceId,
  el,
  entryItem,
  errorLine,
  errorText,
  isoWithOffset,
  keepOffline,
  load,
  loaded,
  rememberLanguage,
  removeButton,
  request,
  save,
  showConnection,
  t,
  tn,
  uuid4,
} from "./common.js";
import { penaltyText, scoringLabel, toPar } from "./cards.js";
import { PositionSharer } from "./positions.js";
import { Outbox } from "./queue.js";
import { metres } from "./places.js";

const app = document.getElementById("app");
const ROUND = app.dataset.round;
const KEYS = {
  outbox: `pace.scores.${ROUND}`,
  snapshot: `pace.scorer.${ROUND}`,
  group: `pace.scorer.group.${ROUND}`,
  card: (group) => `pace.card.${ROUND}.${group}`,
  pace: (group) => `pace.ownpace.${ROUND}.${group}`,
};
const PACE_EVERY_MS = 30000;
const MIN = 1;
const MAX = 20;

const state = {
  snapshot: load(KEYS.snapshot, null),
  group: load(KEYS.group, ""),
  card: null,
  hole: null,
  draft: {}, // ball -> {strokes, conceded}
  touched: false, // the draft was changed by hand (a card arriving must not undo that)
  online: connectionAtStart(),
  note: "",
};
state.card = state.group ? load(KEYS.card(state.group), null) : null;
state.pace = state.group ? load(KEYS.pace(state.group), null) : null;
let reportsConfirmed = -1;
const outbox = new Outbox(KEYS.outbox, () => {
  // a report the server took: read the group's own pace again
  const n = outbox.entries.filter((e) => e.kind === "group_completed" && e.state === "confirmed").length;
  if (reportsConfirmed >= 0 && n !== reportsConfirmed) loadPace();
  reportsConfirmed = n;
  renderAll();
});

// the group's position, where the round allows it (positions.js): its own outbox, so a
// position waiting never holds up a score, and the list of my entries stays the scores'
const sharer = new PositionSharer(ROUND, {
  changed: () => renderShare(),
  online: () => state.online,
});

const $ = (id) => document.getElementById(id);
const tz = () => (state.snapshot && state.snapshot.timezone) || undefined;
const groupInfo = () =>
  state.snapshot && state.snapshot.groups.find((g) => g.group === state.group);
const holeInfo = (n) =>
  state.snapshot && state.snapshot.course.holes.find((h) => h.number === n);
const isMatch = () => state.snapshot && state.snapshot.scoring.scoring === "match";
const shownStrokes = (s) => (s === null || s === undefined ? t("scorecard.no_score_short") : String(s));

// -- what a ball's hole says now: the card from the server, then this device's entries ---------

function effective(ball, hole) {
  const stored = state.card && state.card.scores[ball] && state.card.scores[ball][String(hole)];
  let rec = stored ? { id: stored.id, strokes: stored.strokes, conceded: stored.conceded } : null;
  const since = (state.card && state.card.seq) || 0;
  for (const e of outbox.entries) {
    if (e.state === "refused" || e.group !== state.group) continue;
    if (e.state === "confirmed" && (e.seq || 0) <= since) continue; // already in the card
    if (e.kind === "record_score" && e.ball === ball && e.hole === hole) {
      rec = { id: e.id, strokes: e.payload.strokes, conceded: e.payload.conceded, pending: true };
    } else if (e.kind === "correct_score" && rec && rec.id === e.payload.target) {
      rec = { ...rec, strokes: e.payload.strokes, conceded: e.payload.conceded, pending: true };
    } else if (e.kind === "void_event" && rec && rec.id === e.payload.target) {
      rec = null;
    }
  }
  return rec;
}

function penaltyOn(ball, hole) {
  if (!state.card) return 0;
  for (const entry of state.card.entries) {
    const line = entry.holes && entry.holes.find((h) => h.hole === hole);
    if (!line) continue;
    if (line.penalty_by && ball in line.penalty_by) return line.penalty_by[ball];
    if (entry.players.includes(ball) || entry.entry === ball) return line.penalty_strokes || 0;
  }
  return 0;
}

// -- commands ---------------------------------------------------------------------------------

function openHole(hole) {
  const info = groupInfo();
  if (!info) return;
  state.hole = hole;
  state.note = "";
  state.touched = false;
  state.draft = {};
  for (const b of info.balls) {
    const cur = effective(b.ball, hole);
    state.draft[b.ball] = cur
      ? { strokes: cur.strokes, conceded: Boolean(cur.conceded) }
      : { strokes: ballPar(b, hole), conceded: false };
  }
  renderHole();
  renderStrip();
}

function recordHole() {
  const info = groupInfo();
  const hole = state.hole;
  if (!info || hole === null) return;
  let sent = 0;
  for (const b of info.balls) {
    const d = state.draft[b.ball];
    const cur = effective(b.ball, hole);
    const extra = { group: state.group, ball: b.ball, hole };
    const base = { id: uuid4(), round: ROUND, device_time: isoWithOffset() };
    if (!cur) {
      outbox.add("record_score", { ...base, group: state.group, player: b.player, hole,
        strokes: d.strokes, conceded: d.conceded }, extra);
      sent += 1;
    } else if (cur.strokes !== d.strokes || Boolean(cur.conceded) !== d.conceded) {
      outbox.add("correct_score", { ...base, target: cur.id, strokes: d.strokes,
        conceded: d.conceded, reason: t("scorecard.reason_correct") }, extra);
      sent += 1;
    }
  }
  if (!sent) {
    state.note = t("scorecard.unchanged", { hole });
    renderHole();
    return;
  }
  // the last ball's score of the hole: the group's report that it holed out (issue 39), unless
  // a later hole is known already (the card caught up afterwards: nothing to report)
  if (takesReports() && complete(hole) && !reported(hole) && !laterKnown(hole)) reportHole(hole);
  if (navigator.vibrate) navigator.vibrate(30);
  const next = nextHole(hole);
  if (next !== null) openHole(next);
  else renderAll();
}

// -- the group's own reports (issue 39) ----------------------------------------------------------

function takesReports() {
  const s = state.snapshot;
  return Boolean(s && (s.completions === "officials_and_groups" || s.completions === "groups"));
}

// the group reported `hole` itself (the server knows it, or it is on its way); `known` adds the
// holes an official logged: the button offers the first hole neither says is finished
function reported(hole) {
  const p = state.pace;
  if (p && p.group === state.group && p.reported.includes(hole)) return true;
  return outbox.entries.some(
    (e) => e.kind === "group_completed" && e.group === state.group && e.hole === hole &&
      e.state !== "refused",
  );
}

function reportHole(hole) {
  const now = isoWithOffset(); // the device's instant: the server corrects its clock
  outbox.add(
    "group_completed",
    { id: uuid4(), round: ROUND, group: state.group, hole, at: now, device_time: now },
    { group: state.group, hole },
  );
}

function known(hole) {
  const p = state.pace;
  return reported(hole) || Boolean(p && p.group === state.group && String(hole) in p.holes);
}

function laterKnown(hole) {
  const order = groupInfo().order;
  return order.slice(order.indexOf(hole) + 1).some((h) => known(h));
}

function nextToReport() {
  const info = groupInfo();
  if (!info) return null;
  // the hole after the furthest one known finished (a hole before it left unknown is implied)
  let last = -1;
  info.order.forEach((h, i) => {
    if (known(h)) last = i;
  });
  return last + 1 < info.order.length ? info.order[last + 1] : null;
}

function finishedHole() {
  const hole = nextToReport();
  if (hole === null || !takesReports()) return;
  reportHole(hole);
  if (navigator.vibrate) navigator.vibrate(30);
  renderAll();
}

function removeScore(ball) {
  const cur = effective(ball, state.hole);
  if (!cur) return;
  outbox.add(
    "void_event",
    { id: uuid4(), round: ROUND, target: cur.id, reason: t("scorecard.reason_remove") },
    { group: state.group, ball, hole: state.hole },
  );
  openHole(state.hole);
}

function nextHole(hole) {
  const order = groupInfo().order;
  const i = order.indexOf(hole);
  const later = [...order.slice(i + 1), ...order.slice(0, i)];
  return later.find((h) => !complete(h)) ?? null;
}

function complete(hole) {
  return groupInfo().balls.every((b) => effective(b.ball, hole));
}

// -- data from the server ---------------------------------------------------------------------

function loadCard() {
  if (!state.group || !state.online) return;
  const group = state.group;
  const url = `/api/rounds/${encodeURIComponent(ROUND)}/cards/${encodeURIComponent(group)}`;
  fetch(url, { credentials: "same-origin", cache: "no-store" })
    .then((r) => r.json())
    .then((answer) => {
      if (group !== state.group) return;
      if (!answer || !answer.ok) {
        $("standing").replaceChildren(el("li", {}, errorLine(errorText(answer))));
        return;
      }
      state.card = answer.card;
      save(KEYS.card(group), answer.card);
      // the hole shown starts from what the card says now, unless the scorer is changing it
      if (state.hole !== null && !state.touched) openHole(state.hole);
      renderAll();
    })
    .catch(() => undefined);
}

function loadPace() {
  if (!state.group || !state.online) return;
  const group = state.group;
  const url = `/api/rounds/${encodeURIComponent(ROUND)}/cards/${encodeURIComponent(group)}/pace`;
  // the device names the phone: the group's place is told to the phone sharing it only
  const headers = { "X-Pace-Device": deviceId() };
  fetch(url, { credentials: "same-origin", cache: "no-store", headers })
    .then((r) => r.json())
    .then((answer) => {
      if (group !== state.group || !answer || !answer.ok) return;
      state.pace = answer.pace;
      save(KEYS.pace(group), answer.pace);
      // the phone sharing positions keeps a fix more often once the hole is due (issue 48)
      sharer.setDue(group, answer.pace.due);
      renderPace();
    })
    .catch(() => undefined);
}

function join(socket) {
  request(socket, "join_scores", { round: ROUND })
    .then((ack) => {
      if (!ack || !ack.ok) {
        $("standing").replaceChildren(errorLine((ack && ack.error && ack.error.message) || "?"));
        loaded();
        return;
      }
      state.snapshot = ack.snapshot;
      save(KEYS.snapshot, ack.snapshot);
      renderGroups();
      loadCard();
      loadPace();
      sharer.setGroup(state.group, positionsAllowed());
      renderAll();
      outbox.drain();
      sharer.outbox.drain();
    })
    .catch(() => undefined);
}

function start() {
  outbox.socket = connect({
    onConnect: join,
    onStatus: (online) => {
      state.online = online;
      renderBar();
    },
  });
  sharer.outbox.socket = outbox.socket;
  outbox.socket.on("card_changed", (msg) => {
    if (msg && msg.round === ROUND && msg.group === state.group) {
      loadCard();
      loadPace();
    }
  });
  // the group is asked to enter a hole (a round with no marshal, issue 46): its own pace
  // carries the prompt
  outbox.socket.on("report_asked", (msg) => {
    if (msg && msg.round === ROUND && msg.group === state.group) loadPace();
  });
  setInterval(() => {
    outbox.drain();
    sharer.outbox.drain();
    renderBar();
  }, 5000);
  setInterval(loadPace, PACE_EVERY_MS);
}

function chooseGroup(group) {
  state.group = group;
  save(KEYS.group, group);
  state.card = group ? load(KEYS.card(group), null) : null;
  state.pace = group ? load(KEYS.pace(group), null) : null;
  state.hole = null;
  loadCard();
  loadPace();
  sharer.setGroup(group, positionsAllowed());
  if (state.pace) sharer.setDue(group, state.pace.due);
  const info = groupInfo();
  if (info) openHole(info.order.find((h) => !complete(h)) ?? info.order[0]);
  renderAll();
}

// -- rendering --------------------------------------------------------------------------------

function renderBar() {
  showConnection($("conn"), state.online);
  $("offline-note").hidden = state.online !== false;
  const pending = outbox.pending();
  const box = $("pending");
  box.dataset.count = String(pending.length);
  box.className = `pending ${pending.length ? "waiting" : "clear"}`;
  if (!pending.length) {
    box.textContent = t("scorecard.pending_none");
  } else {
    const oldest = pending[0];
    box.textContent = t("scorecard.pending", {
      count: pending.length,
      time: clock(new Date(oldest.created), tz(), { seconds: true }),
    });
  }
}

function renderGroups() {
  const s = state.snapshot;
  if (!s) return;
  $("scoring").textContent = scoringLabel(s.scoring.scoring, s.scoring.net, s.scoring.format);
  const select = $("group");
  select.replaceChildren(
    el("option", { value: "" }, t("scorecard.choose_group")),
    ...s.groups.map((g) =>
      el(
        "option",
        { value: g.group, selected: g.group === state.group },
        t("scorecard.group_option", {
          group: g.group,
          time: clock(g.start, tz()),
          players: g.players.join(", "),
        }),
      ),
    ),
  );
}

function renderStrip() {
  const info = groupInfo();
  if (!info) {
    $("holes").replaceChildren();
    return;
  }
  $("holes").replaceChildren(
    ...info.order.map((h) =>
      el(
        "button",
        {
          type: "button",
          class: `hole-chip${complete(h) ? " done" : ""}`,
          "aria-current": h === state.hole ? "true" : null,
          dataset: { hole: String(h) },
          onclick: () => openHole(h),
        },
        String(h),
      ),
    ),
  );
}

function renderHole() {
  const panel = $("hole-panel");
  const info = groupInfo();
  if (!info || state.hole === null) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const hole = holeInfo(state.hole);
  $("hole-title").textContent =
    t("scorecard.hole_title", { hole: hole.number, par: hole.par }) +
    (hole.stroke_index ? ` · ${t("scorecard.stroke_index", { si: hole.stroke_index })}` : "");
  $("balls").replaceChildren(...info.balls.map((b) => ballRow(b)));
  $("hole-note").textContent = state.note;
  $("save-hole").textContent = t("scorecard.record", { hole: hole.number });
}

// a ball's par on a hole: the par from its own tees (issue 38), else the course's
function ballPar(b, hole) {
  return b.pars && b.pars[String(hole)] ? b.pars[String(hole)] : holeInfo(hole).par;
}

// a ball's tees beside its name, and its own par where the tees change the hole's
function ballTees(b, hole) {
  if (!b.tees) return null;
  const par = ballPar(b, hole);
  const own = par !== holeInfo(hole).par ? ` · ${t("scorecard.col.par")} ${par}` : "";
  return el("span", { class: "ball-tees" }, ` (${b.tees}${own})`);
}

function ballRow(b) {
  const d = state.draft[b.ball];
  const name = b.ball;
  const change = (delta) => {
    const from = d.strokes === null ? ballPar(b, state.hole) : d.strokes;
    d.strokes = Math.min(MAX, Math.max(MIN, from + delta));
    state.touched = true;
    state.note = "";
    renderHole();
  };
  const cur = effective(b.ball, state.hole);
  const row = el(
    "div",
    { class: "ball", dataset: { ball: b.ball } },
    el("span", { class: "ball-name" }, name, ballTees(b, state.hole)),
    el(
      "div",
      { class: "stepper" },
      el("button", { type: "button", class: "step-less", "aria-label": t("scorecard.less", { name }),
        onclick: () => change(-1) }, "−"),
      el(
        "output",
        { class: `ball-strokes${d.strokes === null ? " none" : ""}`, "aria-label":
          t("scorecard.strokes_of", { name }) },
        shownStrokes(d.strokes),
      ),
      el("button", { type: "button", class: "step-more", "aria-label": t("scorecard.more", { name }),
        onclick: () => change(1) }, "+"),
    ),
    el(
      "label",
      { class: "no-score" },
      el("input", {
        type: "checkbox",
        checked: d.strokes === null,
        onchange: (ev) => {
          d.strokes = ev.target.checked ? null : ballPar(b, state.hole);
          state.touched = true;
          renderHole();
        },
      }),
      t("scorecard.no_score"),
    ),
  );
  if (isMatch()) {
    row.append(
      el(
        "label",
        { class: "conceded" },
        el("input", {
          type: "checkbox",
          checked: d.conceded,
          onchange: (ev) => {
            d.conceded = ev.target.checked;
            state.touched = true;
          },
        }),
        t("scorecard.conceded"),
      ),
    );
  }
  if (cur) {
    row.append(
      el("button", { type: "button", class: "remove-score", onclick: () => removeScore(b.ball) },
        t("scorecard.remove")),
    );
  }
  return row;
}

function renderCard() {
  const info = groupInfo();
  const table = $("card");
  if (!info || !state.snapshot) {
    table.replaceChildren();
    return;
  }
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, t("scorecard.col.hole")),
    el("th", { scope: "col" }, t("scorecard.col.par")),
    ...info.balls.map((b) => el("th", { scope: "col", class: "ball-col",
      title: b.tees ? `${b.ball} (${b.tees})` : b.ball }, b.ball)),
  );
  const totals = Object.fromEntries(info.balls.map((b) => [b.ball, 0]));
  const rows = state.snapshot.course.holes.map((h) =>
    el(
      "tr",
      {
        class: `card-row${h.number === state.hole ? " current" : ""}`,
        dataset: { hole: String(h.number) },
        onclick: () => openHole(h.number),
      },
      el("th", { scope: "row" }, String(h.number)),
      el("td", { class: "par" }, String(h.par)),
      ...info.balls.map((b) => {
        const cur = effective(b.ball, h.number);
        const pen = penaltyOn(b.ball, h.number);
        if (cur && cur.strokes !== null) totals[b.ball] += cur.strokes + pen;
        return el(
          "td",
          {
            class: `score${cur && cur.pending ? " pending" : ""}${pen ? " penalised" : ""}`,
            dataset: { ball: b.ball, hole: String(h.number) },
            title: cur && cur.pending ? t("scorecard.pending_cell") : null,
          },
          cur ? shownStrokes(cur.strokes) : "",
          pen ? el("sup", { class: "pen" }, `+${pen}`) : null,
          cur && cur.conceded ? el("sup", { class: "conc" }, "C") : null,
        );
      }),
    ),
  );
  const total = el(
    "tr",
    { class: "card-total" },
    el("th", { scope: "row", colspan: "2" }, t("scorecard.total")),
    ...info.balls.map((b) => el("td", { dataset: { ball: b.ball } }, String(totals[b.ball]))),
  );
  table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows, total));
}

function renderStanding() {
  const box = $("standing");
  const card = state.card;
  if (!groupInfo()) {
    box.replaceChildren();
    return;
  }
  if (!card) {
    box.replaceChildren(el("li", { class: "hint" }, t("scorecard.no_card")));
    return;
  }
  const items = card.entries.map((e) => {
    const score = card.scoring === "stroke" ? toPar(e.to_par) : "";
    const parts = [e.result, score].filter(Boolean).join(" · ");
    return el(
      "li",
      { dataset: { entry: e.entry, state: e.state } },
      el("strong", {}, e.entry),
      " ",
      el("span", { class: "standing-score" }, parts),
      e.position ? el("span", { class: "hint" }, ` #${e.position}`) : null,
      e.reason ? el("p", { class: "error" }, t("leaderboard.dq_reason", { reason: e.reason })) : null,
    );
  });
  for (const m of card.matches) {
    items.push(
      el("li", { dataset: { match: m.match } },
        t("leaderboard.vs", { a: m.sides[0].entry, b: m.sides[1].entry }), " · ",
        el("strong", {}, m.result)),
    );
  }
  box.replaceChildren(...items);
  const pens = card.penalties.map((p) =>
    el("li", { class: "pen-line", dataset: { player: p.player, hole: String(p.hole) } },
      penaltyText(p)),
  );
  $("penalties").replaceChildren(
    ...(pens.length ? pens : [el("li", { class: "hint" }, t("scorecard.no_penalties"))]),
  );
}

/** Where the group stands on its hole, from its own phone's positions (issue 48): facts. */
function placeFacts(place) {
  const hole = place.hole;
  const where = place.phase === "green" ? t("scorecard.place_on_green", { hole })
    : place.phase === "tee" ? t("scorecard.place_on_tee", { hole })
      : place.phase === "walking" ? t("scorecard.place_walking", { hole })
        : t("scorecard.place_to_green", { hole, metres: metres(place.to_green_m) });
  if (place.stale) {
    const minutes = Math.round(place.age_s / 60);
    return [el("li", { class: "stale", dataset: { fact: "place" } },
      `${t("scorecard.place_last_seen", { minutes })} · ${where}`)];
  }
  const out = [el("li", { dataset: { fact: "place" } }, where)];
  if (place.behind_m !== null && place.behind_m !== undefined)
    out.push(el("li", { dataset: { fact: "behind" } },
      t("scorecard.place_behind", { metres: metres(place.behind_m) })));
  return out;
}

function renderPace() {
  const box = $("own-pace");
  const info = groupInfo();
  box.hidden = !info;
  if (!info) return;
  const p = state.pace && state.pace.group === state.group ? state.pace : null;
  const facts = [];
  if (!p) {
    facts.push(el("li", { class: "hint" }, t("scorecard.pace_none")));
  } else {
    if (p.finished) facts.push(el("li", { dataset: { fact: "finished" } }, t("scorecard.pace_finished")));
    else if (p.hole !== null && p.due)
      facts.push(el("li", { dataset: { fact: "due" } },
        t("scorecard.pace_due", { hole: p.hole, time: clock(p.due, tz()) })));
    if (p.over_min !== null && p.over_min !== undefined) {
      const m = Math.round(Math.abs(p.over_min));
      const key = m === 0 ? "scorecard.pace_on_time" : p.over_min > 0 ? "scorecard.pace_over" : "scorecard.pace_under";
      facts.push(el("li", { dataset: { fact: "over" } }, t(key, { minutes: m })));
    } else if (!Object.keys(p.holes).length) {
      facts.push(el("li", { class: "hint" }, t("scorecard.pace_none")));
    }
    if (Object.keys(p.holes).length)
      facts.push(el("li", { dataset: { fact: "gap" } },
        p.gap_min === null || p.gap_min === undefined
          ? t("scorecard.pace_no_gap")
          : t("scorecard.pace_gap", { minutes: Math.round(Math.max(0, p.gap_min)) })));
    if (p.place && !p.finished) facts.push(...placeFacts(p.place)); // issue 48
    if (p.reported.length)
      facts.push(el("li", { class: "hint", dataset: { fact: "reported" } },
        t("scorecard.pace_reported", { holes: p.reported.join(", ") })));
    // a round with no marshal asks the scorer about a hole left unreported (issue 46): the
    // hole in play, until the page knows it is entered
    for (const hole of (takesReports() && p.asked) || []) {
      if (!known(hole))
        facts.push(el("li", { class: "asked", dataset: { fact: "asked", hole: String(hole) } },
          t("scorecard.pace_asked", { hole })));
    }
    facts.push(el("li", { class: "hint" }, t("scorecard.pace_at", { time: clock(p.at, tz()) })));
  }
  $("pace-facts").replaceChildren(...facts);
  const button = $("finished-hole");
  const next = takesReports() ? nextToReport() : null;
  button.hidden = next === null;
  if (next !== null) button.textContent = t("scorecard.finished_hole", { hole: next });
}

// -- the group's position (issue 48) ----------------------------------------------------------

// the round takes positions, and this session is a scorer's: its phone is its group's (a
// referee or the committee opening the page is not asked)
function positionsAllowed() {
  return Boolean(state.snapshot && state.snapshot.positions) && app.dataset.shares === "yes";
}

// what the page can tell of why no position is read: the browser's refusal or none to give
const NOT_READING = new Set(["denied", "insecure", "no_api"]);

function renderShare() {
  const view = sharer.view();
  const box = $("share");
  box.hidden = !view;
  if (!view) return;
  const blocked = sharer.blocked();
  const problem = blocked || sharer.problem;
  $("share-ask").hidden = view !== "ask";
  $("share-question").textContent = t("scorecard.share.ask", { group: state.group });
  $("share-yes").hidden = Boolean(blocked);
  $("share-on").hidden = view !== "on";
  $("share-off").hidden = view !== "off";
  $("share-again").hidden = Boolean(blocked);
  const reading = view === "on" && !NOT_READING.has(problem);
  $("share-state").hidden = !reading;
  const status = [];
  if (reading) {
    status.push(sharer.lastAt
      ? t("scorecard.share.last", { time: clock(sharer.lastAt, tz(), { seconds: true }) })
      : t("scorecard.share.waiting"));
    const waiting = sharer.waiting();
    if (waiting) status.push(tn("scorecard.share.queued", waiting));
  }
  $("share-status").textContent = status.join(" · ");
  $("share-awake").hidden = !reading || !sharer.canKeepAwake();
  $("keep-awake").checked = sharer.awake;
  box.dataset.awake = sharer.lock ? "held" : "off"; // the screen kept awake, or not
  box.dataset.view = view;
  let said = "";
  if (problem && (view !== "off" || blocked || problem === "denied"))
    said = t(`scorecard.share.${problem}`);
  else if (view === "off" && sharer.refusal)
    said = t("scorecard.share.refused", { reason: sharer.refusal });
  else if (reading && sharer.awake && sharer.awakeFailed) said = t("scorecard.share.awake_failed");
  $("share-problem").textContent = said;
  $("share-problem").hidden = !said;
}

function entryLabel(e) {
  const strokes = e.kind === "void_event" ? "" : shownStrokes(e.payload.strokes);
  return t(`scorecard.kind.${e.kind}`, { name: e.ball || "?", hole: e.hole, strokes });
}

function renderEntries() {
  const list = $("entries");
  const entries = outbox.entries.slice().reverse().slice(0, 30);
  if (!entries.length) {
    list.replaceChildren(el("li", { class: "hint" }, t("scorecard.no_entries")));
    return;
  }
  list.replaceChildren(
    ...entries.map((e) => {
      const item = entryItem(e, entryLabel(e), clock(new Date(e.created), tz(), { seconds: true }));
      if (e.state === "queued" || e.state === "refused") {
        item.append(el("div", { class: "actions" }, removeButton(() => outbox.remove(e))));
      }
      return item;
    }),
  );
}

function renderAll() {
  renderBar();
  renderStrip();
  renderHole();
  renderCard();
  renderStanding();
  renderEntries();
  renderPace();
  renderShare();
  if (state.snapshot) loaded(); // the groups and the card are drawn: show the page
}

rememberLanguage();
$("group").addEventListener("change", (ev) => chooseGroup(ev.target.value));
$("save-hole").addEventListener("click", recordHole);
$("finished-hole").addEventListener("click", finishedHole);
$("share-yes").addEventListener("click", () => sharer.consent());
$("share-again").addEventListener("click", () => sharer.ask());
$("share-no").addEventListener("click", () => sharer.decline());
$("share-stop").addEventListener("click", () => sharer.stop());
$("keep-awake").addEventListener("change", (ev) => sharer.setAwake(ev.target.checked));
renderGroups();
sharer.setGroup(state.group, positionsAllowed()); // a reload: as chosen before, even offline
if (groupInfo()) openHole(groupInfo().order.find((h) => !complete(h)) ?? groupInfo().order[0]);
renderAll();
start();
keepOffline(() => {
  app.dataset.offline = "ready"; // the page opens again with no signal
});
