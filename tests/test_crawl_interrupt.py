"""Interruption: Ctrl-C (one SIGINT) mid-crawl, then resume with the same JOBDIR.

``scrapy crawl site -o feed.jsonl -s JOBDIR=...`` runs as a subprocess against a loopback site
whose article pages answer slowly (`support.soak_site.SoakSite` with a delay), so the signal lands
mid-crawl. Scrapy stops gracefully: downloads in flight finish, their items are exported, the
pending requests and ``spider.state`` are saved in JOBDIR. The same command then resumes. The
site also lists, last, tracking-parameter copies of the first articles: new URLs to Scrapy,
duplicates to newsspider's crawl filter, whose memory of seen articles must survive the resume.

Feeds are opened with ``-o`` (append): ``-O`` would truncate the first run's items on resume.
"""

from __future__ import annotations

import json
import logging
import os
import pickle
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, fields
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy.exceptions import DropItem
from scrapy.settings import Settings
from support.soak_site import SiteServer, SoakSite, serve

from newsspider.items import ArticleItem
from newsspider.spiders import _base
from newsspider.spiders.filters import STATE_KEY as SEEN_KEY
from newsspider.spiders.filters import CrawlFilterPipeline, url_key
from newsspider.spiders.site import SiteSpider

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
FIELD_ORDER = [f.name for f in fields(ArticleItem)]
ARTICLES = 48
DUPLICATES = 6
#: Send SIGINT once this many article requests reached the server.
STOP_AFTER = 12


@dataclass
class Run:
    returncode: int
    stats: dict[str, Any]
    log: str
    lines: list[str]  # the feed file's lines after this run


@dataclass
class Job:
    site: SoakSite
    #: Requests per path (query included) by the end of the first run, and in all.
    hits_first: Counter[str]
    hits: Counter[str]
    first: Run
    second: Run


def _command(server: SiteServer, out: Path, run: int) -> list[str]:
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"url={server.url}/"]
    command += ["-o", str(out / "feed.jsonl")]
    settings = {
        "JOBDIR": str(out / "job"),
        "AUTOTHROTTLE_ENABLED": "False",
        "DOWNLOAD_DELAY": "0",
        "CONCURRENT_REQUESTS": "2",
        "CONCURRENT_REQUESTS_PER_DOMAIN": "2",
        # First in, first out: listings, then articles in listing order, the copies last.
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
        "LOG_FILE": str(out / f"run{run}.log"),
        "LOG_LEVEL": "INFO",
        "STATS_CLASS": "support.stats.FileStatsCollector",
        "TEST_STATS_FILE": str(out / f"stats{run}.json"),
    }
    for name, value in settings.items():
        command += ["-s", f"{name}={value}"]
    return command


def _finish(process: subprocess.Popen[bytes], out: Path, run: int) -> Run:
    try:
        returncode = process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        raise
    stats_file = out / f"stats{run}.json"
    log_file = out / f"run{run}.log"
    log = log_file.read_text(encoding="utf-8") if log_file.exists() else ""
    assert stats_file.exists(), f"run {run} wrote no stats:\n{log[-3000:]}"
    feed = out / "feed.jsonl"
    lines = feed.read_text(encoding="utf-8").splitlines(keepends=True) if feed.exists() else []
    return Run(returncode, json.loads(stats_file.read_text()), log, lines)


@pytest.fixture(scope="module")
def job(tmp_path_factory: pytest.TempPathFactory) -> Job:
    out = tmp_path_factory.mktemp("interrupt")
    site = SoakSite(ARTICLES, per_section=8, delay=0.1, duplicates=DUPLICATES)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), str(ROOT), env.get("PYTHONPATH", "")])
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    with serve(site) as server:
        process = subprocess.Popen(_command(server, out, 1), cwd=ROOT, env=env)
        deadline = time.monotonic() + 60
        while server.article_hits() < STOP_AFTER and process.poll() is None:
            assert time.monotonic() < deadline, "the crawl never got going"
            time.sleep(0.01)
        process.send_signal(signal.SIGINT)  # once: Scrapy's graceful stop
        first = _finish(process, out, 1)
        hits_first = Counter(server.hits)
        second = _finish(subprocess.Popen(_command(server, out, 2), cwd=ROOT, env=env), out, 2)
        hits = Counter(server.hits)
    return Job(site, hits_first, hits, first, second)


def _items(lines: list[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines]


def _path(url: str) -> str:
    return "/" + url.split("/", 3)[3]


def test_sigint_stops_the_crawl_mid_way(job: Job) -> None:
    first = job.first
    assert first.returncode == 0
    assert first.stats["finish_reason"] == "shutdown"
    assert "Received SIGINT, shutting down gracefully" in first.log
    assert 0 < first.stats["item_scraped_count"] < ARTICLES


def test_interrupted_feed_is_valid_and_complete(job: Job) -> None:
    """Every item extracted before the stop is in the file, each line a whole record."""
    lines = job.first.lines
    assert len(lines) == job.first.stats["item_scraped_count"]
    for line in lines:
        assert line.endswith("\n")
        item = json.loads(line)
        assert list(item) == FIELD_ORDER
        assert item["body"] and item["title"]
    # Downloads in flight at the signal were finished and exported, not dropped: every article
    # the server answered in the first run is in the file.
    answered = {p for p in job.hits_first if job.site.article_index(p) is not None}
    exported = [_path(i["url"]) for i in _items(lines)]
    assert len(answered) >= STOP_AFTER
    assert sorted(exported) == sorted(answered)


def test_resume_finishes_the_crawl(job: Job) -> None:
    second = job.second
    assert second.returncode == 0
    assert second.stats["finish_reason"] == "finished"
    assert "Resuming crawl" in second.log
    # The earlier run's requests were neither asked for again nor fetched again.
    assert "newsspider/spider/article_request_count" not in second.stats
    assert second.lines[: len(job.first.lines)] == job.first.lines  # appended, not rewritten


def test_union_holds_every_article_exactly_once(job: Job) -> None:
    items = _items(job.second.lines)
    urls = [item["url"] for item in items]
    assert len(urls) == len(set(urls))
    keys = Counter(url_key(url) for url in urls)
    assert max(keys.values()) == 1
    expected = {job.site.article_path(i) for i in range(ARTICLES)}
    assert {_path(url) for url in urls} == expected
    scraped = job.first.stats["item_scraped_count"] + job.second.stats["item_scraped_count"]
    assert len(items) == scraped == ARTICLES


def test_no_page_fetched_twice(job: Job) -> None:
    articles = {p: n for p, n in job.hits.items() if job.site.article_index(p) is not None}
    assert len(articles) == ARTICLES + DUPLICATES
    assert set(articles.values()) == {1}


def test_duplicates_seen_before_the_stop_stay_duplicates(job: Job) -> None:
    """The copies come last, after the resume; their originals were exported before it."""
    first_paths = {_path(i["url"]) for i in _items(job.first.lines)}
    originals = {job.site.article_path(i) for i in range(DUPLICATES)}
    assert originals <= first_paths
    assert job.second.stats["newsspider/dropped/reason_count/duplicate"] == DUPLICATES
    assert "newsspider/dropped/count" not in job.first.stats


# --- the state that JOBDIR keeps, without a crawl ------------------------------------------


def test_spider_progress_lives_in_spider_state(caplog: pytest.LogCaptureFixture) -> None:
    spider = SiteSpider(url="http://n.example/", max_pages="2")
    spider.state = {}
    assert spider.page_request("http://n.example/a/", spider.parse_listing) is not None
    saved = pickle.loads(pickle.dumps(spider.state))  # what SpiderState writes to JOBDIR

    resumed = SiteSpider(url="http://n.example/", max_pages="2")
    resumed.crawler = SimpleNamespace(
        settings=Settings({"FEEDS": {"out.jsonl": {"format": "jsonlines", "overwrite": True}}}),
        stats=None,
    )
    resumed.state = saved
    with caplog.at_level(logging.WARNING):
        assert resumed.page_request("http://n.example/a/", resumed.parse_listing) is None
    assert "overwriting (-O)" in caplog.text
    assert resumed.page_request("http://n.example/b/", resumed.parse_listing) is not None
    # max_pages=2 counts the first run's page too.
    assert resumed.page_request("http://n.example/c/", resumed.parse_listing) is None
    assert resumed.state[_base.STATE_KEY]["pages"] == 2


def test_crawl_filter_memory_lives_in_spider_state() -> None:
    def pipeline(state: dict[str, Any]) -> CrawlFilterPipeline:
        stats = SimpleNamespace(inc_value=lambda key: None)
        spider = SimpleNamespace(since=None, state=state)
        return CrawlFilterPipeline.from_crawler(SimpleNamespace(stats=stats, spider=spider))

    state: dict[str, Any] = {}
    first = ArticleItem(url="https://n.example/a/", body="text")
    assert pipeline(state).process_item(first) is first
    assert SEEN_KEY in state
    resumed = pipeline(pickle.loads(pickle.dumps(state)))
    with pytest.raises(DropItem, match="Duplicate"):
        resumed.process_item(ArticleItem(url="https://n.example/a/?utm_source=x", body="text"))
