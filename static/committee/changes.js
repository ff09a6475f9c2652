// The changes on the day: the draw as it is now, the changes made (voidable), and a form per
// change. Each form sends a command of the console (`change_withdraw`, `change_swap`, …) to
// POST /api/commands/<name>, the edge pipeline's; a refusal shows the service's sentence.
import { el, rememberLanguage, t, uuid4 } from "../common.js";
import { refusal, scriptReady, showResult } from "./console.js";

rememberLanguage();
const app = document.getElementById("app");
const round = app.dataset.round;
const result = document.getElementById("result");
let data = JSON.parse(document.getElementById("changes-data").textContent);

async function command(name, payload) {
  let response;
  try {
    response = await fetch(`/api/commands/${name}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ id: uuid4(), round, ...payload }),
    });
  } catch (e) {
    return { ok: false, error: { message: String(e) } };
  }
  try {
    return await response.json();
  } catch (e) {
    return { ok: false, error: { message: response.statusText } };
  }
}

function said(c) {
  const p = { ...c.payload };
  if (c.type === "player_added") p.name = p.player.name;
  return t(`changes.said.${c.type}`, p);
}

function drawDraw() {
  document.getElementById("draw").replaceChildren(
    el("table", { class: "console-table draw" },
      el("tbody", {}, data.groups.map((g) =>
        el("tr", { class: "draw-group", dataset: { group: g.group } },
          el("th", {}, g.group), el("td", {}, g.start), el("td", {}, `${t("changes.tee")} ${g.tee}`),
          el("td", { class: "players" }, g.players.map((p) =>
            el("span", { class: p.retired ? "player retired" : "player", dataset: { tees: p.tees || "" } },
               p.name, p.tees ? ` · ${p.tees}` : "",
               p.retired ? ` (${t("changes.retired", { time: p.retired })})` : ""))),
          el("td", {}, g.played ? t("changes.played") : ""))))),
  );
  const changes = document.getElementById("changes");
  if (!data.changes.length) {
    changes.replaceChildren(el("p", { class: "empty" }, t("changes.none")));
  } else {
    changes.replaceChildren(
      el("table", { class: "console-table changes" },
        el("thead", {}, el("tr", {}, ["at", "what", "who", "why"].map((k) =>
          el("th", {}, t(`changes.col.${k}`))), el("th", {}))),
        el("tbody", {}, data.changes.map((c) =>
          el("tr", { class: c.voided ? "change voided" : "change", dataset: { id: c.id, type: c.type } },
            el("td", {}, c.at), el("td", {}, said(c)), el("td", {}, c.by),
            el("td", {}, c.payload.note || (c.type === "player_withdrawn" ? "" : c.payload.reason) || ""),
            el("td", {}, c.voided ? t("changes.voided") : voidButton(c)))))),
    );
  }
  const players = data.groups.flatMap((g) => g.players.map((p) => p.name));
  for (const select of document.querySelectorAll("select.players")) fill(select, players);
  for (const select of document.querySelectorAll("select.groups")) fill(select, data.groups.map((g) => g.group));
  for (const select of document.querySelectorAll("select.holes")) fill(select, data.holes.map(String));
}

function fill(select, values) {
  const kept = select.value;
  select.replaceChildren(...values.map((v) => el("option", { value: v }, v)));
  if (values.includes(kept)) select.value = kept;
}

function voidButton(c) {
  return el("button", {
    type: "button",
    class: "void",
    onclick: async () => {
      const reason = window.prompt(t("changes.reason"));
      if (!reason) return;
      done(await command("change_void", { target: c.id, reason }));
    },
  }, t("changes.void"));
}

async function refresh() {
  const response = await fetch(`/api/rounds/${encodeURIComponent(round)}/changes`, { credentials: "same-origin" });
  const body = await response.json();
  if (body.ok) {
    data = body;
    drawDraw();
    drawLife();
  }
}

function done(ack, errorNode = null) {
  if (ack.ok) {
    showResult(result, true, t("changes.done"));
    if (errorNode) errorNode.hidden = true;
    refresh();
    return true;
  }
  if (errorNode) {
    errorNode.textContent = refusal(ack);
    errorNode.hidden = false;
  } else {
    showResult(result, false, refusal(ack));
  }
  return false;
}

const PAYLOADS = {
  withdraw: (f) => ({ player: f.player.value, reason: f.kind.value, note: f.reason.value,
                      at: f.at.value || null }),
  swap: (f) => ({ player: f.player.value, other: f.other.value, reason: f.reason.value }),
  move_player: (f) => ({ player: f.player.value, to: f.to.value, reason: f.reason.value }),
  add_player: (f) => ({ group: f.group.value, reason: f.reason.value,
                        player: { name: f.name.value, handicap: f.handicap.value || null } }),
  change_start: (f) => ({ group: f.group.value, start: f.start.value, reason: f.reason.value }),
  change_tee: (f) => ({ group: f.group.value, tee: Number(f.tee.value), reason: f.reason.value }),
  tees: (f) => ({ player: f.player.value, tees: f.tees.value, reason: f.reason.value }),
  add_group: (f) => ({ group: f.group.value, start: f.start.value, tee: Number(f.tee.value),
                       reason: f.reason.value,
                       players: f.players.value.split("\n").map((s) => s.trim()).filter(Boolean) }),
  remove_group: (f) => ({ group: f.group.value, reason: f.reason.value }),
};

/** The console's command a form sends: `change_<kind>` (`change_start`'s form is kind
 * `change_start`, not `change_change_start`). */
function commandOf(kind) {
  return kind.startsWith("change_") ? kind : `change_${kind}`;
}

for (const form of document.querySelectorAll("form[data-kind]")) {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const kind = form.dataset.kind;
    const ack = await command(commandOf(kind), PAYLOADS[kind](form.elements));
    if (done(ack, form.querySelector(".error"))) form.reset();
  });
}

// -- the round's life: its stage, who finished it or made its results final, and the acts
// (`round_finish`, `round_final`, `round_reopen`), refused with the service's sentence

function drawLife() {
  const life = data.life;
  const lines = [t(`life.stage.${life.stage}`)];
  const f = life.finished;
  if (f) lines.push(f.implied ? t("life.finished_implied", { at: f.at }) : t("life.finished_by", f));
  if (life.finalised) lines.push(t("life.final_by", life.finalised));
  for (const r of life.reopened) lines.push(t("life.reopened_by", r));
  const box = document.getElementById("life");
  box.textContent = lines.join(" ");
  box.dataset.stage = life.stage;
  document.getElementById("life-finish").disabled = Boolean(f && !f.implied);
  document.getElementById("life-final").disabled = life.final;
  document.getElementById("life-reopen").hidden = !life.final;
}

async function lifeAct(name, payload = {}) {
  const ack = await command(name, payload);
  const error = document.getElementById("life-error");
  done(ack, error); // on success it reads the page's data again, the life with it
  return ack.ok;
}

document.getElementById("life-finish").addEventListener("click", () => lifeAct("round_finish"));
document.getElementById("life-final").addEventListener("click", () => lifeAct("round_final"));
document.getElementById("life-reopen").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = e.currentTarget;
  if (await lifeAct("round_reopen", { reason: form.elements.reason.value })) form.reset();
});

drawDraw();
drawLife();

scriptReady(); // last: every handler above is wired
