// The marshal's outbox: commands made on the phone (each with its own id and device time),
// kept in localStorage so they survive closing the browser, and sent one by one, in order,
// whenever the socket is connected. A resend carries the same id, so the server counts
// nothing twice (docs/offline.md; docs/protocol.md, idempotency).
import { errorText, isoWithOffset, load, request, save } from "./common.js";

/** States of an entry still to be acknowledged. */
export const PENDING = new Set(["queued", "sent"]);
// The server could not store it (docs/protocol.md): keep it queued and resend, same id.
// unauthorized: the session lapsed (or the phone signed out); the tap waits until it signs in again
const RETRY = new Set(["storage_unavailable", "storage_error", "rate_limited", "unauthorized"]);
const KEPT = 40; // acknowledged entries kept as the phone's history
// How far an entry has got: merging two copies keeps an answered one over a waiting one.
// ("sent" is still waiting: the tab that sent it may close before the answer comes.)
const RANK = { queued: 0, sent: 0, confirmed: 1, refused: 1 };

export class Outbox {
  /**
   * An outbox stored under `key`; `changed()` is called after every change of state. With
   * `keepAcks`, a confirmed entry keeps the server's answer as `ack` (the shot clock shows the
   * verdict a timed stroke's answer carries).
   */
  constructor(key, changed, { keepAcks = false } = {}) {
    this.key = key;
    this.keepAcks = keepAcks;
    this.removedKey = `${key}.removed`;
    this.changed = changed;
    this.entries = [];
    this.socket = null;
    this.draining = false;
    this.merge();
    // Entries left "sent" by a closed page were never acknowledged: they go again.
    for (const e of this.entries) if (e.state === "sent") e.state = "queued";
    this.persist();
    // The same page open in another tab writes the same queue: take its taps and answers.
    window.addEventListener("storage", (ev) => {
      if (ev.key !== this.key && ev.key !== this.removedKey && ev.key !== null) return;
      this.merge();
      this.changed();
      this.drain();
    });
  }

  /**
   * Fold in what is stored (another tab may have written since): entries not known here are
   * added in the order they were made, an entry further on there (answered) is taken, and
   * entries removed on purpose stay removed. Nothing known here is ever dropped by a merge.
   */
  merge() {
    const list = (value) => (Array.isArray(value) ? value : []);
    const removed = new Set(list(load(this.removedKey, [])));
    const known = new Map(this.entries.map((e) => [e.id, e]));
    let added = false;
    for (const stored of list(load(this.key, []))) {
      if (!stored || typeof stored.id !== "string" || !stored.payload || removed.has(stored.id))
        continue;
      const mine = known.get(stored.id);
      if (!mine) {
        this.entries.push(stored);
        known.set(stored.id, stored);
        added = true;
      } else if (RANK[stored.state] > RANK[mine.state]) {
        Object.assign(mine, stored);
      }
    }
    this.entries = this.entries.filter((e) => !removed.has(e.id));
    if (added) {
      // stable: taps made in the same millisecond keep their order
      this.entries.sort((a, b) => (Date.parse(a.created) || 0) - (Date.parse(b.created) || 0));
    }
  }

  /** The entries waiting for an acknowledgement, oldest first. */
  pending() {
    return this.entries.filter((e) => PENDING.has(e.state));
  }

  /** The live commands that change entry `id` (undo, corrections). */
  followUps(id) {
    return this.entries.filter((e) => e.payload.target === id && e.state !== "refused");
  }

  persist() {
    this.merge();
    const done = this.entries.filter((e) => !PENDING.has(e.state));
    const drop = new Set(done.slice(0, Math.max(0, done.length - KEPT)).map((e) => e.id));
    this.entries = this.entries.filter((e) => !drop.has(e.id));
    save(this.key, this.entries);
  }

  /** Queue the command `kind` (its payload has its id) and try to send it. */
  add(kind, payload, extra = {}) {
    const entry = { id: payload.id, kind, payload, state: "queued", created: isoWithOffset() };
    Object.assign(entry, extra);
    this.entries.push(entry);
    this.persist();
    this.changed();
    this.drain();
    return entry;
  }

  /** Drop an entry not yet sent, or refused; one in flight waits for its answer. */
  remove(entry) {
    if (entry.state === "sent") return;
    this.entries = this.entries.filter((x) => x !== entry);
    const removed = load(this.removedKey, []);
    save(this.removedKey, [...(Array.isArray(removed) ? removed : []), entry.id].slice(-200));
    this.persist();
    this.changed();
  }

  /** Send the pending commands one by one, in order, while connected. */
  async drain() {
    if (this.draining || !this.socket || !this.socket.connected) return;
    this.draining = true;
    try {
      for (let entry = this.pending()[0]; entry; entry = this.pending()[0]) {
        if (!(await this.send(entry))) break;
      }
    } finally {
      this.draining = false;
    }
  }

  /** Send one entry; return false when it must wait (offline, no answer, server trouble). */
  async send(entry) {
    entry.state = "sent";
    if ("device_time" in entry.payload) entry.payload.device_time = isoWithOffset();
    this.update();
    let ack;
    try {
      ack = await request(this.socket, entry.kind, entry.payload);
    } catch (err) {
      entry.state = "queued"; // offline or no answer in time: again later, same id
      this.update();
      return false;
    }
    const code = ack && ack.error && ack.error.code;
    if (ack && ack.ok) {
      Object.assign(entry, { state: "confirmed", server_at: ack.at, seq: ack.seq, error: "" });
      entry.duplicate = Boolean(ack.duplicate); // a resend that had already arrived
      if (this.keepAcks) entry.ack = ack;
    } else if (RETRY.has(code)) {
      Object.assign(entry, { state: "queued", error: errorText(ack) });
      this.update();
      return false;
    } else {
      Object.assign(entry, { state: "refused", error: errorText(ack), code });
    }
    this.update();
    return true;
  }

  update() {
    this.persist();
    this.changed();
  }
}
