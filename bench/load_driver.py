"""The load generator's core: fire one interaction, await its acknowledgement, record it.

Latency is the fake Discord's own figure, :attr:`Callback.delay`: seconds from the
INTERACTION_CREATE dispatch to the bot's interaction callback, as seen by the fake.
Acknowledgements are awaited through ``FakeDiscord.ack_listeners`` (one future per
interaction), not ``Interaction.ack()``, whose waiters all wake on every change of the
fake: with hundreds in flight that would cost the generator more than the bot.

Two ways to pace the load:

- closed loop (``tickets is None``): every worker fires its next interaction as soon as
  the previous one is acknowledged; the number of workers is the concurrency;
- open loop: a producer releases one ticket every ``1/rate`` seconds on a fixed schedule
  and a worker takes one before each interaction. ``lag`` is how late an interaction was
  dispatched against its ticket's scheduled time: large lags mean every worker was
  waiting for the bot (or the generator fell behind), and the offered rate was not held.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.harness import ContractError, FakeDiscord, Interaction

#: The bot's answer to an unexpected exception (bot/render/messages.py APOLOGY), matched loosely so
#: that the bare bot, which never says it, needs nothing from the bot package.
APOLOGY_START = "Something went wrong on my side"

FLAG_EPHEMERAL = 1 << 6

#: Callback types that acknowledge an interaction with or without a message.
ACK_TYPES = frozenset({4, 5, 6, 7, 9})

#: Refusals the rules give a random table now and then: counted apart, not as errors.
#: (`fistful`: with the Successive Action Penalty, and a helper's botch in teamwork, a
#: pool can reach 0 dice before the Storyteller's next turn.)
RULE_REFUSALS = ("with no dice the character cannot take this action now",)


@dataclass
class Recorder:
    """Everything measured in one phase (warm-up or measurement) of a run."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: collections.defaultdict(list))
    lags: list[float] = field(default_factory=list)
    errors: collections.Counter[str] = field(default_factory=collections.Counter)
    samples: dict[str, str] = field(default_factory=dict)
    rule_refusals: collections.Counter[str] = field(default_factory=collections.Counter)
    dispatched: int = 0

    def error(self, category: str, detail: str = "") -> None:
        self.errors[category] += 1
        self.samples.setdefault(category, detail[:300])

    @property
    def all_latencies(self) -> list[float]:
        return [delay for delays in self.latencies.values() for delay in delays]

    @property
    def acked(self) -> int:
        return sum(len(delays) for delays in self.latencies.values())


class Driver:
    """Fires interactions against a fake Discord and records their acknowledgements."""

    def __init__(self, fake: FakeDiscord, *, timeout: float, rate: float | None) -> None:
        self.fake = fake
        self.timeout = timeout
        self.rate = rate
        self.recorder = Recorder()
        self.running = False
        self.tickets: asyncio.Queue[float] | None = None
        self.unsent_tickets = 0
        self._waiters: dict[int, asyncio.Future[None]] = {}
        self._early: set[int] = set()
        self._ticket_waiters: set[asyncio.Task[Any]] = set()
        fake.ack_listeners.append(self._acked)

    def begin(self, *, paced: bool) -> Recorder:
        """Start a phase with a fresh recorder (open loop when ``paced``); return it."""
        self.recorder = Recorder()
        self.tickets = asyncio.Queue() if paced and self.rate else None
        self.unsent_tickets = 0
        self.running = True
        return self.recorder

    def _acked(self, interaction: Interaction) -> None:
        waiter = self._waiters.pop(interaction.id, None)
        if waiter is None:
            self._early.add(interaction.id)
        elif not waiter.done():
            waiter.set_result(None)

    # ------------------------------------------------------------------ pacing

    async def produce(self, until: float) -> None:
        """Open loop: release tickets on schedule until ``until`` (loop time), then wake
        the workers still waiting for one (their scenarios end there)."""
        if self.tickets is None or self.rate is None:
            return
        loop = asyncio.get_running_loop()
        interval = 1.0 / self.rate
        scheduled = loop.time()
        while scheduled < until and self.running:
            delay = scheduled - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            self.tickets.put_nowait(scheduled)
            scheduled += interval
        self.running = False
        self.unsent_tickets = self.tickets.qsize()
        for waiting in list(self._ticket_waiters):
            waiting.cancel()

    # ------------------------------------------------------------------ one interaction

    async def fire(
        self,
        kind: str,
        action: Callable[[], Awaitable[Interaction]],
        *,
        ephemeral: bool = False,
    ) -> Interaction | None:
        """Dispatch one interaction (``action``), await and check its acknowledgement.

        Returns the interaction when it was answered as expected, None when the run is
        over or it failed (the failure is recorded): the caller's scenario then stops.
        ``ephemeral`` says the answer is meant to be ephemeral (a secret roll), so an
        ephemeral answer is not taken for a refusal.
        """
        if not self.running:
            return None
        loop = asyncio.get_running_loop()
        lag: float | None = None
        if self.tickets is not None:
            task = asyncio.current_task()
            if task is None:
                msg = "fire() runs in a task"
                raise RuntimeError(msg)
            self._ticket_waiters.add(task)
            try:
                scheduled = await self.tickets.get()
            except asyncio.CancelledError:
                if self.running:
                    raise
                return None  # the run is over: produce() woke this worker
            finally:
                self._ticket_waiters.discard(task)
            if not self.running:
                return None
            lag = loop.time() - scheduled
        recorder = self.recorder
        try:
            interaction = await action()
        except ContractError as error:
            recorder.error(f"contract ({kind})", str(error))
            return None
        recorder.dispatched += 1
        if lag is not None:
            recorder.lags.append(lag)
        if interaction.id in self._early:
            self._early.discard(interaction.id)
        else:
            waiter = loop.create_future()
            self._waiters[interaction.id] = waiter
            try:
                await asyncio.wait_for(waiter, self.timeout)
            except TimeoutError:
                self._waiters.pop(interaction.id, None)
                recorder.error(f"timeout ({kind})", repr(interaction))
                return None
        return self._check(kind, interaction, ephemeral=ephemeral, recorder=recorder)

    def _check(
        self, kind: str, interaction: Interaction, *, ephemeral: bool, recorder: Recorder
    ) -> Interaction | None:
        callback = interaction.callbacks[0]
        recorder.latencies[kind].append(callback.delay)
        if callback.type not in ACK_TYPES:
            recorder.error(f"unexpected callback ({kind})", callback.name)
            return None
        data = callback.data
        content = str(data.get("content") or "")
        if content.startswith(APOLOGY_START):
            recorder.error(f"bot error ({kind})", content)
            return None
        if data.get("flags", 0) & FLAG_EPHEMERAL and not ephemeral:
            if any(reason in content for reason in RULE_REFUSALS):
                recorder.rule_refusals[kind] += 1
            else:
                recorder.error(f"refused ({kind})", content)
            return None
        return interaction
