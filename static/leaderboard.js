// The public leaderboard (no sign-in): positions with ties and countback, overall and per
// class, the score as the round's scoring says (to par, points, holes up), pace penalties
// marked on the card with their reason (hover, or tap the mark), NR and DQ at the bottom.
// It follows the round's leaderboard room: `leaderboard_changed` says only "re-read me", so
// nothing but the leaderboard itself ever reaches this page.
import {
  connect,
  el,
  errorText,
  lang,
  loaded,
  rememberLanguage,
  request,
  showConnection,
  t,
} from "./common.js";
import { penaltyMark, penaltyText, scoringLabel, toPar } from "./cards.js";
import { findRows } from "./find.js";

const app = document.getElementById("app");
const ROUND = app.dataset.round;
const URL = `/api/rounds/${encodeURIComponent(ROUND)}/leaderboard`;
const REFRESH_MS = 60000;

const state = { board: null, seen: "", cls: "", open: new Set(), loading: false, again: false };
const $ = (id) => document.getElementById(id);
// a player's own name or group (issue 47): the entries that match it, kept as the board is redrawn
const find = findRows($("find"), $("lb-body"), {
  rows: "tr.lb-row",
  words: (row) => ({ group: row.dataset.group, names: [row.dataset.entry] }),
  none: $("find-none"),
  follows: "tr.lb-detail",
});

// -- data -------------------------------------------------------------------------------------

function setBoard(board) {
  // A read that brings nothing new (the minute's refresh, the first announcement after the
  // server starts) is not drawn again: a whole table's style and layout on a phone's slow
  // processor, for nothing (docs/performance.md). `at`, the instant of the read, is new at
  // every read and not shown.
  const seen = JSON.stringify({ ...board, at: null });
  if (seen === state.seen) return;
  state.seen = seen;
  state.board = board;
  render();
}

/** Say why there is no leaderboard to show (a round its scoring cannot score, say). */
function refused(answer) {
  const warning = $("warning");
  warning.hidden = false;
  warning.textContent = t("live.error", { message: errorText(answer) });
  state.seen = ""; // the next good read is drawn, and takes the warning away
  loaded();
}

/** Read the leaderboard again; one request at a time, and once more if asked meanwhile. */
function refresh() {
  if (state.loading) {
    state.again = true;
    return;
  }
  state.loading = true;
  fetch(URL, { credentials: "same-origin", cache: "no-store" })
    .then((r) => r.json())
    .then((answer) => (answer && answer.ok ? setBoard(answer.leaderboard) : refused(answer)))
    .catch(() => undefined)
    .finally(() => {
      state.loading = false;
      if (state.again) {
        state.again = false;
        refresh();
      }
    });
}

function start() {
  const socket = connect({
    onConnect: (s) =>
      request(s, "join_leaderboard", { round: ROUND })
        .then((ack) => (ack && ack.ok ? setBoard(ack.leaderboard) : refused(ack)))
        .catch(() => undefined),
    onStatus: (online) => showConnection($("conn"), online),
  });
  socket.on("leaderboard_changed", (msg) => {
    if (msg && msg.round === ROUND) refresh();
  });
  setInterval(refresh, REFRESH_MS);
}

// -- rendering --------------------------------------------------------------------------------

function columns(b) {
  if (b.scoring === "stroke") {
    const cols = ["to_par", "score"];
    if (b.net) cols.push("gross");
    return cols;
  }
  return [b.scoring === "stableford" ? "points" : "result"];
}

const HEADINGS = {
  to_par: "leaderboard.col.to_par",
  score: "leaderboard.col.score",
  gross: "leaderboard.col.gross",
  points: "leaderboard.col.points",
  result: "leaderboard.col.result",
};

function render() {
  const b = state.board;
  loaded();
  $("course-name").textContent = b.course.name;
  $("scoring").textContent = scoringLabel(b.scoring, b.net, b.format);
  app.dataset.final = b.final ? "yes" : "no";
  renderLife(b);
  const warning = $("warning");
  warning.hidden = !b.penalties_error;
  warning.textContent = b.penalties_error
    ? t("leaderboard.penalties_error", { message: b.penalties_error })
    : "";
  renderClasses(b);
  const cols = columns(b);
  $("lb-head").replaceChildren(
    el(
      "tr",
      {},
      el("th", { scope: "col", class: "lb-pos" }, t("leaderboard.col.pos")),
      el("th", { scope: "col", class: "lb-player" }, t("leaderboard.col.player")),
      el("th", { scope: "col", class: "lb-thru" }, t("leaderboard.col.thru")),
      ...cols.map((c) => el("th", { scope: "col", class: `lb-${c}` }, t(HEADINGS[c]))),
    ),
  );
  const shown = b.entries.filter((e) => !state.cls || e.class === state.cls);
  const rows = [];
  for (const e of shown) {
    rows.push(entryRow(e, cols));
    if (state.open.has(e.entry) || e.state === "dq") rows.push(detailRow(e, cols.length + 3));
  }
  if (!rows.length && !b.matches.length) {
    rows.push(el("tr", {}, el("td", { colspan: String(cols.length + 3), class: "hint" },
      t("leaderboard.empty"))));
  }
  $("lb-body").replaceChildren(...rows);
  find();
  $("leaderboard").hidden = !b.entries.length && b.matches.length > 0;
  renderMatches(b);
  renderEvents(b.events || []);
}

// -- the competitions of several rounds this round is a round of: the standings over the
// rounds counted so far (round by round, the total), the cut and who made it

function eventTable(ev) {
  const counted = ev.rounds.slice(0, ev.counted);
  const head = el("tr", {},
    el("th", { scope: "col" }, t("leaderboard.col.pos")),
    el("th", { scope: "col" }, t("leaderboard.col.player")),
    ...counted.map((r) => el("th", { scope: "col", class: "lb-round" }, r)),
    el("th", { scope: "col" }, t("leaderboard.event.total")),
    el("th", { scope: "col" }, t("leaderboard.event.cut")));
  const rows = ev.entries.map((e) => {
    const cut = e.made_cut === true ? t("leaderboard.event.made_cut")
      : e.made_cut === false ? t("leaderboard.event.missed_cut") : "";
    const pos = e.position == null ? "" : e.tied ? t("leaderboard.tied", { position: e.position }) : String(e.position);
    return el("tr", { class: e.made_cut === false ? "event-entry missed-cut" : "event-entry",
                      dataset: { entry: e.entry, cut: String(e.made_cut) } },
      el("td", {}, pos),
      el("td", {}, e.entry),
      ...counted.map((_, i) => el("td", { class: "lb-round" }, e.rounds[i] == null ? "–" : String(e.rounds[i]))),
      el("td", { class: "event-total" }, e.total == null ? (e.result || "") : String(e.total)),
      el("td", { class: "event-cut" }, cut));
  });
  return el("table", { class: "lb-table event-table" }, el("thead", {}, head), el("tbody", {}, rows));
}

function renderEvents(events) {
  const box = $("events");
  box.hidden = !events.length;
  box.replaceChildren(...events.map((ev) => {
    const parts = [el("h2", {}, t("leaderboard.event.title",
      { event: ev.event, number: ev.round_number, count: ev.rounds.length }))];
    if (ev.error) parts.push(el("p", { class: "error" }, t("leaderboard.event.error", { message: ev.error })));
    if (ev.cut) {
      parts.push(el("p", { class: "event-cut-rule" }, ev.cut.applied
        ? t("leaderboard.event.cut_applied", { rule: ev.cut.rule, made: ev.cut.made })
        : t("leaderboard.event.cut_rule", { rule: ev.cut.rule })));
    }
    parts.push(ev.counted
      ? el("div", { class: "board-wrap", tabindex: "0", role: "region", "aria-label": ev.event }, eventTable(ev))
      : el("p", { class: "hint" }, t("leaderboard.event.waiting")));
    return el("section", { class: "event", dataset: { event: ev.event, counted: String(ev.counted) } }, ...parts);
  }));
}

// who made the results final: a person's name as it is, else the role in words (issue 47: the
// round's life names the role when the act bears no name)
const ROLES = ["committee", "referee", "scorer", "marshal", "viewer"];
const author = (by) => (ROLES.includes(by) ? t(`by.${by}`) : by);

// the countback that decided, in the page's language: the scoring writes "last 9: 18",
// "last hole: 4" or "equal" (as pace/reports/results_sheet.py's countback_words reads it)
function countbackWords(text) {
  const figures = new Intl.NumberFormat(lang(), { maximumFractionDigits: 2, useGrouping: false });
  const number = (v) => (v !== "" && Number.isFinite(Number(v)) ? figures.format(Number(v)) : v);
  let m = /^last (\d+): (.+)$/.exec(text);
  if (m) return t("leaderboard.countback_last", { holes: m[1], value: number(m[2]) });
  m = /^last hole: (.+)$/.exec(text);
  if (m) return t("leaderboard.countback_hole", { value: number(m[1]) });
  return text === "equal" ? t("leaderboard.countback_equal") : text;
}

// the round's life: once the committee made the results final, the board says so (when, by
// whom) instead of "Live"; the results sheet is then everybody's (the committee's always)
function renderLife(b) {
  const life = b.life;
  const box = $("life");
  const clock = (iso) => (iso ? iso.slice(11, 16) : "");
  const final = Boolean(life && life.final && life.finalised);
  let text = "";
  if (final) {
    $("mode").textContent = t("leaderboard.final_results",
      { at: clock(life.finalised.at), by: author(life.finalised.by) });
  } else {
    $("mode").textContent = t(b.final ? "leaderboard.final" : "leaderboard.live");
    if (life && life.finished) text = t("leaderboard.round_finished", { at: clock(life.finished.at) });
  }
  box.textContent = text;
  box.hidden = !text;
  app.dataset.life = life ? life.stage : "";
  $("mode").classList.toggle("lb-final", final);
  const sheet = $("sheet");
  sheet.hidden = !(sheet.dataset.committee === "yes" || final);
}

function renderClasses(b) {
  const box = $("classes");
  if (!b.classes.length) {
    box.replaceChildren();
    return;
  }
  if (state.cls && !b.classes.includes(state.cls)) state.cls = "";
  const tab = (value, label) =>
    el(
      "button",
      {
        type: "button",
        class: "lb-class",
        "aria-pressed": state.cls === value ? "true" : "false",
        dataset: { cls: value },
        onclick: () => {
          state.cls = value;
          render();
        },
      },
      label,
    );
  box.replaceChildren(
    tab("", t("leaderboard.all")),
    ...b.classes.map((c) => tab(c, t("leaderboard.class", { name: c }))),
  );
}

function position(e) {
  const value = state.cls ? e.class_position : e.position;
  if (value === null || value === undefined) return "";
  return e.tied && !state.cls ? t("leaderboard.tied", { position: value }) : String(value);
}

function thru(e) {
  if (e.state === "not_started") return t("leaderboard.not_started");
  if (e.state === "dq" || e.state === "nr") return e.thru ? String(e.thru) : "";
  return e.complete ? t("leaderboard.thru_done") : String(e.thru);
}

function cell(e, col) {
  if (e.state === "dq") return col === columns(state.board)[0] ? t("leaderboard.dq") : "";
  if (e.state === "nr") return col === columns(state.board)[0] ? t("leaderboard.nr") : "";
  if (e.state === "not_started") return "";
  if (col === "to_par") return toPar(e.to_par);
  if (col === "score") return e.result;
  if (col === "gross") return e.gross === null ? "" : String(e.gross);
  if (col === "points") return t("leaderboard.points", { value: e.value });
  return e.result;
}

function entryRow(e, cols) {
  const marks = e.penalties.length ? penaltyButton(e) : null;
  const title = e.countback ? t("leaderboard.countback", { text: countbackWords(e.countback) }) : "";
  return el(
    "tr",
    { class: `lb-row st-${e.state}`, dataset: { entry: e.entry, state: e.state, group: e.group } },
    el("td", { class: "lb-pos", title: title || null }, position(e)),
    el(
      "th",
      { scope: "row", class: "lb-player" },
      el("span", { class: "lb-name" }, e.entry),
      // the tees played (issue 38), where the course has tee sets
      e.tees ? el("span", { class: "lb-tees", title: e.tee_colour || null }, e.tees) : null,
      e.class ? el("span", { class: "lb-cls" }, e.class) : null,
      marks,
    ),
    el("td", { class: "lb-thru" }, thru(e)),
    ...cols.map((c) => el("td", { class: `lb-${c}` }, cell(e, c))),
  );
}

function penaltyButton(e) {
  const texts = e.penalties.map(penaltyText);
  const open = state.open.has(e.entry);
  return el(
    "button",
    {
      type: "button",
      class: "pen-mark",
      title: texts.join("\n"),
      "aria-expanded": open ? "true" : "false",
      "aria-label": t("pen.mark", { text: texts.join("; ") }),
      onclick: () => {
        if (open) state.open.delete(e.entry);
        else state.open.add(e.entry);
        render();
      },
    },
    penaltyMark(e.penalties),
  );
}

function detailRow(e, span) {
  const lines = e.penalties.map((p) => el("li", { class: "pen-line" }, penaltyText(p)));
  if (e.state === "dq" && e.reason) {
    lines.unshift(el("li", { class: "dq-reason" }, t("leaderboard.dq_reason", { reason: e.reason })));
  }
  const holes = e.card
    .filter(([, strokes]) => strokes !== null)
    .map(([hole, strokes, pen]) =>
      el("span", { class: `lb-hole${pen ? " pen" : ""}` }, `${hole}: ${strokes}${pen ? ` +${pen}` : ""}`),
    );
  return el(
    "tr",
    { class: "lb-detail", dataset: { entry: e.entry } },
    el(
      "td",
      { colspan: String(span) },
      el("ul", { class: "pen-lines" }, ...lines),
      holes.length ? el("div", { class: "lb-holes" }, ...holes) : null,
    ),
  );
}

function renderMatches(b) {
  $("matches-box").hidden = !b.matches.length;
  $("matches").replaceChildren(
    ...b.matches.map((m) => {
      const [a, c] = m.sides.map((s) => s.entry);
      return el(
        "li",
        { class: `lb-match st-${m.status}`, dataset: { match: m.match } },
        el("span", { class: "lb-vs" }, t("leaderboard.vs", { a, b: c })),
        el("strong", { class: "lb-state" }, m.result),
        m.status === "dq" && m.reason
          ? el("span", { class: "dq-reason" }, t("leaderboard.dq_reason", { reason: m.reason }))
          : null,
        ...m.penalties.map((p) => el("span", { class: "pen-line", title: penaltyText(p) },
          penaltyText(p))),
      );
    }),
  );
}

rememberLanguage();
start();
refresh();
