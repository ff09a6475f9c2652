// The course form: a row per hole (6, 9, 12 or 18), sent as the form's fields; the server
// writes them as the course TOML `pace import course` reads and answers its problems, each
// put beside the field at fault (`holes.3.par`), in the parser's own words.
import { el, rememberLanguage, t } from "../common.js";
import { clearErrors, postForm, refusal, scriptReady, showAt, showResult } from "./console.js";

rememberLanguage();
const form = document.getElementById("course-form");
const rows = document.getElementById("hole-rows");
const count = document.getElementById("f-hole-count");
const result = document.getElementById("result");
const values = JSON.parse(document.getElementById("course-values").textContent) || { holes: [] };
const FIELDS = ["par", "stroke_index", "length_m", "bogey", "walk_min"];
// a tee set's fields (issue 38): its name and ratings, and the holes whose par, stroke index
// or length differ from the hole table's, written "5=5, 7=4"
const TEE_FIELDS = ["name", "colour", "slope", "rating", "women_slope", "women_rating"];
const TEE_HOLE_FIELDS = ["par", "stroke_index", "length_m"];
const TEE_LABELS = {
  name: "course.tee_name", colour: "course.colour", slope: "course.slope",
  rating: "course.rating", women_slope: "course.women_slope",
  women_rating: "course.women_rating", par: "course.tee_par",
  stroke_index: "course.tee_stroke_index", length_m: "course.tee_length_m",
};
const teeSets = document.getElementById("tee-sets");

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

function teeField(i, key, value) {
  const name = `tees.${i}.${key}`;
  return el(
    "div",
    { class: "field" },
    el("label", {}, t(TEE_LABELS[key]),
       el("input", {
         name,
         maxlength: TEE_HOLE_FIELDS.includes(key) ? 800 : 200,
         size: TEE_HOLE_FIELDS.includes(key) ? 30 : 8,
         value: value === null || value === undefined ? "" : String(value),
       })),
    el("span", { class: "field-error", "data-for": name }),
  );
}

function drawTeeSets(sets) {
  teeSets.replaceChildren(
    ...sets.map((tee, i) =>
      el(
        "fieldset",
        { class: "tee-set", dataset: { tees: String(i) } },
        el("legend", {}, `${t("course.tee_name")} ${i + 1}`),
        el("span", { class: "field-error", "data-for": `tees.${i}` }),
        [...TEE_FIELDS, ...TEE_HOLE_FIELDS].map((key) => teeField(i, key, tee[key])),
        el("button", { type: "button", class: "remove-tees", dataset: { index: String(i) } },
           t("course.remove_tees")),
      ),
    ),
  );
}

function readTeeSets() {
  return Array.from(teeSets.querySelectorAll("fieldset.tee-set"), (box, i) => {
    const tee = {};
    for (const key of [...TEE_FIELDS, ...TEE_HOLE_FIELDS]) {
      tee[key] = box.querySelector(`[name="tees.${i}.${key}"]`).value;
    }
    return tee;
  });
}

document.getElementById("add-tees").addEventListener("click", () => {
  drawTeeSets([...readTeeSets(), {}]);
});
teeSets.addEventListener("click", (e) => {
  const button = e.target.closest("button.remove-tees");
  if (!button) return;
  const sets = readTeeSets();
  sets.splice(Number(button.dataset.index), 1);
  drawTeeSets(sets);
});

count.addEventListener("change", drawRows);
drawRows();
drawTeeSets(values.tees || []);

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
    tees: readTeeSets(),
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

scriptReady(); // last: every handler above is wired
