// Shared helpers of the live pages (marshal, shot clock, dashboard, board): texts, ids, times,
// the socket. live.js adds what the pages that follow a whole round (not the marshal) share.
// Plain ES module, no build step. Data is always put in the page with textContent.

const LANG_COOKIE = "pace_lang";
const DEVICE_KEY = "pace.device";

// -- texts ------------------------------------------------------------------------------

// The page's texts come from the server's gettext catalogue (pace/translations), as JSON in
// the page: a text is a string, a plural {one, other}.
let catalogue = null;

function entry(key) {
  if (catalogue === null) {
    const node = document.getElementById("messages");
    catalogue = node ? JSON.parse(node.textContent) : {};
  }
  return Object.prototype.hasOwnProperty.call(catalogue, key) ? catalogue[key] : key;
}

function fillIn(text, vars) {
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : whole,
  );
}

/** Return the text of `key` in the page's language, with `{name}` filled from `vars`. */
export function t(key, vars = {}) {
  const text = entry(key);
  return fillIn(typeof text === "string" ? text : text.one, vars);
}

let plurals = null;

/** Return the text of `key` for `n` things (the language's plural rule), `{n}` filled too. */
export function tn(key, n, vars = {}) {
  const text = entry(key);
  if (typeof text === "string") return fillIn(text, { n, ...vars });
  if (plurals === null) plurals = new Intl.PluralRules(lang());
  return fillIn(plurals.select(n) === "one" ? text.one : text.other, { n, ...vars });
}

/** Return the page's language (the `lang` of <html>). */
export function lang() {
  return document.documentElement.lang || "en";
}

/** Remember a language chosen with `?lang=` in the cookie the server reads, so it sticks. */
export function rememberLanguage() {
  const asked = new URLSearchParams(window.location.search).get("lang");
  if (asked === "en" || asked === "fr" || asked === "nl") {
    document.cookie = `${LANG_COOKIE}=${asked}; path=/; max-age=31536000; SameSite=Lax`;
  }
}

/**
 * The page has its round's data, or knows why it has none: draw the parts it kept out of the
 * page until then (`data-loading` on #app, pace.css), all in the same frame as that data.
 */
export function loaded() {
  document.getElementById("app").removeAttribute("data-loading");
}

// -- ids and storage ----------------------------------------------------------------------

/** Return a random UUID v4 (crypto.randomUUID needs https; getRandomValues does not). */
export function uuid4() {
  if (window.crypto && typeof window.crypto.randomUUID === "function") {
    return window.crypto.randomUUID();
  }
  const b = new Uint8Array(16);
  if (window.crypto && typeof window.crypto.getRandomValues === "function") {
    window.crypto.getRandomValues(b);
  } else {
    for (let i = 0; i < 16; i++) b[i] = Math.floor(Math.random() * 256);
  }
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Return the JSON value stored under `key`, or `fallback`. */
export function load(key, fallback) {
  try {
    const raw = window.localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch (e) {
    console.warn("pace: cannot read", key, e);
    return fallback;
  }
}

/** Store `value` as JSON under `key`. */
export function save(key, value) {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch (e) {
    console.error("pace: cannot store", key, e);
  }
}

/** Return this browser's device id: random, made once, kept in localStorage. */
export function deviceId() {
  let id = load(DEVICE_KEY, null);
  if (typeof id !== "string" || !id) {
    id = uuid4();
    save(DEVICE_KEY, id);
  }
  return id;
}

// -- time -----------------------------------------------------------------------------------

const pad = (n, width = 2) => String(Math.trunc(Math.abs(n))).padStart(width, "0");

/** Return `date` as ISO 8601 in the device's local time with its offset (…T10:42:05.123+02:00). */
export function isoWithOffset(date = deviceNow()) {
  const off = -date.getTimezoneOffset();
  const sign = off >= 0 ? "+" : "-";
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    `.${pad(date.getMilliseconds(), 3)}${sign}${pad(off / 60)}:${pad(off % 60)}`
  );
}

const formatters = new Map();

function formatter(timeZone, seconds) {
  const key = `${timeZone}|${seconds}`;
  if (!formatters.has(key)) {
    const options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
    if (seconds) options.second = "2-digit";
    try {
      formatters.set(key, new Intl.DateTimeFormat(lang(), { ...options, timeZone }));
    } catch (e) {
      console.warn("pace: unknown time zone", timeZone, e);
      formatters.set(key, new Intl.DateTimeFormat(lang(), options));
    }
  }
  return formatters.get(key);
}

/** Return an instant (ISO text or Date) as HH:MM (or HH:MM:SS) in the round's time zone. */
export function clock(instant, timeZone, { seconds = false } = {}) {
  if (!instant) return "";
  let ms = (instant instanceof Date ? instant : new Date(instant)).getTime();
  if (Number.isNaN(ms)) return "";
  // to the nearest second: a time typed as 10:42:30 and stored a millisecond early reads back
  if (seconds) ms = Math.round(ms / 1000) * 1000;
  return formatter(timeZone, seconds).format(new Date(ms));
}

/** Return the offset of `timeZone` from UTC at `ms` (epoch milliseconds), in milliseconds. */
function zoneOffset(ms, timeZone) {
  const parts = {};
  new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  })
    .formatToParts(new Date(ms))
    .forEach((p) => {
      parts[p.type] = p.value;
    });
  const wall = Date.UTC(
    +parts.year,
    +parts.month - 1,
    +parts.day,
    +parts.hour % 24,
    +parts.minute,
    +parts.second,
  );
  return wall - (ms - (ms % 1000));
}

/** Return the instant (a Date) of wall-clock `hhmm` ("10:42" or "10:42:05") on `day` in `timeZone`. */
export function instantAt(day, hhmm, timeZone) {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day || "");
  const c = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec((hhmm || "").trim());
  if (!d || !c || +c[1] > 23 || +c[2] > 59 || +(c[3] || 0) > 59) return null;
  const wall = Date.UTC(+d[1], +d[2] - 1, +d[3], +c[1], +c[2], +(c[3] || 0));
  let ms = wall - zoneOffset(wall, timeZone);
  ms = wall - zoneOffset(ms, timeZone); // once more, across a DST change
  return new Date(ms);
}

/** Format minutes: signed for "over" (+3.5, −1), one decimal under 10, whole above. */
export function minutes(value, { signed = false } = {}) {
  if (value === null || value === undefined) return "";
  const digits = Math.abs(value) < 10 ? 1 : 0;
  return new Intl.NumberFormat(lang(), {
    maximumFractionDigits: digits,
    minimumFractionDigits: 0,
    signDisplay: signed ? "exceptZero" : "auto",
  }).format(value);
}

/** Format an amount to a tenth, always, in the page's notation (`7.5`, `7,5` in Dutch). */
export function tenth(value) {
  return new Intl.NumberFormat(lang(), {
    minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false,
  }).format(value).replace("-", "−");
}

/** Format an amount whole where it is, else to a tenth, in the page's notation (`6`, `0,5`). */
export function tenths(value) {
  return new Intl.NumberFormat(lang(), { maximumFractionDigits: 1, useGrouping: false })
    .format(value).replace("-", "−");
}

/** Return the colour class of a hole time against its allotment. */
export function overClass(over) {
  if (over === null || over === undefined) return "";
  if (over <= 0) return "t-ok";
  if (over <= 2) return "t-warn";
  return "t-late";
}

// -- DOM --------------------------------------------------------------------------------

/** Build an element: `el("button", {class: "x", onclick: f}, "text", child)`. Text is text. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      node.className = value;
    } else if (name === "dataset") {
      Object.assign(node.dataset, value);
    } else if (value === true) {
      node.setAttribute(name, "");
    } else {
      node.setAttribute(name, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An error paragraph: "Error: …" with the message as text. */
export function errorLine(message) {
  return el("p", { class: "error" }, t("live.error", { message }));
}

/**
 * What a page knows of its connection before its socket has tried: nothing (null) unless the
 * device itself says it has no network (false). "Offline" shown before the first try would
 * be untrue, and its note would go again a moment later, moving the page under it.
 */
export function connectionAtStart() {
  return navigator.onLine ? null : false;
}

/** Show the connection state in the bar's `node` (#conn): a colour and words; null (not known
 * yet) leaves the page's "…". */
export function showConnection(node, online) {
  if (online === null) return;
  node.className = `conn ${online ? "on" : "off"}`;
  node.textContent = online ? t("live.online") : t("live.offline_short");
}

/**
 * An outbox entry in the page's list of my actions: what, when, its state, and why it was
 * refused; the caller adds its notes and buttons.
 */
export function entryItem(e, what, when) {
  const item = el(
    "li",
    { class: `entry st-${e.state}`, dataset: { id: e.id, kind: e.kind, state: e.state } },
    el(
      "div",
      { class: "line" },
      el("span", { class: "what" }, what),
      el("span", { class: "when" }, when),
      el("span", { class: `state st-${e.state}` }, t(`marshal.state.${e.state}`)),
    ),
  );
  if (e.error && e.state !== "confirmed") item.append(el("p", { class: "error" }, e.error));
  return item;
}

/** The button that drops an outbox entry not sent yet, or refused. */
export function removeButton(onclick) {
  return el("button", { type: "button", class: "remove", onclick }, t("marshal.remove"));
}

/** A status badge: a colour and, never colour alone, the status in words. */
export function statusBadge(status) {
  return el("span", { class: `badge s-${status}`, dataset: { status } }, t(`status.${status}`));
}

// -- the socket ---------------------------------------------------------------------------

/**
 * Clock offset of this device: its clock minus the server's, in ms (0 until measured).
 * `rate` is how fast the server's clock runs (1 on a real day; the demo's speed): when it is
 * not 1 the page works on the server's clock, from `anchor` (the server's instant and this
 * device's reading at the last probe or sync), so its taps land at the accelerated instant.
 */
export const deviceClock = { offsetMs: 0, measured: false, rate: 1, anchor: null };

/** Return the page's clock at the real instant `ms` (Date.now() when it was read). */
export function pageInstant(ms = Date.now()) {
  const { rate, anchor } = deviceClock;
  if (rate === 1 || !anchor) return new Date(ms);
  return new Date(anchor.server + (ms - anchor.local) * rate);
}

/** Return the page's clock now: the device's on a real day, the server's on a fast one. */
export function deviceNow() {
  return pageInstant(Date.now());
}

/** Learn the server's rate, and on a fast clock its instant `serverMs` at local `localMs`. */
function anchorClock(rate, serverMs, localMs) {
  deviceClock.rate = typeof rate === "number" && rate > 0 ? rate : 1;
  if (deviceClock.rate !== 1 && !Number.isNaN(serverMs)) {
    deviceClock.anchor = { server: serverMs, local: localMs };
  }
}

/** The pages told to join again spread their reads over this long (ms). */
const JOIN_AGAIN_SPREAD_MS = 1000;

/**
 * Connect to the live endpoint; answer the server's clock probes.
 * The role is the session's (the cookie sent with the handshake), never claimed here.
 * Socket.IO reconnects by itself; `onConnect` runs after every (re)connection, and again
 * when the server asks the page to join again (`join_again`: its worker missed messages).
 */
export function connect({ name = null, onConnect, onStatus }) {
  // global `io` comes from static/vendor/socket.io.min.js (socket.io-client 4.8)
  const socket = window.io({
    auth: { device: deviceId(), name: name || null },
    // websocket first (one round trip less on a weak signal), long-polling if it fails
    transports: ["websocket", "polling"],
    tryAllTransports: true,
  });
  socket.on("clock_probe", (data, ack) => {
    const local = Date.now();
    if (data && data.server_time) {
      const server = Date.parse(data.server_time);
      anchorClock(data.rate, server, local);
      if (!Number.isNaN(server)) {
        deviceClock.offsetMs = pageInstant(local).getTime() - server;
        deviceClock.measured = true;
      }
    }
    if (typeof ack === "function") ack({ device_time: isoWithOffset(pageInstant(local)) });
  });
  socket.on("connect", () => {
    if (onStatus) onStatus(true);
    syncClock(socket);
    if (onConnect) onConnect(socket);
  });
  // several workers: the worker missed some of the others' messages (its link to Redis was
  // cut, or Redis restarted) and asks its pages to read what they show again, each within a
  // second at a moment of its own: not all of a worker's pages at once (docs/protocol.md,
  // "Deltas")
  socket.on("join_again", () => {
    setTimeout(() => {
      if (socket.connected && onConnect) onConnect(socket);
    }, Math.random() * JOIN_AGAIN_SPREAD_MS);
  });
  socket.on("disconnect", () => onStatus && onStatus(false));
  socket.on("connect_error", () => onStatus && onStatus(false));
  // Back in signal: connect now rather than at the end of the growing wait between attempts.
  window.addEventListener("online", () => {
    if (!socket.connected) socket.disconnect().connect();
  });
  return socket;
}

/**
 * Register the service worker (static/sw.js, served at /sw.js) and ask it to keep this page,
 * so it opens with no signal; `saved()` is called once the page and its assets are kept.
 * Service workers need a secure context: https, or http on localhost / 127.0.0.1.
 */
export function keepOffline(saved) {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker
    .register("/sw.js", { scope: "/" })
    .then(() => navigator.serviceWorker.ready)
    .then(
      (registration) =>
        new Promise((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = (ev) => resolve(ev.data && ev.data.ok);
          registration.active.postMessage({ type: "cache-page", url: window.location.href }, [
            channel.port2,
          ]);
        }),
    )
    .then((ok) => ok && saved && saved())
    .catch((e) => console.warn("pace: this page cannot be kept for offline use", e));
}

/** Ask the server for its clock and this connection's measured offset. */
function syncClock(socket) {
  const sent = Date.now();
  socket.timeout(10000).emit("clock_sync", {}, (err, reply) => {
    if (err || !reply || !reply.ok) return;
    const middle = (sent + Date.now()) / 2;
    const server = Date.parse(reply.server_time);
    if (typeof reply.rate === "number" && reply.rate !== 1 && deviceClock.anchor === null) {
      anchorClock(reply.rate, server, middle); // no probe answered yet: start from this one
    }
    if (typeof reply.offset_ms === "number") {
      deviceClock.offsetMs = reply.offset_ms;
    } else {
      if (Number.isNaN(server)) return;
      deviceClock.offsetMs = pageInstant(middle).getTime() - server;
    }
    deviceClock.measured = true;
  });
}

/** Return the server's now, as far as this device knows it. */
export function serverNow() {
  return new Date(deviceNow().getTime() - deviceClock.offsetMs);
}

/**
 * Emit `event` and resolve with its ack; reject when not connected or after `ms` without
 * an answer (the caller keeps the command queued and sends it again, with the same id).
 */
export function request(socket, event, payload, ms = 10000) {
  return new Promise((resolve, reject) => {
    if (!socket.connected) {
      reject(new Error("offline"));
      return;
    }
    socket.timeout(ms).emit(event, payload, (err, ack) => (err ? reject(err) : resolve(ack)));
  });
}

/**
 * Join the round's room with `payload` ({round, …}): `onJoined(snapshot)` when it is let in,
 * `onRefused(message)` when refused. Disconnected meanwhile: "connect" joins again.
 */
export function joinRound(socket, payload, onJoined, onRefused = () => {}) {
  request(socket, "join_round", payload)
    .then((ack) => (ack && ack.ok ? onJoined(ack.snapshot) : onRefused(errorText(ack))))
    .catch(() => {});
}

/** Return the error text of a refused ack. */
export function errorText(ack) {
  // a refusal asked in French or Dutch carries its sentence in that language (`translation`,
  // docs/protocol.md "Errors"); `message` stays English for scripts and logs
  const e = ack && ack.error;
  return (e && (e.translation || e.message || e.code)) || "?";
}

// -- screen readers ---------------------------------------------------------------------

let announced = "";

/**
 * Say `text` through the page's assertive live region (#announce, base.html): what a referee
 * must not miss (a new alert, a bad time, the clock's expiry). The same words twice are made to
 * differ by a no-break space, so a screen reader speaks the second time too.
 */
export function announce(text) {
  const node = document.getElementById("announce");
  if (!node || !text) return;
  announced = text === announced.trim() && !announced.endsWith("\u00a0") ? `${text}\u00a0` : text;
  node.textContent = announced;
}
