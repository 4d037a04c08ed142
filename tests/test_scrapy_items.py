"""PageItem and ArticleItem."""

from __future__ import annotations

import json
from dataclasses import fields
from datetime import datetime

from itemadapter import ItemAdapter
from scrapy.http import HtmlResponse, Request, Response, TextResponse

from newsspider.extraction.article import Article
from newsspider.items import ArticleItem, PageItem

URL = "http://example.com/a.html"


def test_article_item_field_order_and_coverage() -> None:
    names = [f.name for f in fields(ArticleItem)]
    assert names[:5] == ["url", "title", "body", "date", "confidence"]
    assert set(Article.field_names()) <= set(names), "ArticleItem must carry every Article field"
    assert names[-3:] == ["fetched_at", "low_confidence", "crawl"]


def test_article_item_from_article_is_json_ready() -> None:
    article = Article(url=URL, title="T", body="B", authors=("X", "Y"), warnings=("w",))
    page = PageItem(url=URL, body=b"<html></html>", fetched_at="2024-05-01T10:00:00+00:00")
    item = ArticleItem.from_article(article, page, low_confidence=True)
    adapter = ItemAdapter(item)
    assert list(adapter.keys())[:5] == ["url", "title", "body", "date", "confidence"]
    data = json.loads(json.dumps(adapter.asdict()))
    assert data["authors"] == ["X", "Y"]
    assert data["fetched_at"] == "2024-05-01T10:00:00+00:00"
    assert data["low_confidence"] is True
    assert "<html>" not in json.dumps(data)


def test_crawl_context_survives_into_the_record() -> None:
    """Status, depth, redirects, retries and hints of the fetch are exported with the article."""
    request = Request(
        URL,
        meta={
            "depth": 3,
            "redirect_urls": ["http://example.com/old"],
            "retry_times": 1,
            "newsspider_hints": {"title": "From feed"},
        },
    )
    response = HtmlResponse(URL, body=b"<html></html>", status=203, request=request)
    page = PageItem.from_response(response)
    item = ArticleItem.from_article(Article(url=URL), page)
    data = json.loads(json.dumps(ItemAdapter(item).asdict()))
    assert data["crawl"] == {
        "status": 203,
        "depth": 3,
        "redirect_urls": ["http://example.com/old"],
        "retry_times": 1,
        "hints": {"title": "From feed"},
    }
    assert ArticleItem.from_article(Article(url=URL)).crawl == {}


def test_page_item_from_html_response() -> None:
    request = Request(URL, meta={"depth": 2, "newsspider_hints": {"title": "From feed"}})
    response = HtmlResponse(
        URL,
        body="<html><body>Привет</body></html>".encode("cp1251"),
        headers={"Content-Type": "text/html; charset=windows-1251"},
        request=request,
    )
    page = PageItem.from_response(response, date="2024-01-02")
    assert page.url == URL
    assert page.encoding == "cp1251"
    assert page.content_type == "text/html; charset=windows-1251"
    assert page.hints == {"title": "From feed", "date": "2024-01-02"}
    assert page.meta == {"depth": 2}
    assert page.status == 200
    assert isinstance(page.reference_time, datetime)
    assert page.reference_time.tzinfo is not None


def test_page_item_drops_an_encoding_the_body_contradicts() -> None:
    body = "<html><head><meta charset=windows-1251></head><body>Школа</body></html>"
    response = HtmlResponse(
        URL, body=body.encode("cp1251"), headers={"Content-Type": "text/html; charset=utf-8"}
    )
    assert PageItem.from_response(response).encoding is None


def test_page_item_from_binary_and_plain_responses() -> None:
    pdf = Response(URL, body=b"%PDF-1.4", headers={"Content-Type": "application/pdf"})
    page = PageItem.from_response(pdf)
    assert page.encoding is None
    assert page.content_type == "application/pdf"
    assert page.meta == {} and page.hints == {}
    text = TextResponse(URL, body=b"hello", encoding="utf-8")
    assert PageItem.from_response(text).encoding == "utf-8"


def test_page_item_repr_leaves_out_the_body() -> None:
    page = PageItem(url=URL, body=b"x" * 100_000)
    assert len(repr(page)) < 400


def test_reference_time_of_bad_timestamp_is_none() -> None:
    assert PageItem(url=URL, fetched_at="yesterday").reference_time is None


def test_article_item_repr_shortens_the_long_texts() -> None:
    body = "Paragraph of article text. " * 4000
    item = ArticleItem(url=URL, title="A headline", body=body, body_html=f"<p>{body}</p>")
    shown = repr(item)
    assert len(shown) < 1000
    assert f"({len(body)} chars)" in shown and f"({len(body) + 7} chars)" in shown
    assert "title='A headline'" in shown and f"url={URL!r}" in shown
    # Short values stay whole, and the item itself is untouched.
    assert "body=''" in repr(ArticleItem(url=URL))
    assert item.body == body


def test_scrapy_logs_a_scraped_article_item_shortly() -> None:
    from scrapy import Spider
    from scrapy.logformatter import LogFormatter

    item = ArticleItem(url=URL, body="word " * 50_000, body_html="<p>x</p>" * 20_000)
    entry = LogFormatter().scraped(item, TextResponse(URL, body=b""), Spider("s"))
    assert len(entry["msg"] % entry["args"]) < 1500
