"""The bot's Prometheus metrics (``/metrics``, served by ``bot.discord.health``).

One ``Metrics`` per bot, with its own ``CollectorRegistry`` (tests build
many bots in one process; the global registry would refuse the second).
Two kinds of figures:

* events counted as they happen, through hooks: act latency and moves
  (``TableService.observer``), AI decision latency (``Thinker.observer``),
  group-commit transactions (``GroupCommit.on_batch``), Discord REST
  requests and 429s (an aiohttp trace on discord.py's session, the route
  template from ``HTTPClient.request``), table-message edits (the presenter);
* state read when Prometheus scrapes (``BotCollector``): live tables by game,
  resume progress, AI fallbacks by reason, how long the writer has been busy.

Label cardinality is bounded everywhere: games, agents and fallback reasons
are fixed sets; REST routes are discord.py's route templates
(``/channels/{channel_id}/messages``), never a URL with ids, and at most
``MAX_ROUTES`` of them; channels are never a label without bound -- only
the ``EDIT_CHANNELS_SHOWN`` busiest channels get a series of their own
(see ``ChannelEdits``).
"""

from __future__ import annotations

import contextvars
import re
import time
from collections import Counter as Tally
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import aiohttp
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.services.observer import ServiceObserver
from engine import GAMES

if TYPE_CHECKING:
    from bot.discord.host import ProcessHost

#: seconds: a click to a stored move, and a group-commit transaction
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: seconds: an AI decision (the search's budget is 0.3 s by default)
AI_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.4, 0.6, 1.0, 2.0, 5.0)
#: writes in one group-commit transaction
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
#: distinct REST route labels kept; later ones are counted as "other"
MAX_ROUTES = 100
#: channels whose table-message edits get a series of their own
EDIT_CHANNELS_SHOWN = 10
STATUSES = ("lobby", "playing")

#: the discord.py route template of the request being made (set by ``watch_http``)
_ROUTE: contextvars.ContextVar[str | None] = contextvars.ContextVar("cardtable_route", default=None)
_API_PREFIX = re.compile(r"^/api(/v\d+)?")
_SNOWFLAKE = re.compile(r"/\d{6,}(?=/|$)")
_TOKEN = re.compile(r"^(/(?:webhooks|interactions)/\{id\})/[^/]+")


def route_of_path(path: str) -> str:
    """A route template from a request path, for requests discord.py does
    not make through ``HTTPClient.request`` (interaction replies go through
    its webhook adapter): ids become ``{id}``, a webhook or interaction
    token ``{token}``, so no label holds an id or a secret."""
    path = _API_PREFIX.sub("", path)
    path = _SNOWFLAKE.sub("/{id}", path)
    return _TOKEN.sub(r"\1/{token}", path)


class ChannelEdits:
    """Table-message edit requests per channel, as the presenter counts them
    (``Presenter.channel_edits``: every request, the failed and rate-limited
    ones included, which is what Discord's per-channel limit counts), shown
    without unbounded labels: the total, how many channels were edited, and
    the ``shown`` busiest channels each as a series labelled with its id.

    Why not one series per channel: a bot in thousands of servers would
    make thousands of series that live forever.  Discord limits edits per
    channel, so what an operator needs is the hottest channels; a channel's
    count only grows, so its series is a proper counter even when it drops
    out of the top and comes back later (``rate()`` handles the gap)."""

    def __init__(
        self, counts: Callable[[], Mapping[int, int]], shown: int = EDIT_CHANNELS_SHOWN
    ) -> None:
        self.counts = counts
        self.shown = shown

    def collect(self) -> Iterator[Metric]:
        by_channel = Tally(self.counts())
        yield CounterMetricFamily(
            "cardtable_table_edits",
            "Table-message edit requests sent to Discord",
            value=sum(by_channel.values()),
        )
        yield GaugeMetricFamily(
            "cardtable_table_edit_channels",
            "Channels whose table message was edited since start",
            value=len(by_channel),
        )
        busiest = CounterMetricFamily(
            "cardtable_table_edits_busiest",
            f"Table-message edit requests of the {self.shown} busiest channels (since start)",
            labels=["channel"],
        )
        for channel_id, count in by_channel.most_common(self.shown):
            busiest.add_metric([str(channel_id)], count)
        yield busiest


class Metrics(ServiceObserver):
    """The metrics of one bot process and the hooks that feed them."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.act_seconds = Histogram(
            "cardtable_act_seconds",
            "A person's move: from the click reaching the service to the move stored and applied",
            ["game"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.moves = Counter(
            "cardtable_moves",
            "Moves stored (rate() gives moves per second)",
            ["game", "by"],
            registry=r,
        )
        self.ai_seconds = Histogram(
            "cardtable_ai_decision_seconds",
            "An AI decision, queue wait and fallbacks included",
            ["agent"],
            buckets=AI_BUCKETS,
            registry=r,
        )
        self.transaction_seconds = Histogram(
            "cardtable_store_transaction_seconds",
            "One group-commit transaction: written and committed",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.transaction_writes = Histogram(
            "cardtable_store_transaction_writes",
            "Writes in one group-commit transaction",
            buckets=BATCH_BUCKETS,
            registry=r,
        )
        self.requests = Counter(
            "cardtable_discord_requests",
            "HTTP requests to Discord's REST API (each attempt), by route template",
            ["method", "route"],
            registry=r,
        )
        self.rate_limited = Counter(
            "cardtable_discord_rate_limited",
            "Discord REST answers with status 429, by route template",
            ["method", "route"],
            registry=r,
        )
        self._children: dict[tuple[str, ...], Any] = {}
        self._routes: set[str] = set()
        #: aiohttp trace for discord.py's session (``Client(http_trace=...)``)
        self.trace = aiohttp.TraceConfig()
        self.trace.on_request_end.append(self._on_request_end)
        self.trace.on_request_exception.append(self._on_request_exception)

    # -- the service's hooks (ServiceObserver) -------------------------------------------------
    # Each hook runs once per move or decision on the event loop: the labelled
    # child is looked up once and kept (``labels()`` costs more than the count).
    def act_done(self, game: str, seconds: float) -> None:
        child = self._children.get(("act", game))
        if child is None:
            child = self._children[("act", game)] = self.act_seconds.labels(game)
        child.observe(seconds)

    def move_stored(self, game: str, by_ai: bool) -> None:
        by = "ai" if by_ai else "person"
        child = self._children.get(("move", game, by))
        if child is None:
            child = self._children[("move", game, by)] = self.moves.labels(game, by)
        child.inc()

    def decision_done(self, agent: str, seconds: float) -> None:
        child = self._children.get(("ai", agent))
        if child is None:
            child = self._children[("ai", agent)] = self.ai_seconds.labels(agent)
        child.observe(seconds)

    def batch_written(self, seconds: float, writes: int) -> None:
        self.transaction_seconds.observe(seconds)
        self.transaction_writes.observe(writes)

    # -- Discord's REST API --------------------------------------------------------------------
    def watch_http(self, http: Any) -> None:
        """Wrap ``http.request`` (a discord.py ``HTTPClient``) on the instance
        so the trace knows the route template of each request.  The class's
        method is looked up at every call, so a test that patches the class
        (the offline harness) still answers, and nothing else changes."""
        client_type = type(http)

        async def request(route: Any, **kwargs: Any) -> Any:
            token = _ROUTE.set(getattr(route, "path", None))
            try:
                return await client_type.request(http, route, **kwargs)
            finally:
                _ROUTE.reset(token)

        http.request = request

    def _route(self, url: Any) -> str | None:
        """The route label of a request to ``url``; None for what is not the
        REST API (the gateway's websocket, the CDN)."""
        path = getattr(url, "path", "") or ""
        if not path.startswith("/api/"):
            return None
        route = _ROUTE.get() or route_of_path(path)
        if route not in self._routes:
            if len(self._routes) >= MAX_ROUTES:
                return "other"
            self._routes.add(route)
        return route

    async def _on_request_end(self, session: Any, context: Any, params: Any) -> None:
        route = self._route(params.url)
        if route is None:
            return
        self.requests.labels(params.method, route).inc()
        if params.response.status == 429:
            self.rate_limited.labels(params.method, route).inc()

    async def _on_request_exception(self, session: Any, context: Any, params: Any) -> None:
        route = self._route(params.url)
        if route is not None:
            self.requests.labels(params.method, route).inc()

    # -- wiring and output ----------------------------------------------------------------------
    def attach(self, bot: ProcessHost) -> None:
        """Hook into the bot's service, AI, store and HTTP client, and read
        their state at each scrape."""
        bot.service.observer = self
        bot.service.thinker.observer = self
        bot.store.writer.group.on_batch = self.batch_written
        self.watch_http(bot.http)
        edits = ChannelEdits(bot.presenter.channel_edits)
        self.registry.register(BotCollector(bot, edits))

    def exposition(self) -> bytes:
        """The Prometheus text format of every metric."""
        return generate_latest(self.registry)


class BotCollector(Collector):
    """State read at each scrape (cheap: a pass over the live tables)."""

    def __init__(self, bot: ProcessHost, edits: ChannelEdits) -> None:
        self.bot = bot
        self.edits = edits
        self.started = time.time()

    def collect(self) -> Iterator[Metric]:
        service = self.bot.service
        live = GaugeMetricFamily(
            "cardtable_live_tables", "Tables in a lobby or in play", labels=["game", "status"]
        )
        counts: Tally[tuple[str, str]] = Tally(
            (t.game, t.status) for t in service.tables.values() if t.active
        )
        for game in GAMES:
            for status in STATUSES:
                live.add_metric([game, status], counts[(game, status)])
        yield live
        found, pending = service.resume_progress()
        yield GaugeMetricFamily(
            "cardtable_resume_tables_found", "Unfinished tables found at start", value=found
        )
        yield GaugeMetricFamily(
            "cardtable_resume_tables_pending",
            "Tables found at start and not resumed yet (0: the resume is done)",
            value=pending,
        )
        stats = service.thinker.stats
        decisions = CounterMetricFamily(
            "cardtable_ai_decisions", "AI decisions asked for", value=stats["decisions"]
        )
        yield decisions
        fallbacks = CounterMetricFamily(
            "cardtable_ai_fallbacks",
            "AI decisions answered by the fallback agent, by reason",
            labels=["reason"],
        )
        for reason, count in sorted(stats["fallback_reasons"].items()):
            fallbacks.add_metric([reason], count)
        yield fallbacks
        yield GaugeMetricFamily(
            "cardtable_ai_queued", "AI decisions waiting for a worker", value=stats["queued"]
        )
        yield GaugeMetricFamily(
            "cardtable_store_writer_stalled_seconds",
            "How long the oldest unfinished write has waited (0 when the writer is idle)",
            value=self.bot.store.writer.group.stalled_for(),
        )
        yield from self.edits.collect()
