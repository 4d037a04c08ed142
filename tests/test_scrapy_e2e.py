"""End to end: real `scrapy crawl` subprocesses against the loopback fixture site.

Crawl A is the user project as users write it (add-on, thread mode, drop mode, asyncio
reactor). Crawl B switches, by settings only, to the process pool, flag mode, a non-asyncio
reactor and an extraction function that fails on one page.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import fields

import pytest
from support.crawl import CrawlResult, run_crawl
from support.server import CANDIDATES, SiteServer, serve

from newsspider.items import ArticleItem
from newsspider.settings_defaults import DEFAULTS, MIN_CONFIDENCE

#: What the content filter says: the text statistics' reason for the certain cases, the
#: extractor's for the others (`page_judgement`): the listing page has no body for the extractor
#: and the video page's P(article present) is low.
DECIDED_BY_EXTRACTION = {"/en/world.html": "no_article", "/en/video.html": "no_article"}
FILTER_DROPS = Counter(
    DECIDED_BY_EXTRACTION.get(path, reason) for path, reason in CANDIDATES.items() if reason
)
KEPT = [path for path, reason in CANDIDATES.items() if reason is None]
# Where the kept candidates end up (after the redirect).
KEPT_URLS = {p.replace("/go/42", "/en/library-hours.html") for p in KEPT}
FIELD_ORDER = [f.name for f in fields(ArticleItem)]


def _crawl(
    tmp_path_factory: pytest.TempPathFactory, name: str, **settings: str
) -> Iterator[tuple[CrawlResult, SiteServer]]:
    # The thin video page is decided by the filter (not by the pipeline's confidence) whatever
    # the fitted presence model's calibration; the shipped threshold is
    # `bench.filter.middleware_eval`'s.
    settings = {"NEWSSPIDER_CONTENT_FILTER_MIN_PRESENCE": "0.3"} | settings
    with serve() as server:
        result = run_crawl(
            "news", tmp_path_factory.mktemp(name), args={"site": server.url}, settings=settings
        )
        yield result, server


@pytest.fixture(scope="module")
def crawl_a(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[CrawlResult, SiteServer]]:
    yield from _crawl(tmp_path_factory, "crawl_a")


@pytest.fixture(scope="module")
def crawl_b(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[CrawlResult, SiteServer]]:
    yield from _crawl(
        tmp_path_factory,
        "crawl_b",
        NEWSSPIDER_EXTRACT_MODE="process",
        NEWSSPIDER_EXTRACT_WORKERS="2",
        NEWSSPIDER_LOW_CONFIDENCE="flag",
        NEWSSPIDER_EXTRACT_FUNCTION="support.flaky.extract",
        TWISTED_REACTOR="twisted.internet.selectreactor.SelectReactor",
    )


def _path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def check_accounting(result: CrawlResult, server: SiteServer, errors: int) -> None:
    """Every response is accounted for, from the server's hit count down to the feed."""
    stats = result.stat
    dropped = result.prefixed("newsspider/dropped/reason_count/")
    filter_drops = sum(n for reason, n in dropped.items() if reason != "low_confidence")
    # Article candidates: each ends as an item, a counted drop or a counted error.
    assert stats("newsspider/content_filter/judged_count") == len(CANDIDATES)
    assert len(result.items) + stats("newsspider/dropped/count") + errors == len(CANDIDATES)
    assert stats("newsspider/pipeline/error_count") == errors
    assert stats("newsspider/content_filter/kept_count") == stats("newsspider/pipeline/page_count")
    # One extraction per page: the pipeline takes the filter's (a page whose judgement failed
    # is extracted again, and fails again).
    pages = stats("newsspider/pipeline/page_count")
    assert stats("newsspider/pipeline/prepared_count") == pages - errors
    assert stats("newsspider/content_filter/error_count") == errors
    # Every HTTP response: received by the engine, dropped by the filter, or consumed by the
    # redirect and retry middlewares.
    responses = stats("downloader/response_count")
    assert sum(server.hits.values()) == responses
    assert responses == (
        stats("response_received_count")
        + filter_drops
        + stats("downloader/response_status_count/301")
        + stats("retry/count")
    )
    assert stats("retry/count") == 1 and stats("downloader/response_status_count/301") == 1
    assert result.stats["finish_reason"] == "finished"


def test_filter_drop_reasons(crawl_a: tuple[CrawlResult, SiteServer]) -> None:
    result, _ = crawl_a
    dropped = result.prefixed("newsspider/dropped/reason_count/")
    dropped.pop("low_confidence", None)
    assert dropped == dict(FILTER_DROPS)


def test_every_response_accounted_for(crawl_a: tuple[CrawlResult, SiteServer]) -> None:
    result, server = crawl_a
    check_accounting(result, server, errors=0)
    # Listing pages were never judged, so the crawl found everything.
    assert server.hits["/page2.html"] == 1 and server.hits["/en/library-hours.html"] == 1


def test_first_drop_logged_once_per_reason(crawl_a: tuple[CrawlResult, SiteServer]) -> None:
    result, _ = crawl_a
    first = re.findall(r"INFO: Dropped \S+: (\w+) \([^;]*; first such drop", result.log)
    assert sorted(first) == sorted(FILTER_DROPS)
    assert " ERROR: " not in result.log
    assert "Traceback" not in result.log


def test_feed_items_are_article_items(crawl_b: tuple[CrawlResult, SiteServer]) -> None:
    result, _ = crawl_b
    assert result.items, "flag mode keeps every extracted page"
    for item in result.items:
        assert list(item) == FIELD_ORDER
        assert isinstance(item["body"], str)
        assert item["fetched_at"]
        assert item["low_confidence"] is (item["confidence"] < DEFAULTS[MIN_CONFIDENCE])


def test_process_pool_flag_mode_and_errors(crawl_b: tuple[CrawlResult, SiteServer]) -> None:
    result, server = crawl_b
    check_accounting(result, server, errors=1)
    assert {_path(i["url"]) for i in result.items} == KEPT_URLS - {"/en/storm.html"}
    flagged = sum(1 for i in result.items if i["low_confidence"])
    assert result.stat("newsspider/pipeline/flagged_count") == flagged
    failures = re.findall(r"ERROR: Extraction failed for (\S+):", result.log)
    assert [_path(u) for u in failures] == ["/en/storm.html"]
    assert result.stat("log_count/ERROR") == 1  # logged once (with its traceback)


# --- with the real extractor ----------------------------------------------------------------

EXPECTED = {
    "/en/rain-garden.html": (
        "Volunteers turn a car park into a rain garden",
        "2024-05-14",
        "four hundred native shrubs",
    ),
    "/en/council-budget.html": (
        "Council approves budget with bigger repair fund",
        "2024-03-02",
        "nine votes to four",
    ),
    "/en/storm.html": (
        "Storm brings down trees across the valley",
        "2024-01-21",
        "three thousand homes",
    ),
    "/en/library-hours.html": ("Library extends its opening hours", "2024-02-08", "homework club"),
    "/zh/utf8-article.html": ("河畔社区举办中秋灯会", "2023-09-29", "近三千名居民"),
    "/zh/gbk-article.html": ("本地茶农迎来春茶丰收", "2024-04-12", "明前茶品质特别好"),
    "/ru/cp1251-article.html": (
        "В городе открылся новый каток",
        "2023-12-16",
        "более пятисот горожан",
    ),
    "/ru/wrong-charset.html": ("Школьники посадили аллею клёнов", "2023-10-05", "сорока клёнов"),
}


@pytest.mark.needs_extractor
def test_articles_extracted(crawl_a: tuple[CrawlResult, SiteServer]) -> None:
    result, _ = crawl_a
    by_path = {_path(i["url"]): i for i in result.items}
    assert set(by_path) == set(EXPECTED)
    for path, (title, date, phrase) in EXPECTED.items():
        item = by_path[path]
        assert item["title"] == title, path
        assert (item["date"] or "").startswith(date), path
        assert phrase in item["body"], path
        assert item["confidence"] >= 0.5, path
        assert item["page_type"] == "article", path
        assert not item["low_confidence"]
    rain = by_path["/en/rain-garden.html"]
    assert "Related stories" not in rain["body"] and "cookies" not in rain["body"]
    assert rain["authors"] == ["Maria Okafor"]


@pytest.mark.needs_extractor
def test_no_mojibake(crawl_a: tuple[CrawlResult, SiteServer]) -> None:
    result, _ = crawl_a
    for item in result.items:
        assert "\ufffd" not in item["body"] and "Ð" not in item["body"], item["url"]


@pytest.mark.needs_extractor
def test_process_pool_gives_the_same_articles(
    crawl_a: tuple[CrawlResult, SiteServer], crawl_b: tuple[CrawlResult, SiteServer]
) -> None:
    def key(result: CrawlResult) -> dict[str, tuple[str, str]]:
        return {_path(i["url"]): (i["title"], i["body"]) for i in result.items}

    in_a, in_b = key(crawl_a[0]), key(crawl_b[0])
    in_a.pop("/en/storm.html")
    assert in_a == in_b
    assert not any(i["low_confidence"] for i in crawl_b[0].items)
