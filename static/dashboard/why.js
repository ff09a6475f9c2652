// Why a group was named: an alert's explanation (pace.rules.explain, docs/explanations.md),
// said in the page's language with the report's words (`words.explain.*`, given to the page
// by pace/web/dashboard/pages.py), behind a "Why" the referee opens to show the players: the
// figures, the verdict they give, the groups waiting behind, and the facts with who logged
// them. The snapshot and the feed list alerts without it: it is fetched when the referee
// opens "Why" (GET /api/rounds/<round>/alerts/<key>, docs/protocol.md), once per alert.
import { clock, el, errorText, t, tenths, tn } from "../common.js";
import { ROUND, tz } from "./state.js";

/** Minutes as the report writes them: whole, else to a tenth (`6`, `0,5` in French). */
function m(value) {
  if (value === null || value === undefined) return "";
  return tenths(value);
}

/** The explanation's sentences: its figures, the gap, the verdict, who waits behind. */
export function sentences(x) {
  let parts = "";
  if (x.stopped_min) parts += t("words.explain.stopped", { minutes: m(x.stopped_min) });
  if (x.credited_min) parts += t("words.explain.credited", { minutes: m(x.credited_min) });
  const deductions = parts
    ? t("words.explain.deductions", { clock: m(x.clock_min), start: clock(x.start, tz()), parts })
    : "";
  const figures = {
    group: x.group,
    players: tn("words.explain.players", x.size, { count: x.size }),
    hole: x.hole,
    elapsed: m(x.elapsed_min),
    deductions,
    allotted: m(x.allotted_min),
    over: m(x.over_min),
  };
  const completion = x.basis === "completion";
  const out = [
    completion
      ? t("words.explain.completion", { ...figures, time: clock(x.reference, tz()) })
      : t("words.explain.projection", { ...figures, time: clock(x.at, tz()) }),
  ];
  if (x.lead) {
    out.push(t("words.explain.lead"));
  } else if (x.gap_min !== null && x.gap_min !== undefined) {
    const aheadAt = x.timeline.find((line) => line.kind === "ahead");
    out.push(
      t(completion ? "words.explain.gap" : "words.explain.gap_now", {
        ahead: x.ahead ?? "?",
        hole: x.hole,
        ahead_time: aheadAt ? clock(aheadAt.at, tz()) : "",
        gap: m(x.gap_min),
        limit: m(x.limit_min),
      }),
    );
  } else {
    out.push(
      t(completion ? "words.explain.nobody_ahead" : "words.explain.hole_occupied", { hole: x.hole }),
    );
  }
  out.push(t("words.explain.verdict", { status: t(`words.status.${x.status}`) }));
  const held = x.subject === "held_up";
  if (x.behind.length) {
    // a hold-up says each follower's gap to the group ahead of it too (how close it was)
    const list = x.behind.map((b) =>
      held && b.gap_min !== null && b.gap_min !== undefined
        ? t("words.explain.waiting_gap", { group: b.group, over: m(b.over_min), gap: m(b.gap_min) })
        : t("words.explain.waiting", { group: b.group, over: m(b.over_min) }));
    out.push(t("words.explain.behind", { list: list.join("; ") }));
  } else if (x.subject === "out_of_position") {
    out.push(t("words.explain.nobody_behind"));
  }
  return out;
}

/** One line of the timeline, with who logged its fact and the event's id. */
export function line(item) {
  const vars = {
    group: item.group ?? "",
    hole: item.hole ?? "",
    player: item.detail ?? "",
    minutes: m(item.minutes),
    over: m(item.minutes),
    reason: item.detail || t("words.reason.other"),
    status: item.detail ? t(`words.status.${item.detail}`) : "",
  };
  let said =
    item.kind === "siren"
      ? t(`words.explain.line.siren.${item.detail}`, vars)
      : t(`words.explain.line.${item.kind}`, vars);
  if (item.fact) {
    said += t("words.explain.source", { by: item.fact.by, id: item.fact.id.slice(0, 8) });
    if (item.fact.corrected.length) {
      said += t("words.explain.corrected", { ids: item.fact.corrected.map((id) => id.slice(0, 8)).join(", ") });
    }
  }
  return said;
}

// the alerts whose "Why" is open: the list is drawn again as alerts come and go
const opened = new Set();
// each alert's details as fetched (an alert's explanation never changes once raised)
const fetched = new Map();

/** Fetch alert `key`'s details (its explanation): once, then from memory. */
function details(key) {
  if (!fetched.has(key)) {
    const url = `/api/rounds/${encodeURIComponent(ROUND)}/alerts/${encodeURIComponent(key)}`;
    const answer = fetch(url, { headers: { Accept: "application/json" } })
      .then((r) => r.json())
      .then((body) => {
        if (!body.ok) throw new Error((body.error && body.error.message) || "not found");
        return body.alert;
      });
    answer.catch(() => fetched.delete(key)); // asked again at the next opening
    fetched.set(key, answer);
  }
  return fetched.get(key);
}

/** The explanation `x` as the "Why" shows it: its sentences, then its timeline. */
function explained(x) {
  return [
    ...sentences(x).map((s) => el("p", {}, s)),
    el("p", { class: "facts" }, t("words.explain.facts")),
    el(
      "ol",
      { class: "timeline" },
      ...x.timeline.map((item) =>
        el("li", {}, el("span", { class: "when" }, clock(item.at, tz())), " ", line(item)),
      ),
    ),
  ];
}

/** Fill `box` (a "Why" opened) with alert `key`'s explanation, fetched if not yet. */
async function fill(box, key) {
  if (box.dataset.filled) return;
  box.dataset.filled = "1";
  const body = el("div", { class: "why-body" }, el("p", { class: "hint" }, "…"));
  box.append(body);
  try {
    const a = await details(key);
    body.replaceChildren(...(a.explanation ? explained(a.explanation) : []));
  } catch (err) {
    delete box.dataset.filled;
    body.remove();
    box.append(el("p", { class: "error" }, t("live.error", { message: err.message })));
  }
}

/** The alert `key`'s "Why", closed until the referee opens it (and open while he keeps it):
 * its explanation is fetched at the first opening. */
export function whyDetails(key) {
  const box = el(
    "details",
    {
      class: "why",
      ontoggle: (event) => {
        if (event.target.open) {
          opened.add(key);
          fill(box, key);
        } else {
          opened.delete(key);
        }
      },
    },
    el("summary", {}, t("words.explain.title")),
  );
  if (opened.has(key)) {
    box.open = true;
    fill(box, key);
  }
  return box;
}

// the hold-ups' explanations fetched, by the panel row they explain (its group, hole, minutes)
const heldFetched = new Map();

/**
 * The hold-up panel's "Why" of `row` (a `held_up` row of the snapshot): closed, and fetched
 * from `url` (`GET /api/rounds/<round>/held_up/<group>/why`, referees and the committee) only
 * when the referee opens it, so the snapshot never carries it (docs/explanations.md). The
 * holes where the group held the field up come first, then the explanation at the worst one.
 */
export function fetchedWhy(url, row) {
  const key = `held:${row.group}`;
  const version = `${row.group}|${row.hole}|${row.minutes}|${row.groups}`;
  const content = el("div", { class: "why-body" });
  const show = (x) => {
    const holes = t("words.explain.held_holes", { group: row.group, holes: row.holes.join(", ") });
    content.replaceChildren(el("p", { class: "held-holes" }, holes), ...explained(x));
  };
  const load = async () => {
    const known = heldFetched.get(key);
    if (known && known.version === version) return show(known.x);
    content.replaceChildren(el("p", { class: "hint" }, "…"));
    try {
      const response = await fetch(url, { credentials: "same-origin" });
      const answer = await response.json();
      if (!answer.ok) throw new Error(errorText(answer));
      heldFetched.set(key, { version, x: answer.explanation });
      show(answer.explanation);
    } catch (e) {
      content.replaceChildren(el("p", { class: "error", role: "alert" }, e.message || String(e)));
    }
  };
  const details = el(
    "details",
    {
      class: "why held-why",
      open: opened.has(key),
      ontoggle: (event) => {
        if (event.target.open) {
          opened.add(key);
          load();
        } else {
          opened.delete(key);
        }
      },
    },
    el("summary", {}, t("words.explain.title")),
    content,
  );
  return details;
}
