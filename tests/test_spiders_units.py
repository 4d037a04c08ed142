"""Unit tests of the spiders' pure parts: arguments, dates, feeds, sitemaps, links, filters."""

from __future__ import annotations

import gzip
from datetime import date
from pathlib import Path
from types import SimpleNamespace

import pytest
from lxml import etree
from scrapy.exceptions import DropItem

from newsspider.items import ArticleItem, PageItem
from newsspider.spiders._args import SpiderArgumentError, parse_limit, parse_since, parse_urls
from newsspider.spiders._dates import date_in_url, is_older, normalize_date
from newsspider.spiders._feeds import parse_feed
from newsspider.spiders._links import LinkKind, classify_links
from newsspider.spiders._sitemaps import parse_sitemap
from newsspider.spiders.filters import CrawlFilterPipeline, merge_key, url_key
from newsspider.spiders.sitemap import robots_sitemaps

# --- arguments ------------------------------------------------------------------------------


def test_parse_urls_from_argument_and_file(tmp_path: Path) -> None:
    listing = tmp_path / "urls.txt"
    listing.write_text("# news\nhttps://b.example/\n\nhttps://a.example/x\n", encoding="utf-8")
    urls = parse_urls("https://a.example/x, https://c.example/", str(listing))
    assert urls == ["https://a.example/x", "https://c.example/", "https://b.example/"]


@pytest.mark.parametrize("bad", ["example.com", "ftp://example.com/", "https://", "http://x:0/"])
def test_parse_urls_rejects_non_http_urls(bad: str) -> None:
    with pytest.raises(SpiderArgumentError, match="not an absolute http"):
        parse_urls(bad, None)


def test_parse_urls_needs_one() -> None:
    with pytest.raises(SpiderArgumentError, match="no start URL"):
        parse_urls(None, None)
    with pytest.raises(SpiderArgumentError, match="cannot read urls_file"):
        parse_urls(None, "/nonexistent/urls.txt")


def test_parse_since_and_limits() -> None:
    assert parse_since("2026-03-01") == date(2026, 3, 1)
    assert parse_since(None) is None
    with pytest.raises(SpiderArgumentError, match="YYYY-MM-DD"):
        parse_since("01/03/2026")
    assert parse_limit("max_depth", None, 3) == 3
    assert parse_limit("max_depth", "7", 3) == 7
    with pytest.raises(SpiderArgumentError, match="whole number"):
        parse_limit("max_depth", "many", 3)


# --- dates ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("Thu, 05 Mar 2026 09:30:00 +0800", "2026-03-05T09:30:00+08:00"),
        ("2026-03-05T09:30:00Z", "2026-03-05T09:30:00+00:00"),
        ("2026-03-05T09:30+0300", "2026-03-05T09:30:00+03:00"),
        ("2026-03-05", "2026-03-05"),
        ("yesterday", None),
        ("2026-13-45", None),
    ],
)
def test_normalize_date(text: str, iso: str | None) -> None:
    assert normalize_date(text) == iso


def test_is_older_keeps_unknown_dates() -> None:
    since = date(2026, 3, 1)
    assert is_older("2026-02-28T23:59:00+08:00", since)
    assert not is_older("2026-03-01T00:10:00+03:00", since)
    assert not is_older(None, since)
    assert not is_older("2020-01-01", None)


def test_date_in_url() -> None:
    assert date_in_url("https://x.example/2026/03/05/slug/") == date(2026, 3, 5)
    assert date_in_url("https://x.example/zh/20260305/a1.html") == date(2026, 3, 5)
    assert date_in_url("https://x.example:2026/news/12345-slug/") is None


# --- feeds ----------------------------------------------------------------------------------

RSS = b"""<?xml version="1.0"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>T</title>
<item><title>First</title><link>/a/1</link><pubDate>Thu, 05 Mar 2026 09:30:00 +0000</pubDate>
<dc:creator>Ann Lee</dc:creator></item>
<item><title>No link</title><guid>https://n.example/a/2</guid></item>
<item><title>Not a permalink</title><guid isPermaLink="false">x-3</guid></item>
</channel></rss>"""

ATOM = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>港湾日报</title>
<entry><title>临澜港启用无人驾驶集卡</title>
<link rel="alternate" type="text/html" href="https://n.example/zh/a.html"/>
<link rel="enclosure" href="https://n.example/a.mp3"/>
<published>2026-03-05T09:30:00+08:00</published><author><name>陈晓梅</name></author></entry>
</feed>""".encode()


def test_rss_entries() -> None:
    entries = parse_feed(RSS, "https://n.example/feed.xml")
    assert [e.url for e in entries] == ["https://n.example/a/1", "https://n.example/a/2"]
    assert entries[0].hints() == {
        "title": "First",
        "date": "2026-03-05T09:30:00+00:00",
        "authors": ["Ann Lee"],
    }


def test_atom_entries() -> None:
    (entry,) = parse_feed(ATOM, "https://n.example/atom.xml")
    assert entry.url == "https://n.example/zh/a.html"
    assert entry.title == "临澜港启用无人驾驶集卡"
    assert entry.date == "2026-03-05T09:30:00+08:00"
    assert entry.authors == ("陈晓梅",)


def test_xml_entities_are_not_expanded(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET", encoding="utf-8")
    evil = (
        f'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file://{secret}">]>'
        '<rss version="2.0"><channel><item><title>&x;</title><link>https://n.example/1</link>'
        "</item></channel></rss>"
    ).encode()
    entries = parse_feed(evil, "https://n.example/")
    assert all("TOPSECRET" not in (e.title or "") for e in entries)


@pytest.mark.parametrize("junk", [b"", b"<html><body>hi</body></html>", b"\x1f\x8bbroken", b"<"])
def test_parse_never_raises_on_junk(junk: bytes) -> None:
    assert parse_feed(junk, "https://n.example/") == []
    assert parse_sitemap(junk, "https://n.example/").kind == ""


# --- sitemaps -------------------------------------------------------------------------------

NEWS_SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
<url><loc>https://n.example/ru/1-a/</loc><lastmod>2026-03-06</lastmod>
<news:news><news:publication><news:name>В</news:name><news:language>ru</news:language>
</news:publication><news:publication_date>2026-03-05T10:00:00+03:00</news:publication_date>
<news:title>Хор ветеранов флота выпустил альбом</news:title></news:news></url>
<url><loc>https://n.example/plain/</loc><lastmod>2026-02-01</lastmod></url>
</urlset>""".encode()


def test_news_sitemap_keeps_news_fields() -> None:
    sitemap = parse_sitemap(NEWS_SITEMAP, "https://n.example/s.xml")
    assert sitemap.kind == "urlset"
    news, plain = sitemap.entries
    assert news.hints() == {"title": "Хор ветеранов флота выпустил альбом",
                            "date": "2026-03-05T10:00:00+03:00"}  # fmt: skip
    assert news.language == "ru"
    assert plain.hints() == {}
    assert plain.best_date == "2026-02-01"


def test_gzipped_sitemap_index() -> None:
    index = (
        b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        b"<sitemap><loc>/s1.xml.gz</loc><lastmod>2026-03-01</lastmod></sitemap></sitemapindex>"
    )
    sitemap = parse_sitemap(gzip.compress(index), "https://n.example/index.xml.gz")
    assert sitemap.kind == "sitemapindex"
    assert [(e.url, e.lastmod) for e in sitemap.entries] == [
        ("https://n.example/s1.xml.gz", "2026-03-01")
    ]


def test_sitemaps_from_robots() -> None:
    robots = b"User-agent: *\nDisallow: /x\nSITEMAP: /a.xml\nSitemap: https://n.example/b.xml\n"
    assert robots_sitemaps(robots, "https://n.example/robots.txt") == [
        "https://n.example/a.xml",
        "https://n.example/b.xml",
    ]


# --- links ----------------------------------------------------------------------------------

PAGE = """<html><body>
<header><nav><a href="/">Home</a><a href="/world/">World</a>
<a href="/2026/03/05/nav-story-with-a-long-dated-slug/">Breaking</a></nav></header>
<main>
<h2><a href="/world/2026/03/05/ministers-agree-on-a-new-fishing-quota/">Ministers agree on a new
 fishing quota after all-night talks</a></h2>
<h2><a href="/zh/tech/20260305/a10234.html">临澜港启用无人驾驶集卡 夜间作业效率提升三成</a></h2>
<h2><a href="/ru/economy/10457-fermery-eksportirovali-moroshku/">Фермеры области впервые
 экспортировали морошку в Японию</a></h2>
<a href="/tag/fishing/">Fishing</a> <a href="/author/ann-lee/">Ann Lee</a>
<div class="pagination"><a href="/world/page/2/">2</a> <a rel="next" href="/world/?page=3">Next</a>
</div>
<a href="/about/">About us</a> <a href="/files/report.pdf">Report (PDF)</a>
<a href="https://other.example/2026/03/05/elsewhere-story-slug-here/">Elsewhere story</a>
<section class="comments"><a href="/2026/03/04/commenter-linked-their-own-story/">my story
 about all of this which you should read</a></section>
</main>
<footer><a href="/privacy/">Privacy</a></footer></body></html>"""


def test_classify_links() -> None:
    root = etree.fromstring(PAGE, etree.HTMLParser())
    links = {
        link.url.removeprefix("https://n.example"): link.kind
        for link in classify_links(root, "https://n.example/world/", ["n.example"])
    }
    assert links == {
        "/": LinkKind.LISTING,
        "/2026/03/05/nav-story-with-a-long-dated-slug/": LinkKind.ARTICLE,
        "/world/2026/03/05/ministers-agree-on-a-new-fishing-quota/": LinkKind.ARTICLE,
        "/zh/tech/20260305/a10234.html": LinkKind.ARTICLE,
        "/ru/economy/10457-fermery-eksportirovali-moroshku/": LinkKind.ARTICLE,
        "/tag/fishing/": LinkKind.LISTING,
        "/author/ann-lee/": LinkKind.LISTING,
        "/world/page/2/": LinkKind.PAGINATION,
        "/world/?page=3": LinkKind.PAGINATION,
    }


# --- crawl filter ---------------------------------------------------------------------------


def test_url_key_ignores_tracking_and_cosmetics() -> None:
    assert url_key("https://www.N.example/a/?utm_source=rss&ref=home#c") == url_key(
        "https://n.example/a"
    )
    assert url_key("https://n.example/a?id=2") != url_key("https://n.example/a?id=3")
    # Every utm_ campaign tag and click id goes; the other parameters stay, in one order.
    assert url_key("https://n.example/a?b=1&utm_campaign=x&gclid=9&id=3") == url_key(
        "https://n.example/a?id=3&b=1"
    )


def _filter(since: date | None = None) -> CrawlFilterPipeline:
    stats = SimpleNamespace(values={})
    stats.inc_value = lambda key: stats.values.__setitem__(key, stats.values.get(key, 0) + 1)
    crawler = SimpleNamespace(stats=stats, spider=SimpleNamespace(since=since))
    return CrawlFilterPipeline.from_crawler(crawler)


def test_filter_drops_same_canonical_and_same_body() -> None:
    pipe = _filter()
    body = "A paragraph of the article that is long enough to compare. " * 5
    first = ArticleItem(url="https://n.example/a/", canonical_url="https://n.example/a/", body=body)
    assert pipe.process_item(first) is first
    with pytest.raises(DropItem, match="Duplicate"):
        pipe.process_item(ArticleItem(url="https://n.example/a/?ref=home", body="other"))
    with pytest.raises(DropItem, match="Duplicate"):
        pipe.process_item(ArticleItem(url="https://n.example/wire/a/", body=body + " "))
    short = ArticleItem(url="https://n.example/b/", body="Short.")
    assert pipe.process_item(short) is short
    again = ArticleItem(url="https://n.example/c/", body="Short.")
    assert pipe.process_item(again) is again  # tiny bodies are not evidence of sameness
    assert pipe.stats.values["newsspider/dropped/reason_count/duplicate"] == 2


def test_filter_applies_since_and_passes_other_items() -> None:
    pipe = _filter(since=date(2026, 3, 1))
    with pytest.raises(DropItem, match="before since"):
        pipe.process_item(ArticleItem(url="https://n.example/old/", date="2026-02-27"))
    kept = ArticleItem(url="https://n.example/new/", date="2026-03-02T08:00:00+08:00")
    assert pipe.process_item(kept) is kept
    page = PageItem(url="https://n.example/p/")
    assert pipe.process_item(page) is page
    assert merge_key(None, None, None) == set()


def test_filter_reads_records_through_itemadapter() -> None:
    """A pipeline in between may turn ArticleItems into dicts or scrapy Items: still filtered."""
    import scrapy

    class Record(scrapy.Item):
        url = scrapy.Field()
        canonical_url = scrapy.Field()
        date = scrapy.Field()
        body = scrapy.Field()

    pipe = _filter(since=date(2026, 3, 1))
    first = {"url": "https://n.example/a/", "body": "x", "date": "2026-03-02"}
    assert pipe.process_item(first) is first
    with pytest.raises(DropItem, match="Duplicate"):
        pipe.process_item(Record(url="https://n.example/a/?utm_source=x", body="y"))
    with pytest.raises(DropItem, match="before since"):
        pipe.process_item({"url": "https://n.example/old/", "body": "", "date": "2026-02-01"})
    other = {"url": "https://n.example/z/", "title": "not an article record"}
    assert pipe.process_item(other) is other


def test_spiders_remember_request_fingerprints() -> None:
    """URLs Scrapy's duplicate filter takes for one (query order) are asked for once."""
    from newsspider.spiders.site import SiteSpider

    spider = SiteSpider(url="https://n.example/")
    first = spider.article_request("https://n.example/a?x=1&y=2", published=None)
    assert first is not None
    assert spider.article_request("https://n.example/a?y=2&x=1", published=None) is None
    assert spider.page_request("https://n.example/a?y=2&x=1", spider.parse_listing) is None
    assert all(isinstance(key, bytes) for key in spider._progress()["requested"])
