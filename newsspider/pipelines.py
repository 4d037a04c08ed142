"""`ArticlePipeline`: `PageItem` in, `ArticleItem` out, extraction off the event-loop thread.

Extraction runs on the crawl's `ExtractionRunner` (worker threads by default, or processes):
never on the event loop. A page the content filter already extracted (it judges pages by their
extraction) is not extracted again: its article comes from the runner's `prepared` store.

The pieces this module once held live in their own modules, re-exported here for existing
imports: `PipelineConfig` (`newsspider.workers.pipeline_config`), the worker processes
(`newsspider.workers.process_pool`), awaiting a worker's future (`newsspider.workers.loop_bridge`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Self

from scrapy.exceptions import DropItem, NotConfigured

from newsspider.explain_report import write_report
from newsspider.extraction.article import PAGE_TYPES, Article
from newsspider.extraction.body.markdown import to_markdown
from newsspider.extraction.page_judgement import passes_page_type
from newsspider.items import ArticleItem, PageItem
from newsspider.multipage import StoryJoiner
from newsspider.settings_defaults import DEFAULTS, META_STORY, PIPELINE_ENABLED
from newsspider.workers.extraction_runner import ExtractionRunner
from newsspider.workers.pipeline_config import PipelineConfig

__all__ = ["ArticlePipeline", "PipelineConfig"]

logger = logging.getLogger(__name__)

_STATS = "newsspider/pipeline/"
_PAGE_COUNT = _STATS + "page_count"
_ERROR_COUNT = _STATS + "error_count"
_ARTICLE_COUNT = _STATS + "article_count"
_FLAGGED_COUNT = _STATS + "flagged_count"
_PREPARED_COUNT = _STATS + "prepared_count"
_TRUNCATED_COUNT = _STATS + "truncated_response_count"
_EXPLAIN_COUNT = _STATS + "explain_report_count"
_EXPLAIN_ERROR_COUNT = _STATS + "explain_error_count"
_PAGE_TYPE_COUNT = {t: f"{_STATS}page_type_count/{t}" for t in PAGE_TYPES}
_PAGE_TYPE_DROPPED = {t: f"newsspider/dropped/page_type_count/{t}" for t in PAGE_TYPES}


class ArticlePipeline:
    """Replaces each `PageItem` with an `ArticleItem` (or, with ``NEWSSPIDER_ITEM_SCHEMA =
    "zyte"``, a zyte-common-items `Article`); passes other items through untouched.

    Low-confidence articles are dropped (``DropItem`` at INFO) or flagged, per
    ``NEWSSPIDER_LOW_CONFIDENCE``; an article from a truncated response (`PageItem.warnings`)
    has its confidence capped at ``NEWSSPIDER_TRUNCATED_MAX_CONFIDENCE`` first. Extraction
    errors are logged once with the URL, counted, and drop only that page.
    """

    def __init__(
        self,
        config: PipelineConfig,
        stats: Any,
        runner: ExtractionRunner | None = None,
        stories: StoryJoiner | None = None,
    ) -> None:
        self.config = config
        #: Multi-page articles (`newsspider.multipage`); None when off.
        self.stories = stories
        self.stats = stats
        #: Shared with the content filter of the same crawl (`ExtractionRunner.for_crawler`).
        self._runner = runner if runner is not None else ExtractionRunner(config, stats)
        self._extract: Callable[..., Article] = self._runner.extract_function
        self._explained = 0

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        if not crawler.settings.getbool(PIPELINE_ENABLED, DEFAULTS[PIPELINE_ENABLED]):
            raise NotConfigured  # bare: an explicit choice, not worth a warning
        runner = ExtractionRunner.for_crawler(crawler)
        return cls(runner.config, crawler.stats, runner, StoryJoiner.from_crawler(crawler))

    def open_spider(self) -> None:
        # Process mode: the workers start (and import) now, while the first pages download.
        self._runner.start()
        if self.stories is not None:
            self.stories.open()

    def close_spider(self) -> None:
        # Never blocks the event loop; pending work was awaited before the spider closed.
        self._runner.close()

    async def process_item(self, item: Any) -> Any:
        if not isinstance(item, PageItem):
            return item
        stats = self.stats
        stats.inc_value(_PAGE_COUNT)
        if META_STORY in item.meta:
            return await self._continuation(item)
        try:
            article = await self._run(item)
        except Exception as exc:
            stats.inc_value(_ERROR_COUNT)
            logger.error("Extraction failed for %s: %r", item.url, exc, exc_info=exc)
            # Logged above with the traceback; keep the drop itself quiet.
            raise DropItem(f"Extraction failed: {item.url}", log_level="DEBUG") from exc
        page_type = article.page_type if article.page_type in PAGE_TYPES else "other"
        stats.inc_value(_PAGE_TYPE_COUNT[page_type])
        if self.stories is not None and self.stories.later_page(item, article):
            # Page 2 of a story reached on its own: the story comes from its first page.
            raise DropItem(
                f"A later page of {article.earlier_page_url}: {item.url}", log_level="DEBUG"
            )
        confidence = article.confidence
        if item.warnings:  # the response was cut short: half an article is not a confident one
            stats.inc_value(_TRUNCATED_COUNT)
            confidence = min(confidence, self.config.truncated_max_confidence)
        low = confidence < self.config.min_confidence
        if low and self.config.explain_dir is not None:
            await self._explain(item)
        if low and self.config.low_confidence == "drop":
            truncated = article.confidence >= self.config.min_confidence
            reason = "truncated" if truncated else "low_confidence"
            stats.inc_value("newsspider/dropped/count")
            stats.inc_value(f"newsspider/dropped/reason_count/{reason}")
            stats.inc_value(_PAGE_TYPE_DROPPED[page_type])
            raise DropItem(
                f"Low confidence {confidence:.2f} < {self.config.min_confidence}"
                f" ({'truncated response' if truncated else page_type}): {item.url}"
                f"; {self._why_hint(item.url)}",
                log_level="INFO",
            )
        if not passes_page_type(article, self.config.page_types):
            # Not an article or a thread (`NEWSSPIDER_PAGE_TYPES`): the content filter drops
            # the same pages by the same test (`page_judgement.keep_or_drop`).
            stats.inc_value("newsspider/dropped/count")
            stats.inc_value("newsspider/dropped/reason_count/page_type")
            stats.inc_value(_PAGE_TYPE_DROPPED[page_type])
            raise DropItem(
                f"Page type {page_type} (P(article) {article.article_probability:.2f}) not in "
                f"NEWSSPIDER_PAGE_TYPES: {item.url}",
                log_level="INFO",
            )
        if low:
            stats.inc_value(_FLAGGED_COUNT)
        stats.inc_value(_ARTICLE_COUNT)
        if self.config.item_schema == "zyte":
            from newsspider.poet.items import to_zyte_article

            return to_zyte_article(
                article, url=item.url, fetched_at=item.fetched_at, probability=confidence
            )
        result = ArticleItem.from_article(article, item, low_confidence=low)
        if self.config.markdown and article.body_html:
            # On a worker, like the extraction: a long article's conversion takes milliseconds.
            result.markdown = await self._runner.call(to_markdown, article.body_html)
        if item.warnings:
            result.confidence = confidence
            result.warnings = [*result.warnings, *item.warnings]
        if self.stories is not None and self.stories.begin(result, article, item):
            # Held back: the item goes on joined, from its last page (`_continuation`).
            raise DropItem(f"Continued on {article.next_page_url}: {item.url}", log_level="DEBUG")
        return result

    async def _continuation(self, item: PageItem) -> ArticleItem:
        """A continuation page of a multi-page story: joined into it; the story's item when
        it ends here (a page that fails to extract ends it with what it has)."""
        if self.stories is None:  # turned off between a pause and a resume
            raise DropItem(f"Multi-page stories are off: {item.url}", log_level="DEBUG")
        article: Article | None = None
        if item.body:
            try:
                article = await self._run(item)
            except Exception as exc:
                self.stats.inc_value(_ERROR_COUNT)
                logger.error("Extraction failed for %s: %r", item.url, exc, exc_info=exc)
        joined = self.stories.add(item, article)
        if joined is None:
            raise DropItem(f"Joined into its story: {item.url}", log_level="DEBUG")
        return joined

    async def _run(self, page: PageItem) -> Article:
        prepared = self._runner.prepared.take(page.body, page.url, page.encoding, page.hints)
        if prepared is not None:
            self.stats.inc_value(_PREPARED_COUNT)
            return prepared
        args = (page.body, page.url, page.encoding)
        kwargs = {
            "reference_time": page.reference_time if self.config.relative_dates else None,
            "hints": page.hints or None,
            "algorithm": self.config.algorithm,
            "max_bytes": self.config.max_bytes,
        }
        return await self._runner.call(self._extract, *args, **kwargs)

    def _why_hint(self, url: str) -> str:
        """How to see why a page was dropped: the explain command, and the report folder."""
        command = f"see why: newsspider explain {url}"
        folder = self.config.explain_dir
        if folder is not None:
            return f"{command} (reports of dropped pages in {folder}, NEWSSPIDER_EXPLAIN_DIR)"
        return f"{command}, or set NEWSSPIDER_EXPLAIN_DIR to keep a report of each dropped page"

    async def _explain(self, page: PageItem) -> None:
        """Write the explain report of a low-confidence page (bounded count, on a worker thread:
        it extracts the page again, with the explanation). A failure is logged, never fatal."""
        folder = self.config.explain_dir
        if folder is None or self._explained >= self.config.explain_max:
            return
        self._explained += 1  # counted when scheduled, so concurrent pages keep the bound
        reference_time = page.reference_time if self.config.relative_dates else None
        try:
            path = await self._runner.call_in_thread(
                write_report, folder, page.body, page.url, page.encoding,
                reference_time=reference_time, hints=page.hints or None,
            )  # fmt: skip
        except Exception as exc:
            self.stats.inc_value(_EXPLAIN_ERROR_COUNT)
            logger.warning("Explain report failed for %s: %r", page.url, exc)
            return
        self.stats.inc_value(_EXPLAIN_COUNT)
        logger.debug("Explain report for %s: %s", page.url, path)
