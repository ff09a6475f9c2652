// The referees' dashboard: the field as groups × holes, the open alerts with acknowledge,
// a group's detail, and the committee's sirens. The page lives on the round's deltas (rows,
// alerts, penalties, timing and parts of the snapshot, numbered by `rev`): it applies each
// in turn and reads the snapshot again only when it missed one (docs/protocol.md, "Deltas").
// A late group's minutes are projected here from its row's `at` and `moving`.
//
// This module puts the page together; its parts are in static/dashboard/: state.js (what the
// page holds), feed.js (the socket and the round's deltas), and the views: grid.js (the
// field), alerts.js, panels.js (penalties, held up), detail.js (a group's), sirens.js.
import { rememberLanguage } from "./common.js";
import { setupDetail } from "./dashboard/detail.js";
import { start } from "./dashboard/feed.js";
import { setupSirens } from "./dashboard/sirens.js";
import { setupStrip } from "./dashboard/strip.js";

rememberLanguage();
setupDetail();
setupSirens();
setupStrip();
start();
