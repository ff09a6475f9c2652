// The shot clock's bar (connection, commands waiting, the round's policy) and the list of my
// actions: the outbox's entries of this round, the latest first, each with its state.
import { clock, el, entryItem, removeButton, showConnection, t } from "../common.js";
import { seconds } from "../penalties.js";
import { outbox } from "./commands.js";
import { $, ROUND, allowance, policy, state, tz } from "./state.js";

export function renderBar() {
  showConnection($("conn"), state.online);
  const count = outbox.pending().length;
  const box = $("pending");
  box.dataset.count = String(count);
  box.className = `pending ${count ? "waiting" : "clear"}`;
  box.textContent = count ? t("clock.pending", { count }) : t("clock.pending_none");
  const p = policy();
  const detail = state.snapshot && state.snapshot.policy_detail;
  $("policy").className = `policy${detail && detail.error ? " error" : ""}`;
  $("policy").textContent = !detail
    ? ""
    : detail.error
      ? t("live.error", { message: detail.error })
      : t("clock.policy", {
          name: p.name,
          allowed: allowance("other"),
          extra: allowance("chip_putt"),
        });
}

function entryLabel(e) {
  const p = e.payload;
  switch (e.kind) {
    case "decide_timing":
      return t(`clock.log.decide_timing.${p.decision}`, {
        group: p.group,
        reason: p.reason ? t(`timing.reason.${p.reason}`) : "",
      });
    case "record_stroke":
      return t("clock.log.record_stroke", {
        player: p.player,
        hole: p.hole,
        duration: seconds((Date.parse(p.stopped) - Date.parse(p.started)) / 1000),
      });
    case "grant_time_credit":
      return t("clock.log.grant_time_credit", p);
    default:
      return t(`clock.log.${e.kind}`, p);
  }
}

export function renderLog() {
  const list = $("log");
  const entries = outbox.entries
    .filter((e) => e.payload.round === ROUND)
    .slice()
    .reverse()
    .slice(0, 20);
  if (entries.length === 0) {
    list.replaceChildren(el("li", { class: "hint" }, t("clock.no_log")));
    return;
  }
  list.replaceChildren(
    ...entries.map((e) => {
      const when = e.server_at ? clock(e.server_at, tz(), { seconds: true }) : "";
      const item = entryItem(e, entryLabel(e), when);
      if (e.state === "refused" || e.state === "queued") {
        item.append(el("div", { class: "actions" }, removeButton(() => outbox.remove(e))));
      }
      return item;
    }),
  );
}
