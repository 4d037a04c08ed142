"""`ExtractionRunner`: extraction calls off the event-loop thread, one runner per crawl.

Extraction is CPU work. Run inline it would stall every download for its duration, so it goes
elsewhere: to a small thread pool by default (keeps the loop responsive; extraction mostly holds
the GIL, so threads buy responsiveness, not throughput), or to worker processes for throughput
on several cores (`newsspider.workers.process_pool`). The pipeline and the content filter share the
crawl's runner: the filter extracts the pages it judges, and the pipeline takes those results
from `prepared` instead of extracting the same page again.
"""

from __future__ import annotations

import functools
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, TypeVar

from scrapy.utils.misc import load_object

from newsspider.workers.handoff import PreparedExtractions
from newsspider.workers.loop_bridge import await_future
from newsspider.workers.pipeline_config import PipelineConfig
from newsspider.workers.process_pool import ProcessPool

__all__ = ["ExtractionRunner"]

_T = TypeVar("_T")
_CRAWLER_ATTRIBUTE: Final = "_newsspider_extraction_runner"
RESTART_COUNT: Final = "newsspider/pipeline/pool_restart_count"


class ExtractionRunner:
    """Runs functions of the extraction core on worker threads or processes, per the config."""

    def __init__(self, config: PipelineConfig, stats: Any = None) -> None:
        self.config = config
        self.stats = stats
        #: The configured extraction function (``NEWSSPIDER_EXTRACT_FUNCTION``).
        self.extract_function: Callable[..., Any] = load_object(config.function)
        #: Extractions the content filter made, waiting for the pipeline.
        self.prepared = PreparedExtractions()
        self._executor: Executor | None = None
        self._pool: ProcessPool | None = None
        self._closed = False

    @classmethod
    def for_crawler(cls, crawler: Any) -> ExtractionRunner:
        """The crawl's runner, created on first use (by the pipeline or the content filter)."""
        runner: ExtractionRunner | None = getattr(crawler, _CRAWLER_ATTRIBUTE, None)
        if runner is None or runner.closed:
            runner = cls(PipelineConfig.from_settings(crawler.settings), crawler.stats)
            setattr(crawler, _CRAWLER_ATTRIBUTE, runner)
        return runner

    @property
    def closed(self) -> bool:
        return self._closed

    def start(self) -> None:
        """Start the workers now (process mode: they import while the first pages download);
        also reopens a closed runner (a pipeline opened again)."""
        self._closed = False
        if self.config.mode == "process":
            self._ensure_pool()
        else:
            self._ensure_executor()

    async def call(self, function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """``function(*args, **kwargs)`` on a worker. In process mode `function` must be a
        module-level function (it is pickled by name), and so must its arguments."""
        if self._closed:
            raise BrokenProcessPool("the extraction runner is closed")
        if self.config.mode == "process":
            result: _T = await self._ensure_pool().submit(function, args, kwargs)
            return result
        return await await_future(self._ensure_executor().submit(function, *args, **kwargs))

    async def call_in_thread(self, function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """``function(*args, **kwargs)`` on a worker thread, whatever the mode (rare, bounded
        work such as explain reports, whose arguments need not be picklable)."""
        if self._closed:
            raise BrokenProcessPool("the extraction runner is closed")
        return await await_future(self._ensure_executor().submit(function, *args, **kwargs))

    def close(self) -> None:
        """Stop the workers without blocking the event loop; idempotent."""
        self._closed = True
        self.prepared.clear()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def _ensure_executor(self) -> Executor:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self.config.worker_count(), "newsspider-extract")
        return self._executor

    def _ensure_pool(self) -> ProcessPool:
        if self._pool is None:
            self._pool = ProcessPool(
                self.config.worker_count(),
                multiprocessing.get_context(self.config.start_method),
                on_restart=self._count_restart,
                warm_up=functools.partial(self.extract_function, b"<html></html>"),
            )
        return self._pool

    def _count_restart(self) -> None:
        if self.stats is not None:
            self.stats.inc_value(RESTART_COUNT)
