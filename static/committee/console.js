// What the console's pages share: posting a form with the page's token, a file picker that
// also takes a dropped file, and a refusal's problems put beside the fields at fault.
// Plain ES module, no build step; data goes into the page as text only.
import { el, t } from "../common.js";

const app = () => document.getElementById("app");

/** POST `data` (a FormData) with the page's form token; return [ok, body]. */
export async function postForm(url, data) {
  data.set("csrf", app().dataset.csrf);
  let response;
  try {
    response = await fetch(url, { method: "POST", body: data, credentials: "same-origin" });
  } catch (e) {
    return [false, { error: { code: "offline", message: String(e) } }];
  }
  let body;
  try {
    body = await response.json();
  } catch (e) {
    body = { error: { code: "http_" + response.status, message: response.statusText } };
  }
  return [response.ok && body.ok, body];
}

/** Make `zone` take a dropped file as `input`'s; call `onFile(file)` on either. */
export function dropZone(zone, input, onFile) {
  const chosen = zone.querySelector(".chosen");
  const take = (file) => {
    if (!file) return;
    if (chosen) chosen.textContent = t("upload.chosen", { name: file.name });
    onFile(file);
  };
  input.addEventListener("change", () => take(input.files[0]));
  zone.addEventListener("dragover", (e) => {
    e.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    const file = e.dataTransfer.files[0];
    if (file) {
      const list = new DataTransfer();
      list.items.add(file);
      input.files = list.files;
      take(file);
    }
  });
}

/** Enable the buttons a form's page kept disabled until its script ran (data-needs-script):
 * clicked before that, the form would submit natively, a GET to the page itself, and what
 * was typed would be lost (seen on a slow load: the course's Save reloaded its own form).
 * Each page calls this last, once its handlers are wired; a script that failed to load
 * leaves them disabled. */
export function scriptReady() {
  for (const button of document.querySelectorAll("[data-needs-script]")) button.disabled = false;
}

/** Clear the error texts of `root`'s fields. */
export function clearErrors(root) {
  for (const node of root.querySelectorAll(".field-error")) node.textContent = "";
  for (const node of root.querySelectorAll(".at-fault")) node.classList.remove("at-fault");
}

/** Put a message beside the field `name` of `root` (its `.field-error[data-for]`, else the
 * input named so); return whether it found a place. */
export function showAt(root, name, message) {
  const place = root.querySelector(`.field-error[data-for="${CSS.escape(name)}"]`);
  if (!place) return false;
  place.textContent = place.textContent ? `${place.textContent} ${message}` : message;
  const input = root.querySelector(`[name="${CSS.escape(name)}"]`);
  if (input) input.classList.add("at-fault");
  return true;
}

/** Show a refusal in `node`: its sentence (the service's own). */
export function showResult(node, ok, text) {
  node.replaceChildren(el("p", { class: ok ? "ok" : "error", role: ok ? null : "alert" }, text));
}

/** Return a refusal's sentence: in the page's language when the server has it in its
 * catalogue (`translation`, issue 47), else the server's English. */
export function refusal(body) {
  const e = body && body.error;
  return (e && (e.translation || e.message)) || (e && e.code) || "?";
}
