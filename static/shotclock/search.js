// The lost-ball search timer: the minutes the policy allows counted down on this phone, a
// buzz at the limit. Nothing of it is sent to the server.
import { t } from "../common.js";
import { seconds } from "../penalties.js";
import { $, policy, state } from "./state.js";

function mmss(s) {
  const whole = Math.max(0, Math.floor(s));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

export function tickSearch() {
  const limit = policy().ball_search_s;
  $("search-limit").textContent = t("clock.search_limit", { min: seconds(limit / 60) });
  const s = state.search;
  const box = $("search-time");
  if (!s) {
    box.textContent = mmss(limit);
    box.className = "search-time idle";
  } else {
    const elapsed = ((s.stopped || new Date()).getTime() - s.started.getTime()) / 1000;
    const left = limit - elapsed;
    box.textContent = left > 0 ? mmss(Math.ceil(left)) : `+${mmss(-left)}`;
    box.className = `search-time ${left > 0 ? (left <= 30 ? "near" : "running") : "over"}`;
    box.title = left > 0 ? "" : t("clock.search_over");
    if (left <= 0 && !s.stopped && !s.buzzed) {
      s.buzzed = true;
      if (navigator.vibrate) navigator.vibrate([600, 200, 600]);
    }
  }
  $("search-start").hidden = Boolean(s && !s.stopped);
  $("search-stop").hidden = !(s && !s.stopped);
  $("search-reset").hidden = !(s && s.stopped);
}

export function setupSearch() {
  $("search-start").addEventListener("click", () => {
    state.search = { started: new Date(), stopped: null };
    tickSearch();
  });
  $("search-stop").addEventListener("click", () => {
    if (state.search) state.search.stopped = new Date();
    tickSearch();
  });
  $("search-reset").addEventListener("click", () => {
    state.search = null;
    tickSearch();
  });
}
