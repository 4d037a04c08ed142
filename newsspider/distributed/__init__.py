"""A crawl shared by worker processes on one or several hosts through Redis.

Set ``NEWSSPIDER_REDIS_URL`` and the add-on (`newsspider.Addon`) switches the crawl to
scrapy-redis's scheduler and dupefilter (one frontier, one seen-URL set for every worker), adds
`SharedCrawlCoordinator` (seeds, heartbeats, when to stop) and `SiteScopeMiddleware`. Only those
two scrapy-redis components are used: its pipeline and stats collector do not fit current
Scrapy, and its `RedisSpider` still relies on ``start_requests``.

Needs ``pip install 'newsspider[redis]'``. This package is imported only when the setting is set.
"""
