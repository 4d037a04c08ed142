"""The seed list of a shared crawl: start URLs any worker may take, each taken once."""

from __future__ import annotations

import json
from typing import Any, Self

from newsspider.distributed.keys import CrawlKeys, redis_client

#: Seeds taken per Redis round trip.
BATCH = 100


class SeedList:
    """``PREFIX:start_urls`` in Redis. `pop` is atomic (``LPOP``), so workers seeding at the
    same time never take the same entry; a URL pushed twice is fetched once all the same
    (the shared dupefilter)."""

    def __init__(self, client: Any, key: str) -> None:
        self.client = client
        self.key = key

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        keys = CrawlKeys.from_settings(crawler.settings, crawler.spider.name)
        return cls(redis_client(crawler.settings), keys.start_urls)

    def pop(self, count: int = BATCH) -> list[str]:
        """Up to ``count`` seeds: plain URLs, or scrapy-redis's ``{"url": ...}`` JSON."""
        raw = self.client.lpop(self.key, count) or []
        return [url for url in map(_seed_url, raw) if url]


def _seed_url(entry: bytes | str) -> str:
    text = (entry.decode("utf-8", "replace") if isinstance(entry, bytes) else entry).strip()
    if text.startswith("{"):
        try:
            value = json.loads(text).get("url")
        except (ValueError, AttributeError):
            return text  # kept as it is: the spider reports it as a bad seed
        return value if isinstance(value, str) else ""
    return text
