"""`SharedCrawlCoordinator`: when a worker of a shared crawl takes seeds, and when it stops.

Scrapy closes a spider as soon as it has nothing to do. In a shared crawl that is too early: a
peer may be downloading a page whose links will fill the shared queue a moment later. So every
worker writes a heartbeat (busy or idle) to ``PREFIX:workers`` each second, and an idle worker
closes only after ``NEWSSPIDER_REDIS_IDLE_CLOSE`` seconds during which the seed list and the
shared queue stayed empty and no peer was busy. Meanwhile it takes seeds pushed later. A worker
that died stops counting as busy once its heartbeat is ``STALE_AFTER`` seconds old.

The same tick puts the requests that dead workers had taken back into the queue
(`newsspider.distributed.pending`), and a worker does not close while any worker holds
requests it has not finished.
"""

from __future__ import annotations

import json
import time
from typing import Any, Self

from scrapy import signals
from scrapy.exceptions import DontCloseSpider
from scrapy.utils.asyncio import create_looping_call

from newsspider.distributed.keys import CrawlKeys, new_worker_id, redis_client
from newsspider.distributed.pending import DeadWorkers, dead_after, reclaim, tracker_for
from newsspider.distributed.seeds import SeedList
from newsspider.settings_defaults import DEFAULTS, REDIS_IDLE_CLOSE

HEARTBEAT = 1.0
STALE_AFTER = 3 * HEARTBEAT
#: How often an idle worker looks at the shared queue again (one Redis call each time).
WAKE = 0.1
_STATS = "newsspider/shared_crawl/"


class SharedCrawlCoordinator:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.idle_close = float(crawler.settings.get(REDIS_IDLE_CLOSE, DEFAULTS[REDIS_IDLE_CLOSE]))
        self.tracker = tracker_for(crawler)
        if not self.tracker.worker_id:
            self.tracker.worker_id = new_worker_id()
        self.worker_id = self.tracker.worker_id
        self.watch = DeadWorkers(dead_after(crawler.settings))
        self.client: Any = None
        self.keys: CrawlKeys | None = None
        self.seeds: SeedList | None = None
        self._idle_since: float | None = None
        self._loop: Any = None
        self._wake_loop: Any = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        coordinator = cls(crawler)
        crawler.signals.connect(coordinator.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(coordinator.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(coordinator.spider_closed, signal=signals.spider_closed)
        return coordinator

    def spider_opened(self, spider: Any) -> None:
        self.keys = CrawlKeys.from_settings(self.crawler.settings, spider.name)
        self.client = redis_client(self.crawler.settings)
        self.seeds = SeedList(self.client, self.keys.start_urls)
        self.tracker.items_key = self.keys.items
        self._beat(busy=True)  # starting up: peers must not close under a newcomer's feet
        self._loop = create_looping_call(self._tick)
        self._loop.start(HEARTBEAT, now=False)
        self._wake_loop = create_looping_call(self._wake)
        self._wake_loop.start(WAKE, now=False)

    def spider_closed(self, spider: Any) -> None:
        for loop in (self._loop, self._wake_loop):
            if loop is not None and loop.running:
                loop.stop()
        queue = self.tracker.queue
        if queue is not None:
            # Requests taken and not finished (a shutdown, a page limit) go back to the peers.
            released = queue.release_own()
            if released:
                self._stats("released_count", released)
        if self.client is not None and self.keys is not None:
            self.client.hdel(self.keys.workers, self.worker_id)

    def spider_idle(self, spider: Any) -> None:
        assert self.seeds is not None
        queue = self.tracker.queue
        if queue is not None:
            # Nothing is in flight here: whatever this worker still has pending is finished.
            queue.forget_own()
        seeds = self.seeds.pop()
        if seeds:
            for request in spider.requests_for_seeds(seeds):
                self.crawler.engine.crawl(request)
            self._stats("late_seed_count", len(seeds))
            self._idle_since = None
            raise DontCloseSpider
        if self._queued() or self._busy_peers() or self._pending():
            self._idle_since = None
            raise DontCloseSpider
        now = time.monotonic()
        if self._idle_since is None:
            self._idle_since = now
        if self.idle_close <= 0 or now - self._idle_since < self.idle_close:
            raise DontCloseSpider
        # Nothing left anywhere for long enough: let Scrapy close the spider ("finished").

    # --- heartbeats ---------------------------------------------------------------------------

    def _tick(self) -> None:
        engine = self.crawler.engine
        self._beat(busy=not engine.spider_is_idle())
        queue = self.tracker.queue
        if queue is not None and self.keys is not None:
            reclaim(queue, self.keys.workers, self.watch)

    def _wake(self) -> None:
        # An engine with free slots looks at its scheduler again only when a download ends or
        # every 5 s (its heartbeat); wake it so that it soon sees requests that peers pushed
        # meanwhile (a worker that starts with an empty queue, or drains it, would otherwise
        # wait). Scrapy has no public call for this.
        slot = getattr(self.crawler.engine, "_slot", None)
        if slot is not None:
            slot.nextcall.schedule()

    def _beat(self, *, busy: bool) -> None:
        if self.client is None or self.keys is None:
            return
        beat = json.dumps({"time": time.time(), "busy": busy})
        self.client.hset(self.keys.workers, self.worker_id, beat)

    def _busy_peers(self) -> bool:
        assert self.keys is not None
        now = time.time()
        for worker, raw in self.client.hgetall(self.keys.workers).items():
            name = worker.decode() if isinstance(worker, bytes) else worker
            if name == self.worker_id:
                continue
            try:
                beat = json.loads(raw)
            except ValueError:
                continue
            if beat.get("busy") and now - float(beat.get("time", 0)) < STALE_AFTER:
                return True
        return False

    def _pending(self) -> int:
        """Requests some worker took and has not finished (a dead one's wait for `reclaim`)."""
        queue = self.tracker.queue
        return queue.pending() if queue is not None else 0

    def _queued(self) -> int:
        assert self.keys is not None
        key = self.keys.requests
        kind = self.client.type(key)
        kind = kind.decode() if isinstance(kind, bytes) else kind
        if kind == "zset":
            return int(self.client.zcard(key))
        if kind == "list":
            return int(self.client.llen(key))
        return 0

    def _stats(self, key: str, count: int = 1) -> None:
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value(_STATS + key, count)
