"""Multi-page articles in a crawl: continuation pages fetched and joined into one item.

The core reports an article's next page (`Article.next_page_url`, found by
`newsspider.extraction.body.continuation`). `ArticlePipeline` then holds the first page's item
back and asks for the next page through the scheduler (same priority, same download slots and
politeness as any request), its request carrying the story so far in ``meta`` as plain data:
with ``JOBDIR`` a paused crawl keeps the half-joined story in its request queue. Each
continuation comes back to the pipeline as a `PageItem` with that story; its body is added and
either the next page is asked for or the joined item (the first page's URL and metadata, every
page's body in order) goes on. Continuation pages never become items of their own.

A later page of a story reached on its own (from a sitemap, a feed, a listing: its links say
it is one, `Article.earlier_page_url`) gives no item either: the earlier page it links is asked
for instead, through the dupefilter like any request. When that page was fetched before, its
story was joined then and the request is dropped as a duplicate; otherwise the story is joined
from it. Counted in ``newsspider/multipage/later_page_count/<signal>`` and logged with the
signal.

A story stops at a page that repeats an earlier one (same URL or same body), at a cycle, and
after ``NEWSSPIDER_MULTIPAGE_MAX_PAGES`` pages. A continuation that fails to download or holds
no body ends the story with what was fetched and a warning: never no item.

The callbacks are bound onto the spider when the crawl opens (any spider, not only the
bundled ones), under names Scrapy's request serialisation finds again after a resume.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterator
from dataclasses import asdict
from types import MethodType
from typing import Any, Final, Self

from newsspider.extraction.article import Article
from newsspider.extraction.body.continuation import EARLIER_SIGNALS
from newsspider.items import ArticleItem, PageItem
from newsspider.settings_defaults import (
    DEFAULTS,
    META_JUDGE,
    META_STORY,
    MULTIPAGE_ENABLED,
    MULTIPAGE_MAX_PAGES,
)

__all__ = ["StoryJoiner", "bind_callbacks"]

logger = logging.getLogger(__name__)

_STATS: Final = "newsspider/multipage/"
#: Stories joined from two pages or more, and the continuation pages joined into them.
STORY_COUNT: Final = _STATS + "story_count"
PAGE_COUNT: Final = _STATS + "page_count"
#: Later pages reached on their own, by what said so (`continuation.EARLIER_SIGNALS`).
LATER_PAGE_COUNT: Final = _STATS + "later_page_count"
#: Why stories stopped early: a bounded set of reasons.
STOP_REASONS: Final = ("failed", "empty", "repeat", "cycle", "limit")
#: Warnings on a joined item that ended early (the item holds the pages fetched).
WARNINGS: Final = {
    "failed": "multipage-continuation-failed",
    "empty": "multipage-continuation-empty",
    "limit": "multipage-page-limit",
}
CALLBACK: Final = "newsspider_continuation_page"
ERRBACK: Final = "newsspider_continuation_failed"
_BODY_SEPARATOR: Final = "\n"


def _continuation_page(spider: Any, response: Any) -> Iterator[PageItem]:
    del spider
    yield PageItem.from_response(response)


def _continuation_failed(spider: Any, failure: Any) -> Iterator[PageItem]:
    """The story goes on to the pipeline with what it has: a failed page is no lost story."""
    del spider
    request = failure.request
    story = dict(request.meta.get(META_STORY) or {})
    story["failed"] = True
    logger.warning(
        "Continuation page %s of %s failed (%s): the story keeps the pages fetched",
        request.url,
        story.get("urls", ["?"])[0],
        failure.getErrorMessage(),
    )
    yield PageItem(url=request.url, meta={META_STORY: story})


def bind_callbacks(spider: Any) -> None:
    """Give the spider the continuation callbacks (unless it has its own under those names)."""
    for name, function in ((CALLBACK, _continuation_page), (ERRBACK, _continuation_failed)):
        if not hasattr(spider, name):
            setattr(spider, name, MethodType(function, spider))


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


class StoryJoiner:
    """The pipeline's part of multi-page stories: start one, add a page, finish."""

    def __init__(self, crawler: Any, max_pages: int) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.max_pages = max(1, max_pages)
        self._later_logged = False

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self | None:
        """None when ``NEWSSPIDER_MULTIPAGE_ENABLED`` is off."""
        settings = crawler.settings
        if not settings.getbool(MULTIPAGE_ENABLED, DEFAULTS[MULTIPAGE_ENABLED]):
            return None
        return cls(crawler, settings.getint(MULTIPAGE_MAX_PAGES, DEFAULTS[MULTIPAGE_MAX_PAGES]))

    def open(self) -> None:
        spider = getattr(self.crawler, "spider", None)
        if spider is not None:
            bind_callbacks(spider)

    def begin(self, item: ArticleItem, article: Article, page: PageItem) -> bool:
        """Hold `item` back and ask for its next page: True when a continuation was requested."""
        next_url = article.next_page_url
        if not next_url or self.max_pages < 2 or next_url in (page.url, item.url):
            return False
        story: dict[str, Any] = {
            "item": asdict(item),
            "bodies": [item.body],
            "htmls": [item.body_html],
            "urls": [page.url],
            "digests": [_digest(item.body)],
            "priority": int(page.meta.get("priority", 0) or 0),
        }
        return self._request(story, next_url)

    def later_page(self, page: PageItem, article: Article) -> bool:
        """A later page of a story reached on its own: True when it gives no item and the
        earlier page it links was asked for (through the dupefilter: a story joined already,
        from its first page, is not fetched twice)."""
        earlier = article.earlier_page_url
        if not earlier or earlier == page.url or self.max_pages < 2:
            return False
        spider = getattr(self.crawler, "spider", None)
        engine = getattr(self.crawler, "engine", None)
        if spider is None or engine is None:
            return False
        from scrapy import Request  # the Scrapy layer; imported where requests are made

        bind_callbacks(spider)
        try:
            request = Request(
                earlier,
                callback=getattr(spider, CALLBACK),
                priority=int(page.meta.get("priority", 0) or 0),
                # Part of a story the page's own links name, like its continuations.
                meta={META_JUDGE: False},
            )
        except ValueError as exc:  # a URL Scrapy refuses: the page stays an item of its own
            logger.warning("Earlier page %r of %s not requested: %s", earlier, page.url, exc)
            return False
        signal = article.earlier_page_signal
        signal = signal if signal in EARLIER_SIGNALS else "other"
        self.stats.inc_value(f"{LATER_PAGE_COUNT}/{signal}")
        log = logger.info if not self._later_logged else logger.debug
        self._later_logged = True
        log(
            "%s is a later page of the story at %s (%s): no item of its own; that page is "
            "requested, and the story joined from it unless fetched already (counted in %s)",
            page.url,
            earlier,
            signal,
            LATER_PAGE_COUNT,
        )
        engine.crawl(request)
        return True

    def add(self, page: PageItem, article: Article | None) -> ArticleItem | None:
        """A continuation page of ``page.meta[META_STORY]``: None when a further page was
        requested, else the joined item."""
        story: dict[str, Any] = page.meta[META_STORY]
        if story.get("failed") or article is None:
            return self._finish(story, "failed")
        if not article.body:
            return self._finish(story, "empty")
        digest = _digest(article.body)
        if page.url in story["urls"] or digest in story["digests"]:
            return self._finish(story, "repeat")
        story["bodies"].append(article.body)
        story["htmls"].append(article.body_html)
        story["urls"].append(page.url)
        story["digests"].append(digest)
        self.stats.inc_value(PAGE_COUNT)
        next_url = article.next_page_url
        story["next"] = next_url
        if not next_url:
            return self._finish(story, None)
        if next_url in story["urls"]:
            return self._finish(story, "cycle")
        if len(story["urls"]) >= self.max_pages:
            return self._finish(story, "limit")
        if self._request(story, next_url):
            return None
        return self._finish(story, "failed")

    def _request(self, story: dict[str, Any], url: str) -> bool:
        from scrapy import Request  # the Scrapy layer; imported where requests are made

        spider = getattr(self.crawler, "spider", None)
        engine = getattr(self.crawler, "engine", None)
        if spider is None or engine is None:
            return False
        bind_callbacks(spider)
        try:
            request = self._new_request(Request, spider, story, url)
        except ValueError as exc:  # a URL Scrapy refuses: the story keeps what it has
            logger.warning("Continuation page %r not requested: %s", url, exc)
            return False
        engine.crawl(request)
        return True

    @staticmethod
    def _new_request(request_class: Any, spider: Any, story: dict[str, Any], url: str) -> Any:
        return request_class(
            url,
            callback=getattr(spider, CALLBACK),
            errback=getattr(spider, ERRBACK),
            priority=story["priority"],
            # The story's own pages are checked in it; the dupefilter would drop a page some
            # listing linked too, and with it the whole story.
            dont_filter=True,
            # Judged as part of the story, not on their own ("thin" second pages are normal).
            meta={META_STORY: story, META_JUDGE: False},
        )

    def _finish(self, story: dict[str, Any], stopped: str | None) -> ArticleItem:
        item = ArticleItem(**story["item"])
        # Where the story stopped early (the page not joined); None when it ended on its last.
        item.next_page_url = story.get("next", item.next_page_url) if stopped == "limit" else None
        pages = len(story["bodies"])
        if pages > 1:
            item.body = _BODY_SEPARATOR.join(story["bodies"])
            item.body_html = _BODY_SEPARATOR.join(html for html in story["htmls"] if html)
            self.stats.inc_value(STORY_COUNT)
        if stopped is not None:
            self.stats.inc_value(f"{_STATS}stopped_count/{stopped}")
            warning = WARNINGS.get(stopped)
            if warning is not None:
                item.warnings = [*item.warnings, warning]
        return item
