"""ArticlePipeline in thread mode, driven by asyncio (as Scrapy's default reactor does)."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.settings import Settings
from support import fakes

from newsspider.extraction.api import DEFAULT_MAX_BYTES
from newsspider.extraction.article import PAGE_TYPES
from newsspider.items import ArticleItem, PageItem
from newsspider.pipelines import ArticlePipeline, PipelineConfig

ARTICLE_PAGE = PageItem(
    url="http://a.example/story",
    body=b"<html><body>an article</body></html>",
    encoding="utf-8",
    fetched_at="2024-05-01T10:00:00+00:00",
    hints={"title": "From feed"},
)
LISTING_PAGE = PageItem(url="http://a.example/list", body=b"<html><body>links</body></html>")


class FakeStats:
    def __init__(self) -> None:
        self.values: Counter[str] = Counter()

    def inc_value(self, key: str, count: int = 1, start: int = 0) -> None:
        self.values[key] += count


def make(**settings: Any) -> ArticlePipeline:
    values = {"NEWSSPIDER_EXTRACT_FUNCTION": "support.fakes.extract", **settings}
    crawler = SimpleNamespace(settings=Settings(values), stats=FakeStats())
    return ArticlePipeline.from_crawler(crawler)


def process(pipeline: ArticlePipeline, item: Any) -> Any:
    async def run() -> Any:
        pipeline.open_spider()
        try:
            return await pipeline.process_item(item)
        finally:
            pipeline.close_spider()

    return asyncio.run(run())


def test_page_becomes_article_item() -> None:
    fakes.CALLS.clear()
    pipeline = make()
    item = process(pipeline, ARTICLE_PAGE)
    assert isinstance(item, ArticleItem)
    assert item.url == ARTICLE_PAGE.url and item.title == "Fake title"
    assert item.fetched_at == ARTICLE_PAGE.fetched_at and not item.low_confidence
    assert item.authors == ["A. Writer"]
    (call,) = fakes.CALLS
    assert call["encoding"] == "utf-8"
    assert call["hints"] == {"title": "From feed"}
    assert call["reference_time"] == ARTICLE_PAGE.reference_time
    assert call["algorithm"] == "default" and call["max_bytes"] == DEFAULT_MAX_BYTES
    stats = pipeline.stats.values
    assert stats["newsspider/pipeline/page_count"] == 1
    assert stats["newsspider/pipeline/article_count"] == 1
    assert stats["newsspider/pipeline/page_type_count/article"] == 1


def test_runs_off_the_loop_thread() -> None:
    import threading

    seen: list[str] = []
    pipeline = make()
    real = pipeline._extract

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(threading.current_thread().name)
        return real(*args, **kwargs)

    pipeline._extract = spy
    process(pipeline, ARTICLE_PAGE)
    assert seen and seen[0].startswith("newsspider-extract")


def test_other_items_pass_through() -> None:
    item = {"anything": 1}
    assert process(make(), item) is item


def test_low_confidence_dropped_at_info() -> None:
    pipeline = make()
    with pytest.raises(DropItem) as excinfo:
        process(pipeline, LISTING_PAGE)
    assert excinfo.value.log_level == "INFO"
    assert LISTING_PAGE.url in str(excinfo.value)
    assert pipeline.stats.values["newsspider/dropped/reason_count/low_confidence"] == 1
    assert pipeline.stats.values["newsspider/pipeline/article_count"] == 0


def test_low_confidence_drop_says_how_to_see_why(tmp_path: Path) -> None:
    with pytest.raises(DropItem) as excinfo:
        process(make(), LISTING_PAGE)
    message = str(excinfo.value)
    assert f"newsspider explain {LISTING_PAGE.url}" in message
    assert "NEWSSPIDER_EXPLAIN_DIR" in message
    folder = tmp_path / "why"
    with pytest.raises(DropItem) as excinfo:
        process(make(NEWSSPIDER_EXPLAIN_DIR=str(folder)), LISTING_PAGE)
    assert str(folder) in str(excinfo.value)


def test_low_confidence_flagged() -> None:
    # Every page type passes here: the flag, not the page type, is under test.
    pipeline = make(NEWSSPIDER_LOW_CONFIDENCE="flag", NEWSSPIDER_PAGE_TYPES=list(PAGE_TYPES))
    item = process(pipeline, LISTING_PAGE)
    assert isinstance(item, ArticleItem) and item.low_confidence
    assert pipeline.stats.values["newsspider/pipeline/flagged_count"] == 1


def test_threshold_setting() -> None:
    pipeline = make(NEWSSPIDER_MIN_CONFIDENCE=0.05, NEWSSPIDER_PAGE_TYPES=list(PAGE_TYPES))
    assert isinstance(process(pipeline, LISTING_PAGE), ArticleItem)


def test_extraction_error_logged_once_counted_dropped(caplog: pytest.LogCaptureFixture) -> None:
    pipeline = make()
    page = PageItem(url="http://a.example/bad", body=b"<p>explode</p>")
    with (
        caplog.at_level(logging.DEBUG, logger="newsspider.pipelines"),
        pytest.raises(DropItem) as excinfo,
    ):
        process(pipeline, page)
    assert excinfo.value.log_level == "DEBUG"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "http://a.example/bad" in errors[0].getMessage()
    assert errors[0].exc_info is not None
    assert pipeline.stats.values["newsspider/pipeline/error_count"] == 1


def test_relative_dates_off() -> None:
    fakes.CALLS.clear()
    process(make(NEWSSPIDER_RELATIVE_DATES=False), ARTICLE_PAGE)
    assert fakes.CALLS[0]["reference_time"] is None


def test_config_validation_and_switch() -> None:
    with pytest.raises(NotConfigured):
        make(NEWSSPIDER_PIPELINE_ENABLED=False)
    for name, value in [
        ("NEWSSPIDER_EXTRACT_MODE", "fibers"),
        ("NEWSSPIDER_LOW_CONFIDENCE", "ignore"),
        ("NEWSSPIDER_EXTRACT_WORKERS", -1),
    ]:
        with pytest.raises(ValueError, match=name):
            PipelineConfig.from_settings(Settings({name: value}))


def test_worker_counts() -> None:
    assert PipelineConfig(mode="thread").worker_count() == 4
    assert PipelineConfig(mode="process").worker_count() >= 1
    assert PipelineConfig(mode="process", workers=3).worker_count() == 3


def test_algorithm_setting_reaches_extract_and_is_checked() -> None:
    fakes.CALLS.clear()
    process(make(NEWSSPIDER_EXTRACT_ALGORITHM="cetd-ctd"), ARTICLE_PAGE)
    (call,) = fakes.CALLS
    assert call["algorithm"] == "cetd-ctd"
    with pytest.raises(ValueError, match="NEWSSPIDER_EXTRACT_ALGORITHM"):
        make(NEWSSPIDER_EXTRACT_ALGORITHM="no-such-method")


@pytest.mark.parametrize(
    ("value", "expected"), [(None, DEFAULT_MAX_BYTES), (0, None), (4096, 4096)]
)
def test_max_bytes_setting(value: int | None, expected: int | None) -> None:
    fakes.CALLS.clear()
    process(make(NEWSSPIDER_EXTRACT_MAX_BYTES=value), ARTICLE_PAGE)
    (call,) = fakes.CALLS
    assert call["max_bytes"] == expected


def test_item_schema_setting_is_checked() -> None:
    from newsspider.workers.pipeline_config import PipelineConfig

    assert PipelineConfig.from_settings(Settings()).item_schema == "newsspider"
    zyte = PipelineConfig.from_settings(Settings({"NEWSSPIDER_ITEM_SCHEMA": "Zyte"}))
    assert zyte.item_schema == "zyte"
    with pytest.raises(ValueError, match="NEWSSPIDER_ITEM_SCHEMA"):
        PipelineConfig.from_settings(Settings({"NEWSSPIDER_ITEM_SCHEMA": "schema.org"}))
