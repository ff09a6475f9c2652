// The field as groups × holes: each group's status, minutes over, gap, interval and projected
// finish, and the time it completed each hole, coloured against the allotment. A row is drawn
// again only when what it shows has changed; a click opens the group's detail.
import { clock, el, minutes, overClass, serverNow, statusBadge, t } from "../common.js";
import { holeHeader, onClock, replaceRow } from "../live.js";
import { isStale, placeWords } from "../places.js";
import { estimateTitle, finishRange, openDetail } from "./detail.js";
import { $, holes, isTimed, shown, state, tz } from "./state.js";

export function renderGrid() {
  const hs = holes();
  const head = el(
    "tr",
    {},
    el("th", { class: "c-group", scope: "col" }, t("dash.col.group")),
    el("th", { scope: "col" }, t("dash.col.status")),
    el("th", { class: "num", scope: "col" }, t("dash.col.over")),
    el("th", { class: "num", scope: "col" }, t("dash.col.gap")),
    el("th", { class: "num", scope: "col" }, t("dash.col.interval")),
    el("th", { class: "num", scope: "col" }, t("dash.col.finish")),
    ...hs.map((h) => holeHeader(h, "hole")),
  );
  $("grid-head").replaceChildren(head);
  $("grid-body").replaceChildren(...state.snapshot.groups.map((row) => gridRow(row, hs)));
}

/** Replace one group's row, only when what it shows has changed (the tick sends many). */
export function updateRow(row) {
  if (!replaceRow($("grid-body"), gridRow(row, holes()))) renderGrid();
}

function gridRow(raw, hs) {
  const row = shown(raw);
  const open = () => openDetail(row.group);
  return el(
    "tr",
    { class: "group-row", dataset: { group: row.group, status: row.status }, onclick: open },
    el(
      "th",
      { class: "c-group", scope: "row" },
      el("button", { type: "button", class: "link", title: row.players.join(", ") }, row.group),
      isTimed(row.group) ? onClock() : null,
    ),
    statusCell(row),
    el(
      "td",
      { class: `num c-over ${overClass(row.over_min)}` },
      minutes(row.over_min, { signed: true }),
    ),
    el("td", { class: "num c-gap" }, minutes(row.gap_min)),
    el("td", { class: "num c-interval" }, minutes(row.interval_min)),
    el("td", { class: "num c-finish" }, clock(row.projected_finish, tz()), finishRange(row)),
    ...hs.map((h) => holeCell(row, h.number)),
  );
}

function holeCell(row, number) {
  const logged = row.holes[String(number)];
  // a missed tap's estimate (docs/estimates.md): its own mark, its bounds in the title
  const guess = !logged && row.estimate ? row.estimate.holes[String(number)] : null;
  const inPlay = !logged && !guess && row.hole === number && row.status !== "finished";
  const classes = [
    "hole",
    logged ? overClass(logged.over_min) : "",
    inPlay ? "in-play" : "",
    guess ? "estimated" : "",
    logged && logged.source === "group" ? "by-group" : "",
    logged && logged.source === "position" ? "by-position" : "",
  ];
  let title = logged
    ? `${clock(logged.at, tz(), { seconds: true })} (${minutes(logged.over_min, { signed: true })} min)`
    : "";
  // issue 39: a completion the group reported itself, not an official
  if (logged && logged.source === "group") title += ` · ${t("dash.reported_by_group")}`;
  // issue 48: a completion inferred from the group's positions
  // with its interval, as a missed tap's estimate has its bounds (docs/positions.md)
  if (logged && logged.source === "position") {
    title += logged.earliest && logged.latest
      ? ` · ${t("dash.from_positions.between", {
        earliest: clock(logged.earliest, tz(), { seconds: true }),
        latest: clock(logged.latest, tz(), { seconds: true }),
      })}`
      : ` · ${t("dash.from_positions")}`;
  }
  if (guess) title = estimateTitle(guess);
  return el(
    "td",
    { class: classes.filter(Boolean).join(" "), dataset: { group: row.group, hole: String(number) }, title },
    logged ? clock(logged.at, tz()) : guess ? `≈${clock(guess.at, tz())}` : "",
  );
}

/**
 * The status cell: the badge, a mark when the status rests on an estimate, and where the group
 * stands on its hole when its phone shares (issue 48: "210 m to the green", greyed once only
 * "last seen").
 */
function statusCell(row) {
  const rests = row.estimate && row.estimate.rests;
  const place = row.status !== "finished" ? (state.places || {})[row.group] : null;
  const now = serverNow().getTime();
  return el(
    "td",
    { class: `c-status${rests ? " rests" : ""}`, title: rests ? t("dash.estimate.rests") : "" },
    statusBadge(row.status),
    rests ? el("abbr", { class: "estimate-mark", title: t("dash.estimate.rests") }, "≈") : null,
    place
      ? el(
          "span",
          { class: `place${isStale(place, now) ? " stale" : ""}`, dataset: { group: row.group } },
          placeWords(place, row.status, now),
        )
      : null,
  );
}
