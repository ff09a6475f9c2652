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
  showResult(result, false, refusal(body));
  if (body.problems) {
    result.append(el("ul", { class: "problems" }, body.problems.map((p) => el("li", {}, p.text))));
  }
});
