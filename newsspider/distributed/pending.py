"""Requests taken from the shared queue stay in Redis until Scrapy has finished with them.

In plain scrapy-redis, `pop` removes a request from the queue: from then on it lives only in the
worker's memory, and a worker that is killed loses every request it held. Here the queue is
scrapy-redis's `PriorityQueue` with two changes on its public interface (`push`, `pop`):

- `pop` moves the request, in one Lua script, from the queue into the hash ``KEY:pending``
  under a token ``"<worker id> <n>"`` (the value keeps its score, so it can go back as it was).
- `push` of a retry or a redirect of a pending request (they copy the request's meta, so they
  carry its token) puts the new request in the queue and removes its parent from
  ``KEY:pending`` in one script: the work is handed on, never lost and never doubled.

`PendingTracker` (one per crawler, fed by `PendingRequestsExtension` and the two middlewares
below) acknowledges a token, i.e. deletes it from ``KEY:pending``, when Scrapy is done with the
request: its callback's output has been consumed and every item and request in it has been
exported or queued (or dropped), or its download failed for good, or an exception ended its
callback. Scrapy has no "request finished" signal, so the tracker counts each response's
outputs through a spider middleware placed next to the engine and the signals that close them
(`item_scraped`, `item_dropped`, `item_error`, `request_dropped`, `spider_error`).

`reclaim` (called each second by `SharedCrawlCoordinator`) puts the pending requests of dead
workers back into the queue: a worker is dead when its heartbeat in ``PREFIX:workers`` has not
changed (or has been missing) for ``NEWSSPIDER_REDIS_DEAD_AFTER`` seconds, as seen by the
reclaiming worker's own clock (so a Redis restart, after which every heartbeat is old, does not
make live workers look dead).

`ExactlyOnceItems` (a pipeline, last) and the tracker keep items exactly-once when a request is
fetched twice: an item whose key (its ``url``) is in the set ``PREFIX:items`` is dropped before
export; the key is added after the feed has written the item (`item_scraped`, after Scrapy's
feed exporter), and the request is acknowledged after that. A feed file is written without a
buffer in a shared crawl (`UnbufferedFileFeedStorage`), so an item written is an item kept when
the process is killed.
"""

from __future__ import annotations

import itertools
import logging
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final, Self

from scrapy import signals
from scrapy.exceptions import DropItem
from scrapy.extensions.feedexport import FileFeedStorage
from scrapy_redis.queue import PriorityQueue

from newsspider.distributed.keys import new_worker_id
from newsspider.settings_defaults import DEFAULTS, REDIS_DEAD_AFTER

logger = logging.getLogger(__name__)

#: Request meta key holding the pending token of a request taken from the queue.
TOKEN_META: Final = "newsspider_pending"
_STATS: Final = "newsspider/shared_crawl/"

# KEYS: queue, pending. ARGV: token. The lowest score first, as scrapy-redis's pop. Sent again
# with the same token (redis-py retries a command whose reply was lost), it answers the request
# it took the first time instead of taking another.
_POP = """
local taken = redis.call('HGET', KEYS[2], ARGV[1])
if taken then
  local cut = string.find(taken, '|', 1, true)
  return string.sub(taken, cut + 1)
end
local r = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #r == 0 then return false end
redis.call('ZREM', KEYS[1], r[1])
redis.call('HSET', KEYS[2], ARGV[1], r[2] .. '|' .. r[1])
return r[1]
"""
# KEYS: queue, pending. ARGV: score, request, token of the request it replaces.
_HAND_ON = """
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
return redis.call('HDEL', KEYS[2], ARGV[3])
"""
# KEYS: queue, pending. ARGV: tokens. Each pending request back into the queue, as it was.
_REQUEUE = """
local n = 0
for _, token in ipairs(ARGV) do
  local v = redis.call('HGET', KEYS[2], token)
  if v then
    local cut = string.find(v, '|', 1, true)
    redis.call('ZADD', KEYS[1], string.sub(v, 1, cut - 1), string.sub(v, cut + 1))
    redis.call('HDEL', KEYS[2], token)
    n = n + 1
  end
end
return n
"""


@dataclass(slots=True)
class _Open:
    """A request taken from the queue that Scrapy has not finished with."""

    #: Its callback's output is being consumed.
    running: bool = False
    #: Items and requests of that output not yet exported, queued or dropped.
    outstanding: int = 0


class PendingTracker:
    """The pending requests of one worker (crawler): tokens, their outputs, acknowledgements."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.worker_id = ""
        self.queue: PendingPriorityQueue | None = None
        self.open: dict[str, _Open] = {}
        #: Requests output by a pending request's callback and not yet queued: id -> (the
        #: request, kept alive so the id is not reused; its parent's token).
        self.children: dict[int, tuple[Any, str]] = {}
        #: The set of emitted item keys.
        self.items_key = ""

    # --- the queue's side ----------------------------------------------------------------

    def taken(self, token: str) -> None:
        self.open[token] = _Open()

    def handed_on(self, token: str) -> None:
        """A retry or redirect replaced the request in the queue."""
        self.open.pop(token, None)

    def queued(self, request: Any) -> None:
        """A request was pushed to (or refused by) the queue: one output less for its parent."""
        entry = self.children.pop(id(request), None)
        if entry is not None:
            self._done_one(entry[1])

    # --- Scrapy's side ---------------------------------------------------------------------

    def output_started(self, token: str) -> None:
        entry = self.open.get(token)
        if entry is not None:
            entry.running = True

    def output_item(self, token: str) -> None:
        entry = self.open.get(token)
        if entry is not None:
            entry.outstanding += 1

    def output_request(self, token: str, request: Any) -> None:
        entry = self.open.get(token)
        if entry is not None:
            entry.outstanding += 1
            self.children[id(request)] = (request, token)

    def output_finished(self, token: str) -> None:
        entry = self.open.get(token)
        if entry is not None:
            entry.running = False
            self._maybe_ack(token, entry)

    def item_done(self, response: Any) -> None:
        token = _token(response)
        if token is not None:
            self._done_one(token)

    def finished(self, token: str | None) -> None:
        """Scrapy is done with the request whatever its outputs (a failure, an exception)."""
        if token is not None and self.open.pop(token, None) is not None:
            self._ack(token)

    def error(self, response: Any) -> None:
        """An exception reached the engine: ends the request unless its output is still being
        consumed (then the output's end acknowledges it)."""
        token = _token(response)
        entry = self.open.get(token) if token is not None else None
        if token is not None and entry is not None and not entry.running:
            self._maybe_ack(token, entry)

    def _done_one(self, token: str) -> None:
        entry = self.open.get(token)
        if entry is not None:
            entry.outstanding -= 1
            self._maybe_ack(token, entry)

    def _maybe_ack(self, token: str, entry: _Open) -> None:
        if not entry.running and entry.outstanding <= 0:
            del self.open[token]
            self._ack(token)

    def _ack(self, token: str) -> None:
        if self.queue is not None:
            self.queue.ack(token)


_trackers: weakref.WeakKeyDictionary[Any, PendingTracker] = weakref.WeakKeyDictionary()


def tracker_for(crawler: Any) -> PendingTracker:
    """The crawler's tracker (one per crawler, shared by the components of this module)."""
    tracker = _trackers.get(crawler)
    if tracker is None:
        tracker = _trackers[crawler] = PendingTracker(crawler)
    return tracker


def _token(response: Any) -> str | None:
    try:
        token = response.meta.get(TOKEN_META)
    except AttributeError:  # a Failure, or a response not tied to a request
        return None
    return token if isinstance(token, str) else None


class PendingPriorityQueue(PriorityQueue):  # type: ignore[misc]  # scrapy-redis is untyped
    """scrapy-redis's priority queue whose popped requests stay pending (module docstring)."""

    def __init__(self, server: Any, spider: Any, key: str, serializer: Any = None) -> None:
        super().__init__(server, spider, key, serializer)
        self.pending_key = f"{self.key}:pending"
        self.tracker = tracker_for(spider.crawler)
        self.tracker.queue = self
        if not self.tracker.worker_id:
            self.tracker.worker_id = new_worker_id()
        self.worker_id = self.tracker.worker_id
        self._count = itertools.count()
        self._pop = server.register_script(_POP)
        self._hand_on = server.register_script(_HAND_ON)
        self._requeue = server.register_script(_REQUEUE)
        self.stats = spider.crawler.stats

    def push(self, request: Any) -> None:
        token = request.meta.get(TOKEN_META)
        if not isinstance(token, str):
            super().push(request)
        else:
            # A retry or redirect of a pending request (Scrapy copies the meta): it replaces
            # its parent, in one step.
            meta = {k: v for k, v in request.meta.items() if k != TOKEN_META}
            data = self._encode_request(request.replace(meta=meta))
            self._hand_on(keys=[self.key, self.pending_key], args=[-request.priority, data, token])
            self.tracker.handed_on(token)
        self.tracker.queued(request)

    def pop(self, timeout: int = 0) -> Any:
        token = f"{self.worker_id} {next(self._count)}"
        data = self._pop(keys=[self.key, self.pending_key], args=[token])
        if not data:
            return None
        request = self._decode_request(data)
        request.meta[TOKEN_META] = token
        self.tracker.taken(token)
        return request

    def ack(self, token: str) -> None:
        self.server.hdel(self.pending_key, token)

    def pending(self) -> int:
        """Requests taken by any worker and not finished."""
        return int(self.server.hlen(self.pending_key))

    def tokens_by_worker(self) -> dict[str, list[str]]:
        owners: dict[str, list[str]] = {}
        for raw in self.server.hkeys(self.pending_key):
            token = raw.decode() if isinstance(raw, bytes) else str(raw)
            owners.setdefault(token.rpartition(" ")[0], []).append(token)
        return owners

    def requeue(self, tokens: list[str]) -> int:
        """Put these pending requests back into the queue (those still pending)."""
        if not tokens:
            return 0
        return int(self._requeue(keys=[self.key, self.pending_key], args=tokens))

    def release_own(self) -> int:
        """At close: this worker's unfinished requests go back into the queue."""
        count = self.requeue(self.tokens_by_worker().get(self.worker_id, []))
        self.tracker.open.clear()
        return count

    def forget_own(self) -> int:
        """When the engine is idle nothing of this worker is in flight: whatever it still has
        pending is finished (a safety net for an outcome the tracker did not see)."""
        tokens = self.tokens_by_worker().get(self.worker_id, [])
        if tokens:
            self.server.hdel(self.pending_key, *tokens)
        self.tracker.open.clear()
        self.tracker.children.clear()
        return len(tokens)


class DeadWorkers:
    """Which workers stopped beating, by this worker's own clock (module docstring)."""

    def __init__(self, dead_after: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.dead_after = dead_after
        self.clock = clock
        #: worker -> (last heartbeat value seen, when it was first seen, monotonic).
        self._seen: dict[str, tuple[bytes | None, float]] = {}
        self._last_look = 0.0

    def dead(self, owners: Iterable[str], beats: dict[str, bytes | None]) -> list[str]:
        now = self.clock()
        if now - self._last_look > self.dead_after / 2:
            # We could not look for a while (Redis was away, or this process stalled): what
            # we saw before says nothing about now.
            self._seen.clear()
        self._last_look = now
        found = []
        for owner in owners:
            beat = beats.get(owner)
            previous = self._seen.get(owner)
            if previous is None or previous[0] != beat:
                self._seen[owner] = (beat, now)
            elif now - previous[1] >= self.dead_after:
                found.append(owner)
        for owner in set(self._seen) - set(owners):
            del self._seen[owner]
        return found


def reclaim(queue: PendingPriorityQueue, workers_key: str, watch: DeadWorkers) -> int:
    """Put the pending requests of dead workers back into the queue and forget their
    heartbeats; how many requests."""
    owners = queue.tokens_by_worker()
    for raw in queue.server.hkeys(workers_key):
        owners.setdefault(raw.decode() if isinstance(raw, bytes) else str(raw), [])
    owners.pop(queue.worker_id, None)
    if not owners:
        return 0
    raw_beats = queue.server.hmget(workers_key, list(owners))
    beats = dict(zip(owners, raw_beats, strict=True))
    count = 0
    for owner in watch.dead(owners, beats):
        moved = queue.requeue(owners[owner])
        queue.server.hdel(workers_key, owner)
        if moved:
            logger.warning(
                "Worker %s stopped beating: %d of its requests are back in the queue",
                owner,
                moved,
            )
            count += moved
    if count and queue.stats is not None:
        queue.stats.inc_value(_STATS + "reclaimed_count", count)
    return count


def dead_after(settings: Any) -> float:
    return float(settings.get(REDIS_DEAD_AFTER, DEFAULTS[REDIS_DEAD_AFTER]))


# --- Scrapy components ------------------------------------------------------------------------


class PendingSpiderMiddleware:
    """Next to the engine: counts each pending request's outputs and notes when they end, and
    keeps a parent's token out of the requests its callback yields (spiders often copy meta)."""

    def __init__(self, crawler: Any) -> None:
        self.tracker = tracker_for(crawler)

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        return cls(crawler)

    async def process_spider_output_async(
        self, response: Any, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        token = _token(response)
        if token is None:
            async for output in result:
                yield _without_token(output)
            return
        tracker = self.tracker
        tracker.output_started(token)
        try:
            async for output in result:
                if _is_request(output):
                    _without_token(output)
                    tracker.output_request(token, output)
                elif output is not None:
                    tracker.output_item(token)
                yield output
        finally:
            tracker.output_finished(token)

    def process_spider_output(self, response: Any, result: Iterable[Any]) -> Iterable[Any]:
        token = _token(response)
        tracker = self.tracker
        if token is not None:
            tracker.output_started(token)
        try:
            for output in result:
                if _is_request(output):
                    _without_token(output)
                    if token is not None:
                        tracker.output_request(token, output)
                elif output is not None and token is not None:
                    tracker.output_item(token)
                yield output
        finally:
            if token is not None:
                tracker.output_finished(token)


def _is_request(output: Any) -> bool:
    from scrapy import Request

    return isinstance(output, Request)


def _without_token(output: Any) -> Any:
    if _is_request(output) and TOKEN_META in output.meta:
        del output.meta[TOKEN_META]
    return output


class PendingDownloaderMiddleware:
    """Next to the engine: a download that failed for good (retries over; an ``IgnoreRequest``)
    ends its request. (A retry or redirect returns a new request before reaching here.)"""

    def __init__(self, crawler: Any) -> None:
        self.tracker = tracker_for(crawler)

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        return cls(crawler)

    def process_exception(self, request: Any, exception: BaseException) -> None:
        self.tracker.finished(request.meta.get(TOKEN_META))


class PendingRequestsExtension:
    """The signals that close a pending request's outputs; marks emitted items."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.tracker = tracker_for(crawler)

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        extension = cls(crawler)
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.item_done, signal=signals.item_dropped)
        crawler.signals.connect(extension.item_done, signal=signals.item_error)
        crawler.signals.connect(extension.request_dropped, signal=signals.request_dropped)
        crawler.signals.connect(extension.spider_error, signal=signals.spider_error)
        return extension

    def spider_opened(self, spider: Any) -> None:
        # Connected now, after every component's from_crawler: this handler runs after the feed
        # exporter's, so an item is marked emitted only once its line is written.
        self.crawler.signals.connect(self.item_scraped, signal=signals.item_scraped)

    def item_scraped(self, item: Any, response: Any) -> None:
        key = item_key(item)
        queue = self.tracker.queue
        if key is not None and queue is not None and self.tracker.items_key:
            queue.server.sadd(self.tracker.items_key, key)
        self.tracker.item_done(response)

    def item_done(self, item: Any, response: Any) -> None:
        self.tracker.item_done(response)

    def request_dropped(self, request: Any) -> None:
        self.tracker.queued(request)

    def spider_error(self, failure: Any, response: Any) -> None:
        self.tracker.error(response)


def item_key(item: Any) -> str | None:
    """What makes two items the same article: the URL."""
    from itemadapter import ItemAdapter

    adapter = ItemAdapter(item)
    url = adapter.get("url") if "url" in adapter.field_names() else None
    return url if isinstance(url, str) and url else None


class ExactlyOnceItems:
    """Last pipeline of a shared crawl: drops an item another worker (or this one, before a
    restart) already exported. Needs `PendingRequestsExtension`, which marks exported items."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.tracker = tracker_for(crawler)

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        return cls(crawler)

    def process_item(self, item: Any) -> Any:
        key = item_key(item)
        queue = self.tracker.queue
        if key is None or queue is None or not self.tracker.items_key:
            return item
        if queue.server.sismember(self.tracker.items_key, key):
            if self.crawler.stats is not None:
                self.crawler.stats.inc_value(_STATS + "duplicate_item_count")
            raise DropItem(f"already exported by the shared crawl: {key}", log_level="INFO")
        return item


class UnbufferedFileFeedStorage(FileFeedStorage):
    """Scrapy's local-file feed storage without a write buffer: each item of a JSON Lines feed
    reaches the file (the OS) in one ``write``, so a killed worker keeps every item it
    exported. Scrapy has no setting for this."""

    def open(self, spider: Any) -> IO[bytes]:
        path = Path(self.path)
        path.parent.mkdir(parents=True, exist_ok=True)
        return path.open(self.write_mode, buffering=0)
