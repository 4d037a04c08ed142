"""What the bundled spiders share: arguments, limits, article requests, the crawl filter."""

from __future__ import annotations

import inspect
import logging
import os
from collections.abc import AsyncIterator, Iterable, Iterator
from datetime import date
from typing import Any, ClassVar, Literal, Self

import scrapy
from scrapy.http import Request, Response
from scrapy.settings import SETTINGS_PRIORITIES
from scrapy.utils.misc import load_object
from scrapy.utils.request import fingerprint
from twisted.python.failure import Failure

from newsspider.items import PageItem
from newsspider.middlewares import PageDropped
from newsspider.settings_defaults import META_JUDGE, REDIS_URL
from newsspider.spiders._args import (
    SpiderArgumentError,
    check_url,
    hide_reported_tracebacks,
    parse_limit,
    parse_since,
    parse_urls,
)
from newsspider.spiders._dates import is_older
from newsspider.spiders._errors import failure_reason
from newsspider.spiders.filters import CrawlFilterPipeline

#: After `ArticlePipeline` (100) and the usual user pipelines (300): it sees `ArticleItem`s.
FILTER_PIPELINE_PRIORITY = 800
_STATS = "newsspider/spider/"
#: Key of the spiders' progress (requested URLs, limit counts) in ``spider.state``.
STATE_KEY = "newsspider/spider/progress"
#: Stats (under ``newsspider/spider/``) of requests a reached limit skipped.
_LIMIT_SKIPPED = {
    "articles": "article_limit_skipped_count",
    "pages": "page_limit_skipped_count",
}
# Failures Scrapy itself logs at INFO or above (ERROR "Error downloading", INFO "Ignoring
# response", WARNING for a body past DOWNLOAD_MAXSIZE).
_LOGGED_BY_SCRAPY = frozenset(
    {"http_error", "timeout", "connection", "data_loss", "dns", "too_large", "other"}
)


class NewsSpider(scrapy.Spider):
    """Base of the bundled spiders. Arguments common to all (``-a name=value``):

    url         one start URL, or several separated by commas
    urls_file   a file with one start URL per line (``#`` comments allowed)
    since       YYYY-MM-DD: skip articles published before this day (when the date is known)
    max_articles  stop requesting articles after this many (0: no limit)
    max_pages   most non-article pages (feeds, sitemaps, listings) to fetch (0: no limit)

    Bad arguments stop the crawl before it starts: `from_crawler` logs one clear error line and
    raises `SpiderArgumentError`, which Scrapy reports as a failed start (``scrapy crawl`` exits
    with status 1); the traceback Scrapy would add is left out (`hide_reported_tracebacks`).
    Built directly (``SiteSpider(url=...)``), the spider raises the same exception. Names it
    does not know (``-a max_dept=2``) are logged as a warning that lists the known ones.

    In a crawl shared through Redis (``NEWSSPIDER_REDIS_URL``) start URLs are optional: every
    worker takes seeds from the crawl's Redis list (`newsspider.distributed.seeds`) as well.
    """

    #: Defaults of `max_pages`; subclasses tune them.
    default_max_pages: ClassVar[int] = 1000
    #: Extra limits a subclass understands: argument name -> default.
    extra_limits: ClassVar[dict[str, int]] = {}
    #: Arguments a project may set once for every crawl: argument name -> the setting that
    #: gives it when the ``-a`` argument is not passed (the argument wins, even empty).
    argument_settings: ClassVar[dict[str, str]] = {}

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> Self:
        if crawler.settings.get(REDIS_URL):
            kwargs.setdefault("_seeds_from_redis", True)
        from_settings = {}
        for argument, setting in cls.argument_settings.items():
            value = crawler.settings.get(setting)
            if kwargs.get(argument) is None and value is not None:
                kwargs[argument] = value
                from_settings[argument] = setting
        if from_settings:
            kwargs["_argument_sources"] = from_settings
        try:
            spider = super().from_crawler(crawler, *args, **kwargs)
        except SpiderArgumentError as exc:
            logging.getLogger(cls.name).error("Bad argument for spider %r: %s", cls.name, exc)
            exc.reported = True
            hide_reported_tracebacks()
            raise
        return spider

    @classmethod
    def known_arguments(cls) -> list[str]:
        """The ``-a`` names this spider understands: its and its bases' ``__init__`` keyword
        parameters and `extra_limits`."""
        names = set(cls.extra_limits)
        for klass in cls.__mro__:
            init = klass.__dict__.get("__init__")
            if init is None or not issubclass(klass, NewsSpider):
                continue
            for parameter in inspect.signature(init).parameters.values():
                if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY):
                    names.add(parameter.name)
        names.discard("self")
        names.difference_update([n for n in names if n.startswith("_")])
        return sorted(names)

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
        _seeds_from_redis: bool = False,
        _argument_sources: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        #: Arguments that came from a setting (`argument_settings`): name -> setting.
        self._argument_sources = dict(_argument_sources or {})
        limits = {name: kwargs.pop(name, None) for name in self.extra_limits}
        self._warn_unknown_arguments(kwargs)
        super().__init__(**kwargs)
        no_start_urls = url is None and urls_file is None
        # A shared crawl's workers may start with no URL of their own: seeds come from Redis.
        # `scrapy check` (SCRAPY_CHECK set) runs the callbacks' contracts: no start URLs.
        checking = bool(os.environ.get("SCRAPY_CHECK"))
        self.start_urls: list[str] = (
            [] if no_start_urls and (_seeds_from_redis or checking) else parse_urls(url, urls_file)
        )
        self.since: date | None = parse_since(since)
        self.max_articles = parse_limit("max_articles", max_articles, 0)
        self.max_pages = parse_limit("max_pages", max_pages, self.default_max_pages)
        self.limits: dict[str, int] = {
            name: parse_limit(name, value, self.extra_limits[name])
            for name, value in limits.items()
        }
        # Request fingerprints of the URLs already asked for (links repeat on every page, and
        # limits count each URL once) and the limits' counts. In `self.state` when the job has
        # a JOBDIR: see `_progress`.
        self._progress_now: dict[str, Any] = {"requested": set(), "articles": 0, "pages": 0}
        self._logged_failures: set[str] = set()

    def argument_label(self, name: str) -> str:
        """How an error names an argument: the setting's name when it came from there."""
        setting = self._argument_sources.get(name)
        return f"{name} (from setting {setting})" if setting else name

    def _warn_unknown_arguments(self, extra: dict[str, Any]) -> None:
        # Scrapy sets every -a as a spider attribute, so a typo would pass silently. Names of
        # existing attributes (name, allowed_domains...) and _private ones (Scrapyd's _job) are
        # Scrapy's or the scheduler's business.
        unknown = sorted(
            name for name in extra if not name.startswith("_") and not hasattr(type(self), name)
        )
        if unknown:
            self.logger.warning(
                "Unknown argument%s for spider %r: %s (ignored; known: %s)",
                "s" if len(unknown) > 1 else "",
                self.name,
                ", ".join(unknown),
                ", ".join(self.known_arguments()),
            )

    async def start(self) -> AsyncIterator[Any]:
        shared = self._shared_crawl()
        for request in self.start_requests_for(self.start_urls):
            yield request
        if shared:
            from newsspider.distributed.seeds import SeedList

            seeds = SeedList.from_crawler(self.crawler)
            while batch := seeds.pop():
                for request in self.requests_for_seeds(batch):
                    yield request

    def _shared_crawl(self) -> bool:
        crawler = getattr(self, "crawler", None)
        return crawler is not None and bool(crawler.settings.get(REDIS_URL))

    def requests_for_seeds(self, urls: Iterable[str]) -> Iterator[Request]:
        """First requests for seeds taken from a shared crawl's Redis list; bad ones are logged
        and counted (``newsspider/spider/bad_seed_count``)."""
        good = []
        for url in urls:
            try:
                good.append(check_url(url))
            except SpiderArgumentError as exc:
                self.logger.warning("Skipping seed %r: %s", url, exc)
                self._count("bad_seed_count")
            else:
                self._count("seed_count")
        yield from self.start_requests_for(good)

    def start_requests_for(self, urls: list[str]) -> Iterator[Request]:
        """The first requests; subclasses decide what a start URL is."""
        raise NotImplementedError

    # --- requests --------------------------------------------------------------------------

    def seen_key(self, url: str) -> bytes:
        """What the spider remembers of a requested URL: its request fingerprint, by the
        crawl's own fingerprinter (``REQUEST_FINGERPRINTER_CLASS``; Scrapy's default outside a
        crawl), so that URLs Scrapy's duplicate filter takes for one count once here too."""
        crawler = getattr(self, "crawler", None)
        fingerprinter = getattr(crawler, "request_fingerprinter", None)
        request = Request(url)
        if fingerprinter is not None:
            key: bytes = fingerprinter.fingerprint(request)
            return key
        return fingerprint(request)

    def requested(self, url: str) -> bool:
        """Whether a request for ``url`` was already issued (or counted by `take`)."""
        return self.seen_key(url) in self._progress()["requested"]

    def page_request(self, url: str, callback: Any, **kwargs: Any) -> Request | None:
        """A request for a feed, sitemap or listing page: never judged, counted in max_pages."""
        if self.requested(url) or not self.take("pages", url):
            return None
        self._count("page_request_count")
        meta = {META_JUDGE: False, **kwargs.pop("meta", {})}
        kwargs.setdefault("errback", self.request_failed)
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
        if self.requested(url):
            return None
        if is_older(published, self.since):
            self._count("older_than_since_skipped_count")
            return None
        if not self.take("articles", url):
            return None
        self._count("article_request_count")
        return Request(
            url,
            callback=self.parse_article,
            errback=self.request_failed,
            cb_kwargs={"hints": dict(hints or {})},
            meta={META_JUDGE: True, **meta},
        )

    def parse_article(self, response: Response, hints: dict[str, Any]) -> Iterator[Any]:
        """The article's page, for the pipeline to extract.

        @demo_page /en/city/2026/02/08/night-buses-return-to-the-harbor-district/
        @cb_kwargs {"hints": {"title": "From the feed"}}
        @returns items 1 1
        @returns requests 0 0
        @scrapes url body status hints
        """
        yield PageItem.from_response(response, **hints)

    def request_failed(self, failure: Failure) -> Failure:
        """Errback of the spiders' requests: count the failure, then hand it back to Scrapy,
        which logs it as it would without an errback (retries and redirects are over by now).

        Stats: ``request_error_count`` and ``request_error_reason_count/{reason}`` (reasons:
        `newsspider.spiders._errors.REQUEST_ERROR_REASONS`). Content-filter drops are counted
        by the filter and not here.
        """
        exc = failure.value
        if exc is None or isinstance(exc, PageDropped):
            return failure
        reason = failure_reason(exc)
        self._count("request_error_count")
        self._count(f"request_error_reason_count/{reason}")
        if reason not in self._logged_failures and reason not in _LOGGED_BY_SCRAPY:
            # Scrapy logs these at DEBUG at most (a cut redirect chain, robots.txt): say once.
            self._logged_failures.add(reason)
            self.logger.info(
                "Gave up on %s: %s (first such failure; the rest are counted in "
                "newsspider/spider/request_error_reason_count/%s)",
                getattr(failure.request, "url", "?"),  # type: ignore[attr-defined]
                failure.getErrorMessage(),
                reason,
            )
        return failure

    def take(self, counter: Literal["articles", "pages"], url: str | None = None) -> bool:
        """Count one more article or page against ``max_articles``/``max_pages`` and mark
        ``url`` as requested; False, counted as ``..._limit_skipped_count``, when the limit
        (0: none) is reached. Every count goes through here so that a resumed job (`_progress`)
        goes on from the same numbers."""
        progress = self._progress()
        limit = self.max_articles if counter == "articles" else self.max_pages
        if limit and progress[counter] >= limit:
            self._count(_LIMIT_SKIPPED[counter])
            return False
        progress[counter] += 1
        if url is not None:
            progress["requested"].add(self.seen_key(url))
        return True

    def _progress(self) -> dict[str, Any]:
        """The requested URLs and limit counts, kept in ``self.state`` when Scrapy provides it
        (with ``JOBDIR``, its SpiderState extension saves it on close and loads it on open).
        A resumed job then neither asks again for URLs of the earlier runs (Scrapy's dupefilter
        would drop them, but counted as new requests) nor restarts ``max_pages``/``max_articles``.
        """
        state = getattr(self, "state", None)
        if isinstance(state, dict):
            saved = state.setdefault(STATE_KEY, self._progress_now)
            if saved is not self._progress_now:  # loaded from JOBDIR: go on from there
                saved["requested"] |= self._progress_now["requested"]
                saved["articles"] += self._progress_now["articles"]
                saved["pages"] += self._progress_now["pages"]
                self._progress_now = saved
                self._warn_overwritten_feeds()
        return self._progress_now

    def _warn_overwritten_feeds(self) -> None:
        crawler = getattr(self, "crawler", None)
        feeds = crawler.settings.getdict("FEEDS") if crawler is not None else {}
        overwritten = [uri for uri, options in feeds.items() if (options or {}).get("overwrite")]
        if overwritten:
            self.logger.warning(
                "Resuming a job from JOBDIR with a feed opened for overwriting (-O): %s no longer"
                " holds the items of the earlier runs; resume with -o (append) instead",
                ", ".join(map(str, overwritten)),
            )

    def _count(self, key: str) -> None:
        crawler = getattr(self, "crawler", None)
        if crawler is not None and crawler.stats is not None:
            crawler.stats.inc_value(_STATS + key)
