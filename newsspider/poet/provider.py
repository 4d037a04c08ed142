"""`ExtractionWorkersProvider`: scrapy-poet hands page objects the crawl's extraction runner.

Registered by `newsspider.Addon` when scrapy-poet is installed (``SCRAPY_POET_PROVIDERS``);
register it yourself in a crawl without the add-on.
"""

from __future__ import annotations

from collections.abc import Callable, Set
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy_poet.page_input_providers import PageObjectInputProvider

from newsspider.poet.pages import ExtractionWorkers
from newsspider.workers.extraction_runner import ExtractionRunner

__all__ = ["ExtractionWorkersProvider"]


class ExtractionWorkersProvider(PageObjectInputProvider):
    provided_classes = {ExtractionWorkers}  # noqa: RUF012 (scrapy-poet's declared attribute)

    def __init__(self, injector: Any) -> None:
        super().__init__(injector)  # type: ignore[no-untyped-call]
        self._closing: ExtractionRunner | None = None

    def __call__(self, to_provide: Set[Callable[..., Any]], crawler: Crawler) -> list[Any]:
        runner = ExtractionRunner.for_crawler(crawler)
        if self._closing is not runner:
            # Without newsspider's pipeline nothing else would stop the workers (closing twice
            # is harmless).
            crawler.signals.connect(runner.close, signal=signals.spider_closed)
            self._closing = runner
        return [ExtractionWorkers(runner)]
