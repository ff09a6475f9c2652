// A group's detail, in a dialog: its tee and players, its minutes, its timing (who is timed,
// who was told, each player's bad times and penalties) and each hole due and logged. The
// snapshot lists the counted faults only: the group's every fault, those that did not count
// with their reason, is fetched when the detail opens, and again when its penalties change
// (GET /api/rounds/<round>/penalties/<group>, docs/protocol.md).
import { clock, el, errorText, minutes, overClass, statusBadge, t } from "../common.js";
import { onClock, timingOf, toldCount } from "../live.js";
import { faultItem, ladderText, penaltyRow, unlistedText } from "../penalties.js";
import { $, ROUND, faultsFrom, shown, state, tz } from "./state.js";

/** The projected finish's 80 % range from the course's history (issue 30), small under it. */
export function finishRange(row) {
  const range = row.finish_range;
  if (!range || !row.projected_finish) return null;
  const [low, high] = range.map((at) => clock(at, tz()));
  return el("small", { class: "range" }, t("dash.finish_range", { low, high }));
}

/** The hole the group is first over time at, as an 80 % range (issue 30): none when no end
 * of the range is over time, or once the group is over. */
function overRange(row) {
  const range = row.over_hole_range;
  if (!range || range[0] === null) return [];
  const [early, late] = range;
  const text =
    late === null
      ? t("dash.over_range_open", { early })
      : early === late
        ? t("dash.over_range_one", { hole: early })
        : t("dash.over_range", { early, late });
  return [el("dt", {}, t("dash.over_range_title")), el("dd", { class: "range" }, text)];
}

/** An estimated hole's title: its instant, its bounds and how the missed tap was found. */
export function estimateTitle(guess) {
  return t("dash.estimate.title", {
    time: clock(guess.at, tz()),
    earliest: clock(guess.earliest, tz()),
    latest: guess.latest ? clock(guess.latest, tz()) : t("dash.estimate.now"),
    reason: t(`dash.estimate.${guess.reason}`),
  });
}

export function openDetail(group) {
  if (state.detail !== group) state.faults = null;
  state.detail = group;
  renderDetail();
  const dialog = $("detail");
  if (!dialog.open) dialog.showModal();
  fetchFaults(group);
}

let asked = 0; // the last fetch of a group's faults: an answer to an earlier one is dropped

/** Fetch every fault of `group`, shown in detail, and draw the detail again with them. */
export async function fetchFaults(group) {
  const mine = ++asked;
  const url = `/api/rounds/${encodeURIComponent(ROUND)}/penalties/${encodeURIComponent(group)}`;
  let faults;
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    const answer = await response.json();
    if (!answer.ok) throw new Error(errorText(answer));
    faults = { group, rows: answer.penalties };
  } catch (err) {
    faults = { group, error: err.message };
  }
  if (mine !== asked || state.detail !== group) return; // asked again since, or closed
  // an error keeps the rows fetched before, if any (a change since is fetched at the next)
  const before = state.faults && state.faults.group === group ? state.faults.rows : null;
  state.faults = faults.rows || !before ? faults : { group, rows: before, error: faults.error };
  renderDetail();
}

/** A player's row of penalties as the detail shows it: every fault once fetched. */
function detailRow(group, player) {
  const full = state.faults && state.faults.group === group ? state.faults.rows : null;
  if (!full) return penaltyRow(state.snapshot, group, player);
  return full.find((r) => r.player === player) || { faults: [] };
}

export function renderDetail() {
  const raw = state.snapshot.groups.find((r) => r.group === state.detail);
  const dialog = $("detail");
  if (!raw) {
    dialog.close();
    return;
  }
  const row = shown(raw);
  const numbers = el(
    "dl",
    { class: "numbers" },
    el("dt", {}, t("dash.col.over")),
    el("dd", {}, minutes(row.over_min, { signed: true })),
    el("dt", {}, t("dash.col.gap")),
    el("dd", {}, minutes(row.gap_min)),
    el("dt", {}, t("dash.col.interval")),
    el("dd", {}, minutes(row.interval_min)),
    el("dt", {}, t("dash.col.finish")),
    el("dd", {}, clock(row.projected_finish, tz()), finishRange(row)),
    ...overRange(row),
  );
  const table = el(
    "table",
    { class: "detail-holes" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", {}, t("live.hole", { hole: "" }).trim()),
        el("th", {}, t("dash.detail.due")),
        el("th", {}, t("dash.detail.logged")),
        el("th", { class: "num" }, t("dash.detail.over")),
      ),
    ),
    el(
      "tbody",
      {},
      ...row.order.map((hole, i) => {
        const logged = row.holes[String(hole)];
        // a missed tap's estimate: ≈, its bounds in the title (docs/estimates.md)
        const guess = !logged && row.estimate ? row.estimate.holes[String(hole)] : null;
        return el(
          "tr",
          { dataset: { hole: String(hole) }, class: !logged && row.hole === hole ? "in-play" : "" },
          el("td", {}, String(hole)),
          el("td", {}, clock(row.due[i], tz())),
          el(
            "td",
            {
              class: logged ? overClass(logged.over_min) : guess ? "estimated" : "",
              title: guess ? estimateTitle(guess) : "",
            },
            logged
              ? clock(logged.at, tz(), { seconds: true })
              : guess
                ? `≈${clock(guess.at, tz())}`
                : "",
          ),
          el("td", { class: "num" }, logged ? minutes(logged.over_min, { signed: true }) : ""),
        );
      }),
    ),
  );
  dialog.replaceChildren(
    el(
      "div",
      { class: "detail-head" },
      el("h2", { id: "detail-title" }, t("live.group", { group: row.group })),
      statusBadge(row.status),
      el("button", { type: "button", class: "close", onclick: closeDetail }, t("live.close")),
    ),
    el("p", {}, t("dash.detail.tee", { tee: row.tee, time: clock(row.start, tz()) })),
    el("h3", {}, t("dash.detail.players")),
    el("ul", { class: "players" }, ...row.players.map((p) => el("li", {}, p))),
    numbers,
    timingSection(row),
    table,
  );
}

/** Who is timed in the group, who was told, and each player's bad times and penalties. */
function timingSection(row) {
  const timing = timingOf(state.snapshot, row.group);
  const told = timing.told || [];
  const last = (timing.spells || []).slice(-1)[0];
  const line = timing.timed
    ? [onClock(timing.since, tz()), " ", toldCount(row, timing)]
    : last && last.ended_by === "back_in_position"
      ? [
          el(
            "span",
            { class: "ended-by-itself" },
            t("timing.ended_by_itself", { time: clock(last.until, tz()) }),
          ),
        ]
      : [t("timing.not_timed")];
  return el(
    "section",
    { class: "detail-timing" },
    el("h3", {}, t("dash.timing")),
    el("p", {}, ...line),
    state.faults && state.faults.group === row.group && state.faults.error
      ? el("p", { class: "error" }, t("live.error", { message: state.faults.error }))
      : null,
    el(
      "ul",
      { class: "pen-players" },
      ...row.players.map((name) => {
        const pen = detailRow(row.group, name);
        return el(
          "li",
          { dataset: { player: name } },
          el("strong", {}, name),
          " · ",
          timing.timed && told.includes(name)
            ? el("span", { class: "told-tick" }, t("clock.told_timed"), " · ")
            : null,
          ladderText(pen, faultsFrom()),
          pen.disqualified ? el("span", { class: "dq-badge" }, t("pen.disqualified")) : null,
          pen.faults && pen.faults.length ? faultList(pen.faults) : null,
          unlistedText(pen) ? el("p", { class: "unlisted hint" }, unlistedText(pen)) : null,
        );
      }),
    ),
  );
}

/** A player's bad times (or checkpoint breaches), those still to tell the player marked. */
export function faultList(faults) {
  return el(
    "ol",
    { class: "faults" },
    ...faults.map((f) =>
      faultItem(
        f,
        f.awaiting_notification,
        f.counted && f.awaiting_notification
          ? el("span", { class: "f-awaiting" }, t("pen.awaiting"))
          : null,
      ),
    ),
  );
}

function closeDetail() {
  state.detail = null;
  state.faults = null;
  $("detail").close();
}

/** The dialog closed by any means (Escape too): no group is shown in detail any more. */
export function setupDetail() {
  $("detail").addEventListener("close", () => {
    state.detail = null;
    state.faults = null;
  });
}
