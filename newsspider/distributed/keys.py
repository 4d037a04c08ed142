"""The Redis keys of one shared crawl and the client, from the crawl's settings."""

from __future__ import annotations

import logging
import os
import socket
import uuid
from dataclasses import dataclass
from typing import Any

from redis.backoff import AbstractBackoff, ExponentialBackoff

from newsspider.settings_defaults import DEFAULTS, REDIS_KEY, REDIS_URL

logger = logging.getLogger("newsspider.distributed")


@dataclass(frozen=True, slots=True)
class CrawlKeys:
    """The key names under one prefix. The prefix may still hold ``%(spider)s``: scrapy-redis
    fills it in for the keys it reads from its settings (the add-on passes those unformatted)."""

    prefix: str

    @classmethod
    def from_settings(cls, settings: Any, spider_name: str) -> CrawlKeys:
        pattern = str(settings.get(REDIS_KEY) or DEFAULTS[REDIS_KEY])
        return cls(pattern % {"spider": spider_name})

    @property
    def start_urls(self) -> str:
        """The seed list: ``LPUSH``/``RPUSH`` URLs (or ``{"url": ...}`` JSON) here."""
        return f"{self.prefix}:start_urls"

    @property
    def requests(self) -> str:
        """The shared request queue (scrapy-redis's scheduler)."""
        return f"{self.prefix}:requests"

    @property
    def dupefilter(self) -> str:
        """The shared seen-request set (scrapy-redis's dupefilter)."""
        return f"{self.prefix}:dupefilter"

    @property
    def pending(self) -> str:
        """Hash: requests taken from the queue and not finished (`PendingPriorityQueue`)."""
        return f"{self.requests}:pending"

    @property
    def items(self) -> str:
        """Set: keys (URLs) of the items already exported (`ExactlyOnceItems`)."""
        return f"{self.prefix}:items"

    @property
    def workers(self) -> str:
        """Hash: worker id -> its last heartbeat (JSON: time, busy)."""
        return f"{self.prefix}:workers"


def new_worker_id() -> str:
    """Unique per process start: a restarted worker is a new worker."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def redis_client(settings: Any) -> Any:
    """A client for ``NEWSSPIDER_REDIS_URL`` with scrapy-redis's connection defaults and the
    crawl's ``REDIS_PARAMS`` (the add-on's: retry while Redis is away)."""
    from scrapy_redis import defaults
    from scrapy_redis.connection import get_redis

    params = {**defaults.REDIS_PARAMS, **settings.getdict("REDIS_PARAMS")}
    params["url"] = settings.get(REDIS_URL)
    return get_redis(**params)


class WarningBackoff(AbstractBackoff):
    """redis-py's exponential backoff (capped at one second) that logs a warning when Redis
    stops answering and every ten seconds while it stays away. redis-py's `Retry` has no hook
    for this; its backoff is the public extension point."""

    def __init__(self, outage: float) -> None:
        self._backoff = ExponentialBackoff(cap=1.0, base=0.05)
        self.outage = outage

    def reset(self) -> None:
        self._backoff.reset()  # type: ignore[no-untyped-call]

    def compute(self, failures: int) -> float:
        if failures == 1 or failures % 10 == 0:
            logger.warning(
                "Redis is unreachable: waiting for it (retry %d; giving up after about %.0f s)",
                failures,
                self.outage,
            )
        return float(self._backoff.compute(failures))


def retrying_redis_params(outage: float) -> dict[str, Any]:
    """``REDIS_PARAMS`` for scrapy-redis and our client: a command that meets a connection
    error (Redis restarting) waits and reconnects, for about ``outage`` seconds (redis-py's
    `Retry`), instead of failing at once."""
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError
    from redis.retry import Retry

    errors = (RedisConnectionError, RedisTimeoutError, OSError)
    # About 1 s per retry once the backoff reaches its cap.
    retry = Retry(WarningBackoff(outage), retries=max(1, int(outage) + 5), supported_errors=errors)
    return {"retry": retry, "retry_on_error": list(errors)}
