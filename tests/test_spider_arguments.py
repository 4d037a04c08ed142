"""Bad and unknown ``-a`` arguments, as a user at the shell meets them through ``scrapy crawl``."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from newsspider.spiders._args import SpiderArgumentError
from newsspider.spiders.feed import FeedSpider
from newsspider.spiders.site import SiteSpider
from newsspider.spiders.sitemap import NewsSitemapSpider

ROOT = Path(__file__).resolve().parent.parent


def _scrapy_crawl(spider: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``scrapy crawl`` in the bundled project (the repository root holds its scrapy.cfg)."""
    command = [sys.executable, "-m", "scrapy", "crawl", spider, "-s", "LOG_LEVEL=INFO"]
    for arg in args:
        command += ["-a", arg]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    return subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False
    )


@pytest.mark.parametrize(
    ("spider", "args", "message"),
    [
        ("site", ["url=example.com/news"], "not an absolute http(s) URL: 'example.com/news'"),
        ("feed", [], "no start URL given"),
        ("sitemap", ["url=http://127.0.0.1:9/", "since=March"], "since must be a date"),
        ("site", ["url=http://127.0.0.1:9/", "max_depth=-1"], "max_depth must not be negative"),
    ],
)
def test_scrapy_crawl_refuses_bad_arguments_in_one_line(
    spider: str, args: list[str], message: str
) -> None:
    completed = _scrapy_crawl(spider, *args)
    assert completed.returncode != 0
    errors = [line for line in completed.stderr.splitlines() if "ERROR" in line]
    assert len(errors) == 1, completed.stderr[-3000:]
    assert f"Bad argument for spider '{spider}': {message}" in errors[0]
    assert "Traceback" not in completed.stderr
    assert "Spider opened" not in completed.stderr  # refused before any request


def test_scrapy_crawl_warns_about_unknown_names_with_the_known_ones() -> None:
    # A typo next to a bad URL: both are said, and the run still fails on the URL.
    completed = _scrapy_crawl("site", "url=example.com", "max_dept=2")
    assert completed.returncode != 0
    warning = next(line for line in completed.stderr.splitlines() if "Unknown argument" in line)
    assert "max_dept" in warning
    assert "known: " in warning and "max_depth" in warning and "url" in warning
    assert "Traceback" not in completed.stderr


def test_unknown_arguments_are_warned_about_not_fatal(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        spider = SiteSpider(url="http://n.example/", max_dept="2", _job="abc", name="site")
    assert spider.start_urls == ["http://n.example/"]
    [record] = [r for r in caplog.records if "Unknown argument" in r.getMessage()]
    message = record.getMessage()
    # Scrapyd's _job and Scrapy's own attributes (name) are not ours to judge.
    assert "max_dept" in message and "_job" not in message.split("known")[0]
    assert "name" not in message.split("(ignored")[0]


@pytest.mark.parametrize("spider", [FeedSpider, NewsSitemapSpider, SiteSpider])
def test_known_arguments_cover_the_documented_ones(spider: type[SiteSpider]) -> None:
    known = spider.known_arguments()
    assert {"url", "urls_file", "since", "max_articles", "max_pages"} <= set(known)
    assert set(spider.extra_limits) <= set(known)


def test_spider_built_in_code_raises_the_argument_error() -> None:
    with pytest.raises(SpiderArgumentError, match="no start URL"):
        SiteSpider()
