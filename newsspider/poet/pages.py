"""Page objects for scrapy-poet: `NewsArticlePage` (-> `Article`) and
`NewsArticleNavigationPage` (-> `ArticleNavigation`), for any URL.

Both are registered with ``@handle_urls("")`` at `PAGE_OBJECT_PRIORITY`, below web-poet's default
(500): a page object of your own for a site, or for every site with the default priority, wins.
Extraction runs on the crawl's `ExtractionRunner` (worker threads or processes, per
``NEWSSPIDER_EXTRACT_MODE``), never on the event loop: `ExtractionWorkers` is the page input that
carries it, provided by `ExtractionWorkersProvider` (the newsspider add-on registers it with
scrapy-poet). Without the provider (a page object built by hand, or a crawl without the add-on)
the pages use a runner of their own with the default settings.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Any, Final

import attrs
from web_poet import field, handle_urls
from web_poet.utils import cached_method
from zyte_common_items import (
    Article,
    ArticleNavigationMetadata,
    ArticleNavigationPage,
    ArticlePage,
    Author,
    Breadcrumb,
    Image,
    ProbabilityRequest,
    Request,
)

from newsspider.extraction.parse.decoding import usable_encoding
from newsspider.navigation import Navigation, NavLink, find_navigation
from newsspider.poet.items import to_zyte_article, zyte_timestamp
from newsspider.workers.extraction_runner import ExtractionRunner
from newsspider.workers.pipeline_config import PipelineConfig

__all__ = [
    "PAGE_OBJECT_PRIORITY",
    "ExtractionWorkers",
    "NewsArticleNavigationPage",
    "NewsArticlePage",
]

#: ``handle_urls`` priority of both page objects: under web-poet's default of 500.
PAGE_OBJECT_PRIORITY: Final = 100


@attrs.define
class ExtractionWorkers:
    """Page input: the crawl's extraction runner (`ExtractionRunner.for_crawler`)."""

    runner: ExtractionRunner


_fallback_lock = threading.Lock()
_fallback: dict[str, ExtractionRunner] = {}


def _fallback_runner() -> ExtractionRunner:
    """One runner (default settings: worker threads) for page objects used outside a crawl
    that provides `ExtractionWorkers`."""
    with _fallback_lock:
        runner = _fallback.get("runner")
        if runner is None or runner.closed:
            runner = _fallback["runner"] = ExtractionRunner(PipelineConfig())
        return runner


def _runner(workers: ExtractionWorkers | None) -> ExtractionRunner:
    return workers.runner if workers is not None else _fallback_runner()


@handle_urls("", priority=PAGE_OBJECT_PRIORITY)
@attrs.define
class NewsArticlePage(ArticlePage):
    """An `Article` from newsspider's extractor; override any field in a subclass.

    ``metadata.probability`` is the extractor's confidence (P(an article is present) x
    P(body F1 >= 0.8), calibrated): `DropLowProbabilityItemPipeline` drops pages under its
    threshold (0.1 by default; newsspider's own pipeline drops under
    ``NEWSSPIDER_MIN_CONFIDENCE``).
    """

    workers: ExtractionWorkers | None = None

    @cached_method
    async def article(self) -> Article:
        """The whole item, extracted once per page (the fields read from it)."""
        runner = _runner(self.workers)
        config = runner.config
        body = bytes(self.response.body)
        url = str(self.response.url)
        now = datetime.now(UTC)
        extracted = await runner.call(
            runner.extract_function,
            body,
            url,
            usable_encoding(body, self.response.encoding),
            reference_time=now if config.relative_dates else None,
            algorithm=config.algorithm,
            max_bytes=config.max_bytes,
        )
        return to_zyte_article(extracted, url=url, fetched_at=now)

    @field
    async def headline(self) -> str | None:
        return (await self.article()).headline

    @field
    async def datePublished(self) -> str | None:
        return (await self.article()).datePublished

    @field
    async def datePublishedRaw(self) -> str | None:
        return (await self.article()).datePublishedRaw

    @field
    async def dateModified(self) -> str | None:
        return (await self.article()).dateModified

    @field
    async def dateModifiedRaw(self) -> str | None:
        return (await self.article()).dateModifiedRaw

    @field
    async def authors(self) -> list[Author] | None:
        return (await self.article()).authors

    @field
    async def breadcrumbs(self) -> list[Breadcrumb] | None:
        return (await self.article()).breadcrumbs

    @field
    async def inLanguage(self) -> str | None:
        return (await self.article()).inLanguage

    @field
    async def mainImage(self) -> Image | None:
        return (await self.article()).mainImage

    @field
    async def images(self) -> list[Image] | None:
        return (await self.article()).images

    @field
    async def description(self) -> str | None:
        return (await self.article()).description

    @field
    async def articleBody(self) -> str | None:
        return (await self.article()).articleBody

    @field
    async def articleBodyHtml(self) -> str | None:
        return (await self.article()).articleBodyHtml

    @field
    async def canonicalUrl(self) -> str | None:
        return (await self.article()).canonicalUrl

    @field
    async def metadata(self) -> Any:
        return (await self.article()).metadata


def _request(link: NavLink) -> Request:
    return Request(url=link.url, name=link.text or None)


def _probability_request(link: NavLink) -> ProbabilityRequest:
    # No probability: the link scores are hand-set weights, not calibrated probabilities.
    return ProbabilityRequest(url=link.url, name=link.text or None)


@handle_urls("", priority=PAGE_OBJECT_PRIORITY)
@attrs.define
class NewsArticleNavigationPage(ArticleNavigationPage):
    """An `ArticleNavigation` from the ``site`` spider's link classifier: ``items`` are the
    links it fetches as articles (with their anchor text as ``name``), ``subCategories`` those
    it follows as listings, ``nextPage`` the pager's next page."""

    workers: ExtractionWorkers | None = None

    @cached_method
    async def navigation(self) -> Navigation:
        runner = _runner(self.workers)
        body = bytes(self.response.body)
        encoding = usable_encoding(body, self.response.encoding)
        return await runner.call(find_navigation, body, str(self.response.url), encoding)

    @field
    async def categoryName(self) -> str | None:
        return (await self.navigation()).name

    @field
    async def items(self) -> list[ProbabilityRequest]:
        return [_probability_request(link) for link in (await self.navigation()).articles]

    @field
    async def subCategories(self) -> list[ProbabilityRequest]:
        return [_probability_request(link) for link in (await self.navigation()).listings]

    @field
    async def nextPage(self) -> Request | None:
        link = (await self.navigation()).next_page
        return _request(link) if link is not None else None

    @field
    async def pageNumber(self) -> int | None:
        return (await self.navigation()).page_number

    @field
    def metadata(self) -> ArticleNavigationMetadata:
        return ArticleNavigationMetadata(dateDownloaded=zyte_timestamp())
