"""The content filter extracts the pages it judges; the pipeline reuses that extraction."""

from __future__ import annotations

import asyncio
import gc
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy.http import HtmlResponse, Request
from scrapy.settings import Settings
from support import fakes

from newsspider.extraction.article import Article
from newsspider.items import ArticleItem, PageItem
from newsspider.middlewares import ContentFilterMiddleware, PageDropped
from newsspider.pipelines import ArticlePipeline
from newsspider.workers.extraction_runner import ExtractionRunner
from newsspider.workers.handoff import Prepared, PreparedExtractions

ARTICLE = b"<html><body><article><p>" + b"An article sentence here. " * 30 + b"</p></article>"


class FakeStats:
    def __init__(self) -> None:
        self.values: Counter[str] = Counter()

    def inc_value(self, key: str, count: int = 1, start: int = 0) -> None:
        self.values[key] += count


def crawl_parts(**settings: Any) -> tuple[ContentFilterMiddleware, ArticlePipeline, Any]:
    values = {"NEWSSPIDER_EXTRACT_FUNCTION": "support.fakes.extract", **settings}
    crawler = SimpleNamespace(settings=Settings(values), stats=FakeStats(), spider=None)
    return (
        ContentFilterMiddleware.from_crawler(crawler),
        ArticlePipeline.from_crawler(crawler),
        crawler,
    )


def fetched(body: bytes, url: str = "http://a.example/story", **meta: Any) -> HtmlResponse:
    request = Request(url, meta={"newsspider_judge": True, **meta})
    return HtmlResponse(url, body=body, request=request, encoding="utf-8")


def test_one_extraction_per_kept_page() -> None:
    fakes.CALLS.clear()
    middleware, pipeline, crawler = crawl_parts()
    response = fetched(ARTICLE, newsspider_hints={"title": "From the feed"})

    async def crawl() -> Any:
        pipeline.open_spider()
        try:
            await middleware.process_response(response.request, response)
            return await pipeline.process_item(PageItem.from_response(response))
        finally:
            pipeline.close_spider()

    item = asyncio.run(crawl())
    assert isinstance(item, ArticleItem) and "An article sentence" in item.body
    (call,) = fakes.CALLS  # the filter's; the pipeline took its result
    assert call["hints"] == {"title": "From the feed"}
    assert crawler.stats.values["newsspider/pipeline/prepared_count"] == 1
    assert crawler.stats.values["newsspider/content_filter/extracted_count"] == 1


def test_changed_inputs_are_extracted_again() -> None:
    """A callback that adds hints changes the extraction's inputs: no reuse."""
    fakes.CALLS.clear()
    middleware, pipeline, crawler = crawl_parts()
    response = fetched(ARTICLE)

    async def crawl() -> Any:
        pipeline.open_spider()
        try:
            await middleware.process_response(response.request, response)
            page = PageItem.from_response(response, title="Callback title")
            return await pipeline.process_item(page)
        finally:
            pipeline.close_spider()

    asyncio.run(crawl())
    assert len(fakes.CALLS) == 2
    assert fakes.CALLS[1]["hints"] == {"title": "Callback title"}
    assert crawler.stats.values["newsspider/pipeline/prepared_count"] == 0


def test_dropped_page_leaves_nothing_behind() -> None:
    middleware, _, crawler = crawl_parts()
    response = fetched(b"<html><body><p>links only</p></body></html>")  # fake: "listing"
    with pytest.raises(PageDropped):
        asyncio.run(middleware.process_response(response.request, response))
    assert len(ExtractionRunner.for_crawler(crawler).prepared) == 0


def test_prepared_store_matches_by_body_identity_and_is_bounded() -> None:
    store = PreparedExtractions(max_entries=2)
    responses = [fetched(ARTICLE + str(i).encode()) for i in range(3)]
    for response in responses:
        store.put(response, Prepared(response.body, response.url, "utf-8", {}, Article()))
    assert len(store) == 2  # the oldest went
    first, last = responses[0], responses[-1]
    assert store.take(first.body, first.url, "utf-8", {}) is None
    copy = last.body[:1] + last.body[1:]
    assert copy == last.body and copy is not last.body
    assert store.take(copy, last.url, "utf-8", {}) is None  # equal bytes, another response
    assert store.take(last.body, last.url, "utf-8", {}) is not None
    middle = responses[1]
    del responses, first, last
    assert len(store) == 1
    del middle  # the response goes: its entry goes with it
    gc.collect()
    assert len(store) == 0


def test_pipeline_and_filter_share_the_crawl_runner() -> None:
    middleware, pipeline, crawler = crawl_parts()
    runner = ExtractionRunner.for_crawler(crawler)
    assert pipeline._runner is runner
    assert middleware._ensure_runner() is runner
