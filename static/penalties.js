// Words for bad times, checkpoint breaches and penalties (docs/rules.md §6), shared by the shot
// clock and the dashboard. The server judges; these only say what it judged.
import { el, lang, t, tn } from "./common.js";

/** Return "1st", "2nd", … (1re, 2e, … in French; 1er, 2e, … for a masculine noun). */
export function ordinal(n, masculine = false) {
  if (masculine && n === 1) return t("ord.m.1");
  return n >= 1 && n <= 3 ? t(`ord.${n}`) : t("ord.n", { n });
}

/** Return seconds as the page's language writes them, to the tenth when not whole. */
export function seconds(value) {
  if (value === null || value === undefined) return "";
  return new Intl.NumberFormat(lang(), { maximumFractionDigits: 1 }).format(value);
}

/** Return what a penalty costs, in words: "one-stroke penalty on hole 5", "warning". */
export function penaltyText(p) {
  if (!p) return "";
  let text;
  if (p.kind === "strokes" || p.kind === "points") {
    const exact = `pen.${p.kind}.${p.amount}`;
    text = t(exact) === exact ? t(`pen.${p.kind}`, { n: p.amount }) : t(exact);
  } else {
    text = t(`pen.${p.kind}`);
  }
  if (p.hole && ["strokes", "points", "loss_of_hole"].includes(p.kind)) {
    text = t("pen.on_hole", { penalty: text, hole: p.hole });
  }
  return p.bearer === "side" ? t("pen.side", { penalty: text }) : text;
}

/**
 * Return a judged fault in words: "2nd bad time: one-stroke penalty on hole 5", "1st
 * checkpoint breach: warning", or why it is not counted.
 */
export function outcomeText(o) {
  if (!o) return "";
  if (o.counted) {
    const checkpoint = o.source === "checkpoint";
    const key = checkpoint ? "pen.counted.checkpoint" : "pen.counted.bad_time";
    return t(key, { ordinal: ordinal(o.rank, checkpoint), penalty: penaltyText(o.penalty) });
  }
  const key = `pen.not_counted.${o.reason}`;
  return t(key) === key ? t("pen.not_counted", { reason: o.reason }) : t(key);
}

/**
 * Return a fault's numbers: "47.3 s for 40 s" for a timed stroke; for a checkpoint breach its
 * stretch, "checkpoint breach, holes 7–12: 96 min for 90".
 */
export function timesText(f) {
  if (f.stretch) {
    const s = f.stretch;
    const stretch = t("pen.stretch", {
      first: s.holes[0],
      last: s.holes[1],
      taken: seconds(s.taken_min),
      limit: seconds(s.limit_min),
    });
    return `${t("pen.checkpoint")}, ${stretch}`;
  }
  if (f.duration_s === null || f.duration_s === undefined) return "";
  return t("pen.timed", { duration: seconds(f.duration_s), allowed: seconds(f.allowed_s) });
}

/**
 * Return a player's place on the ladder: "2 counted · last: one-stroke penalty on hole 5";
 * `faultsFrom` is the policy's source of faults (`checkpoints`: mauricie).
 */
export function ladderText(row, faultsFrom = "bad_times") {
  const counted = (row.faults || []).filter((f) => f.counted);
  if (counted.length === 0) {
    return t(faultsFrom === "checkpoints" ? "pen.none.checkpoints" : "pen.none");
  }
  const last = counted[counted.length - 1];
  return tn("pen.ladder", counted.length, {
    count: counted.length,
    penalty: penaltyText(last.penalty),
  });
}

/** Return the faults that still have to be told to the player (the notification gate). */
export function awaiting(row) {
  return (row.faults || []).filter((f) => f.counted && f.awaiting_notification);
}

/**
 * Return how many of a row's faults did not count and are not listed in it: the snapshot and
 * the feed list the counted faults only and count the others (`uncounted`); a group's every
 * fault is fetched when asked (GET /api/rounds/<round>/penalties/<group>).
 */
export function unlisted(row) {
  const listed = (row.faults || []).filter((f) => !f.counted).length;
  return Math.max(0, (row.uncounted || 0) - listed);
}

/** Return "3 faults not counted" for a row's faults not listed, or "" when none. */
export function unlistedText(row) {
  const n = unlisted(row);
  return n ? tn("pen.uncounted", n, { count: n }) : "";
}

/** Return a player's row of penalties in `snapshot` (no faults when there is none). */
export function penaltyRow(snapshot, group, player) {
  const all = (snapshot && snapshot.penalties) || [];
  return all.find((r) => r.group === group && r.player === player) || { faults: [] };
}

/**
 * A fault in a list: its hole, its times and what was judged; `waiting` marks it as still to
 * be told; `extra` (what the page does about it) follows.
 */
export function faultItem(f, waiting, ...extra) {
  return el(
    "li",
    {
      class: `fault${f.counted ? " counted" : " uncounted"}${waiting ? " awaiting" : ""}`,
      dataset: { fault: f.id },
    },
    el("span", { class: "f-hole" }, t("pen.hole", { hole: f.hole })),
    el("span", { class: "f-times" }, timesText(f)),
    el("span", { class: "f-what" }, outcomeText(f)),
    ...extra,
  );
}
