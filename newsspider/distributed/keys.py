"""The Redis keys of one shared crawl and the client, from the crawl's settings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from newsspider.settings_defaults import DEFAULTS, REDIS_KEY, REDIS_URL


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
    def workers(self) -> str:
        """Hash: worker id -> its last heartbeat (JSON: time, busy)."""
        return f"{self.prefix}:workers"


def redis_client(settings: Any) -> Any:
    """A client for ``NEWSSPIDER_REDIS_URL`` with scrapy-redis's connection defaults."""
    from scrapy_redis import defaults
    from scrapy_redis.connection import get_redis

    params = {**defaults.REDIS_PARAMS, "url": settings.get(REDIS_URL)}
    return get_redis(**params)
