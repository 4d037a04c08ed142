"""The bundled spiders against a loopback copy of the demo site.

All crawls run concurrently in one subprocess (Twisted's reactor runs once per process and must
stay out of pytest). URL-set tests run without the add-on, so they check what the spiders find,
whatever the extractor's quality; the ``needs_extractor`` tests run with it and compare titles
and dates with the site generator's truth.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SINCE = "2026-03-01"

_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from newsspider.demo.crawl import LOOPBACK_SETTINGS, CrawlSpec, run_crawls
    from newsspider.demo.server import serve_site

    out = Path(sys.argv[1])
    raw = {"ADDONS": {}}
    with serve_site() as site:
        home = site.base_url + "/"
        feeds = ",".join(site.feed_urls)
        urls_file = out / "feeds.txt"
        urls_file.write_text("# feeds\\n" + "\\n".join(site.feed_urls) + "\\n", encoding="utf-8")
        specs = [
            CrawlSpec("feed", {"url": feeds}, raw, label="feed"),
            CrawlSpec("feed", {"urls_file": str(urls_file)}, raw, label="feed_file"),
            CrawlSpec("sitemap", {"url": home}, raw, label="sitemap"),
            CrawlSpec("sitemap", {"url": site.sitemap_index_url}, raw, label="sitemap_index"),
            CrawlSpec("site", {"url": home}, raw, label="site"),
            CrawlSpec("feed", {"url": feeds, "since": "%(since)s"}, raw, label="feed_since"),
            CrawlSpec("sitemap", {"url": home, "since": "%(since)s"}, raw, label="sitemap_since"),
            CrawlSpec("site", {"url": home, "max_articles": "5"}, raw, label="site_max5"),
            CrawlSpec("site", {"url": home, "max_depth": "1"}, raw, label="site_depth1"),
            CrawlSpec("feed", {"url": home}, raw, label="feed_discovery"),
            CrawlSpec("site", {"url": "example.com/news"}, raw, label="bad_url"),
            CrawlSpec("feed", {}, raw, label="no_url"),
            CrawlSpec("sitemap", {"url": home, "since": "March"}, raw, label="bad_since"),
            CrawlSpec("site", {"urls_file": str(out / "missing.txt")}, raw, label="bad_file"),
            CrawlSpec("site", {"url": home, "max_depth": "-1"}, raw, label="bad_limit"),
            CrawlSpec("feed", {"url": feeds}, {}, label="feed_full"),
            CrawlSpec("sitemap", {"url": home}, {}, label="sitemap_full"),
            CrawlSpec("site", {"url": home}, {}, label="site_full"),
        ]
        results = run_crawls(specs, LOOPBACK_SETTINGS)
        truth = {
            "base_url": site.base_url,
            "articles": [
                {"url": a.url, "title": a.title, "date": a.date} for a in site.articles
            ],
            "thin": site.thin_pages,
            "duplicates": site.duplicate_urls,
            "broken": site.broken_urls,
            "disallowed": site.disallowed_urls,
            "plain_sitemap": site.plain_sitemap_urls,
        }
    dump = {
        "truth": truth,
        "results": {
            r.label: {
                "items": r.items,
                "stats": r.stats,
                "finish_reason": r.finish_reason,
                "argument_error": r.argument_error,
            }
            for r in results
        },
    }
    (out / "crawls.json").write_text(json.dumps(dump, ensure_ascii=False), encoding="utf-8")
    """
) % {"since": SINCE}


@pytest.fixture(scope="module")
def crawls(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("crawls")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(out)],
        cwd=out,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    data: dict[str, Any] = json.loads((out / "crawls.json").read_text(encoding="utf-8"))
    data["stderr"] = proc.stderr
    return data


def _urls(crawls: dict[str, Any], label: str) -> list[str]:
    return [item["url"] for item in crawls["results"][label]["items"]]


def _articles(crawls: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {a["url"]: a for a in crawls["truth"]["articles"]}


def _feed_expected(truth: dict[str, Any]) -> set[str]:
    articles = {a["url"] for a in truth["articles"]}
    repeats = {url for url in truth["duplicates"] if "utm_" in url}
    return articles | set(truth["thin"]) | repeats


def test_feed_spider_yields_every_feed_entry_once(crawls: dict[str, Any]) -> None:
    urls = _urls(crawls, "feed")
    assert len(urls) == len(set(urls))
    assert set(urls) == _feed_expected(crawls["truth"])
    assert set(_urls(crawls, "feed_file")) == set(urls)


def test_feed_spider_passes_entry_metadata_as_hints(crawls: dict[str, Any]) -> None:
    articles = _articles(crawls)
    for item in crawls["results"]["feed"]["items"]:
        article = articles.get(item["url"])
        if article is None:
            continue
        assert item["hints"]["title"] == article["title"]
        assert item["hints"]["date"][:10] == article["date"][:10]
        assert item["hints"]["authors"]


def test_feed_spider_discovers_feeds_linked_from_a_page(crawls: dict[str, Any]) -> None:
    # The home page links the English feed only (<link rel=alternate>).
    urls = set(_urls(crawls, "feed_discovery"))
    english = {u for u in _feed_expected(crawls["truth"]) if "/en/" in u}
    assert urls == english


def test_sitemap_spider_follows_robots_index_and_gzip(crawls: dict[str, Any]) -> None:
    truth = crawls["truth"]
    urls = _urls(crawls, "sitemap")
    expected = {a["url"] for a in truth["articles"]} | set(truth["thin"])
    expected |= set(truth["plain_sitemap"])
    assert len(urls) == len(set(urls))
    assert set(urls) == expected
    assert set(_urls(crawls, "sitemap_index")) == expected
    stats = crawls["results"]["sitemap"]["stats"]
    assert stats["httperror/response_ignored_status_count/410"] == 1


def test_sitemap_spider_keeps_news_title_and_date(crawls: dict[str, Any]) -> None:
    articles = _articles(crawls)
    checked = 0
    for item in crawls["results"]["sitemap"]["items"]:
        article = articles.get(item["url"])
        if article is not None:
            assert item["hints"] == {"title": article["title"], "date": article["date"]}
            checked += 1
    assert checked == len(articles)


def test_since_skips_older_entries_before_fetching(crawls: dict[str, Any]) -> None:
    truth = crawls["truth"]
    dated = {a["url"]: a["date"] for a in truth["articles"]} | truth["thin"]
    recent = {url for url, day in dated.items() if day[:10] >= SINCE}
    assert 0 < len(recent) < len(dated)
    feed = set(_urls(crawls, "feed_since"))
    assert feed - set(truth["duplicates"]) == recent
    sitemap = set(_urls(crawls, "sitemap_since"))
    assert sitemap == recent | set(truth["plain_sitemap"])  # lastmod 2026-03-08
    assert crawls["results"]["sitemap_since"]["stats"][
        "newsspider/spider/older_than_since_skipped_count"
    ] == len(dated) - len(recent)


def test_site_spider_finds_the_article_pages_and_nothing_else(crawls: dict[str, Any]) -> None:
    truth = crawls["truth"]
    urls = _urls(crawls, "site")
    same_site_dups = {u for u in truth["duplicates"] if "utm_" not in u}
    expected = {a["url"] for a in truth["articles"]} | set(truth["thin"]) | same_site_dups
    assert len(urls) == len(set(urls))
    assert set(urls) == expected
    stats = crawls["results"]["site"]["stats"]
    assert stats["robotstxt/forbidden"] == len(truth["disallowed"])
    assert stats["httperror/response_ignored_status_count/404"] == 1


def test_site_spider_limits(crawls: dict[str, Any]) -> None:
    assert len(_urls(crawls, "site_max5")) == 5
    shallow = set(_urls(crawls, "site_depth1"))
    # Depth 1: only the articles teased on the home page itself.
    assert 0 < len(shallow) < 15
    assert shallow <= set(_urls(crawls, "site"))


@pytest.mark.parametrize(
    ("label", "needle"),
    [
        ("bad_url", "not an absolute http(s) URL: 'example.com/news'"),
        ("no_url", "no start URL given"),
        ("bad_since", "since must be a date as YYYY-MM-DD, got 'March'"),
        ("bad_file", "cannot read urls_file"),
        ("bad_limit", "max_depth must not be negative"),
    ],
)
def test_bad_arguments_refuse_the_crawl_with_a_clear_message(
    crawls: dict[str, Any], label: str, needle: str
) -> None:
    result = crawls["results"][label]
    assert result["finish_reason"] is None  # never started
    assert needle in result["argument_error"]
    assert result["items"] == []
    assert "Bad argument for spider" in crawls["stderr"]
    assert "Traceback" not in crawls["stderr"]


def _full_records(crawls: dict[str, Any], label: str) -> list[dict[str, Any]]:
    return crawls["results"][label]["items"]


def test_full_crawls_report_each_article_once(crawls: dict[str, Any]) -> None:
    # Holds with any extractor: whatever is kept, no canonical URL or body appears twice.
    from newsspider.spiders.filters import merge_key

    for label in ("feed_full", "sitemap_full", "site_full"):
        seen: set[str] = set()
        for record in _full_records(crawls, label):
            keys = merge_key(record["canonical_url"], record["url"], record["body"])
            assert not keys & seen, record["url"]
            seen |= keys


@pytest.mark.needs_extractor
@pytest.mark.parametrize("label", ["feed_full", "sitemap_full", "site_full"])
def test_full_crawl_yields_exactly_the_articles_with_titles_and_dates(
    crawls: dict[str, Any], label: str
) -> None:
    from newsspider.spiders.filters import url_key

    truth = crawls["truth"]
    articles = {url_key(a["url"]): a for a in truth["articles"]}
    records = _full_records(crawls, label)
    # Which copy of a duplicated story survives depends on download order; map copies back.
    found = {
        url_key(truth["duplicates"].get(r["url"]) or r["canonical_url"] or r["url"]): r
        for r in records
    }
    assert set(found) == set(articles)
    for key, record in found.items():
        assert record["title"] == articles[key]["title"], record["url"]
        assert (record["date"] or "")[:10] == articles[key]["date"][:10], record["url"]
