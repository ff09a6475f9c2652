// The course form: a row per hole (6, 9, 12 or 18), sent as the form's fields; the server
// writes them as the course TOML `pace import course` reads and answers its problems, each
// put beside the field at fault (`holes.3.par`), in the parser's own words.
import { el, rememberLanguage, t } from "../common.js";
import { clearErrors, postForm, refusal, showAt, showResult } from "./console.js";

rememberLanguage();
const form = document.getElementById("course-form");
const rows = document.getElementById("hole-rows");
const count = document.getElementById("f-hole-count");
const result = document.getElementById("result");
const values = JSON.parse(document.getElementById("course-values").textContent) || { holes: [] };
const FIELDS = ["par", "stroke_index", "length_m", "bogey", "walk_min"];

function cell(i, key, value) {
  const name = `holes.${i}.${key}`;
  return el(
    "td",
    {},
    el("input", {
      name,
      "aria-label": `${t("course.hole")} ${i + 1} ${t("course." + key)}`,
      inputmode: "decimal",
      size: 4,
      maxlength: 12,
      value: value === null || value === undefined ? "" : String(value),
    }),
    el("span", { class: "field-error", "data-for": name }),
  );
}

function drawRows() {
  const n = Number(count.value);
  const kept = readHoles();
  rows.replaceChildren(
    ...Array.from({ length: n }, (_, i) => {
      const hole = kept[i] || values.holes[i] || {};
      return el(
        "tr",
        { dataset: { hole: String(i + 1) } },
        el("th", {}, String(i + 1), el("span", { class: "field-error", "data-for": `holes.${i}` })),
        FIELDS.map((key) => cell(i, key, hole[key])),
      );
    }),
  );
}

function readHoles() {
  return Array.from(rows.querySelectorAll("tr"), (row, i) => {
    const hole = {};
    for (const key of FIELDS) hole[key] = row.querySelector(`[name="holes.${i}.${key}"]`).value;
    return hole;
  });
}

count.addEventListener("change", drawRows);
drawRows();

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  clearErrors(form);
  const problemsNote = document.getElementById("form-problems");
  problemsNote.hidden = true;
  const course = {
    name: form.elements.name.value,
    hole_count: Number(count.value),
    slope: form.elements.slope.value,
    rating: form.elements.rating.value,
    holes: readHoles(),
  };
  const data = new FormData();
  data.set("course", JSON.stringify(course));
  const [ok, body] = await postForm("/api/courses", data);
  if (ok) {
    showResult(result, true, t("course.saved", { name: body.course, holes: body.holes }));
    window.location.href = "/courses";
    return;
  }
  if (body.problems) {
    problemsNote.hidden = false;
    result.replaceChildren();
    for (const p of body.problems) {
      if (!showAt(form, p.form_field, p.message)) showAt(form, "holes", p.message);
    }
  } else if (!(body.error && body.error.field && showAt(form, body.error.field, refusal(body)))) {
    showResult(result, false, refusal(body));
  }
});
