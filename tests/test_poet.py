"""newsspider.poet: the zyte-common-items mapping, the page objects, and a real crawl with
scrapy-poet (skipped when the ``poet`` extra is not installed; ``[test]`` installs it)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("scrapy_poet", reason="needs the poet extra: pip install newsspider[poet]")
pytest.importorskip("zyte_common_items", reason="needs the poet extra")

from web_poet import HttpResponse, default_registry
from zyte_common_items import Article as ZyteArticle
from zyte_common_items import ArticleNavigation

from newsspider.extraction.article import Article
from newsspider.poet import (
    PAGE_OBJECT_PRIORITY,
    NewsArticleNavigationPage,
    NewsArticlePage,
    to_zyte_article,
)
from newsspider.poet.items import iso_datetime, language_code, zyte_dict

ROOT = Path(__file__).resolve().parent.parent
URL = "https://news.example/world/2026/03/05/harbour-council-votes-on-the-new-bridge/"

PARAGRAPH = (
    "The harbour council voted on Tuesday to fund the new bridge across the river mouth, "
    "after two years of public meetings and a long dispute about the cost of the project. "
)
ARTICLE_PAGE = f"""<!DOCTYPE html><html lang="en-GB"><head><meta charset="utf-8">
<title>Harbour council votes on the new bridge | The Example News</title>
<meta name="description" content="The council funds the bridge.">
<meta property="og:image" content="/img/bridge.jpg">
<link rel="canonical" href="{URL}">
<meta property="article:published_time" content="2026-03-05T09:30:00+01:00">
<meta name="author" content="Ada Lovelace"></head>
<body><header><nav><a href="/">Home</a> <a href="/world/">World</a></nav></header>
<main><article><h1>Harbour council votes on the new bridge</h1>
{"".join(f"<p>{PARAGRAPH * 3}</p>" for _ in range(6))}
</article></main><footer><a href="/about/">About</a></footer></body></html>"""


def teaser(n: int) -> str:
    slug = f"story-number-{n}-about-the-harbour-and-the-river"
    return (
        f'<li class="teaser"><h2><a href="/world/2026/03/{n:02d}/{slug}/">Story number {n} '
        f"about the harbour and the river</a></h2><p>A summary of story {n}.</p></li>"
    )


LISTING_PAGE = f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>World | The Example News</title><link rel="next" href="/world/page/2/"></head>
<body><header><nav><a href="/">Home</a> <a href="/world/">World</a>
<a href="/world/europe/">Europe</a> <a href="/world/asia/">Asia</a></nav></header>
<main><h1>World</h1><ul>{"".join(teaser(n) for n in range(1, 13))}</ul>
<div class="pager"><a href="/world/page/2/">2</a> <a href="/world/page/3/">3</a>
<a href="/world/page/2/">Next »</a></div></main></body></html>"""


def response(url: str, html: str) -> HttpResponse:
    return HttpResponse(
        url, body=html.encode(), headers={"Content-Type": "text/html; charset=utf-8"}
    )


# --- the mapping ---------------------------------------------------------------------------


def test_dates_become_zyte_datetimes() -> None:
    assert iso_datetime("2026-03-05") == "2026-03-05T00:00:00"
    assert iso_datetime("2026-03-05T09:30:00+01:00") == "2026-03-05T09:30:00+01:00"
    assert iso_datetime("2026-03-05T09:30:00.123+00:00") == "2026-03-05T09:30:00Z"
    assert iso_datetime("yesterday") is None and iso_datetime(None) is None


def test_language_tags_become_iso_639_1() -> None:
    assert language_code("en-GB") == "en" and language_code("pt_BR") == "pt"
    assert language_code("ZH") == "zh"
    assert language_code("english") is None and language_code("") is None


def test_to_zyte_article_maps_every_field() -> None:
    article = Article(
        url=URL,
        canonical_url=URL,
        title=" Bridge vote ",
        body="First paragraph.\nSecond.",
        body_html="<p>First paragraph.</p><p>Second.</p>",
        date="2026-03-05T09:30:00+01:00",
        date_modified="2026-03-06",
        authors=("Ada Lovelace", " "),
        language="en-GB",
        description="Funds the bridge.",
        image="https://news.example/img/bridge.jpg",
        confidence=0.83,
    )
    item = to_zyte_article(article, fetched_at="2026-03-07T10:00:00+02:00")
    assert item.headline == "Bridge vote"
    assert item.articleBody == "First paragraph.\nSecond."
    assert item.articleBodyHtml == "<p>First paragraph.</p><p>Second.</p>"
    assert item.datePublished == "2026-03-05T09:30:00+01:00"
    assert item.dateModified == "2026-03-06T00:00:00"
    assert [a.name for a in item.authors or []] == ["Ada Lovelace"]
    assert item.inLanguage == "en"
    assert item.mainImage is not None and item.mainImage.url.endswith("/bridge.jpg")
    assert [i.url for i in item.images or []] == [item.mainImage.url]
    assert item.canonicalUrl == URL and item.description == "Funds the bridge."
    assert item.metadata is not None and item.metadata.probability == 0.83
    assert item.metadata.dateDownloaded == "2026-03-07T08:00:00Z"
    assert item.get_probability() == 0.83
    # zyte-common-items' own reader accepts what its adapter wrote, field for field.
    data = zyte_dict(item)
    assert zyte_dict(ZyteArticle.from_dict(data)) == data


def test_fields_other_sessions_add_are_mapped_when_present() -> None:
    """Raw date texts, author profile links and body images (issue 34's additions to Article)
    are read when the Article carries them."""
    from dataclasses import dataclass, field

    @dataclass(frozen=True, slots=True)
    class Image:
        url: str

    @dataclass(frozen=True, slots=True)
    class Richer(Article):
        date_raw: str | None = None
        date_modified_raw: str | None = None
        author_profiles: tuple[dict[str, str], ...] = field(default=(), hash=False)
        images: tuple[Image, ...] = ()

    article = Richer(
        url=URL,
        date="2026-03-05",
        date_raw="5 March 2026",
        authors=("Ada Lovelace", "Grace Hopper"),
        author_profiles=({"name": "Ada Lovelace", "url": "https://news.example/ada/"},),
        images=(Image("https://news.example/a.jpg"), Image("data:x"), Image("/relative.jpg")),
        image="https://news.example/lead.jpg",
    )
    item = to_zyte_article(article)
    assert item.datePublishedRaw == "5 March 2026" and item.dateModifiedRaw is None
    assert [(a.name, a.url) for a in item.authors or []] == [
        ("Ada Lovelace", "https://news.example/ada/"),
        ("Grace Hopper", None),
    ]
    assert item.mainImage is not None and item.mainImage.url == "https://news.example/lead.jpg"
    assert [i.url for i in item.images or []] == [
        "https://news.example/lead.jpg",
        "https://news.example/a.jpg",
    ]


def test_empty_article_fields_are_left_out() -> None:
    item = to_zyte_article(Article(), url=URL)
    assert item.url == URL and item.headline is None and item.articleBody is None
    assert item.authors is None and item.images is None and item.metadata is not None
    with pytest.raises(ValueError):
        to_zyte_article(Article())


# --- the page objects ------------------------------------------------------------------------


def test_page_objects_are_registered_for_every_url_at_a_low_priority() -> None:
    rules = {rule.use: rule for rule in default_registry.get_rules()}
    for page, item in ((NewsArticlePage, ZyteArticle), (NewsArticleNavigationPage, None)):
        rule = rules[page]
        assert rule.for_patterns.include == ("",) or list(rule.for_patterns.include) == [""]
        assert rule.for_patterns.priority == PAGE_OBJECT_PRIORITY < 500
        if item is not None:
            assert rule.to_return is item
    assert rules[NewsArticleNavigationPage].to_return is ArticleNavigation


def test_article_page_outside_a_crawl() -> None:
    item = asyncio.run(NewsArticlePage(response=response(URL, ARTICLE_PAGE)).to_item())
    assert isinstance(item, ZyteArticle)
    assert item.headline == "Harbour council votes on the new bridge"
    assert item.datePublished == "2026-03-05T09:30:00+01:00"
    assert item.authors is not None and item.authors[0].name == "Ada Lovelace"
    assert item.inLanguage == "en" and item.canonicalUrl == URL
    assert item.articleBody is not None and "harbour council voted" in item.articleBody
    assert (
        item.mainImage is not None and item.mainImage.url == "https://news.example/img/bridge.jpg"
    )
    assert item.metadata is not None and (item.metadata.probability or 0) > 0.5


def test_navigation_page_lists_articles_next_page_and_sections() -> None:
    url = "https://news.example/world/"
    nav = asyncio.run(NewsArticleNavigationPage(response=response(url, LISTING_PAGE)).to_item())
    assert isinstance(nav, ArticleNavigation)
    items = nav.items or []
    assert len(items) == 12
    assert items[0].url == (
        "https://news.example/world/2026/03/01/story-number-1-about-the-harbour-and-the-river/"
    )
    assert items[0].name == "Story number 1 about the harbour and the river"
    assert nav.nextPage is not None and nav.nextPage.url == "https://news.example/world/page/2/"
    assert nav.pageNumber == 1 and nav.categoryName == "World"
    sections = {r.url for r in nav.subCategories or []}
    assert {"https://news.example/world/europe/", "https://news.example/world/asia/"} <= sections
    assert not sections & {r.url for r in items}


def test_navigation_of_a_page_that_is_not_html() -> None:
    url = "https://news.example/feed.bin"
    page = HttpResponse(url, body=b"\x89PNG\r\n\x1a\n\x00\x00", headers={})
    nav = asyncio.run(NewsArticleNavigationPage(response=page).to_item())
    assert nav.items == [] and nav.nextPage is None


# --- a real crawl ------------------------------------------------------------------------------

_SCRIPT = textwrap.dedent(
    """
    import json, sys, threading
    import scrapy
    from itemadapter import ItemAdapter
    from scrapy import signals
    from scrapy.crawler import AsyncCrawlerProcess
    from zyte_common_items import Article, ArticleNavigation
    from newsspider.demo.crawl import LOOPBACK_SETTINGS
    from newsspider.demo.server import serve_site

    class PoetSpider(scrapy.Spider):
        name = "poet_e2e"

        def __init__(self, start, **kwargs):
            super().__init__(**kwargs)
            self.start_url = start
            self.navigations = []
            self.threads = set()

        async def start(self):
            yield scrapy.Request(self.start_url, callback=self.parse_listing)

        def parse_listing(self, response, navigation: ArticleNavigation):
            self.navigations.append(ItemAdapter(navigation).asdict())
            for request in navigation.items or []:
                yield response.follow(request.url, callback=self.parse_article)
            if navigation.nextPage is not None:
                yield response.follow(navigation.nextPage.url, callback=self.parse_listing)

        def parse_article(self, response, article: Article):
            yield article

    out = {}
    with serve_site() as site:
        section = site.base_url + "/en/city/"
        settings = {
            **LOOPBACK_SETTINGS,
            "ADDONS": {
                "newsspider.Addon": 300,
                "scrapy_poet.Addon": 300,
                "zyte_common_items.Addon": 400,
            },
            "SCRAPY_POET_DISCOVER": ["newsspider.poet"],
            "ITEM_PIPELINES": {"zyte_common_items.pipelines.DropLowProbabilityItemPipeline": 500},
        }
        process = AsyncCrawlerProcess(settings)
        crawler = process.create_crawler(PoetSpider)
        scraped, dropped = [], []
        crawler.signals.connect(
            lambda item, **_: scraped.append(ItemAdapter(item).asdict()),
            signal=signals.item_scraped, weak=False,
        )
        crawler.signals.connect(
            lambda item, **_: dropped.append(ItemAdapter(item).asdict()),
            signal=signals.item_dropped, weak=False,
        )
        process.crawl(crawler, start=section)
        # The bundled site spider with Zyte's schema out of the pipeline.
        zyte = []
        site_crawler = process.create_crawler("site")
        site_crawler.settings.set("NEWSSPIDER_ITEM_SCHEMA", "zyte", priority="cmdline")
        for name, value in LOOPBACK_SETTINGS.items():
            site_crawler.settings.set(name, value, priority="cmdline")
        site_crawler.settings.set("ADDONS", {"newsspider.Addon": 300}, priority="cmdline")
        site_crawler.signals.connect(
            lambda item, **_: zyte.append((type(item).__module__, ItemAdapter(item).asdict())),
            signal=signals.item_scraped, weak=False,
        )
        process.crawl(site_crawler, url=site.base_url + "/en/", max_articles="8")
        process.start()
        spider = crawler.spider
        out = {
            "scraped": scraped,
            "dropped": dropped,
            "navigations": spider.navigations,
            "truth": [a.url for a in site.articles if "/en/city/" in a.url],
            "thin": list(site.thin_pages),
            "stats": {k: v for k, v in crawler.stats.get_stats().items() if isinstance(v, int)},
            "zyte": zyte,
        }
    json.dump(out, open(sys.argv[1], "w"), default=str)
    """
)


@pytest.fixture(scope="module")
def crawl(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("poet")
    script = folder / "crawl.py"
    script.write_text(_SCRIPT, encoding="utf-8")
    out = folder / "out.json"
    done = subprocess.run(
        [sys.executable, str(script), str(out)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    data["log"] = done.stderr
    return data


def test_crawl_callbacks_receive_articles_and_navigation(crawl: dict[str, Any]) -> None:
    """The section's pages are walked through ``nextPage``; every story of the section is
    reached through ``items`` and comes back as an `Article` with its text and date."""
    navigations = crawl["navigations"]
    assert len(navigations) >= 2, "nextPage was followed"
    scraped = {item["url"]: item for item in crawl["scraped"]}
    assert set(crawl["truth"]) <= set(scraped)
    for url in crawl["truth"]:
        item = scraped[url]
        assert item["headline"] and item["articleBody"] and item["datePublished"]
        assert item["metadata"]["probability"] >= 0.1


def test_low_probability_pages_are_dropped(crawl: dict[str, Any]) -> None:
    """The section's thin page is reached like the others and dropped by zyte-common-items'
    `DropLowProbabilityItemPipeline`, which reads ``metadata.probability``."""
    dropped = {item["url"] for item in crawl["dropped"]}
    thin_here = {url for url in crawl["thin"] if "/en/city/" in url}
    assert thin_here and thin_here <= dropped
    assert not thin_here & {item["url"] for item in crawl["scraped"]}


def test_pipeline_emits_zyte_articles_with_the_setting(crawl: dict[str, Any]) -> None:
    items = crawl["zyte"]
    assert items, crawl["log"][-2000:]
    for module, data in items:
        assert module.startswith("zyte_common_items")
        assert ZyteArticle.from_dict(data).url == data["url"]
        assert data["articleBody"] and data["metadata"]["probability"] > 0
