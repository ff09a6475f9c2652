// The shot clock's commands: every one goes through the outbox of queue.js (its own id, kept
// on the phone, sent again with the same id until the server answers), and the answer of a
// confirmed one is applied here (a timed stroke's carries its verdict, a decision its timing).
import { deviceNow, isoWithOffset, uuid4 } from "../common.js";
import { Outbox } from "../queue.js";
import { KEYS, ROUND, heard, heardSince, redraw, state } from "./state.js";

/** The outbox of queue.js, applying each answer: a timed stroke's ack carries its verdict. */
class RefereeOutbox extends Outbox {
  /** Called when the server holds no spell where this page saw one (feed.js joins again). */
  stale = () => {};

  async send(entry) {
    const mark = heard.count;
    const went = await super.send(entry);
    if (entry.state === "confirmed" && entry.ack) {
      confirmed(entry, mark);
      this.update();
    } else if (entry.state === "refused" && entry.code === "not_timed") {
      // what the page holds is stale: read it again, once
      this.stale();
    }
    return went;
  }
}

export const outbox = new RefereeOutbox(
  KEYS.outbox,
  () => {
    redraw.bar();
    redraw.log();
    redraw.panel();
  },
  { keepAcks: true },
);

/**
 * A command was confirmed (`mark`: what the page had heard when it was sent): its ack is
 * applied; what else it changed (penalty rows, rows, prompts) comes as the round's deltas.
 */
function confirmed(entry, mark) {
  // an answer that carries the group's timing is applied at once: no second decision (unless
  // a delta or a snapshot told of the group's timing since: it is as new, or newer)
  const group = entry.payload.group;
  if (entry.ack.timing && state.snapshot && !heardSince(group, mark)) {
    state.snapshot.timing[group] = entry.ack.timing;
    if (!entry.ack.timing.timed) state.prompts.delete(group);
  }
  if (entry.kind === "stop_timing") {
    // a stop after the spell ended by itself says the players were told: no reminder
    const spells = (entry.ack.timing && entry.ack.timing.spells) || [];
    const last = spells[spells.length - 1];
    const ended = last && last.ended_by === "back_in_position";
    state.stoppedNote = ended ? null : entry.payload.group;
    state.prompts.delete(entry.payload.group);
  }
  redraw.groups();
}

/** Is a command of `kind` for which `test(payload)` holds still waiting for its answer? */
export function pendingFor(kind, test = () => true) {
  return outbox
    .pending()
    .some((e) => e.kind === kind && e.payload.round === ROUND && test(e.payload));
}

/**
 * Queue a command. Every command but a timed stroke (which has its start and stop) carries
 * `at`, this device's instant of the act: sent later from the outbox, it still records when
 * the referee acted (the server corrects it with `device_time`, rewritten at each send).
 */
export function command(kind, fields) {
  const now = isoWithOffset(deviceNow());
  const when = kind === "record_stroke" ? {} : { at: now, device_time: now };
  return outbox.add(kind, { id: uuid4(), round: ROUND, ...when, ...fields });
}

export function tellTimed(group, player) {
  if (pendingFor("tell_player_timed", (p) => p.group === group && p.player === player)) return;
  command("tell_player_timed", { group, player });
}

export function notify(group, player, fault) {
  const same = (p) => p.group === group && p.player === player && p.fault === fault;
  if (pendingFor("notify_player", same)) return;
  command("notify_player", { group, player, fault });
}
