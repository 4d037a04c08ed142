"""What the bundled spiders share: arguments, limits, article requests, the crawl filter."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import date
from typing import Any, ClassVar

import scrapy
from scrapy.exceptions import CloseSpider
from scrapy.http import Request, Response
from scrapy.settings import SETTINGS_PRIORITIES
from scrapy.utils.misc import load_object

from newsspider.items import PageItem
from newsspider.settings_defaults import META_JUDGE
from newsspider.spiders._args import SpiderArgumentError, parse_limit, parse_since, parse_urls
from newsspider.spiders._dates import is_older
from newsspider.spiders.filters import CrawlFilterPipeline

#: Finish reason (and stats value) of a crawl refused because of bad ``-a`` arguments.
BAD_ARGUMENTS = "bad_arguments"
#: After `ArticlePipeline` (100) and the usual user pipelines (300): it sees `ArticleItem`s.
FILTER_PIPELINE_PRIORITY = 800
_STATS = "newsspider/spider/"


class NewsSpider(scrapy.Spider):
    """Base of the bundled spiders. Arguments common to all (``-a name=value``):

    url         one start URL, or several separated by commas
    urls_file   a file with one start URL per line (``#`` comments allowed)
    since       YYYY-MM-DD: skip articles published before this day (when the date is known)
    max_articles  stop requesting articles after this many (0: no limit)
    max_pages   most non-article pages (feeds, sitemaps, listings) to fetch (0: no limit)

    Bad arguments do not raise (a traceback helps nobody at the shell): the spider logs one
    clear error line, closes with finish reason ``bad_arguments`` and yields nothing. The
    message is also kept in `argument_error` for callers that run spiders from code.
    """

    #: Defaults of `max_pages`; subclasses tune them.
    default_max_pages: ClassVar[int] = 1000
    #: Extra limits a subclass understands: argument name -> default.
    extra_limits: ClassVar[dict[str, int]] = {}

    @classmethod
    def update_settings(cls, settings: Any) -> None:
        super().update_settings(settings)
        # Duplicates and `since` are crawl-level facts: the filter ships with the spiders.
        pipelines = settings.getdict("ITEM_PIPELINES")
        if not any(load_object(key) is CrawlFilterPipeline for key in pipelines):
            pipelines[CrawlFilterPipeline] = FILTER_PIPELINE_PRIORITY
        # At least spider priority, like `custom_settings`: a runner merging its own (default)
        # ITEM_PIPELINES into a ready Crawler must not wipe the filter out.
        priority = max(settings.getpriority("ITEM_PIPELINES") or 0, SETTINGS_PRIORITIES["spider"])
        settings.set("ITEM_PIPELINES", pipelines, priority)

    def __init__(
        self,
        url: str | None = None,
        urls_file: str | None = None,
        since: str | None = None,
        max_articles: str | int | None = None,
        max_pages: str | int | None = None,
        **kwargs: Any,
    ) -> None:
        limits = {name: kwargs.pop(name, None) for name in self.extra_limits}
        super().__init__(**kwargs)
        self.argument_error: str | None = None
        self.start_urls: list[str] = []
        self.since: date | None = None
        self.max_articles = 0
        self.max_pages = self.default_max_pages
        self.limits: dict[str, int] = dict(self.extra_limits)
        try:
            self.start_urls = parse_urls(url, urls_file)
            self.since = parse_since(since)
            self.max_articles = parse_limit("max_articles", max_articles, 0)
            self.max_pages = parse_limit("max_pages", max_pages, self.default_max_pages)
            for name, value in limits.items():
                self.limits[name] = parse_limit(name, value, self.extra_limits[name])
        except SpiderArgumentError as exc:
            self.argument_error = str(exc)
        self._articles_requested = 0
        self._pages_requested = 0
        # URLs already asked for: links repeat on every page, and limits count each URL once.
        self._requested: set[str] = set()

    async def start(self) -> AsyncIterator[Any]:
        if self.argument_error is not None:
            self.logger.error("Bad argument for spider %r: %s", self.name, self.argument_error)
            raise CloseSpider(BAD_ARGUMENTS)
        for request in self.start_requests_for(self.start_urls):
            yield request

    def start_requests_for(self, urls: list[str]) -> Iterator[Request]:
        """The first requests; subclasses decide what a start URL is."""
        raise NotImplementedError

    # --- requests --------------------------------------------------------------------------

    def page_request(self, url: str, callback: Any, **kwargs: Any) -> Request | None:
        """A request for a feed, sitemap or listing page: never judged, counted in max_pages."""
        if url in self._requested:
            return None
        if self.max_pages and self._pages_requested >= self.max_pages:
            self._count("page_limit_skipped_count")
            return None
        self._pages_requested += 1
        self._requested.add(url)
        meta = {META_JUDGE: False, **kwargs.pop("meta", {})}
        return Request(url, callback=callback, meta=meta, **kwargs)

    def article_request(
        self,
        url: str,
        hints: dict[str, Any] | None = None,
        *,
        published: str | None = None,
        **meta: Any,
    ) -> Request | None:
        """A request for an article page, judged by the content filter; None when skipped
        (already requested, older than ``since`` per ``published``, or past ``max_articles``)."""
        if url in self._requested:
            return None
        if is_older(published, self.since):
            self._count("older_than_since_skipped_count")
            return None
        if self.max_articles and self._articles_requested >= self.max_articles:
            self._count("article_limit_skipped_count")
            return None
        self._articles_requested += 1
        self._requested.add(url)
        self._count("article_request_count")
        return Request(
            url,
            callback=self.parse_article,
            cb_kwargs={"hints": dict(hints or {})},
            meta={META_JUDGE: True, **meta},
        )

    def parse_article(self, response: Response, hints: dict[str, Any]) -> Iterator[Any]:
        yield PageItem.from_response(response, **hints)

    def _count(self, key: str) -> None:
        crawler = getattr(self, "crawler", None)
        if crawler is not None and crawler.stats is not None:
            crawler.stats.inc_value(_STATS + key)
