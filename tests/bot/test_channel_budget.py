"""The edit budget of one channel (bot/discord/channel_budget.py), on a clock
the test drives: Discord's 5 edits per 5 s, paced, shared round-robin."""

from __future__ import annotations

import itertools

from bot.discord.channel_budget import ChannelBudget


def drive(budget: ChannelBudget, busy: dict[int, float], until: float) -> list[tuple[float, int]]:
    """Tables that get a new state every ``busy[table]`` seconds; each slot
    edits the next table in the queue.  Returns (time, table) per edit."""
    edits: list[tuple[float, int]] = []
    now = 0.0
    next_change = dict.fromkeys(busy, 0.0)
    while now < until:
        for table, every in busy.items():
            if next_change[table] <= now:
                budget.want(table)
                next_change[table] = now + every
        slot = budget.next_slot(now)
        if slot > now:
            now = min([slot, *next_change.values()]) if budget.queue else min(next_change.values())
            continue
        table = budget.take()
        if table is None:
            now = min(next_change.values())
            continue
        budget.record(now)
        edits.append((now, table))
    return edits


def max_in_window(times: list[float], window: float) -> int:
    return max(sum(1 for u in times if t <= u < t + window) for t in times)


def test_never_more_than_five_edits_in_any_five_seconds():
    budget = ChannelBudget(limit=5, window=5.0)
    edits = drive(budget, {t: 0.1 for t in range(10)}, until=60.0)
    assert max_in_window([t for t, _ in edits], 5.0) == 5
    assert len(edits) >= 59  # and the budget is used: one edit a second


def test_edits_are_paced_not_spent_in_a_burst():
    budget = ChannelBudget(limit=5, window=5.0)
    edits = drive(budget, {1: 0.1, 2: 0.1, 3: 0.1}, until=12.0)
    gaps = [b - a for (a, _), (b, _) in itertools.pairwise(edits)]
    assert min(gaps) >= 1.0 - 1e-9
    # so each of three busy tables is shown every 3 s, not 5 in the first second then nothing
    for table in (1, 2, 3):
        times = [t for t, tab in edits if tab == table]
        assert max(b - a for a, b in itertools.pairwise(times)) <= 3.0 + 1e-9


def test_a_busy_table_does_not_starve_a_quiet_one():
    budget = ChannelBudget(limit=5, window=5.0)
    budget.record(0.0)  # the channel just edited something
    for table in (1, 2, 3):
        budget.want(table)
    budget.want(1)  # more of table 1 while it waits: it keeps its place, no second place
    order = []
    now = 0.0
    while budget.queue:
        now = budget.next_slot(now)
        order.append(budget.take())
        budget.record(now)
        if order[-1] == 1 and len(order) == 1:
            budget.want(1)  # table 1 changed again: behind 2 and 3
    assert order == [1, 2, 3, 1]


def test_a_quiet_channel_edits_at_once():
    budget = ChannelBudget(limit=5, window=5.0)
    assert budget.next_slot(100.0) == 100.0
    budget.record(100.0)
    assert budget.next_slot(100.2) == 101.0
    assert budget.next_slot(107.0) == 107.0


def test_a_table_waiting_out_a_retry_keeps_its_place():
    budget = ChannelBudget(limit=5, window=5.0)
    for table in (1, 2):
        budget.want(table)
    assert budget.take(ready={2}) == 2
    assert list(budget.queue) == [1]


def test_no_window_means_no_budget():
    budget = ChannelBudget(limit=5, window=0.0)
    for _ in range(20):
        budget.record(1.0)
    assert budget.next_slot(1.0) == 1.0
