// The referee's shot clock (phone first, docs/rules.md §4–§6): choose the group, decide to time
// it or not, tell each player, time each stroke with one tap to start and one to stop,
// see the verdict and the penalty the server judged, tell players of their bad times,
// grant a time credit, stop timing when the group is back in position; and a lost-ball
// search timer. Every command goes through an outbox (queue.js): it keeps its own id,
// survives a closed page and is sent again, same id, until the server answers.
//
// This module puts the page together; its parts are in static/shotclock/: state.js (what the
// page holds), commands.js (the outbox), feed.js (the socket and the round's deltas), and the
// views: groups.js, panel.js (players.js, clock.js, search.js, stop.js), log.js.
import { rememberLanguage } from "./common.js";
import { TICK_MS, setupClock, tick } from "./shotclock/clock.js";
import { start } from "./shotclock/feed.js";
import { renderGroups } from "./shotclock/groups.js";
import { renderBar, renderLog } from "./shotclock/log.js";
import { renderPanel } from "./shotclock/panel.js";
import { setupSearch } from "./shotclock/search.js";
import { $, redraw, state } from "./shotclock/state.js";
import { setupForms } from "./shotclock/stop.js";

function renderAll() {
  renderBar();
  renderGroups();
  renderPanel();
  renderLog();
}

Object.assign(redraw, {
  all: renderAll,
  bar: renderBar,
  groups: renderGroups,
  panel: renderPanel,
  log: renderLog,
});

rememberLanguage();
setupSearch();
setupForms();
setupClock();
$("groups-box").open = !state.group;
renderAll();
start();
setInterval(tick, TICK_MS);
