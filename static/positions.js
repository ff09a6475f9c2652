// The group's phone shares its position (issue 48; docs/positions.md, "On the scorer's phone").
//
// Once the round allows positions and the page has chosen its group, the page asks once, in
// plain words. On yes it watches the phone's position (navigator.geolocation.watchPosition,
// high accuracy) and keeps a fix when 15 s have passed since the last one kept and the group
// moved 10 m, or 30 s when it stands still (asking the phone for a fresh fix then: a phone
// that does not move may say nothing), 15 s once the hole in play is due (the group's own
// pace says when: a fix on the hole then proves the group late before it leaves, issue 48).
// Kept fixes go in batches (`send_positions`, at most 40 a message; every 30 s or as soon as
// 10 wait) through an outbox of queue.js: kept on the
// device, sent in order when connected, resent with the same id. The consent
// (`share_positions`, share true) and the stop (false) go through the same outbox, so the
// server always reads them in the order they were made.
//
// Browsers give positions only to a visible page of a secure origin: the page stops watching
// when it is hidden and starts again when it is visible. A locked phone's silence is a gap,
// never a fix made up. Every instant is the page's clock (the server's on a fast demo clock,
// docs/protocol.md "The server's rate"), exactly as a tap's.
import { deviceClock, isoWithOffset, load, pageInstant, save, uuid4 } from "./common.js";
import { Outbox } from "./queue.js";

/** The page's cadence (docs/positions.md): seconds and metres on the page's clock. */
export const CADENCE = {
  movingS: 15, // a fix kept at most every 15 s while the group moves...
  movedM: 10, // ...by at least 10 m
  standingS: 30, // and every 30 s when it stands still...
  dueS: 15, // ...every 15 s once the hole in play is due
  batchS: 30, // a batch goes every 30 s...
  batchFixes: 10, // ...or as soon as 10 fixes wait
  maxFixes: 40, // the server's bound on one message
};
const TICK_MS = 1000;
const EARTH_M = 6371008.8;
// a refusal that means the server takes no more of this group's positions from this phone
const STOPPING = new Set(["no_consent", "positions_off", "round_finished", "forbidden",
  "unknown_group"]);

/** Return the distance in metres between two fixes ({lon, lat}). */
export function metres(a, b) {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Return whether `fix` ({ms, lon, lat}) is kept after `last` (the last one kept, or null);
 * `due`: when the group's hole in play is due (ms on the page's clock), or null. */
export function keeps(last, fix, cadence = CADENCE, due = null) {
  if (!last) return true;
  const seconds = (fix.ms - last.ms) / 1000;
  // standing long enough, or far back: the page's clock was set again (it learnt the
  // server's), start over
  if (seconds >= cadence.standingS || seconds <= -cadence.standingS) return true;
  if (due !== null && fix.ms >= due && seconds >= cadence.dueS) return true;
  return seconds >= cadence.movingS && metres(last, fix) >= cadence.movedM;
}

/** Return the seconds after the last fix kept that the page asks for a fresh one. */
export function standing(now, due, cadence = CADENCE) {
  return due !== null && now >= due ? cadence.dueS : cadence.standingS;
}

export class PositionSharer {
  /**
   * The sharing of round `round`'s chosen group: `changed()` is called whenever what the page
   * shows of it changes; `online()` says whether the page's socket is connected (true),
   * not (false) or not known yet (null).
   */
  constructor(round, { changed, online }) {
    this.round = round;
    this.changed = changed;
    this.online = online;
    this.outbox = new Outbox(`pace.positions.${round}`, () => {
      this.readAnswers();
      this.changed();
    });
    this.group = "";
    this.allowed = false;
    this.choice = null; // {share, consent, since} of this round and group, from localStorage
    this.pending = []; // kept fixes not yet batched: {ms, fix}
    this.last = null; // the last fix kept: {ms, lon, lat}
    this.lastAt = null; // its instant, shown on the page
    this.due = null; // when the hole in play is due (ms on the page's clock), from its own pace
    this.early = null; // a position read before the page knew the server's clock
    this.watchId = null;
    this.polling = false;
    this.problem = ""; // "", "denied", "unavailable", "insecure", "no_api"
    this.refusal = ""; // the server's refusal that stopped the sharing
    this.awake = load(this.awakeKey(), false) === true;
    this.awakeFailed = false;
    this.lock = null;
    document.addEventListener("visibilitychange", () => this.visibility());
    setInterval(() => this.tick(), TICK_MS);
  }

  choiceKey(group = this.group) {
    return `pace.positions.choice.${this.round}.${group}`;
  }

  pendingKey(group = this.group) {
    return `pace.positions.pending.${this.round}.${group}`;
  }

  awakeKey() {
    return `pace.positions.awake.${this.round}`;
  }

  /** What the page shows: "" (nothing), "ask", "on" or "off". */
  view() {
    if (!this.allowed || !this.group) return "";
    if (!this.choice) return "ask";
    return this.choice.share ? "on" : "off";
  }

  /** The page chose `group` (or none), in a round that allows positions or not. */
  setGroup(group, allowed) {
    if (group !== this.group) {
      this.flush(); // what the first group's phone kept goes, as that group's
      this.pause();
      this.group = group;
      this.choice = group ? load(this.choiceKey(), null) : null;
      this.pending = group ? load(this.pendingKey(), []) : [];
      if (!Array.isArray(this.pending)) this.pending = [];
      this.last = null;
      this.lastAt = null;
      this.due = null;
      this.refusal = "";
    }
    this.allowed = Boolean(allowed);
    if (this.sharing()) this.resume();
    else this.pause();
    this.changed();
  }

  sharing() {
    return Boolean(this.allowed && this.group && this.choice && this.choice.share);
  }

  /** The group agrees: "Share my group's position". */
  consent() {
    this.choice = { share: true, consent: null, since: isoWithOffset() };
    this.refusal = "";
    this.problem = ""; // asked again: the browser says again if it still refuses
    save(this.choiceKey(), this.choice);
    this.resume();
    this.changed();
  }

  /** "Share our position…" after a "Not now" or a stop: the question again, in full. */
  ask() {
    this.choice = null;
    this.refusal = "";
    if (this.problem === "denied") this.problem = ""; // the browser says again if it still refuses
    this.changed();
  }

  /** "Not now": asked again only from the button that offers it. */
  decline() {
    this.choice = { share: false, consent: null, since: isoWithOffset() };
    save(this.choiceKey(), this.choice);
    this.changed();
  }

  /** "Stop sharing": what was kept goes, then the stop; nothing more after it. */
  stop() {
    this.flush();
    this.pause();
    if (this.choice && this.choice.consent) {
      this.outbox.add("share_positions", this.share(false), { group: this.group });
    }
    this.choice = { share: false, consent: null, since: isoWithOffset() };
    save(this.choiceKey(), this.choice);
    this.releaseLock();
    this.changed();
  }

  share(on) {
    return { id: uuid4(), round: this.round, group: this.group, share: on,
      device_time: isoWithOffset() };
  }

  // -- watching ------------------------------------------------------------------------------

  /** Why this page can never read the phone's position: "insecure", "no_api", or "". */
  blocked() {
    if (!window.isSecureContext) return "insecure";
    if (!("geolocation" in navigator)) return "no_api";
    return "";
  }

  /** Start watching, if the page may and can. */
  resume() {
    this.problem = this.blocked() || (this.problem === "denied" ? "denied" : this.problem);
    if (this.problem === "insecure" || this.problem === "no_api") return;
    if (this.problem === "denied" || document.visibilityState !== "visible") return;
    if (this.watchId === null) {
      this.watchId = navigator.geolocation.watchPosition(
        (p) => this.position(p),
        (err) => this.failed(err),
        { enableHighAccuracy: true, maximumAge: 0, timeout: 60000 },
      );
    }
    this.keepAwake();
  }

  /** Stop watching (the page is hidden, another group chosen, sharing stopped). */
  pause() {
    this.early = null;
    if (this.watchId !== null) {
      navigator.geolocation.clearWatch(this.watchId);
      this.watchId = null;
    }
  }

  visibility() {
    if (document.visibilityState === "visible") {
      if (this.sharing()) this.resume();
    } else {
      this.pause(); // hidden: no fix until it is visible again, a gap
      this.flush();
    }
    this.changed();
  }

  /** The group's own pace was read: `due` is when its hole in play is due (an ISO instant of
   * the server's clock, or null: not started, or all played). */
  setDue(group, due) {
    if (group !== this.group) return;
    const ms = due ? Date.parse(due) : NaN;
    this.due = Number.isNaN(ms) ? null : ms;
  }

  /** A position from the phone: kept if the cadence says so. */
  position(p) {
    if (!this.sharing() || document.visibilityState !== "visible") return;
    if (this.problem) {
      this.problem = "";
      this.changed();
    }
    // the server's clock not read yet while the page connects (a fast demo clock): wait for
    // it; with no signal at all the phone's own clock is used, the server corrects it
    if (this.online() !== false && !deviceClock.measured) {
      this.early = p; // read again once the clock is known (its instant is the phone's)
      return;
    }
    if (!this.choice.consent) {
      // the first position read: the group's consent goes first, then its fixes
      const command = this.share(true);
      this.choice.consent = command.id;
      save(this.choiceKey(), this.choice);
      this.outbox.add("share_positions", command, { group: this.group });
    }
    const c = p.coords;
    const ms = pageInstant(p.timestamp || Date.now()).getTime();
    const fix = { ms, lon: c.longitude, lat: c.latitude };
    if (!keeps(this.last, fix, CADENCE, this.due)) return;
    this.last = fix;
    this.lastAt = new Date(ms);
    this.pending.push({
      ms,
      fix: {
        at: isoWithOffset(new Date(ms)),
        lon: Math.round(c.longitude * 1e7) / 1e7,
        lat: Math.round(c.latitude * 1e7) / 1e7,
        accuracy: Math.round((c.accuracy || 0) * 10) / 10,
      },
    });
    save(this.pendingKey(), this.pending);
    if (this.pending.length >= CADENCE.batchFixes) this.flush();
    this.changed();
  }

  failed(err) {
    if (err.code === 1) {
      // PERMISSION_DENIED: said plainly, and the sharing stops (a consent already sent is
      // followed by its stop): nothing more is sent until the group asks again
      this.stop();
      this.problem = "denied";
    } else if (err.code === 2 && this.lastAt === null) {
      // POSITION_UNAVAILABLE before any position: said; the watch goes on (once positions
      // come, a passing failure between two of them is only a gap)
      this.problem = "unavailable";
    } // TIMEOUT: nothing read for a while, the watch goes on (a gap)
    this.changed();
  }

  /** Every second: a batch due, or a fresh fix asked of a phone standing still. */
  tick() {
    if (!this.sharing() || this.watchId === null) return;
    if (this.early && (this.online() === false || deviceClock.measured)) {
      const p = this.early;
      this.early = null;
      this.position(p);
    }
    const now = pageInstant(Date.now()).getTime();
    if (this.pending.length && now - this.pending[0].ms >= CADENCE.batchS * 1000) this.flush();
    const still = !this.last || now - this.last.ms >= standing(now, this.due) * 1000;
    if (!this.polling && !this.early && still) {
      this.polling = true;
      navigator.geolocation.getCurrentPosition(
        (p) => {
          this.polling = false;
          this.position(p);
        },
        (err) => {
          this.polling = false;
          if (err.code === 1) this.failed(err);
        },
        { enableHighAccuracy: true, maximumAge: 0, timeout: 20000 },
      );
    }
  }

  /** Queue the kept fixes, at most 40 a message, each batch with its own id. */
  flush() {
    if (!this.group || !this.choice || !this.choice.consent) return;
    while (this.pending.length) {
      const batch = this.pending.splice(0, CADENCE.maxFixes);
      this.outbox.add(
        "send_positions",
        {
          id: uuid4(),
          round: this.round,
          group: this.group,
          consent_id: this.choice.consent,
          fixes: batch.map((b) => b.fix),
          device_time: isoWithOffset(),
        },
        { group: this.group, count: batch.length },
      );
    }
    save(this.pendingKey(), this.pending);
  }

  /** The positions waiting on this phone: kept, or in a batch not acknowledged yet. */
  waiting() {
    const queued = this.outbox
      .pending()
      .filter((e) => e.kind === "send_positions" && e.group === this.group)
      .reduce((n, e) => n + (e.count || 0), 0);
    return queued + this.pending.length;
  }

  /**
   * The server's answers: a refusal meaning it takes no more of this group's positions from
   * this phone (no consent, positions off, the round finished) stops the sharing here, said
   * in the page's language; another refused batch is dropped, and the queue goes on.
   */
  readAnswers() {
    if (!this.choice || !this.choice.share) return;
    const since = Date.parse(this.choice.since) || 0;
    const stopping = this.outbox.entries.find(
      (e) =>
        e.state === "refused" && e.group === this.group && STOPPING.has(e.code) &&
        (Date.parse(e.created) || 0) >= since,
    );
    if (!stopping) return;
    this.pause();
    this.pending = [];
    save(this.pendingKey(), this.pending);
    this.choice = { share: false, consent: null, since: isoWithOffset() };
    save(this.choiceKey(), this.choice);
    this.refusal = stopping.error || stopping.code;
    this.releaseLock();
  }

  // -- the screen ----------------------------------------------------------------------------

  /** Whether the Screen Wake Lock API is there (the toggle is hidden otherwise). */
  canKeepAwake() {
    return "wakeLock" in navigator;
  }

  setAwake(on) {
    this.awake = on;
    this.awakeFailed = false;
    save(this.awakeKey(), on);
    if (on) this.keepAwake();
    else this.releaseLock();
    this.changed();
  }

  keepAwake() {
    if (!this.awake || !this.canKeepAwake() || this.lock || !this.sharing()) return;
    if (document.visibilityState !== "visible") return;
    navigator.wakeLock
      .request("screen")
      .then((lock) => {
        if (!this.awake || !this.sharing()) {
          lock.release();
          return;
        }
        this.lock = lock;
        this.awakeFailed = false;
        // the browser lets it go when the page is hidden: asked again when visible
        lock.addEventListener("release", () => {
          if (this.lock === lock) this.lock = null;
          this.changed();
        });
        this.changed();
      })
      .catch(() => {
        this.awakeFailed = true;
        this.changed();
      });
  }

  releaseLock() {
    const lock = this.lock;
    this.lock = null;
    if (lock) lock.release().catch(() => undefined);
    this.changed();
  }
}
