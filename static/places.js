// Where a group stands on its hole, from its phone (issue 48; docs/positions.md, "The
// picture"): the words the dashboard says of a place the server worked out (GET
// /api/rounds/<round>/places, the committee's and the referees' only): "210 m to the green",
// "350 m behind group 6" for a group out of position, "last seen 7 min ago" once it is older
// than five minutes (a locked phone is a gap, never a group standing still). A place is a
// hole, a phase and a share of the hole's line: never a coordinate.
import { lang, t } from "./common.js";

/** A place older than this is only "last seen" (the server's `stale`, kept as time passes). */
export const STALE_MS = 5 * 60000;

/** Metres in the page's language (210, 1 250 / 1,250 / 1.250). */
export function metres(n) {
  return new Intl.NumberFormat(lang(), { maximumFractionDigits: 0 }).format(n);
}

/** How old `place` is at `nowMs`, in ms (never negative). */
export function ageMs(place, nowMs) {
  return Math.max(0, nowMs - Date.parse(place.at));
}

/** Whether `place` is only "last seen" at `nowMs`. */
export function isStale(place, nowMs) {
  return Boolean(place.stale) || ageMs(place, nowMs) > STALE_MS;
}

/** Where on its hole: "210 m to the green", "on the green", "on the tee", "walking to …". */
export function whereWords(place) {
  if (place.phase === "green") return t("place.on_green");
  if (place.phase === "tee") return t("place.on_tee");
  if (place.phase === "walking") return t("place.walking", { hole: place.hole });
  return t("place.to_green", { metres: metres(place.to_green_m) });
}

/**
 * The words of a group's place at `nowMs`: where it stands, and how far behind the group
 * ahead when it is out of position (`status`) and both places are fresh; a stale place says
 * when it was last seen first. Empty without a place.
 */
export function placeWords(place, status, nowMs) {
  if (!place) return "";
  if (isStale(place, nowMs)) {
    const minutes = Math.round(ageMs(place, nowMs) / 60000);
    return [t("place.last_seen", { minutes }), whereWords(place)].join(", ");
  }
  const parts = [whereWords(place)];
  if (status === "out_of_position" && place.behind_m !== null && place.behind_m !== undefined && place.ahead) {
    parts.push(t("place.behind", { metres: metres(place.behind_m), group: place.ahead }));
  }
  return parts.join(", ");
}
