"""Settings of a shared crawl, applied by `newsspider.Addon` when ``NEWSSPIDER_REDIS_URL`` is
set."""

from __future__ import annotations

import warnings
from typing import Any, Final

from scrapy.exceptions import ScrapyDeprecationWarning

from newsspider.distributed.keys import CrawlKeys, retrying_redis_params
from newsspider.settings_defaults import DEFAULTS, REDIS_KEY, REDIS_OUTAGE, REDIS_URL

SCHEDULER: Final = "scrapy_redis.scheduler.Scheduler"
DUPEFILTER: Final = "scrapy_redis.dupefilter.RFPDupeFilter"
COORDINATOR_PATH: Final = "newsspider.distributed.coordinator.SharedCrawlCoordinator"
SCOPE_PATH: Final = "newsspider.distributed.scope.SiteScopeMiddleware"
#: Before OffsiteMiddleware (50): it must know a request's site before it judges the request.
SCOPE_PRIORITY: Final = 45
COORDINATOR_PRIORITY: Final = 0
QUEUE: Final = "newsspider.distributed.pending.PendingPriorityQueue"
_PENDING: Final = "newsspider.distributed.pending."
#: Next to the engine (lowest orders): they see what reaches the engine.
PENDING_COMPONENTS: Final = (
    ("EXTENSIONS", _PENDING + "PendingRequestsExtension", 0),
    ("SPIDER_MIDDLEWARES", _PENDING + "PendingSpiderMiddleware", 5),
    ("DOWNLOADER_MIDDLEWARES", _PENDING + "PendingDownloaderMiddleware", 5),
    # Last: after the article pipeline has made the record.
    ("ITEM_PIPELINES", _PENDING + "ExactlyOnceItems", 1000),
)
FEED_STORAGE: Final = _PENDING + "UnbufferedFileFeedStorage"


def apply_shared_crawl_settings(settings: Any) -> None:
    """Point Scrapy's scheduler and dupefilter at Redis; a no-op without the URL setting."""
    url = settings.get(REDIS_URL)
    if not url:
        return
    # Unformatted: scrapy-redis puts the spider's name in for %(spider)s.
    keys = CrawlKeys(str(settings.get(REDIS_KEY) or DEFAULTS[REDIS_KEY]))
    values = {
        "SCHEDULER": SCHEDULER,
        "DUPEFILTER_CLASS": DUPEFILTER,
        "REDIS_URL": url,
        "SCHEDULER_QUEUE_KEY": keys.requests,
        "SCHEDULER_DUPEFILTER_KEY": keys.dupefilter,
        # A worker that finishes must not wipe the queue and seen-set its peers still use.
        "SCHEDULER_PERSIST": True,
        # Popped requests stay pending in Redis until done (docs/scale-out.md).
        "SCHEDULER_QUEUE_CLASS": QUEUE,
        # Wait for Redis (a restart) instead of failing at the first refused connection.
        "REDIS_PARAMS": {
            **settings.getdict("REDIS_PARAMS"),
            **retrying_redis_params(float(settings.get(REDIS_OUTAGE, DEFAULTS[REDIS_OUTAGE]))),
        },
    }
    for name, value in values.items():
        settings.set(name, value, priority="addon")
    settings.setdefault_in_component_priority_dict(
        "EXTENSIONS", COORDINATOR_PATH, COORDINATOR_PRIORITY
    )
    settings.setdefault_in_component_priority_dict(
        "DOWNLOADER_MIDDLEWARES", SCOPE_PATH, SCOPE_PRIORITY
    )
    for setting, path, order in PENDING_COMPONENTS:
        settings.setdefault_in_component_priority_dict(setting, path, order)
    # Local feed files without a write buffer: an exported item survives a killed worker.
    storages = settings.getdict("FEED_STORAGES")
    for scheme in ("", "file"):
        storages.setdefault(scheme, FEED_STORAGE)
    settings.set("FEED_STORAGES", storages, priority="addon")
    # scrapy-redis 0.9.1 still passes `spider` to the stats collector and calls Spider.log():
    # harmless, but a warning per crawl that users cannot act on.
    warnings.filterwarnings("ignore", category=ScrapyDeprecationWarning, module=r"scrapy_redis\.")
