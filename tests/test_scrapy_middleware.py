"""ContentFilterMiddleware: which responses it judges, what it drops, what it counts and logs."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy import Spider
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse, Request, Response
from scrapy.linkextractors import LinkExtractor
from scrapy.settings import Settings
from scrapy.spiders import CrawlSpider, Rule

from newsspider.items import PageItem
from newsspider.middlewares import ContentFilterMiddleware, PageDropped, article_callback
from newsspider.workers.extraction_runner import ExtractionRunner

ARTICLE = (
    b"<html><body><article>"
    + b"<p>"
    + b"A sentence of article text. " * 30
    + b"</p></article></body></html>"
)
THIN = b"<html><body><h1>Video: the rowing club race</h1><p>Watch the highlights.</p></body></html>"
#: Above P(article present) of `THIN` (about 0.1), below `ARTICLE`'s.
TEST_MIN_PRESENCE = 0.3


class FakeStats:
    def __init__(self) -> None:
        self.values: Counter[str] = Counter()

    def inc_value(self, key: str, count: int = 1, start: int = 0) -> None:
        self.values[key] += count


class NewsSpider(Spider):
    name = "news"

    def parse(self, response: Any) -> Any:
        return None

    @article_callback
    def parse_article(self, response: Any) -> Any:
        return None


class RulesSpider(CrawlSpider):
    name = "rules"
    rules = (
        Rule(LinkExtractor(allow="/list/"), follow=True),
        Rule(LinkExtractor(allow="/story/"), callback="parse_story"),
    )

    @article_callback
    def parse_story(self, response: Any) -> Any:
        return None


def make(
    settings: dict[str, Any] | None = None, spider: Spider | None = None
) -> ContentFilterMiddleware:
    # These tests check the mechanism (a page under the presence threshold is dropped), not the
    # fitted model's calibration: the thin page must fall under the threshold whatever the
    # current weights. The shipped threshold is chosen by `bench.filter.middleware_eval`'s rule.
    chosen = {"NEWSSPIDER_CONTENT_FILTER_MIN_PRESENCE": TEST_MIN_PRESENCE} | (settings or {})
    crawler = SimpleNamespace(
        settings=Settings(chosen), stats=FakeStats(), spider=spider or NewsSpider()
    )
    return ContentFilterMiddleware.from_crawler(crawler)


def response(request: Request, body: bytes = THIN, status: int = 200) -> HtmlResponse:
    return HtmlResponse(request.url, body=body, status=status, request=request, encoding="utf-8")


def judge(mw: ContentFilterMiddleware, request: Request, resp: Response) -> Any:
    """`process_response` as Scrapy awaits it, on an asyncio loop."""
    return asyncio.run(mw.process_response(request, resp))


#: The text statistics alone (no extraction): the fast, older mode.
STATISTICS_ONLY = {"NEWSSPIDER_CONTENT_FILTER_MIN_PRESENCE": 0}


def test_default_scope_judges_only_article_callbacks() -> None:
    spider = NewsSpider()
    mw = make(spider=spider)
    listing = Request("http://a.example/", callback=spider.parse)
    default = Request("http://a.example/")
    article = Request("http://a.example/x", callback=spider.parse_article)
    assert judge(mw, listing, response(listing)) is not None
    assert judge(mw, default, response(default)) is not None
    with pytest.raises(PageDropped):
        judge(mw, article, response(article))


def test_meta_overrides_scope() -> None:
    spider = NewsSpider()
    mw = make(spider=spider)
    opted_in = Request("http://a.example/1", meta={"newsspider_judge": True})
    opted_out = Request(
        "http://a.example/2", callback=spider.parse_article, meta={"newsspider_judge": False}
    )
    with pytest.raises(PageDropped):
        judge(mw, opted_in, response(opted_in))
    assert judge(mw, opted_out, response(opted_out)) is not None
    everything = make({"NEWSSPIDER_CONTENT_FILTER_SCOPE": "all"})
    spared = Request("http://a.example/3", meta={"newsspider_judge": False})
    assert judge(everything, spared, response(spared)) is not None
    with pytest.raises(PageDropped):
        plain = Request("http://a.example/4")
        judge(everything, plain, response(plain))


def test_crawl_spider_rule_callbacks() -> None:
    spider = RulesSpider()
    spider._compile_rules()
    mw = make(spider=spider)
    story = Request("http://a.example/story/1", callback=spider._callback, meta={"rule": 1})
    listing = Request("http://a.example/list/1", callback=spider._callback, meta={"rule": 0})
    assert mw.should_judge(story)
    assert not mw.should_judge(listing)


def test_drop_carries_response_reason_and_counts() -> None:
    mw = make(STATISTICS_ONLY)
    request = Request("http://a.example/v", meta={"newsspider_judge": True})
    resp = response(request)
    with pytest.raises(IgnoreRequest) as excinfo:
        judge(mw, request, resp)
    error = excinfo.value
    assert isinstance(error, PageDropped)
    assert error.response is resp and error.reason == "thin" and not error.verdict.keep
    assert error.article is None and error.presence is None
    stats = mw.stats.values
    assert stats["newsspider/content_filter/judged_count"] == 1
    assert stats["newsspider/dropped/count"] == 1
    assert stats["newsspider/dropped/reason_count/thin"] == 1


def test_doubtful_page_is_decided_by_the_extractor() -> None:
    """A thin page is no certain drop for the text statistics: it is extracted, and dropped
    because the extractor's presence model finds no article (the old filter said "thin")."""
    mw = make()
    request = Request("http://a.example/v", meta={"newsspider_judge": True})
    with pytest.raises(PageDropped) as excinfo:
        judge(mw, request, response(request))
    error = excinfo.value
    assert error.article is not None and error.presence is not None
    assert error.presence < mw.min_presence
    assert error.reason == "no_article"
    stats = mw.stats.values
    assert stats["newsspider/content_filter/extracted_count"] == 1
    assert stats["newsspider/dropped/reason_count/no_article"] == 1


def test_certain_cases_are_not_extracted() -> None:
    mw = make()
    request = Request("http://a.example/e", meta={"newsspider_judge": True})
    empty = response(request, b"<html><body><script>app()</script></body></html>")
    with pytest.raises(PageDropped) as excinfo:
        judge(mw, request, empty)
    assert excinfo.value.reason == "empty" and excinfo.value.article is None
    assert mw.stats.values["newsspider/content_filter/extracted_count"] == 0


def test_kept_page_article_waits_for_the_pipeline() -> None:
    """The filter's extraction of a kept page is handed to the pipeline: one extraction."""
    mw = make()
    request = Request("http://a.example/a", meta={"newsspider_judge": True})
    resp = response(request, ARTICLE)
    assert judge(mw, request, resp) is resp
    verdict = resp.meta["newsspider_verdict"]
    assert verdict["keep"] and verdict["presence"] >= mw.min_presence
    page = PageItem.from_response(resp)
    runner = ExtractionRunner.for_crawler(mw.crawler)
    article = runner.prepared.take(page.body, page.url, page.encoding, page.hints)
    assert article is not None and "A sentence of article text." in article.body
    # Taken once: a second PageItem of the same response is extracted anew.
    assert runner.prepared.take(page.body, page.url, page.encoding, page.hints) is None


def test_judgement_runs_off_the_event_loop_thread() -> None:
    import threading

    from support import fakes

    mw = make({"NEWSSPIDER_EXTRACT_FUNCTION": "support.fakes.extract"})
    fakes.CALLS.clear()
    request = Request("http://a.example/a", meta={"newsspider_judge": True})
    judge(mw, request, response(request, ARTICLE))
    (call,) = fakes.CALLS
    assert call["thread"] != threading.main_thread().name
    assert call["thread"].startswith("newsspider-extract")


def test_failed_judgement_keeps_the_page(caplog: pytest.LogCaptureFixture) -> None:
    mw = make({"NEWSSPIDER_EXTRACT_FUNCTION": "support.fakes.extract"})
    request = Request("http://a.example/explode", meta={"newsspider_judge": True})
    resp = response(request, ARTICLE.replace(b"article text", b"explode text"))
    with caplog.at_level(logging.WARNING, logger="newsspider.middlewares"):
        assert judge(mw, request, resp) is resp
    assert mw.stats.values["newsspider/content_filter/error_count"] == 1
    assert any("could not judge" in r.getMessage() for r in caplog.records)


def test_kept_response_gets_verdict_in_meta() -> None:
    mw = make()
    request = Request("http://a.example/a", meta={"newsspider_judge": True})
    resp = response(request, ARTICLE)
    assert judge(mw, request, resp) is resp
    assert resp.meta["newsspider_verdict"]["keep"] is True
    assert mw.stats.values["newsspider/content_filter/kept_count"] == 1


def test_non_2xx_and_binary_responses() -> None:
    mw = make()
    request = Request("http://a.example/e", meta={"newsspider_judge": True})
    error_page = response(request, THIN, status=404)
    assert judge(mw, request, error_page) is error_page
    pdf = Response(
        request.url, body=b"%PDF-1.4", headers={"Content-Type": "application/pdf"}, request=request
    )
    with pytest.raises(PageDropped) as excinfo:
        judge(mw, request, pdf)
    assert excinfo.value.reason == "not_html"


def test_reasons_setting_limits_drops() -> None:
    mw = make({"NEWSSPIDER_CONTENT_FILTER_REASONS": ["not_html"], **STATISTICS_ONLY})
    request = Request("http://a.example/v", meta={"newsspider_judge": True})
    resp = response(request)
    assert judge(mw, request, resp) is resp
    assert resp.meta["newsspider_verdict"]["reason"] == "thin"


def test_thresholds_from_settings() -> None:
    mw = make({"NEWSSPIDER_CONTENT_FILTER_MIN_TEXT": 5, **STATISTICS_ONLY})
    request = Request("http://a.example/v", meta={"newsspider_judge": True})
    assert judge(mw, request, response(request)) is not None


def test_first_drop_per_domain_and_reason_logged(caplog: pytest.LogCaptureFixture) -> None:
    mw = make()
    caplog.set_level(logging.DEBUG, logger="newsspider.middlewares")
    for url in ("http://a.example/1", "http://a.example/2", "http://b.example/1"):
        request = Request(url, meta={"newsspider_judge": True})
        with pytest.raises(PageDropped):
            judge(mw, request, response(request))
    info = [r for r in caplog.records if r.levelno == logging.INFO]
    assert [r.args[0] for r in info] == ["http://a.example/1", "http://b.example/1"]  # type: ignore[index]
    assert mw.stats.values["newsspider/dropped/reason_count/no_article"] == 3
    assert "P(article present)" in info[0].getMessage()


def test_disabled_and_bad_settings() -> None:
    with pytest.raises(NotConfigured):
        make({"NEWSSPIDER_CONTENT_FILTER_ENABLED": False})
    with pytest.raises(ValueError, match="SCOPE"):
        make({"NEWSSPIDER_CONTENT_FILTER_SCOPE": "some"})
    with pytest.raises(ValueError, match="unknown reasons"):
        make({"NEWSSPIDER_CONTENT_FILTER_REASONS": ["paywall"]})
    with pytest.raises(ValueError, match="MIN_PRESENCE"):
        make({"NEWSSPIDER_CONTENT_FILTER_MIN_PRESENCE": 1.5})
