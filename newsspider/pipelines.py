"""`ArticlePipeline`: `PageItem` in, `ArticleItem` out, extraction off the event-loop thread.

Extraction is CPU work. Run inline it would stall every download for its duration, so it goes
to an executor: a small thread pool by default (keeps the loop responsive; extraction mostly
holds the GIL, so threads buy responsiveness, not throughput), or a process pool for throughput
on several cores. Either way the coroutine awaits a `concurrent.futures.Future`, bridged to
asyncio when Scrapy runs on an asyncio loop and to a Twisted Deferred otherwise.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Self, TypeVar

from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.misc import load_object
from twisted.internet.defer import Deferred

from newsspider.extraction.api import ALGORITHMS, DEFAULT_MAX_BYTES
from newsspider.extraction.article import PAGE_TYPES, Article
from newsspider.items import ArticleItem, PageItem
from newsspider.settings_defaults import (
    DEFAULTS,
    EXTRACT_ALGORITHM,
    EXTRACT_FUNCTION,
    EXTRACT_MAX_BYTES,
    EXTRACT_MODE,
    EXTRACT_START_METHOD,
    EXTRACT_WORKERS,
    LOW_CONFIDENCE_ACTION,
    MIN_CONFIDENCE,
    PIPELINE_ENABLED,
    RELATIVE_DATES,
)

__all__ = ["ArticlePipeline"]

logger = logging.getLogger(__name__)

_T = TypeVar("_T")
_MODES = ("thread", "process")
_ACTIONS = ("drop", "flag")
_DEFAULT_THREADS = 4
_STATS = "newsspider/pipeline/"


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    """The pipeline's settings, read and checked once."""

    mode: str = "thread"
    workers: int = 0
    start_method: str = "spawn"
    algorithm: str = "default"
    max_bytes: int | None = DEFAULT_MAX_BYTES
    function: str = "newsspider.extraction.api.extract"
    relative_dates: bool = True
    min_confidence: float = 0.3
    low_confidence: str = "drop"

    @classmethod
    def from_settings(cls, settings: Any) -> PipelineConfig:
        def get(name: str) -> Any:
            return settings.get(name, DEFAULTS[name])

        max_bytes = get(EXTRACT_MAX_BYTES)
        config = cls(
            mode=str(get(EXTRACT_MODE)).lower(),
            workers=int(get(EXTRACT_WORKERS) or 0),
            start_method=str(get(EXTRACT_START_METHOD)),
            algorithm=str(get(EXTRACT_ALGORITHM)),
            # Unset: the extractor's own cap; 0: no cap at all.
            max_bytes=(DEFAULT_MAX_BYTES if max_bytes in (None, "") else (int(max_bytes) or None)),
            function=str(get(EXTRACT_FUNCTION)),
            relative_dates=settings.getbool(RELATIVE_DATES, DEFAULTS[RELATIVE_DATES]),
            min_confidence=float(get(MIN_CONFIDENCE)),
            low_confidence=str(get(LOW_CONFIDENCE_ACTION)).lower(),
        )
        # Misconfiguration fails the crawl at start-up, not silently mid-crawl.
        if config.mode not in _MODES:
            raise ValueError(f"{EXTRACT_MODE} must be one of {_MODES}, got {config.mode!r}")
        if config.low_confidence not in _ACTIONS:
            raise ValueError(
                f"{LOW_CONFIDENCE_ACTION} must be one of {_ACTIONS}, got {config.low_confidence!r}"
            )
        if config.algorithm not in ALGORITHMS:
            raise ValueError(
                f"{EXTRACT_ALGORITHM} must be one of {ALGORITHMS}, got {config.algorithm!r}"
            )
        if config.workers < 0:
            raise ValueError(f"{EXTRACT_WORKERS} must be >= 0, got {config.workers}")
        return config

    def worker_count(self) -> int:
        if self.workers:
            return self.workers
        if self.mode == "process":
            return max(1, (os.cpu_count() or 2) - 1)
        return _DEFAULT_THREADS


class ArticlePipeline:
    """Replaces each `PageItem` with an `ArticleItem`; passes other items through untouched.

    Low-confidence articles are dropped (``DropItem`` at INFO) or flagged, per
    ``NEWSSPIDER_LOW_CONFIDENCE``. Extraction errors are logged once with the URL, counted,
    and drop only that page.
    """

    def __init__(self, config: PipelineConfig, stats: Any) -> None:
        self.config = config
        self.stats = stats
        self._extract: Callable[..., Article] = load_object(config.function)
        self._executor: Executor | None = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        if not crawler.settings.getbool(PIPELINE_ENABLED, DEFAULTS[PIPELINE_ENABLED]):
            raise NotConfigured  # bare: an explicit choice, not worth a warning
        return cls(PipelineConfig.from_settings(crawler.settings), crawler.stats)

    def open_spider(self) -> None:
        executor = self._ensure_executor()
        if isinstance(executor, ProcessPoolExecutor):
            # Start the workers (and their imports) now, while the first pages download.
            for _ in range(self.config.worker_count()):
                executor.submit(self._extract, b"<html></html>")

    def close_spider(self) -> None:
        # Never block the event loop here; pending work was awaited before the spider closed.
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    async def process_item(self, item: Any) -> Any:
        if not isinstance(item, PageItem):
            return item
        self._inc("page_count")
        try:
            article = await self._run(item)
        except Exception as exc:
            self._inc("error_count")
            logger.error("Extraction failed for %s: %r", item.url, exc, exc_info=exc)
            # Logged above with the traceback; keep the drop itself quiet.
            raise DropItem(f"Extraction failed: {item.url}", log_level="DEBUG") from exc
        page_type = article.page_type if article.page_type in PAGE_TYPES else "other"
        self._inc(f"page_type_count/{page_type}")
        low = article.confidence < self.config.min_confidence
        if low and self.config.low_confidence == "drop":
            self.stats.inc_value("newsspider/dropped/count")
            self.stats.inc_value("newsspider/dropped/reason_count/low_confidence")
            raise DropItem(
                f"Low confidence {article.confidence:.2f} < {self.config.min_confidence}"
                f" ({page_type}): {item.url}",
                log_level="INFO",
            )
        if low:
            self._inc("flagged_count")
        self._inc("article_count")
        return ArticleItem.from_article(article, item, low_confidence=low)

    async def _run(self, page: PageItem) -> Article:
        executor = self._ensure_executor()
        future = executor.submit(
            self._extract,
            page.body,
            page.url,
            page.encoding,
            reference_time=page.reference_time if self.config.relative_dates else None,
            hints=page.hints or None,
            algorithm=self.config.algorithm,
            max_bytes=self.config.max_bytes,
        )
        try:
            return await _await_future(future)
        except BrokenProcessPool:
            # A worker died (e.g. a crash in native code). Replace the pool once, not once per
            # page that was queued on it; this page counts as an error.
            if self._executor is executor:
                self._inc("pool_restart_count")
                executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None
            raise

    def _ensure_executor(self) -> Executor:
        if self._executor is None:
            workers = self.config.worker_count()
            if self.config.mode == "process":
                context = multiprocessing.get_context(self.config.start_method)
                self._executor = ProcessPoolExecutor(workers, mp_context=context)
            else:
                self._executor = ThreadPoolExecutor(workers, "newsspider-extract")
        return self._executor

    def _inc(self, key: str) -> None:
        self.stats.inc_value(_STATS + key)


async def _await_future(future: Future[_T]) -> _T:
    """Await a concurrent.futures future on whichever loop Scrapy runs."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # a non-asyncio Twisted reactor: coroutines may await Deferreds
        result: _T = await _to_deferred(future)
        return result
    return await asyncio.wrap_future(future)


def _to_deferred(future: Future[_T]) -> Deferred[_T]:
    from twisted.internet import reactor

    deferred: Deferred[_T] = Deferred()

    def fire(done: Future[_T]) -> None:
        error = done.exception() if not done.cancelled() else asyncio.CancelledError()
        if error is None:
            deferred.callback(done.result())
        else:
            deferred.errback(error)

    # Worker threads finish futures; Deferreds must fire on the reactor thread.
    future.add_done_callback(lambda done: reactor.callFromThread(fire, done))
    return deferred
