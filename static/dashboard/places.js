// Where the groups whose phones share their positions stand on their holes (issue 48): read
// from GET /api/rounds/<round>/places (the committee's and the referees' only) when the page
// opens and every few seconds after; the grid's rows and the strip are drawn again with them.
// A phone sends a fix every 15 s or so: reading more often would show nothing new.
import { $, ROUND, state } from "./state.js";

const PLACES_URL = `/api/rounds/${encodeURIComponent(ROUND)}/places`;
const EVERY_MS = 10000;

export function setupPlaces(onChange) {
  const read = () =>
    fetch(PLACES_URL, { credentials: "same-origin", cache: "no-store" })
      .then((r) => (r.ok ? r.json() : null))
      .then((body) => {
        if (!body || !body.ok) return;
        state.places = body.places || {};
        $("app").dataset.places = String(Object.keys(state.places).length); // read (tests)
        onChange();
      })
      .catch(() => {});
  read();
  setInterval(read, EVERY_MS);
}
