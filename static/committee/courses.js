// The courses page: upload a course TOML (file picker or drop); its problems, or the stored
// course, shown; the list reloads when one is stored.
import { el, rememberLanguage, t } from "../common.js";
import { dropZone, postForm, refusal, showResult } from "./console.js";

rememberLanguage();
const result = document.getElementById("result");

dropZone(document.getElementById("upload"), document.getElementById("course-file"), async (file) => {
  const data = new FormData();
  data.set("file", file, file.name);
  const [ok, body] = await postForm("/api/courses/upload", data);
  if (ok) {
    showResult(result, true, t("course.uploaded", { name: body.course, holes: body.holes }));
    window.setTimeout(() => window.location.reload(), 600);
    return;
  }
  if (!body.problems) {
    showResult(result, false, refusal(body));
    return;
  }
  // every problem in the page's language, where it is by line and the field's label
  // (issue 47: the CLI's English lines were shown)
  showResult(result, false, t("round.problems"));
  result.append(el("ul", { class: "problems" }, body.problems.map(problemLine)));
});

function problemLine(p) {
  const field = p.field_label ?? p.field;
  const key = p.line != null ? (field ? "course.problem_line_field" : "course.problem_line")
    : (field ? "course.problem_field" : null);
  const text = key ? t(key, { line: p.line, field, message: p.message }) : p.message;
  return el("li", { dataset: { line: p.line ?? "", field: p.field ?? "" } }, text);
}
