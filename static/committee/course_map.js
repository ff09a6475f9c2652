// The course page's map (issue 40): the course's holes drawn from the map the committee gave
// it, and the upload of a new one (an OpenStreetMap export, .osm or GeoJSON): its problems by
// hole when refused (nothing stored then), the map drawn again when stored.
import { el, rememberLanguage, t } from "../common.js";
import { holesPicture, projection } from "../map.js";
import { dropZone, postForm, refusal, showResult } from "./console.js";

rememberLanguage();
const box = document.getElementById("map-box");
const COURSE = box.dataset.course;
const result = document.getElementById("map-result");

async function show() {
  const r = await fetch(`/api/courses/${encodeURIComponent(COURSE)}/geometry`, { credentials: "same-origin" });
  const body = await r.json();
  const view = document.getElementById("map-view");
  const geometry = body.ok ? body.geometry : null;
  document.getElementById("map-status").textContent = geometry
    ? t("map.stored", { holes: geometry.holes.length, source: geometry.source })
    : t("map.none");
  if (!geometry) {
    view.replaceChildren();
    return;
  }
  const label = t("strip.map_label", { holes: geometry.holes.length });
  view.replaceChildren(el("div", { class: "map-wrap" }, holesPicture(geometry, projection(geometry), label)));
  box.dataset.holes = String(geometry.holes.length);
}

dropZone(document.getElementById("map-upload"), document.getElementById("map-file"), async (file) => {
  const data = new FormData();
  data.set("course", COURSE);
  data.set("file", file, file.name);
  const [ok, body] = await postForm("/api/courses/geometry", data);
  if (ok) {
    showResult(result, true, t("map.uploaded", { holes: body.holes }));
    await show();
    return;
  }
  showResult(result, false, refusal(body));
  if (body.problems) {
    result.append(el("ul", { class: "problems" }, body.problems.map((p) => el("li", {}, p.text))));
  }
});
show();
