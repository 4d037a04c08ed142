"""Run several bundled-spider crawls at once in this process and collect items and stats.

Used by the demo and by the end-to-end tests (in a subprocess there: Twisted's reactor can run
once per process). Crawls run concurrently, each with its own settings on top of the bundled
project's, so one run can compare e.g. a crawl with the add-on and one without.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.crawler import AsyncCrawlerProcess, Crawler
from scrapy.settings import Settings

from newsspider.items import PageItem
from newsspider.spiders._args import SpiderArgumentError

#: Settings for crawling the loopback demo site: no politeness delays against ourselves.
LOOPBACK_SETTINGS: dict[str, Any] = {
    "AUTOTHROTTLE_ENABLED": False,
    "DOWNLOAD_DELAY": 0,
    "CONCURRENT_REQUESTS": 16,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
    "LOG_LEVEL": "WARNING",
    "TELNETCONSOLE_ENABLED": False,
}


@dataclass(slots=True)
class CrawlSpec:
    spider: str
    args: dict[str, str]
    #: On top of the bundled settings and the run's settings.
    settings: dict[str, Any] = field(default_factory=dict)
    #: Write the items here as JSONL (Scrapy's feed export), if given.
    output: Path | None = None
    label: str = ""


@dataclass(slots=True)
class CrawlResult:
    label: str
    spider: str
    #: Scraped items as plain dicts; a `PageItem` is reduced to its url and hints.
    items: list[dict[str, Any]]
    stats: dict[str, Any]
    finish_reason: str | None
    argument_error: str | None


def project_settings(overrides: dict[str, Any] | None = None) -> Settings:
    settings = Settings()
    settings.setmodule("newsspider.settings", priority="project")
    if overrides:
        settings.update(overrides, priority="cmdline")
    return settings


def _plain(item: Any) -> dict[str, Any]:
    if isinstance(item, PageItem):
        return {"url": item.url, "hints": dict(item.hints)}
    return dict(ItemAdapter(item).asdict())


class _Progress:
    """Counts per crawl on one stderr line, refreshed at most 5 times a second (tty only)."""

    def __init__(self, labels: Sequence[str], enabled: bool) -> None:
        self.counts = dict.fromkeys(labels, 0)
        self.enabled = enabled
        self._last = 0.0

    def bump(self, label: str) -> None:
        self.counts[label] += 1
        now = time.monotonic()
        if self.enabled and now - self._last > 0.2:
            self._last = now
            self._draw()

    def _draw(self) -> None:
        parts = " · ".join(f"{label} {n}" for label, n in self.counts.items())
        sys.stderr.write(f"\r  crawling: {parts} items ")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            self._draw()
            sys.stderr.write("\n")


def _note_refusal(started: Any, label: str, refused: dict[str, str]) -> None:
    """Record a `SpiderArgumentError` that failed the crawl's start. ``started`` is Scrapy's
    asyncio task or Twisted Deferred of the crawl; other failures are left to Scrapy's logging
    (re-logged here for a task, whose exception this callback has consumed)."""

    def on_task_done(task: Any) -> None:
        exc = None if task.cancelled() else task.exception()
        if isinstance(exc, SpiderArgumentError):
            refused[label] = str(exc)
        elif exc is not None:
            logging.getLogger(__name__).error("Crawl %r failed", label, exc_info=exc)

    def on_failure(failure: Any) -> Any:
        if isinstance(failure.value, SpiderArgumentError):
            refused[label] = str(failure.value)
            return None
        return failure

    if hasattr(started, "add_done_callback"):
        started.add_done_callback(on_task_done)
    elif hasattr(started, "addErrback"):
        started.addErrback(on_failure)


def run_crawls(
    specs: Sequence[CrawlSpec],
    settings: dict[str, Any] | None = None,
    *,
    progress: bool = False,
    on_start: Callable[[], None] | None = None,
) -> list[CrawlResult]:
    """Run the crawls concurrently and block until all are done. Once per process."""
    base = project_settings(settings)
    process = AsyncCrawlerProcess(base)
    labels = [spec.label or spec.spider for spec in specs]
    meter = _Progress(labels, progress)
    runs: list[tuple[CrawlSpec, str, Crawler, list[dict[str, Any]]]] = []
    #: Label -> message of the crawls refused for bad ``-a`` arguments.
    refused: dict[str, str] = {}
    for spec, label in zip(specs, labels, strict=True):
        crawl_settings = project_settings({**(settings or {}), **spec.settings})
        if spec.output is not None:
            spec.output.parent.mkdir(parents=True, exist_ok=True)
            feeds = {str(spec.output): {"format": "jsonlines", "overwrite": True}}
            crawl_settings.set("FEEDS", feeds, priority="cmdline")
        spidercls = process.spider_loader.load(spec.spider)
        crawler = Crawler(spidercls, crawl_settings)
        items: list[dict[str, Any]] = []

        def collect(
            item: Any, items: list[dict[str, Any]] = items, label: str = label, **_: Any
        ) -> None:
            items.append(_plain(item))
            meter.bump(label)

        crawler.signals.connect(collect, signal=signals.item_scraped, weak=False)
        _note_refusal(process.crawl(crawler, **spec.args), label, refused)
        runs.append((spec, label, crawler, items))
    if on_start is not None:
        on_start()
    process.start()
    meter.close()
    results = []
    for spec, label, crawler, items in runs:
        # A crawl refused at start has no stats (Scrapy >= 2.19 raises on reading them).
        stats = {} if label in refused else dict(crawler.stats.get_stats())
        results.append(
            CrawlResult(
                label=label,
                spider=spec.spider,
                items=items,
                stats={k: v for k, v in stats.items() if isinstance(v, int | float | str)},
                finish_reason=stats.get("finish_reason"),
                argument_error=refused.get(label),
            )
        )
    return results
