// The course page's map (issues 40 and 46): the course's holes drawn from the map the committee
// gave it, and a new one from an OpenStreetMap export (.osm or GeoJSON). A file is previewed
// first (the holes it gives the course, nothing stored); a site's file with several courses
// asks which of them this course is (the select); "Store this map" stores what was previewed.
// A refused file lists its problems in the page's language, and nothing is stored.
import { el, rememberLanguage, t } from "../common.js";
import { holesPicture, projection } from "../map.js";
import { dropZone, postForm, refusal, showResult } from "./console.js";

rememberLanguage();
const box = document.getElementById("map-box");
const COURSE = box.dataset.course;
const result = document.getElementById("map-result");
const choiceBox = document.getElementById("map-choice");
const select = document.getElementById("map-course");
const previewBox = document.getElementById("map-preview");
let file = null;

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

const key = (c) => `${c.kind}:${c.value}`;

/** The upload's fields: the course, the file and the file's course chosen, if any. */
function fields() {
  const data = new FormData();
  data.set("course", COURSE);
  data.set("file", file, file.name);
  const chosen = select.selectedOptions[0];
  if (chosen && chosen.value) {
    data.set(chosen.dataset.kind === "refs" ? "ref_pattern" : "map_course", chosen.dataset.value);
  }
  return data;
}

/** Offer the file's courses when it holds several (the one chosen selected). */
function offer(choices, chosen) {
  if (!choices || choices.length < 2) {
    choiceBox.hidden = true;
    select.replaceChildren();
    return;
  }
  const current = chosen ? key(chosen) : select.value;
  select.replaceChildren(
    el("option", { value: "" }, t("map.choice_prompt")),
    ...choices.map((c) =>
      el("option", { value: key(c), dataset: { kind: c.kind, value: c.value } },
         t(c.kind === "refs" ? "map.choice_refs" : "map.choice_course",
           { name: c.value, pattern: c.value, holes: c.holes, first: c.first, last: c.last }))),
  );
  select.value = choices.some((c) => key(c) === current) ? current : "";
  choiceBox.hidden = false;
}

function refused(body) {
  if (body.error && body.error.code === "map_course_required") {
    showResult(result, false, t("map.several"));
    return;
  }
  if (!body.problems) {
    showResult(result, false, refusal(body));
    return;
  }
  showResult(result, false, t("round.problems"));
  result.append(el("ul", { class: "problems" }, body.problems.map((p) => el("li", {}, p.message))));
}

async function preview() {
  previewBox.hidden = true;
  result.replaceChildren();
  const [ok, body] = await postForm("/api/courses/geometry/preview", fields());
  offer(body.choices, body.chosen);
  if (!ok) {
    refused(body);
    return;
  }
  document.getElementById("map-preview-title").textContent =
    t("map.preview", { source: body.source, holes: body.holes.length });
  document.querySelector("#map-holes tbody").replaceChildren(
    ...body.holes.map((h) =>
      el("tr", { class: "map-hole", dataset: { hole: h.number } },
         el("td", {}, String(h.number)), el("td", {}, h.ref), el("td", {}, h.par ?? "—"),
         el("td", {}, h.length ?? "—"), el("td", {}, h.name ?? "—"))),
  );
  previewBox.hidden = false;
}

document.getElementById("map-store").addEventListener("click", async () => {
  const [ok, body] = await postForm("/api/courses/geometry", fields());
  if (!ok) {
    previewBox.hidden = true;
    refused(body);
    return;
  }
  previewBox.hidden = true;
  showResult(result, true, t("map.uploaded", { holes: body.holes }));
  await show();
});

select.addEventListener("change", () => {
  if (file) preview();
});

dropZone(document.getElementById("map-upload"), document.getElementById("map-file"), (chosen) => {
  file = chosen;
  offer(null, null); // a new file: its own courses, none chosen yet
  preview();
});
show();
