"""Which worker ticks a round: a lease in Redis, renewed while its holder lives.

Each worker that runs a scheduler claims the rounds in play every third of ``seconds``: a
round's lease key is set to the worker's id if nobody holds it, and its expiry pushed back if
the worker holds it already (one Lua script, so the check and the write are one step in
Redis). A worker that dies stops renewing: its leases expire and another worker's next claim
takes each round over, within about ``seconds`` and a third. A worker that cannot reach Redis
counts its leases as lost once they would have expired, so it stops ticking about when the
others may start.

The rounds are shared out among the workers (issue 50): each claim also beats (the worker's
name in a sorted set scored with Redis's own clock, ``BEAT``; those not heard within half a
renewal less than a lease are dropped, so a dead worker is dropped before its leases run
out), and every worker reads the same assignment from the same lists (``assign``): each
round, in name order, goes to the first of its workers by a hash of (worker, round)
(rendezvous hashing) that holds fewer than its share (the rounds over the workers alive,
rounded up): consistent hashing with bounded loads. A worker takes a free round only if the
round is assigned to it. A worker holding more than its share (after a crash, the workers
left took the dead one's rounds; then it came back) releases the excess, rounds assigned to
another worker that has beaten for a whole lease, which takes them at its next claim; a
round stays where it is otherwise. A free round nobody takes (its worker beats but does not
claim, stuck) is taken by any worker once it has been free for a lease.

A lease is an optimisation of work, not the guard of a fact: two workers ticking one round
during a hand-over raise nothing twice, because an alert's event id derives from its key
and the store keeps one event per id.

A holder that dies between storing a tick's alerts and announcing them would leave the pages
of the other workers without them: so the ticking worker keeps, beside the lease, the mark of
the log it has announced the alerts of (``mark_announced``, the round's log position after
each announcement), and a worker that takes a round over announces the alert events stored
after that mark first (``announced``). Only a holder moves the mark: a worker that announces
its own command's alerts because the holder did not hear its nudge (dead, until its lease runs
out) notes their event ids instead (``note_told``), and the worker taking over leaves those out
(``told``), so what the dead holder stored is announced and nothing is announced twice. A holder
killed after its announcement but before its mark has its alerts announced twice; the pages
keep one alert per key.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

#: set the key to the worker if free, renew it if the worker's; 1 when held afterwards
CLAIM = """
local holder = redis.call('GET', KEYS[1])
if not holder then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
    return 1
end
if holder == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return 1
end
return 0
"""

#: delete the key if the worker holds it (a clean shutdown hands the round over at once)
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


#: raise the round's announced mark to ARGV[1] (never lower it), kept ARGV[2] ms
MARK = """
local mark = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > mark then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
    return tonumber(ARGV[1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return mark
"""

#: note the worker alive (scored with Redis's clock, in ms), forget those not heard within
#: ARGV[2] ms, and return the workers alive
BEAT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 10)
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""


def preference(worker: str, round: str) -> int:
    """Return how much ``worker`` is preferred to tick ``round`` (rendezvous hashing: the
    worker scoring highest among those alive is the round's preferred worker)."""
    digest = hashlib.blake2b(f"{worker}\n{round}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def assign(rounds: Iterable[str], workers: Iterable[str]) -> dict[str, str]:
    """Return the worker each of ``rounds`` is assigned to (module docstring): in the rounds'
    name order, the first of the round's workers by ``preference`` holding fewer than its
    share. The same lists give the same assignment on every worker."""
    names = sorted(set(workers))
    wanted = sorted(set(rounds))
    if not names:
        return {}
    share = math.ceil(len(wanted) / len(names))
    load = dict.fromkeys(names, 0)
    out: dict[str, str] = {}
    for round in wanted:
        for worker in sorted(names, key=lambda w: (-preference(w, round), w)):
            if load[worker] < share:
                out[round] = worker
                load[worker] += 1
                break
    return out


#: how long a round's announced mark is kept after its last announcement (a round is a day)
MARK_MS = 3 * 24 * 3600 * 1000


@dataclass
class RoundLeases:
    """The tick leases of one deployment's rounds, as seen by one worker."""

    redis: Any
    worker: str
    seconds: float
    prefix: str
    clock: Callable[[], float] = time.monotonic
    #: the rounds this worker holds, and until when (its own clock) it may count on each
    held: dict[str, float] = field(default_factory=dict)
    #: the holder of each round last seen, and until when that answer is trusted
    seen: dict[str, tuple[str | None, float]] = field(default_factory=dict)
    #: the workers alive at the last claim, and since when (this worker's clock) each is seen
    alive: dict[str, float] = field(default_factory=dict)
    #: the workers that stopped beating since the last claim (their leases run out within
    #: half a renewal: ``PaceScheduler.claim`` claims again then)
    vanished: set[str] = field(default_factory=set)
    #: the rounds seen free at a claim and not this worker's to take, since when
    free_since: dict[str, float] = field(default_factory=dict)
    #: the last assignment worked out, and the (workers alive, rounds) it is of
    _assigned: tuple[Any, dict[str, str]] = field(default=(None, {}), repr=False)

    def __post_init__(self) -> None:
        self._beat = self.redis.register_script(BEAT)
        self._claim = self.redis.register_script(CLAIM)
        self._release = self.redis.register_script(RELEASE)
        self._mark = self.redis.register_script(MARK)

    @property
    def beat_ms(self) -> int:
        """Return how long a worker's beat counts (ms): half a renewal less than a lease, so a
        dead worker is no longer counted when its leases run out, and the rounds are assigned
        to the living ones at once (a live worker beats every renewal)."""
        return int((self.seconds - self.renew_seconds / 2) * 1000)

    @property
    def renew_seconds(self) -> float:
        """Return how often to claim: three tries before a lease runs out."""
        return self.seconds / 3

    def key(self, round: str) -> str:
        """Return the Redis key of ``round``'s lease."""
        return f"{self.prefix}tick:{round}"

    def claim(self, rounds: Iterable[str]) -> set[str]:
        """Beat; take or renew the lease of each of ``rounds`` that nobody else holds and that
        is this worker's share (module docstring); return the rounds this worker holds now. A
        round not listed is released, and so are the rounds held over this worker's share."""
        wanted = set(rounds)
        for gone in set(self.held) - wanted:
            self.release([gone])
        began = self.clock()
        ttl_ms = int(self.seconds * 1000)
        alive = self.beat()
        settled = {w for w, since in self.alive.items() if began - since >= self.seconds}
        key = (tuple(alive), tuple(sorted(wanted)))
        if self._assigned[0] != key:
            self._assigned = (key, assign(wanted, alive))
        chosen = self._assigned[1]
        # over its share (a worker came back after a crash): hand over as many rounds as it
        # holds over its share, of those assigned to a worker that has beaten for a lease
        excess = len(set(self.held) & wanted) - math.ceil(len(wanted) / len(alive))
        for round in sorted(self.held):
            if excess <= 0:
                break
            if chosen.get(round) in settled - {self.worker}:
                log.info("round %r handed over to worker %s", round, chosen[round])
                self.release([round])
                excess -= 1
        mine: list[str] = []  # held, or free and assigned to this worker: claimed
        other: list[str] = []  # assigned to another worker: only read
        for round in sorted(wanted):
            if round in self.held or chosen.get(round) in (None, self.worker):
                mine.append(round)
            else:
                other.append(round)
        try:
            pipe = self.redis.pipeline(transaction=False)
            for round in mine:
                self._claim(keys=[self.key(round)], args=[self.worker, ttl_ms], client=pipe)
            for round in other:
                pipe.get(self.key(round))
            answers = pipe.execute()
        except Exception as e:  # noqa: BLE001 - Redis away: keep what is still valid
            log.warning("cannot claim the rounds' ticks: %s", e)
            return self.owned()
        stale: list[str] = []
        for round, won in zip(mine, answers[: len(mine)], strict=True):
            self.free_since.pop(round, None)
            self._won(round, bool(won), began)
        for round, holder in zip(other, answers[len(mine) :], strict=True):
            if holder is not None:
                self.free_since.pop(round, None)
            elif began - self.free_since.setdefault(round, began) >= self.seconds:
                stale.append(round)  # free for a lease: its preferred worker does not take it
        for round in stale:
            try:
                won = bool(self._claim(keys=[self.key(round)], args=[self.worker, ttl_ms]))
            except Exception as e:  # noqa: BLE001 - Redis away: the next claim tries again
                log.warning("cannot claim the tick of round %r: %s", round, e)
                continue
            self.free_since.pop(round, None)
            self._won(round, won, began)
        for round in set(self.free_since) - wanted:
            del self.free_since[round]
        return self.owned()

    def _won(self, round: str, won: bool, began: float) -> None:
        if won:
            if round not in self.held:
                log.info("this worker now ticks round %r", round)
            self.held[round] = began + self.seconds
            self.seen[round] = (self.worker, began + self.renew_seconds)
        else:
            if round in self.held:
                log.info("round %r is ticked by another worker now", round)
            self.held.pop(round, None)
            self.seen.pop(round, None)

    def beat(self) -> list[str]:
        """Note this worker alive; return the workers alive (those that beat within a lease),
        this one always among them."""
        now = self.clock()
        try:
            names = self._beat(keys=[f"{self.prefix}workers"], args=[self.worker, self.beat_ms])
        except Exception as e:  # noqa: BLE001 - Redis away: the claims fail as well
            log.warning("cannot tell the other workers this one is alive: %s", e)
            names = list(self.alive)
        alive = {n.decode() if isinstance(n, bytes) else str(n) for n in names} | {self.worker}
        self.vanished = set(self.alive) - alive
        self.alive = {w: self.alive.get(w, now) for w in alive}
        return sorted(alive)

    def owned(self) -> set[str]:
        """Return the rounds whose lease this worker holds and may still count on."""
        now = self.clock()
        return {round for round, until in self.held.items() if until > now}

    def owns(self, round: str) -> bool:
        """Return whether this worker holds ``round``'s lease now."""
        return self.held.get(round, 0.0) > self.clock()

    def holder(self, round: str) -> str | None:
        """Return the worker holding ``round``'s lease (``None``: nobody), asked of Redis at
        most once per renewal period."""
        if self.owns(round):
            return self.worker
        now = self.clock()
        known = self.seen.get(round)
        if known is not None and known[1] > now:
            return known[0]
        try:
            value = self.redis.get(self.key(round))
        except Exception as e:  # noqa: BLE001 - Redis away: nobody known
            log.warning("cannot read the tick lease of round %r: %s", round, e)
            return None
        holder = value.decode() if isinstance(value, bytes) else value
        self.seen[round] = (holder, now + self.renew_seconds)
        return holder

    def forget(self, round: str) -> None:
        """Forget who holds ``round`` (another worker's lease), to ask Redis next time."""
        if not self.owns(round):
            self.seen.pop(round, None)

    def release(self, rounds: Iterable[str] | None = None) -> None:
        """Give up the leases of ``rounds`` (default: all held, and this worker's beat: a
        clean shutdown), for another worker to take."""
        if rounds is None:
            try:
                self.redis.zrem(f"{self.prefix}workers", self.worker)
            except Exception as e:  # noqa: BLE001 - it is forgotten after a lease
                log.warning("cannot tell the other workers this one stops: %s", e)
        for round in list(self.held if rounds is None else rounds):
            self.held.pop(round, None)
            self.seen.pop(round, None)
            try:
                self._release(keys=[self.key(round)], args=[self.worker])
            except Exception as e:  # noqa: BLE001 - it expires by itself
                log.warning("cannot release the tick of round %r: %s", round, e)

    def announced(self, round: str) -> int | None:
        """Return the log position up to which ``round``'s alerts were announced (``None``:
        no worker marked it, or Redis is away)."""
        try:
            value = self.redis.get(f"{self.prefix}announced:{round}")
        except Exception as e:  # noqa: BLE001 - Redis away: nothing to catch up on
            log.warning("cannot read the announced mark of round %r: %s", round, e)
            return None
        return None if value is None else int(value)

    def note_told(self, round: str, ids: Iterable[str]) -> None:
        """Record the alert events (raised or resolved) announced by a worker that does not
        hold ``round``: the worker that takes the round over does not announce them again."""
        ids = list(ids)
        if not ids:
            return
        key = f"{self.prefix}told:{round}"
        try:
            self.redis.sadd(key, *ids)
            self.redis.pexpire(key, MARK_MS)
        except Exception as e:  # noqa: BLE001 - announced twice at worst
            log.warning("cannot note the alerts announced in round %r: %s", round, e)

    def told(self, round: str) -> set[str]:
        """Return the alert events of ``round`` announced by workers that did not hold it."""
        try:
            members = self.redis.smembers(f"{self.prefix}told:{round}")
        except Exception as e:  # noqa: BLE001 - announced twice at worst
            log.warning("cannot read the alerts announced in round %r: %s", round, e)
            return set()
        return {m.decode() if isinstance(m, bytes) else str(m) for m in members}

    def mark_announced(self, round: str, seq: int) -> None:
        """Record that ``round``'s alerts are announced up to log position ``seq``."""
        try:
            self._mark(keys=[f"{self.prefix}announced:{round}"], args=[int(seq), MARK_MS])
        except Exception as e:  # noqa: BLE001 - the next announcement marks it
            log.warning("cannot mark the announced alerts of round %r: %s", round, e)
