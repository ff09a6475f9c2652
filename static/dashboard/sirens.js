// The committee's sirens (interruption, suspension, resume): a press keeps its instant, a
// confirmation records it, and the answer says when the server holds it sounded.
import {
  clock,
  deviceClock,
  deviceNow,
  el,
  errorText,
  isoWithOffset,
  request,
  t,
  uuid4,
} from "../common.js";
import { $, ROUND, showError, state, tz } from "./state.js";

const SIRENS = ["interruption", "suspension", "resume"];

export function setupSirens() {
  $("siren-buttons").replaceChildren(
    ...SIRENS.map((kind) =>
      el(
        "button",
        {
          type: "button",
          class: `siren k-${kind}`,
          dataset: { kind },
          onclick: () => askSiren(kind),
        },
        t(`dash.siren.${kind}`),
      ),
    ),
  );
}

function askSiren(kind) {
  // the instant is the press of the siren button, not the confirmation
  state.siren = { kind, at: deviceNow() }; // the server's clock on a demo's fast clock
  const box = $("siren-confirm");
  box.replaceChildren(
    el(
      "p",
      {},
      t("dash.siren.confirm", {
        kind: t(`dash.siren.${kind}`),
        time: clock(new Date(state.siren.at.getTime() - deviceClock.offsetMs), tz(), {
          seconds: true,
        }),
      }),
    ),
    el(
      "button",
      { type: "button", class: "primary confirm", onclick: recordSiren },
      t("live.confirm"),
    ),
    el("button", { type: "button", class: "cancel", onclick: cancelSiren }, t("live.cancel")),
  );
  box.hidden = false;
}

function cancelSiren() {
  state.siren = null;
  $("siren-confirm").hidden = true;
}

async function recordSiren() {
  const { kind, at } = state.siren;
  const result = $("siren-result");
  cancelSiren();
  const payload = {
    id: uuid4(),
    round: ROUND,
    kind,
    at: isoWithOffset(at),
    device_time: isoWithOffset(),
  };
  try {
    const ack = await request(state.socket, "record_siren", payload);
    if (ack && ack.ok) {
      result.className = "ok";
      result.textContent = t("dash.siren.recorded", {
        kind: t(`dash.siren.${kind}`),
        time: clock(ack.at, tz(), { seconds: true }),
      });
    } else {
      showError(result, errorText(ack));
      result.className = "error";
    }
  } catch (err) {
    showError(result, t("live.offline_short"));
    result.className = "error";
  }
  result.hidden = false;
}
