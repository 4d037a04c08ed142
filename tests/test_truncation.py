"""Truncated responses: detected (Scrapy's dataloss flag, a compressed stream cut short) and
carried into the item as a warning with a capped confidence."""

from __future__ import annotations

import dataclasses
import gzip
import zlib
from types import SimpleNamespace

import pytest
from scrapy.exceptions import DropItem
from scrapy.http import HtmlResponse, Request
from test_scrapy_pipeline import ARTICLE_PAGE, make, process

from newsspider.items import ArticleItem, PageItem
from newsspider.settings_defaults import META_JUDGE
from newsspider.truncation import (
    TRUNCATED_FLAG,
    TRUNCATED_WARNING,
    TruncationMiddleware,
    response_warnings,
    stream_is_complete,
)

PAGE = b"<html><body>" + b"<p>Some words of an article, repeated. " * 2000 + b"</body></html>"


def test_gzip_stream_completeness() -> None:
    whole = gzip.compress(PAGE)
    assert stream_is_complete(whole, b"gzip") is True
    assert stream_is_complete(whole[: len(whole) // 2], b"gzip") is False
    assert stream_is_complete(whole[:-4], b"x-gzip") is False  # only the trailer missing
    assert stream_is_complete(b"\x1f\x8bnot gzip at all", b"gzip") is False
    assert stream_is_complete(whole, b"gzip", max_size=1000) is None  # past the size limit


def test_deflate_both_flavours_and_unknown_encodings() -> None:
    wrapped = zlib.compress(PAGE)
    raw = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    raw_data = raw.compress(PAGE) + raw.flush()
    assert stream_is_complete(wrapped, b"deflate") is True
    assert stream_is_complete(raw_data, b"deflate") is True
    assert stream_is_complete(wrapped[:100], b"deflate") is False
    assert stream_is_complete(raw_data[:100], b"deflate") is False
    assert stream_is_complete(b"anything", b"br") is None


def _response(body: bytes, encoding: str, meta: dict[str, object] | None = None) -> HtmlResponse:
    request = Request("https://n.example/a", meta=meta or {})
    headers = {"Content-Encoding": encoding, "Content-Type": "text/html"}
    return HtmlResponse(request.url, body=body, headers=headers, request=request)


def test_middleware_flags_a_cut_stream_only() -> None:
    middleware = TruncationMiddleware(max_size=0)
    whole = gzip.compress(PAGE)
    cut = _response(whole[: len(whole) // 2], "gzip")
    assert TRUNCATED_FLAG in middleware.process_response(cut.request, cut).flags
    complete = _response(whole, "gzip")
    assert middleware.process_response(complete.request, complete).flags == []
    # Feeds and sitemaps of the bundled spiders (never judged) are not checked.
    unjudged = _response(whole[:100], "gzip", {META_JUDGE: False})
    assert middleware.process_response(unjudged.request, unjudged).flags == []


def test_warnings_from_flags() -> None:
    assert response_warnings(SimpleNamespace(flags=["dataloss"])) == [TRUNCATED_WARNING]
    assert response_warnings(SimpleNamespace(flags=[TRUNCATED_FLAG])) == [TRUNCATED_WARNING]
    # No Content-Length, ended by the connection closing: how many servers answer.
    assert response_warnings(SimpleNamespace(flags=["partial"])) == []
    response = HtmlResponse("https://n.example/", body=b"<p>x", flags=["dataloss"])
    assert PageItem.from_response(response).warnings == [TRUNCATED_WARNING]


TRUNCATED_PAGE = dataclasses.replace(ARTICLE_PAGE, warnings=[TRUNCATED_WARNING])


def test_truncated_article_dropped_as_truncated() -> None:
    pipeline = make()
    assert process(make(), ARTICLE_PAGE).confidence >= 0.3  # the same page, whole: kept
    with pytest.raises(DropItem, match="truncated response"):
        process(pipeline, TRUNCATED_PAGE)
    stats = pipeline.stats.values
    assert stats["newsspider/dropped/reason_count/truncated"] == 1
    assert stats["newsspider/pipeline/truncated_response_count"] == 1


def test_truncated_article_flagged_with_capped_confidence() -> None:
    item = process(make(NEWSSPIDER_LOW_CONFIDENCE="flag"), TRUNCATED_PAGE)
    assert isinstance(item, ArticleItem)
    assert item.low_confidence and item.confidence == 0.2
    assert TRUNCATED_WARNING in item.warnings
    kept = process(make(NEWSSPIDER_TRUNCATED_MAX_CONFIDENCE=0.5), TRUNCATED_PAGE)
    assert not kept.low_confidence and kept.confidence == 0.5
