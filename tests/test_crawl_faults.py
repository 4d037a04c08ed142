"""Faults during a crawl: the bundled ``site`` spider against a loopback site that misbehaves.

One real ``scrapy crawl site`` subprocess (add-on on, JSONL feed) meets every fault of
`support.faults.FAULTS` — 5xx then success, connection resets, truncated bodies, a page slower
than DOWNLOAD_TIMEOUT, a redirect loop and an endless redirect chain, a compressed body that
expands past DOWNLOAD_MAXSIZE, a Content-Length above it, HTML served as an image and a PDF
served as HTML — with Scrapy's own retry, timeout, size and redirect machinery at short limits.
The crawl must finish, every URL must end as an item, a counted drop or a counted error, the
numbers must add up, and the feed must hold exactly the scraped items.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path

import pytest
from support import faults
from support.crawl import CrawlResult, run_crawl
from support.faults import FAULTS, FaultServer, serve_faults

from newsspider.items import ArticleItem
from newsspider.settings_defaults import PIPELINE_DROP_REASONS

ROOT = Path(__file__).resolve().parent.parent
FIELD_ORDER = [f.name for f in fields(ArticleItem)]
#: The crawl itself (Scrapy's elapsed_time_seconds) must end within this; the slow page alone
#: takes (RETRY_TIMES + 1) * DOWNLOAD_TIMEOUT.
TIME_BOUND = 20.0

SETTINGS = {
    "AUTOTHROTTLE_ENABLED": "False",
    "DOWNLOAD_DELAY": "0",
    "CONCURRENT_REQUESTS": "16",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
    "DOWNLOAD_TIMEOUT": str(faults.DOWNLOAD_TIMEOUT),
    "DOWNLOAD_MAXSIZE": str(faults.DOWNLOAD_MAXSIZE),
    "DOWNLOAD_WARNSIZE": "0",
    "REDIRECT_MAX_TIMES": str(faults.REDIRECT_MAX_TIMES),
    "RETRY_TIMES": str(faults.RETRY_TIMES),
}


@pytest.fixture(scope="module")
def crawl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[CrawlResult, FaultServer]]:
    out = tmp_path_factory.mktemp("faults")
    with serve_faults() as server:
        result = run_crawl(
            "site",
            out,
            args={"url": server.url + "/"},
            settings=SETTINGS,
            project_dir=ROOT,
            timeout=60,
        )
        yield result, server


def _path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def test_crawl_finishes_within_bound(crawl: tuple[CrawlResult, FaultServer]) -> None:
    result, _ = crawl
    assert result.stats["finish_reason"] == "finished"
    assert float(result.stats["elapsed_time_seconds"]) < TIME_BOUND
    # No spider or pipeline error: the errors logged are Scrapy's download errors.
    assert "Spider error processing" not in result.log
    assert "Error processing" not in result.log


def test_every_url_ends_with_its_outcome(crawl: tuple[CrawlResult, FaultServer]) -> None:
    result, _ = crawl
    expected = Counter(fault.outcome for fault in FAULTS)
    item_paths = {_path(item["url"]) for item in result.items}
    assert item_paths == {f.path for f in FAULTS if f.outcome == "item"}
    drops = result.prefixed("newsspider/dropped/reason_count/")
    errors = result.prefixed("newsspider/spider/request_error_reason_count/")
    outcomes = Counter(
        {
            "item": len(result.items),
            "dupefilter": result.stat("dupefilter/filtered"),
            **{f"drop:{reason}": n for reason, n in drops.items()},
            **{f"error:{reason}": n for reason, n in errors.items()},
        }
    )
    assert +outcomes == expected


def test_accounting_adds_up(crawl: tuple[CrawlResult, FaultServer]) -> None:
    """Every URL the spider asked for is accounted for exactly once."""
    result, _ = crawl
    stat = result.stat
    requested = stat("newsspider/spider/article_request_count") + stat(
        "newsspider/spider/page_request_count"
    )
    assert stat("newsspider/spider/article_request_count") == len(FAULTS)
    assert stat("newsspider/spider/page_request_count") == 1  # the home page
    accounted = (
        stat("item_scraped_count")
        + stat("newsspider/dropped/count")
        + stat("newsspider/pipeline/error_count")
        + stat("newsspider/spider/request_error_count")
        + stat("dupefilter/filtered")
        + stat("newsspider/spider/listing_count")
    )
    assert accounted == requested
    # The content filter judged every article that came back 2xx; what it kept was extracted,
    # and became an article unless the pipeline dropped it (the truncated response).
    drops = result.prefixed("newsspider/dropped/reason_count/")
    pipeline_drops = sum(n for r, n in drops.items() if r in PIPELINE_DROP_REASONS)
    assert stat("newsspider/content_filter/judged_count") == (
        stat("newsspider/content_filter/kept_count") + sum(drops.values()) - pipeline_drops
    )
    assert stat("newsspider/content_filter/kept_count") == stat("newsspider/pipeline/page_count")
    assert stat("newsspider/pipeline/page_count") == (
        stat("newsspider/pipeline/article_count") + pipeline_drops
    )
    assert stat("newsspider/pipeline/truncated_response_count") == 1
    errors = result.prefixed("newsspider/spider/request_error_reason_count/")
    assert sum(errors.values()) == stat("newsspider/spider/request_error_count")


def test_feed_holds_exactly_the_scraped_items(crawl: tuple[CrawlResult, FaultServer]) -> None:
    result, _ = crawl
    assert len(result.items) == result.stat("item_scraped_count")
    for item in result.items:
        assert list(item) == FIELD_ORDER
        assert item["body"] and item["page_type"] == "article"
    urls = [item["url"] for item in result.items]
    assert len(urls) == len(set(urls))


def test_feed_file_is_valid_jsonl(crawl: tuple[CrawlResult, FaultServer]) -> None:
    result, _ = crawl
    feed = re.search(r"Stored jsonl feed \((\d+) items\) in: (\S+)", result.log)
    assert feed is not None
    text = Path(feed.group(2)).read_text(encoding="utf-8")
    assert text.endswith("\n")
    lines = text.splitlines()
    assert int(feed.group(1)) == len(lines) == result.stat("item_scraped_count")
    for line in lines:
        assert isinstance(json.loads(line), dict)


def test_scrapy_machinery_did_the_work(crawl: tuple[CrawlResult, FaultServer]) -> None:
    """The faults went through Scrapy's retries, timeouts, size limits and redirects."""
    result, server = crawl
    stat = result.stat
    attempts = faults.RETRY_TIMES + 1

    def hits(slug: str) -> int:
        return server.hits[next(f.path for f in FAULTS if f.slug == slug)]

    assert hits("server-error-then-success-story") == 2
    assert hits("server-error-every-time-story") == attempts
    assert hits("truncated-body-every-time-story") == attempts
    assert hits("slower-than-download-timeout-story") == attempts
    # Twisted itself retries once a request that failed on a reused keep-alive connection.
    assert hits("connection-reset-every-time-story") >= attempts
    assert hits("connection-reset-then-success-story") >= 2
    assert server.hits[faults.LOOP_B] == 1
    assert server.hits[f"/chain/{faults.REDIRECT_MAX_TIMES}"] == 1
    assert f"/chain/{faults.REDIRECT_MAX_TIMES + 1}" not in server.hits
    # 500 every time, reset every time, truncated, slow: retried until Scrapy gave up.
    assert stat("retry/max_reached") == 4
    assert stat("retry/reason_count/503 Service Unavailable") == 1
    assert stat("httperror/response_ignored_status_count/500") == 1
    assert stat("httperror/response_ignored_status_count/404") == 1
    exception_types = result.prefixed("downloader/exception_type_count/")
    assert any(name.endswith("TimeoutError") for name in exception_types)
    assert any("Cancelled" in name for name in exception_types)  # Content-Length > maxsize
    assert "exceeded DOWNLOAD_MAXSIZE" in result.log  # the bomb, stopped while decompressing


def test_silent_failures_are_now_explained(crawl: tuple[CrawlResult, FaultServer]) -> None:
    """Scrapy logs a cut redirect chain at DEBUG only; the spider's errback counts it and says
    so once at INFO."""
    result, _ = crawl
    assert re.search(
        r"INFO: Gave up on \S+/chain/\d+: max redirections reached .*"
        r"request_error_reason_count/redirect_limit",
        result.log,
    )
