"""ArticlePipeline in process mode on an asyncio loop: the thread-free worker pool.

(The Twisted-reactor path runs end to end in test_scrapy_e2e's crawl B.)
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy.exceptions import DropItem
from scrapy.settings import Settings

from newsspider.items import ArticleItem, PageItem
from newsspider.pipelines import ArticlePipeline


class FakeStats:
    def __init__(self) -> None:
        self.values: Counter[str] = Counter()

    def inc_value(self, key: str, count: int = 1, start: int = 0) -> None:
        self.values[key] += count


def make(function: str = "support.fakes.extract", workers: int = 1) -> ArticlePipeline:
    settings = Settings(
        {
            "NEWSSPIDER_EXTRACT_MODE": "process",
            "NEWSSPIDER_EXTRACT_WORKERS": workers,
            "NEWSSPIDER_EXTRACT_FUNCTION": function,
        }
    )
    return ArticlePipeline.from_crawler(SimpleNamespace(settings=settings, stats=FakeStats()))


def page(name: str, text: str = "an article") -> PageItem:
    body = f"<html><body>{text} {name}</body></html>".encode()
    return PageItem(url=f"http://a.example/{name}", body=body, encoding="utf-8")


async def outcome(pipeline: ArticlePipeline, item: PageItem) -> Any:
    try:
        return await pipeline.process_item(item)
    except DropItem as drop:
        return drop


def run(pipeline: ArticlePipeline, *batches: list[PageItem]) -> list[Any]:
    """Process each batch concurrently, batch after batch, between open and close."""

    async def main() -> list[Any]:
        pipeline.open_spider()
        results: list[Any] = []
        try:
            for batch in batches:
                results += await asyncio.gather(*(outcome(pipeline, i) for i in batch))
        finally:
            pipeline.close_spider()
        return results

    return asyncio.run(main())


def test_pages_become_articles_in_order_without_threads() -> None:
    # Compare thread identities, not counts: a thread left by an earlier test may end meanwhile.
    threads_before = set(threading.enumerate())
    pipeline = make(workers=2)
    pages = [page(f"story-{i}") for i in range(40)]
    results = run(pipeline, pages)
    assert [type(r) for r in results] == [ArticleItem] * 40
    assert [r.url for r in results] == [p.url for p in pages]
    assert all(r.body.endswith(f"story-{i}</body></html>") for i, r in enumerate(results))
    assert set(threading.enumerate()) - threads_before == set()  # the pool adds no thread
    assert pipeline.stats.values["newsspider/pipeline/article_count"] == 40


def test_worker_error_is_logged_with_its_remote_traceback(caplog: pytest.LogCaptureFixture) -> None:
    pipeline = make()
    with caplog.at_level(logging.ERROR, logger="newsspider.pipelines"):
        bad, good = run(pipeline, [page("x", "explode"), page("y")])
    assert isinstance(bad, DropItem) and isinstance(good, ArticleItem)
    assert pipeline.stats.values["newsspider/pipeline/error_count"] == 1
    (record,) = caplog.records
    assert "ValueError('boom')" in record.getMessage()
    assert record.exc_info is not None
    cause = record.exc_info[1].__cause__ if record.exc_info[1] else None
    assert cause is not None and 'raise ValueError("boom")' in str(cause)


def test_dead_worker_fails_its_pages_and_is_replaced() -> None:
    pipeline = make("support.dying.extract")
    first, second, died, after = run(pipeline, [page("a"), page("b"), page("die")], [page("c")])
    # The replies a worker sent before it died still count, even when they arrive with its end.
    assert isinstance(first, ArticleItem) and isinstance(second, ArticleItem)
    assert isinstance(died, DropItem)
    assert isinstance(after, ArticleItem)
    stats = pipeline.stats.values
    assert stats["newsspider/pipeline/pool_restart_count"] == 1
    assert stats["newsspider/pipeline/error_count"] == 1


def test_large_pages_go_through_whole() -> None:
    big = page("big", "an article " + "word " * 400_000)  # ~2 MB: many socket writes each way
    (result,) = run(make(), [big])
    assert isinstance(result, ArticleItem)
    assert len(result.body) == len(big.body)
