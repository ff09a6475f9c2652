// What the scoring pages share: how a pace penalty reads on a card, a score to par, and how a
// round is scored, in the page's language. Plain ES module; data goes in with textContent.
import { t } from "./common.js";

/** Return a score to par as golfers write it: "E", "+3", "−2". */
export function toPar(value) {
  if (value === null || value === undefined) return "";
  if (value === 0) return t("leaderboard.even");
  return value > 0 ? `+${value}` : `−${Math.abs(value)}`;
}

/** Return what a counted pace penalty does to the card, and why, in words. */
export function penaltyText(p) {
  const effect = t(`pen.${p.effect}`, { value: p.value, hole: p.hole });
  const why = t(`pen.why.${p.source}`, { rank: p.rank || "?", player: p.player, hole: p.hole });
  return `${effect} (${why})`;
}

/** Return the short mark of a card's penalties: "+2", "−2 pts", "−1", "DQ". */
export function penaltyMark(penalties) {
  const sum = (effect) =>
    penalties.filter((p) => p.effect === effect).reduce((n, p) => n + (p.value || 0), 0);
  const parts = [];
  if (penalties.some((p) => p.effect === "disqualification")) parts.push("DQ");
  const strokes = sum("strokes");
  if (strokes) parts.push(`+${strokes}`);
  const points = sum("points_off");
  if (points) parts.push(`−${points} pts`);
  const holes = sum("holes_off");
  if (holes) parts.push(`−${holes}`);
  const lost = penalties.filter((p) => p.effect === "loss_of_hole").length;
  if (lost) parts.push(`${lost}×`);
  return parts.join(" ") || "!";
}

/** Return how a round is scored, in words: "Stableford · net", "Stroke play · gross · foursome". */
export function scoringLabel(scoring, net, format) {
  const parts = [t(`scoring.${scoring}`), t(net ? "scoring.net" : "scoring.gross")];
  if (format && format !== "individual") parts.push(t(`format.${format}`));
  return parts.join(" · ");
}
