// The course strip (issue 40): the holes in playing order, every group drawn where it is —
// the hole in play and the share of that hole's allotment that has passed — with its status
// (colour, and a shape and a word: never colour alone), its gap to the group ahead, the chain of
// groups one group holds up, and a missed tap's estimate drawn as an estimate.
//
// The positions are worked out here, from the rows the page already holds (the snapshot's
// `groups`, kept by the feed's `group_updated` deltas, or the rows of GET .../strip?at= when the
// referee rewinds): a group's place moves with the clock between two deltas, which only the
// page can follow without asking the server every second. A group's hole in play is the one
// after its `holes_completed` in its `order` — the status's own count, so the strip at an
// instant shows what GET .../status?at= judged then (docs/status.md, "The course strip").
import { clock, el as plain, t, tenth } from "./common.js";
import { chainLines, holesPicture, mapPoint, projection } from "./map.js";
import { isStale, placeWords } from "./places.js";

/**
 * `el` with `style` set through the CSSOM (the pages' Content-Security-Policy refuses style
 * attributes written as text): `style` is `{property: value}`, custom properties included.
 */
function el(tag, attrs = {}, ...children) {
  const { style, ...rest } = attrs;
  const node = plain(tag, rest, ...children);
  for (const [name, value] of Object.entries(style || {})) node.style.setProperty(name, value);
  return node;
}

/** A group's marker's width, in px, give or take (markers closer than that stack). */
const MARKER_PX = 64;

/** A status's shape, shown with its colour and its word (never the colour alone). */
export const SHAPES = {
  not_started: "◌",
  on_pace: "●",
  behind: "▲",
  overdue: "◆",
  out_of_position: "■",
  finished: "✓",
  withdrawn: "✕",
};

/**
 * Where `row`'s group is at `nowMs`: `{group, status, lane, index, hole, fraction, over,
 * estimate, projected}`. `index` is the 0-based place of the hole in play in the group's
 * `order` (`order.length` once finished); `fraction` the share of its allotment passed, 0–1
 * (`over`: true beyond it). With `ahead` (an instant after the rows' own), the group is
 * moved on along its due instants, as late as it is now (a projection, faded).
 */
export function position(row, nowMs, ahead = false) {
  const order = row.order || [];
  const n = order.length;
  let done = Math.min(row.holes_completed || 0, n);
  let estimate = false;
  // a missed tap's estimate: the group is drawn past the holes estimated completed
  const guessed = (row.estimate && row.estimate.holes) || {};
  const logged = (h) => Boolean((row.holes || {})[String(h)]);
  while (done < n && !logged(order[done]) && guessed[String(order[done])]) {
    done += 1;
    estimate = true;
  }
  // the hole it last completed is an estimate (its status already counts it)
  if (done > 0 && !logged(order[done - 1]) && guessed[String(order[done - 1])]) estimate = true;
  const base = { group: row.group, status: row.status, tee: row.tee, estimate, projected: ahead };
  if (row.status === "withdrawn") return { ...base, index: done, hole: null, fraction: 0, over: false, off: true };
  if (row.status === "not_started") return { ...base, index: 0, hole: order[0] ?? null, fraction: 0, over: false };
  if (row.status === "finished" || done >= n) {
    return { ...base, index: n, hole: null, fraction: 0, over: false, finished: true };
  }
  const start = Date.parse(row.start);
  const due = (i) => (i === 0 ? start : Date.parse(row.due[i - 1]));
  const began = (i) => {
    const hole = order[i - 1];
    const mark = (row.holes || {})[String(hole)] || guessed[String(hole)];
    return mark ? Date.parse(mark.at) : due(i);
  };
  if (ahead) {
    // as late as it is now: its due instants shifted by its minutes over, never earlier
    const late = Math.max(0, (row.over_min || 0) * 60000);
    let i = done;
    const began0 = done === 0 ? start : began(done);
    while (i < n && Date.parse(row.due[i]) + late <= nowMs) i += 1;
    if (i >= n) return { ...base, index: n, hole: null, fraction: 0, over: false, finished: true };
    const from = i === done ? Math.max(began0, due(i) + late) : due(i) + late;
    const allot = Date.parse(row.due[i]) - due(i);
    const fraction = allot > 0 ? Math.min(1, Math.max(0, (nowMs - from) / allot)) : 0;
    return { ...base, index: i, hole: order[i], fraction, over: false };
  }
  const from = done === 0 ? start : began(done);
  const allot = Date.parse(row.due[done]) - due(done);
  const passed = allot > 0 ? (nowMs - from) / allot : 0;
  return {
    ...base,
    index: done,
    hole: order[done],
    fraction: Math.min(1, Math.max(0, passed)),
    over: passed > 1,
  };
}

/**
 * The strip's lanes: one per starting tee when the groups start from one or two tees (each
 * lane the holes in the order its groups play them), else one lane in the course's order
 * (a shotgun: every group plays a turn of the same loop, drawn at the hole it is on).
 */
export function lanes(rows) {
  const tees = [...new Set(rows.map((r) => r.tee))];
  if (tees.length <= 2) {
    return tees.map((tee) => ({
      tee,
      order: (rows.find((r) => r.tee === tee) || {}).order || [],
      rows: rows.filter((r) => r.tee === tee),
    }));
  }
  const holes = [...new Set(rows.flatMap((r) => r.order || []))].sort((a, b) => a - b);
  return [{ tee: null, order: holes, rows }];
}

/** Where a group not started yet waits: its tee, and its start time when the page knows it. */
function waitingWords(p, row, timeZone) {
  const start = row.start && !Number.isNaN(Date.parse(row.start)) ? clock(row.start, timeZone) : "";
  return start ? t("strip.starts_at", { time: start, hole: p.hole }) : t("strip.on_tee", { hole: p.hole });
}

/**
 * `p` moved to where the group's phone puts it (issue 48): its place's hole and share of the
 * hole's line, when the place is fresh and the group is playing (a stale place leaves it where
 * its time puts it: a locked phone is no group standing still).
 */
export function placed(p, place, nowMs) {
  if (!place || p.off || p.finished || p.status === "not_started" || p.projected) return p;
  if (isStale(place, nowMs)) return { ...p, place, placeStale: true };
  return { ...p, hole: place.hole, fraction: Math.min(1, Math.max(0, place.fraction)), place, placed: true };
}

function describe(p, row, heldBy, holding, facts, timeZone, nowMs = Date.now()) {
  if (facts) {
    // the board: where the group is, nothing judged
    const where = p.finished
      ? t("strip.finished")
      : p.status === "not_started"
        ? waitingWords(p, row, timeZone)
        : t("strip.on_hole_facts", { hole: p.hole });
    return [t("strip.group", { group: p.group }), where, p.estimate ? t("strip.estimated") : ""]
      .filter(Boolean)
      .join(", ");
  }
  const parts = [t("strip.group", { group: p.group }), t(`status.${p.status}`)];
  if (p.off) parts.push(t("strip.withdrawn"));
  else if (p.finished) {
    if (p.status !== "finished") parts.push(t("strip.finished"));
  } else if (p.status === "not_started") parts.push(waitingWords(p, row, timeZone));
  else {
    // a group its phone places on its hole: where it stands, not a share of its time
    if (p.placed) parts.push(t("strip.on_hole_facts", { hole: p.hole }));
    else parts.push(t("strip.on_hole", { hole: p.hole, percent: Math.round(p.fraction * 100) }));
    if (p.over) parts.push(t("strip.over_allotment"));
    if (p.place) parts.push(placeWords(p.place, p.status, nowMs));
  }
  if (typeof row.gap_min === "number") parts.push(t("strip.gap", { minutes: tenth(row.gap_min) }));
  if (holding.length) parts.push(t("strip.holding", { groups: holding.join(", ") }));
  if (heldBy) parts.push(t("strip.held_by", { group: heldBy }));
  if (p.estimate) parts.push(t("strip.estimated"));
  if (p.projected) parts.push(t("strip.projected"));
  return parts.join(", ");
}

/**
 * Draw the strip of `rows` at `nowMs` into `node`: a list per lane of the holes, and one list
 * of the groups in draw order (each a focusable button, labelled in words) placed over their
 * lanes (issue 46: Tab meets them in draw order, as docs/status.md says). `heldUp` is the
 * snapshot's `held_up` (its `ongoing` rows are drawn as chains); `onOpen(group)` opens one.
 * With `ahead`, every group is drawn as a projection (faded), its 80 % range as a band.
 * `timeZone`: the round's, for the start times of the groups not started yet.
 */
export function renderStrip(node, rows, nowMs, { heldUp = [], onOpen = null, ahead = false, facts = false, map = null, timeZone = undefined, places = null } = {}) {
  const holders = {};
  const heldBy = {};
  for (const h of heldUp || []) {
    if (!h.ongoing) continue;
    const behind = (h.behind || []).map((b) => b.group);
    holders[h.group] = behind;
    for (const g of behind) heldBy[g] = heldBy[g] || h.group;
  }
  const marker = (row, p, place) => {
    const classes = ["strip-group", `s-${p.status}`];
    if (p.estimate) classes.push("estimated");
    if (p.projected) classes.push("projected");
    if (holders[p.group]) classes.push("holding");
    if (heldBy[p.group]) classes.push("held");
    if (p.placed) classes.push("placed");
    if (p.placeStale) classes.push("place-stale");
    const label = describe(p, row, heldBy[p.group], holders[p.group] || [], facts, timeZone, nowMs);
    return el(
      "li",
      {
        class: classes.join(" "),
        style: place.style,
        dataset: {
          group: p.group,
          status: p.status,
          hole: p.hole == null ? "" : String(p.hole),
          holesCompleted: String(row.holes_completed || 0),
          fraction: p.fraction.toFixed(3),
          estimate: p.estimate ? "yes" : "",
          place: p.placed ? "fresh" : p.placeStale ? "stale" : "",
        },
      },
      place.range,
      el(
        "button",
        { type: "button", "aria-label": label, title: label, onclick: onOpen ? () => onOpen(p.group) : null },
        el("span", { class: "shape", "aria-hidden": "true" }, `${p.estimate ? "≈" : ""}${facts ? "" : SHAPES[p.status] || ""}`),
        el("span", { class: "name" }, p.group),
        place.start ? el("span", { class: "start" }, place.start) : null,
        !facts && typeof row.gap_min === "number" && !p.finished
          ? el("span", { class: "gap" }, `${tenth(row.gap_min)}′`)
          : null,
      ),
    );
  };
  const positioned = (list) =>
    list
      .map((row) => ({ row, p: position(row, nowMs, ahead && row.status !== "finished") }))
      .filter(({ p }) => !p.off)
      // facts only (the board): a group is on its hole, not a share of its time through it
      .map(({ row, p }) => ({ row, p: facts && !p.finished && p.status !== "not_started" ? { ...p, fraction: 0.5, over: false } : p }))
      // where the phones put them (issue 48; the dashboard's, now): never on the board
      .map(({ row, p }) => ({ row, p: places && !facts ? placed(p, places[p.group], nowMs) : p }));
  if (map) {
    morph(node, el("div", {}, mapSection(map, positioned(rows), marker, holders, timeZone)));
    return;
  }
  // one section per lane (its holes, and the bars of its hold-up chains), and after them one
  // list of every group in draw order, each placed over its lane (CSS grid: the lane's row):
  // the keyboard and a screen reader meet the groups in draw order, not lane by lane
  const sections = [];
  const items = new Map();
  lanes(rows).forEach((lane, k) => {
    const n = lane.order.length || 1;
    const place = (p) => {
      const at = lane.order.indexOf(p.hole);
      const i = p.finished ? n : at >= 0 ? at : p.index;
      return Math.min(n, i + p.fraction);
    };
    const placed = positioned(lane.rows);
    // groups close together stack in tracks (the one furthest on at the top): a marker takes
    // the first track where it does not touch the one before it
    const width = node.clientWidth || 800;
    const wide = (MARKER_PX / width) * 100; // a marker's width, in % of the strip
    const ends = [];
    const trackOf = new Map();
    for (const { p } of [...placed].sort((a, b) => place(b.p) - place(a.p))) {
      const x = (place(p) / n) * 100;
      let track = ends.findIndex((end) => end - x >= wide);
      if (track < 0) track = ends.length;
      ends[track] = x;
      trackOf.set(p.group, track);
    }
    const height = Math.max(1, ends.length);
    for (const { row, p } of placed) {
      const style = {
        "grid-row": `${k + 1} / span 1`,
        "--x": (place(p) / n).toFixed(4),
        "--track": String(trackOf.get(p.group)),
        "--tracks": String(height),
      };
      items.set(p.group, marker(row, p, { style, range: p.projected ? rangeBand(row, p, n) : null }));
    }
    const chains = Object.entries(holders)
      .map(([group, behind]) => chainBar(group, behind, placed, place, n))
      .filter(Boolean);
    sections.push(
      el(
        "section",
        {
          class: "strip-lane",
          dataset: { tee: lane.tee == null ? "" : String(lane.tee) },
          style: { "--tracks": String(height), "grid-row": `${k + 1} / span 1` },
        },
        el("h3", { class: "strip-lane-title" }, lane.tee == null ? t("strip.course_order") : t("strip.from_tee", { tee: lane.tee })),
        el(
          "ol",
          { class: "strip-holes", "aria-label": t("strip.holes") },
          ...lane.order.map((h) => el("li", { class: "strip-hole", dataset: { hole: String(h) } }, String(h))),
        ),
        el("div", { class: "strip-track" }, ...chains),
      ),
    );
  });
  // in draw order: a group's button also keeps its place in the page as the groups pass
  const drawn = rows.map((row) => items.get(row.group)).filter(Boolean);
  const out = [...sections, el("ul", { class: "strip-groups strip-all", "aria-label": t("strip.groups") }, ...drawn)];
  const fresh = el("div", {}, ...out);
  morph(node, fresh);
}

/**
 * Make `node`'s children those of `fresh`, keeping the elements that stay (a group's button
 * keeps the keyboard's focus as the strip is drawn again, every few seconds and at each delta).
 */
function morph(node, fresh) {
  const old = [...node.children];
  const next = [...fresh.children];
  if (!next.length) {
    if (old.length || node.textContent !== fresh.textContent) node.textContent = fresh.textContent;
    return;
  }
  const keyed = new Map(old.filter((x) => x.dataset.group).map((x) => [`${x.tagName}|${x.className.split(" ")[0]}|${x.dataset.group}`, x]));
  const used = new Set();
  const kept = next.map((x, i) => {
    let same = x.dataset.group
      ? keyed.get(`${x.tagName}|${x.className.split(" ")[0]}|${x.dataset.group}`)
      : old[i] && !old[i].dataset.group && old[i].tagName === x.tagName ? old[i] : null;
    if (!same || used.has(same)) return x;
    used.add(same);
    for (const a of [...same.attributes]) if (!x.hasAttribute(a.name)) same.removeAttribute(a.name);
    for (const a of [...x.attributes]) {
      if (a.name === "style") continue; // through the CSSOM (the pages' CSP)
      if (same.getAttribute(a.name) !== a.value) same.setAttribute(a.name, a.value);
    }
    if (same.style.cssText !== x.style.cssText) same.style.cssText = x.style.cssText;
    morph(same, x);
    return same;
  });
  if (kept.length !== old.length || kept.some((x, i) => x !== old[i])) node.replaceChildren(...kept);
}

/**
 * The course's own map: its holes drawn from their geometry, the groups placed over them, and
 * each hold-up chain (`holders`: `{group: [groups it holds]}`) a line joining the spots of the
 * group holding the field up and the groups it holds, in words under the map (issue 46: as the
 * strip's bar joins them on a lane). The groups not started yet are listed beside the map, in
 * start order with their start times (issue 47: stacked on their first tees, they hid the
 * holes starting there).
 */
function mapSection(geometry, placed, marker, holders = {}, timeZone = undefined) {
  const proj = projection(geometry);
  const spots = [];
  const spotOf = new Map();
  const isWaiting = ({ p }) => p.status === "not_started" && !p.finished;
  const items = placed.filter((x) => !isWaiting(x)).map(({ row, p }) => {
    const at = mapPoint(geometry, proj, p, row.order || []) || [0, 0];
    // groups at one spot stack downwards, each a marker's height below the one before
    const track = spots.filter((q) => Math.hypot(q[0] - at[0], (q[1] - at[1]) * (proj.h / proj.w)) < 4).length;
    spots.push(at);
    spotOf.set(p.group, at);
    const style = { left: `${at[0].toFixed(2)}%`, top: `${at[1].toFixed(2)}%`, "--track": String(track) };
    return marker(row, p, { style, range: null });
  });
  const chains = Object.entries(holders)
    .map(([group, behind]) => {
      const points = [group, ...behind].map((g) => spotOf.get(g));
      // the group holding and at least one it holds on the map (a finished one is not)
      if (!points[0] || !points.slice(1).some(Boolean)) return null;
      return { group, points: points.filter(Boolean), text: t("strip.chain", { group, groups: behind.join(", ") }) };
    })
    .filter(Boolean);
  // the words under the map, each by a sample of its line: on the map they would be hidden by
  // the markers of the groups they name, which are close together (that is the hold-up)
  const words = chains.map(({ group, text }) =>
    el("div", { class: "strip-chain map-chain", dataset: { group } }, el("span", {}, text)),
  );
  return el(
    "section",
    { class: "strip-map", dataset: { tee: "map" }, style: { "--aspect": (proj.w / proj.h).toFixed(3) } },
    el("h3", { class: "strip-lane-title" }, t("strip.map")),
    el(
      "div",
      { class: "map-layout" },
      el(
        "div",
        // as wide as fits the screen's height too (a phone held sideways sees the whole course)
        { class: "map-wrap" },
        holesPicture(geometry, proj, t("strip.map_label", { holes: geometry.holes.length })),
        el("div", { class: "map-chains" }, chainLines(chains)),
        el("ul", { class: "strip-groups map-groups", "aria-label": t("strip.groups") }, ...items),
      ),
      waitingBox(placed.filter(isWaiting), marker, timeZone),
    ),
    el("div", { class: "map-chain-words" }, ...words),
  );
}

/**
 * The groups not started yet, beside the map: in start order (the draw's order between groups
 * starting together), each with its start time, the same button as a group on the map (it
 * opens the group's detail). None waiting: no box.
 */
function waitingBox(waiting, marker, timeZone) {
  if (!waiting.length) return null;
  const startOf = ({ row }) => {
    const at = Date.parse(row.start);
    return Number.isNaN(at) ? Infinity : at;
  };
  const ordered = waiting.map((x, i) => ({ ...x, i })).sort((a, b) => startOf(a) - startOf(b) || a.i - b.i);
  return el(
    "section",
    { class: "map-waiting", "aria-labelledby": "map-waiting-title" },
    el("h4", { id: "map-waiting-title" }, t("strip.not_started")),
    el(
      "ol",
      { class: "strip-groups map-waiting-groups" },
      ...ordered.map(({ row, p }) => {
        const start = Number.isFinite(startOf({ row })) ? clock(row.start, timeZone) : "";
        return marker(row, p, { style: {}, range: null, start });
      }),
    ),
  );
}

/** The band of a projection's 80 % range (the row's `finish_range`), scaled to where it is. */
function rangeBand(row, p, n) {
  const range = row.finish_range;
  if (!range || !row.projected_finish || p.finished) return null;
  const finish = Date.parse(row.projected_finish);
  const total = finish - Date.parse(row.start);
  if (!(total > 0)) return null;
  // the range's minutes, in holes of this group's mean allotment
  const perHole = total / (row.order || []).length;
  const early = (finish - Date.parse(range[0])) / perHole;
  const late = (Date.parse(range[1]) - finish) / perHole;
  return el("span", {
    class: "strip-range",
    "aria-hidden": "true",
    // in shares of the lane's track (the strip's width less its insets: static/pace.css)
    style: {
      left: `calc((100cqw - 2 * var(--inset)) * ${(-late / n).toFixed(4)})`,
      width: `calc((100cqw - 2 * var(--inset)) * ${((early + late) / n).toFixed(4)})`,
    },
  });
}

/** The chain of groups one group holds up: a bar from the last of them to it, in words. */
function chainBar(group, behind, placed, place, n) {
  const at = (g) => placed.find(({ p }) => p.group === g);
  const front = at(group);
  const back = behind.map(at).filter(Boolean);
  if (!front || !back.length) return null;
  const xs = [front, ...back].map(({ p }) => (place(p) / n) * 100);
  const left = Math.min(...xs);
  const width = Math.max(...xs) - left;
  const text = t("strip.chain", { group, groups: behind.join(", ") });
  return el(
    "div",
    { class: "strip-chain", dataset: { group }, style: { left: `${left.toFixed(2)}%`, width: `${Math.max(width, 1).toFixed(2)}%` } },
    el("span", {}, text),
  );
}
