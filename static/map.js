// A course's own map (issue 40): its holes drawn from their geometry (the committee's
// OpenStreetMap export, stored with the course: docs/formats.md, "Course geometry") as SVG,
// projected here on a flat local plane (no tile server, nothing fetched but the geometry).
// The strip places the groups on it: along each hole's line of play, by the same share of the
// hole's time as on the strip; a hold-up chain is a line from the group holding the field up to
// the groups it holds, as the strip's bar joins them on a lane (issue 46).
const SVG = "http://www.w3.org/2000/svg";
const PAD = 30; // metres around the course

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  for (const c of children) if (c) node.append(c);
  return node;
}

/** The map's projection: [lon, lat] to metres east and south of its top-left corner. */
export function projection(geometry) {
  const pts = geometry.holes.flatMap((h) => [...h.line, ...(h.green_area || []), ...(h.tee_area || [])]);
  const lat0 = pts.reduce((s, p) => s + p[1], 0) / pts.length;
  const k = (Math.PI / 180) * 6371000;
  const cos = Math.cos((lat0 * Math.PI) / 180);
  const raw = (p) => [p[0] * k * cos, -p[1] * k];
  const xs = pts.map((p) => raw(p)[0]);
  const ys = pts.map((p) => raw(p)[1]);
  const x0 = Math.min(...xs) - PAD;
  const y0 = Math.min(...ys) - PAD;
  const w = Math.max(...xs) + PAD - x0;
  const h = Math.max(...ys) + PAD - y0;
  return { w, h, xy: (p) => [raw(p)[0] - x0, raw(p)[1] - y0] };
}

/** The point `fraction` of the way along `line` (by length). */
export function along(line, fraction, xy) {
  const pts = line.map(xy);
  const lengths = pts.slice(1).map((p, i) => Math.hypot(p[0] - pts[i][0], p[1] - pts[i][1]));
  let left = lengths.reduce((a, b) => a + b, 0) * Math.min(1, Math.max(0, fraction));
  for (let i = 0; i < lengths.length; i++) {
    if (left <= lengths[i] || i === lengths.length - 1) {
      const f = lengths[i] ? Math.min(1, left / lengths[i]) : 0;
      return [pts[i][0] + (pts[i + 1][0] - pts[i][0]) * f, pts[i][1] + (pts[i + 1][1] - pts[i][1]) * f];
    }
    left -= lengths[i];
  }
  return pts[0];
}

/** The holes as an SVG picture (decorative: the groups over it carry the words). */
export function holesPicture(geometry, proj, label) {
  const pts = (ring) => ring.map((p) => proj.xy(p).map((v) => v.toFixed(1)).join(",")).join(" ");
  // the hole numbers stay legible whatever the course's size: a 30th of the map's width
  const font = Math.max(20, proj.w / 30);
  const parts = [svg("rect", { x: 0, y: 0, width: proj.w.toFixed(1), height: proj.h.toFixed(1), fill: "#eef5ea" })];
  for (const h of geometry.holes) {
    const [tx, ty] = proj.xy(h.tee);
    const [gx, gy] = proj.xy(h.green);
    parts.push(
      svg(
        "g",
        { class: "map-hole", "data-hole": h.number },
        svg("polyline", { points: pts(h.line), fill: "none", stroke: "#b9d4a8", "stroke-width": 28, "stroke-linecap": "round", "stroke-linejoin": "round" }),
        svg("polyline", { points: pts(h.line), fill: "none", stroke: "#6b8f5a", "stroke-width": 2, "stroke-dasharray": "6 5" }),
        h.green_area
          ? svg("polygon", { points: pts(h.green_area), fill: "#7cc46b", stroke: "#2f6b24", "stroke-width": 1.5 })
          : svg("circle", { cx: gx.toFixed(1), cy: gy.toFixed(1), r: 12, fill: "#7cc46b", stroke: "#2f6b24" }),
        svg("rect", { x: (tx - 7).toFixed(1), y: (ty - 5).toFixed(1), width: 14, height: 10, fill: "#f4f5f7", stroke: "#555" }),
        svg("text", { x: (tx - font * 0.6).toFixed(1), y: (ty - font * 0.4).toFixed(1), "font-size": font.toFixed(0), "font-weight": "bold", fill: "#1d1d1f", "font-family": "sans-serif" }, document.createTextNode(String(h.number))),
      ),
    );
  }
  return svg(
    "svg",
    { viewBox: `0 0 ${proj.w.toFixed(1)} ${proj.h.toFixed(1)}`, class: "map-picture", role: "img", "aria-label": label },
    ...parts,
  );
}

/**
 * Where a strip position `p` (static/strip.js's `position`) is on the map, in % of its width
 * and height: along its hole's line by its share of the hole's time; a group not started on
 * its first tee, a finished one on its last green. Null when the hole is not on the map.
 */
export function mapPoint(geometry, proj, p, order) {
  const byNumber = Object.fromEntries(geometry.holes.map((h) => [h.number, h]));
  let xy = null;
  if (p.finished) {
    const last = byNumber[order[order.length - 1]];
    xy = last ? proj.xy(last.green) : null;
  } else {
    const hole = byNumber[p.hole];
    if (hole) xy = p.status === "not_started" ? proj.xy(hole.tee) : along(hole.line, p.fraction, proj.xy);
  }
  return xy ? [(xy[0] / proj.w) * 100, (xy[1] / proj.h) * 100] : null;
}

/**
 * The lines of the hold-up chains over the map (decorative: the words are beside them): each
 * chain `{group, points}` joins the spot of the group holding the field up to those of the
 * groups it holds, in order, `points` in % of the map's width and height (as `mapPoint`'s).
 */
export function chainLines(chains) {
  const line = (points) => points.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" ");
  return svg(
    "svg",
    { class: "map-chain-lines", viewBox: "0 0 100 100", preserveAspectRatio: "none", "aria-hidden": "true" },
    ...chains.map((c) =>
      svg(
        "g",
        { class: "map-chain-line", "data-chain": c.group },
        // a white casing under the line, so it reads over the fairways and the greens
        svg("polyline", { points: line(c.points), fill: "none", stroke: "#fff", "stroke-width": 7, "stroke-linecap": "round", "stroke-linejoin": "round", "vector-effect": "non-scaling-stroke" }),
        svg("polyline", { points: line(c.points), fill: "none", stroke: "#c62828", "stroke-width": 3, "stroke-linecap": "round", "stroke-linejoin": "round", "vector-effect": "non-scaling-stroke" }),
      ),
    ),
  );
}
