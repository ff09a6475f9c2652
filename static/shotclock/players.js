// The players of the group followed: tap the one who plays next, tell each one the group is
// timed, and see each one's bad times and penalties, with "Player told" where a counted bad
// time waits to be told.
import { el, t, tn } from "../common.js";
import { faultItem, ladderText, penaltyRow, unlistedText } from "../penalties.js";
import { notify, outbox, pendingFor, tellTimed } from "./commands.js";
import { $, paint, redraw, state } from "./state.js";

export function renderPlayers(row, timing) {
  const running = Boolean(state.run && !state.run.stopped);
  const list = $("players");
  $("players-hint").hidden = !timing.timed || running;
  const pend = outbox
    .pending()
    .filter((e) => e.payload.group === row.group)
    .map((e) => [e.kind, e.payload.player, e.payload.fault || ""]);
  const pens = row.players.map((p) => penaltyRow(state.snapshot, row.group, p));
  const sig = [row.group, row.players, timing.timed, timing.told, pens, pend, state.next, running];
  paint(list, sig, () =>
    row.players.map((name, i) => playerItem(row, timing, name, pens[i], running)),
  );
}

function playerItem(row, timing, name, pen, running) {
  const told = (timing.told || []).includes(name);
  const isNext = state.next === name;
  const telling = pendingFor(
    "tell_player_timed",
    (p) => p.group === row.group && p.player === name,
  );
  const item = el("li", {
    class: `player${isNext ? " next" : ""}${pen.disqualified ? " dq" : ""}`,
    dataset: { player: name },
  });
  const head = el(
    "div",
    { class: "player-head" },
    el(
      "button",
      {
        type: "button",
        class: "player-pick",
        "aria-pressed": isNext ? "true" : "false",
        disabled: !timing.timed || running || pen.disqualified,
        onclick: () => {
          state.next = state.next === name ? null : name;
          redraw.panel();
        },
      },
      el("span", { class: "p-name" }, name),
      isNext ? el("span", { class: "next-badge" }, t("clock.next_badge")) : null,
    ),
  );
  if (timing.timed) {
    head.append(
      told
        ? el("span", { class: "told-tick" }, t("clock.told_timed"))
        : el(
            "button",
            {
              type: "button",
              class: "tell-timed",
              disabled: telling,
              onclick: () => tellTimed(row.group, name),
            },
            telling ? t("clock.sending") : `☐ ${t("clock.tell_timed")}`,
          ),
    );
  }
  item.append(head);
  const ladder = el("div", { class: "ladder" }, el("span", {}, ladderText(pen)));
  if (pen.strokes_total)
    ladder.append(
      el("span", { class: "strokes" }, tn("pen.strokes_total", pen.strokes_total)),
    );
  if (pen.disqualified) ladder.append(el("span", { class: "dq-badge" }, t("pen.disqualified")));
  item.append(ladder);
  if ((pen.faults || []).length) {
    item.append(
      el(
        "ol",
        { class: "faults" },
        ...pen.faults.map((f) => playerFault(row.group, name, f)),
      ),
    );
  }
  // the faults that did not count: counted only here (the dashboard's group detail lists them)
  if (unlistedText(pen)) item.append(el("p", { class: "unlisted hint" }, unlistedText(pen)));
  return item;
}

function playerFault(group, player, f) {
  const wait = f.counted && f.awaiting_notification;
  return faultItem(
    f,
    wait,
    wait
      ? notifyButton(group, player, f.id)
      : f.counted
        ? el("span", { class: "f-told" }, `✓ ${t("pen.told")}`)
        : null,
  );
}

/** "Player told": the player was told of bad time `fault` (its id), sent once. */
export function notifyButton(group, player, fault) {
  const sending = pendingFor(
    "notify_player",
    (p) => p.group === group && p.player === player && p.fault === fault,
  );
  return el(
    "button",
    {
      type: "button",
      class: "notify",
      disabled: sending,
      dataset: { fault },
      onclick: () => notify(group, player, fault),
    },
    sending ? t("clock.sending") : t("clock.notify"),
  );
}
