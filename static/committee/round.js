// A new round: the form and the draw CSV go to the server, which parses them (the same parse
// for the preview and the creation) and answers the groups, or every problem of the file by
// line and field. Nothing is stored until "Create the round".
import { el, rememberLanguage, t } from "../common.js";
import {
  clearErrors,
  dropZone,
  postForm,
  refusal,
  scriptReady,
  showAt,
  showResult,
} from "./console.js";

rememberLanguage();
const form = document.getElementById("round-form");
const input = document.getElementById("r-draw");
const result = document.getElementById("result");
const problems = document.getElementById("problems");
const previewBox = document.getElementById("preview-box");

dropZone(document.getElementById("draw-zone"), input, () => {
  previewBox.hidden = true;
});
// a change of the form asks for a new preview before the round can be created
form.addEventListener("input", () => {
  previewBox.hidden = true;
});

function showProblems(list) {
  // the field by its label in the page's language, its column's name as the file has it
  // kept as the cell's title (issue 47)
  document.getElementById("problem-rows").replaceChildren(
    ...list.map((p) =>
      el("tr", { class: "problem" }, el("td", {}, p.line ?? ""),
         el("td", { title: p.field ?? "", dataset: { field: p.field ?? "" } },
            p.field_label ?? p.field ?? ""),
         el("td", {}, p.message)),
    ),
  );
  problems.hidden = false;
}

function showPreview(body) {
  document.getElementById("preview-title").textContent = t("round.preview_title", {
    round: body.round,
    groups: body.groups.length,
    players: body.players,
  });
  document.getElementById("notes").replaceChildren(...body.notes.map((n) => el("li", {}, n)));
  document.getElementById("preview-rows").replaceChildren(
    ...body.groups.map((g) =>
      el("tr", { class: "preview-group", dataset: { group: g.group } },
         el("td", {}, g.group), el("td", {}, g.start), el("td", {}, String(g.tee)),
         // each player's tee set beside his name (issue 38)
         el("td", {}, g.players.map((p) => (p.tees ? `${p.name} (${p.tees})` : p.name)).join(", "))),
    ),
  );
  previewBox.hidden = false;
}

async function send(step) {
  clearErrors(form);
  problems.hidden = true;
  result.replaceChildren();
  const [ok, body] = await postForm(`/api/rounds/${step}`, new FormData(form));
  if (!ok) {
    previewBox.hidden = true;
    if (body.problems) showProblems(body.problems);
    else if (!(body.error && body.error.field && showAt(form, body.error.field, refusal(body)))) {
      showResult(result, false, refusal(body));
    }
    return;
  }
  if (step === "preview") {
    showPreview(body);
    return;
  }
  previewBox.hidden = true;
  showResult(result, true, t("round.created", { round: body.round }));
  result.append(
    el("a", { id: "open-changes", href: `/rounds/${encodeURIComponent(body.round)}/changes` },
       t("round.open_changes")),
  );
}

form.addEventListener("submit", (e) => {
  e.preventDefault();
  send("preview");
});
document.getElementById("confirm").addEventListener("click", () => send("create"));

scriptReady(); // last: every handler above is wired
