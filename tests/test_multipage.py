"""Multi-page articles: the continuation link (pure core) and the crawl that joins the pages."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from support.crawl import run_crawl
from support.split_site import SplitSite, serve_split_site

import newsspider
from newsspider.extraction.body.continuation import (
    later_page,
    next_page_url,
    page_number,
    story_links,
)

BASE = "http://127.0.0.1:8000"


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def _share_found(paragraphs: list[str], body: str) -> float:
    found = _words(body)
    return sum(_words(p) in found for p in paragraphs) / len(paragraphs)


# --- the page number of a candidate link ---------------------------------------------------


@pytest.mark.parametrize(
    ("url", "link", "expected"),
    [
        ("https://a.example/news/2026/03/05/big-story/", "/news/2026/03/05/big-story/2/", 2),
        ("https://a.example/news/2026/03/05/big-story/2/", "../3/", 3),
        ("https://a.example/s/story.html", "story.html?page=2", 2),
        ("https://a.example/s/story.html?page=2", "story.html?page=3", 3),
        ("https://a.example/de/bericht.html", "bericht-seite-2.html", 2),
        # next stories: another slug, another (large) id, another host
        ("https://a.example/news/big-story/", "/news/other-story/", None),
        ("https://a.example/article/12345", "/article/12346", None),
        ("https://a.example/s/story.html", "https://b.example/s/story.html?page=2", None),
        # a page back, or two ahead
        ("https://a.example/s/story.html?page=3", "story.html?page=2", None),
        ("https://a.example/s/story.html?page=2", "story.html?page=4", None),
    ],
)
def test_page_number_accepts_only_the_same_page_one_further(
    url: str, link: str, expected: int | None
) -> None:
    from urllib.parse import urljoin

    assert page_number(url, urljoin(url, link)) == expected


@pytest.mark.parametrize(
    ("first", "url", "expected"),
    [
        ("https://a.example/news/2026/03/05/big-story/", "/news/2026/03/05/big-story/3/", 3),
        ("https://a.example/s/story.html", "story.html?page=2", 2),
        ("https://a.example/s/story.html?page=1", "story.html?page=4", 4),
        ("https://a.example/de/bericht.html", "bericht-seite-2.html", 2),
        # the same page, a page that is not the first, another story, another host
        ("https://a.example/s/story.html", "story.html", None),
        ("https://a.example/s/story.html?page=2", "story.html?page=3", None),
        ("https://a.example/news/big-story/", "/news/other-story/2/", None),
        ("https://a.example/article/12345", "/article/12346", None),
        ("https://a.example/s/story.html", "https://b.example/s/story.html?page=2", None),
    ],
)
def test_later_page_names_the_page_number_of_the_same_story_only(
    first: str, url: str, expected: int | None
) -> None:
    from urllib.parse import urljoin

    assert later_page(first, urljoin(first, url)) == expected


def _extract(site: SplitSite, path: str) -> Any:
    return newsspider.extract(site.pages[path], BASE + path)


@pytest.fixture(scope="module")
def site() -> SplitSite:
    return SplitSite()  # pages only: not started


def test_each_pagination_style_reports_the_next_page(site: SplitSite) -> None:
    for story in site.stories:
        for page, path in enumerate(story.paths[:-1]):
            if path in story.missing:
                continue
            article = _extract(site, path)
            assert article.next_page_url == BASE + story.paths[page + 1], (story.style, page)
        last = story.paths[-1]
        if last not in story.missing:
            assert _extract(site, last).next_page_url is None, story.style


def test_a_listing_and_its_pagination_have_no_next_page(site: SplitSite) -> None:
    for path in ("/news/", "/news/page/2/"):
        article = _extract(site, path)
        assert article.next_page_url is None
        assert article.earlier_page_url is None


def test_each_later_page_names_an_earlier_page_of_its_story(site: SplitSite) -> None:
    signals = {"rel": "rel_prev", "numbered": "page_one_link", "worded": "previous_link"}
    for story in site.stories:
        first = _extract(site, story.paths[0])
        assert first.earlier_page_url is None and first.earlier_page_signal is None
        for page, path in enumerate(story.paths[1:], start=1):
            if path in story.missing:
                continue
            article = _extract(site, path)
            # The first page where the page says which (the pager's 1, the canonical URL),
            # else the page before.
            expected = 0 if story.style in ("numbered", "broken") else page - 1
            assert article.earlier_page_url == BASE + story.paths[expected], (story.style, page)
            assert article.earlier_page_signal == signals.get(story.style, "canonical")


def test_a_previous_story_link_names_no_earlier_page() -> None:
    paragraphs = "".join(
        f"<p>{'Words of the story are here today. ' * 12}{n}</p>" for n in range(5)
    )
    html = (
        "<html lang='en'><head><title>One story</title>"
        "<link rel='prev' href='/news/2026/03/04/the-story-before-this-one/'>"
        "<link rel='canonical' href='/news/2026/03/05/one-story-of-the-day/'></head><body><main>"
        f"<article><h1>One story</h1>{paragraphs}<a href='/news/2026/03/04/older/'>Previous</a>"
        "<a rel='first' href='/news/'>1</a></article></main></body></html>"
    )
    article = newsspider.extract(html, "https://a.example/news/2026/03/05/one-story-of-the-day/")
    assert article.body
    assert article.earlier_page_url is None


def test_next_story_link_with_rel_next_is_not_a_continuation() -> None:
    paragraphs = "".join(
        f"<p>{'Words of the story are here today. ' * 12}{n}</p>" for n in range(5)
    )
    html = (
        "<html lang='en'><head><title>One story</title><meta property='article:published_time'"
        " content='2026-03-05T08:00:00Z'></head><body><main><article><h1>One story</h1>"
        f"{paragraphs}<a rel='next' href='/news/2026/03/06/another-story-entirely/'>Next</a>"
        "</article></main></body></html>"
    )
    article = newsspider.extract(html, "https://a.example/news/2026/03/05/one-story/")
    assert article.body
    assert article.next_page_url is None


def test_links_far_from_the_article_are_not_looked_at() -> None:
    body = "".join(
        f"<p>{'Text of a long story goes on and on here. ' * 10}{n}</p>" for n in range(5)
    )
    filler = "".join(f"<div><p>Box {n}</p></div>" for n in range(8))
    html = (
        "<html><head><title>t</title></head><body><main><article><h1>A story</h1>"
        f"{body}</article>{filler}<div><a href='/s/story.html?page=2'>2</a></div></main>"
        "</body></html>"
    )
    from lxml import etree

    root = etree.fromstring(html, etree.HTMLParser())
    article_element = root.find(".//article")
    assert next_page_url(article_element, "https://a.example/s/story.html") is None


def test_page_links_wrapped_in_markup_are_read_by_their_whole_text() -> None:
    # Pagers wrap their numbers and words in spans and icons; a link's own attributes are read
    # only once its text names a page, and links whose text says nothing are passed over.
    from lxml import etree

    body = "".join(
        f"<p>{'Text of a long story goes on and on here. ' * 10}{n}</p>" for n in range(4)
    )
    pager = (
        "<div class='pager'><a href='/s/other-story.html'><span>Share</span></a> "
        "<a href='/s/story.html?page=1'><span>1</span></a> "
        "<a href='/s/story.html?page=3'><b>Next</b> <i>»</i></a></div>"
    )
    html = f"<html><body><article>{body}</article>{pager}</body></html>"
    root = etree.fromstring(html, etree.HTMLParser())
    article = root.find(".//article")
    url = "https://a.example/s/story.html?page=2"
    next_url, earlier = story_links(article, url)
    assert next_url == "https://a.example/s/story.html?page=3"
    assert earlier == ("https://a.example/s/story.html?page=1", "page_one_link")


# --- the crawl ------------------------------------------------------------------------------


def _crawl(tmp_path: Path, settings: dict[str, str] | None = None) -> tuple[SplitSite, Any]:
    with serve_split_site() as site:
        result = run_crawl(
            "site",
            tmp_path,
            args={"url": site.url + "/news/", "max_depth": "2"},
            settings={
                "SPIDER_MODULES": "newsspider.spiders.site",
                "CONCURRENT_REQUESTS": "4",
                **(settings or {}),
            },
            timeout=120,
        )
    return site, result


def test_split_stories_come_out_whole_one_item_each(tmp_path: Path) -> None:
    site, result = _crawl(tmp_path)
    by_url = {item["url"]: item for item in result.items}
    firsts = {site.url + story.paths[0]: story for story in site.stories}
    # One item per story, for its first page; none for a continuation or a listing page.
    assert set(by_url) == set(firsts), sorted(by_url)
    for url, story in firsts.items():
        item = by_url[url]
        share = _share_found(story.served_paragraphs, item["body"])
        assert share >= 0.9, (story.style, share)
        # in page order
        firsts_of_pages = [
            _words(page[0])
            for path, page in zip(story.paths, story.paragraphs, strict=True)
            if path not in story.missing
        ]
        positions = [_words(item["body"]).find(p) for p in firsts_of_pages]
        assert positions == sorted(positions), story.style
    broken = next(s for s in site.stories if s.missing)
    assert "multipage-continuation-failed" in by_url[site.url + broken.paths[0]]["warnings"]
    whole = [s for s in site.stories if not s.missing]
    for story in whole:
        assert not any(
            w.startswith("multipage") for w in by_url[site.url + story.paths[0]]["warnings"]
        )
    assert result.stat("newsspider/multipage/story_count") == len(site.stories)
    joined_pages = sum(len(s.paths) - 1 - len(s.missing) for s in site.stories)
    assert result.stat("newsspider/multipage/page_count") == joined_pages
    # Each continuation page fetched once; the listing's second page fetched as a listing.
    for story in site.stories:
        for path in story.paths[1:]:
            assert site.hits[path] == 1, path
    json.dumps(result.items)


def test_the_setting_turns_joining_off(tmp_path: Path) -> None:
    site, result = _crawl(tmp_path, {"NEWSSPIDER_MULTIPAGE_ENABLED": "False"})
    assert result.stat("newsspider/multipage/story_count") == 0
    first = site.stories[0]
    item = next(i for i in result.items if i["url"] == site.url + first.paths[0])
    assert _share_found(first.served_paragraphs, item["body"]) < 0.5


def _sitemap_crawl(tmp_path: Path, settings: dict[str, str] | None = None) -> tuple[SplitSite, Any]:
    with serve_split_site() as site:
        result = run_crawl(
            "sitemap",
            tmp_path,
            args={"url": site.url + "/sitemap.xml"},
            settings={
                "SPIDER_MODULES": "newsspider.spiders.sitemap",
                "CONCURRENT_REQUESTS": "2",
                **(settings or {}),
            },
            timeout=120,
        )
    return site, result


def test_later_pages_reached_first_give_one_whole_item_per_story(tmp_path: Path) -> None:
    # The sitemap lists every story's later pages before any first page, and the first
    # pages of only half the stories.
    site, result = _sitemap_crawl(tmp_path)
    urls = [item["url"] for item in result.items]
    firsts = {site.url + story.paths[0]: story for story in site.stories}
    assert sorted(urls) == sorted(firsts), urls  # one item per story, for its first page
    for item in result.items:
        story = firsts[item["url"]]
        assert _share_found(story.served_paragraphs, item["body"]) >= 0.9, story.style
        assert item["earlier_page_url"] is None
    later = result.prefixed("newsspider/multipage/later_page_count/")
    listed = sum(len(s.paths) - 1 - len(s.missing) for s in site.stories)
    assert sum(later.values()) >= listed, later
    assert set(later) <= {"rel_first", "page_one_link", "rel_prev", "previous_link", "canonical"}
    assert "is a later page of the story at" in result.log
    # Each first page fetched once: the dupefilter keeps a story from being joined twice.
    for story in site.stories:
        assert site.hits[story.paths[0]] == 1, story.style


def test_later_pages_stay_items_of_their_own_with_joining_off(tmp_path: Path) -> None:
    site, result = _sitemap_crawl(tmp_path, {"NEWSSPIDER_MULTIPAGE_ENABLED": "False"})
    urls = {item["url"] for item in result.items}
    later = {
        site.url + path
        for story in site.stories
        for path in story.paths[1:]
        if path not in story.missing
    }
    assert later <= urls
    assert not result.prefixed("newsspider/multipage/")
    by_url = {item["url"]: item for item in result.items}
    assert all(by_url[url]["earlier_page_url"] for url in later)


# --- the joiner: stops, failures, a JOBDIR round trip ----------------------------------------


class _Stats:
    def __init__(self) -> None:
        self.values: dict[str, int] = {}

    def inc_value(self, key: str, count: int = 1) -> None:
        self.values[key] = self.values.get(key, 0) + count


class _Engine:
    def __init__(self) -> None:
        self.requests: list[Any] = []

    def crawl(self, request: Any) -> None:
        self.requests.append(request)


class _Crawler:
    def __init__(self, spider: Any) -> None:
        from scrapy.settings import Settings

        self.settings = Settings()
        self.stats = _Stats()
        self.engine = _Engine()
        self.spider = spider


def _story_pages(count: int) -> list[tuple[str, Any]]:
    from newsspider.extraction.article import Article

    urls = [f"https://a.example/s/story.html?page={n + 1}" for n in range(count)]
    return [
        (
            url,
            Article(
                url=url,
                title="Story",
                body=f"Text of page {n + 1}. " * 20,
                page_type="article",
                next_page_url=urls[n + 1] if n + 1 < count else None,
            ),
        )
        for n, url in enumerate(urls)
    ]


def _joiner(max_pages: int = 10) -> tuple[Any, Any, Any]:
    from scrapy import Spider

    from newsspider.multipage import StoryJoiner

    spider = Spider(name="any")
    crawler = _Crawler(spider)
    joiner = StoryJoiner(crawler, max_pages)
    joiner.open()
    return joiner, crawler, spider


def _begin(joiner: Any, url: str, article: Any) -> bool:
    from newsspider.items import ArticleItem, PageItem

    page = PageItem(url=url, body=b"<html></html>")
    return bool(joiner.begin(ArticleItem.from_article(article, page), article, page))


def _continuation(request: Any, article: Any, body: bytes = b"<html>x</html>") -> Any:
    from newsspider.items import PageItem
    from newsspider.settings_defaults import META_STORY

    return PageItem(url=request.url, body=body, meta={META_STORY: request.meta[META_STORY]})


def test_a_story_joins_its_pages_in_order_across_a_jobdir_round_trip() -> None:
    import pickle

    from scrapy import Spider
    from scrapy.http import HtmlResponse
    from scrapy.utils.request import request_from_dict

    from newsspider.multipage import bind_callbacks

    joiner, crawler, spider = _joiner()
    pages = _story_pages(3)
    assert _begin(joiner, *pages[0])
    request = crawler.engine.requests[-1]
    assert request.url == pages[1][0] and request.dont_filter
    # Paused: the queue holds the request as a dict; a new process, a new spider object.
    saved = pickle.dumps(request.to_dict(spider=spider))
    resumed_spider = Spider(name="any")
    bind_callbacks(resumed_spider)
    restored = request_from_dict(pickle.loads(saved), spider=resumed_spider)
    response = HtmlResponse(restored.url, body=b"<html></html>", request=restored)
    (page_item,) = list(restored.callback(response))
    assert page_item.meta["newsspider_story"]["urls"] == [pages[0][0]]
    assert joiner.add(page_item, pages[1][1]) is None  # page 3 asked for
    last = crawler.engine.requests[-1]
    joined = joiner.add(_continuation(last, pages[2][1]), pages[2][1])
    assert joined is not None and joined.url == pages[0][0]
    assert joined.body.index("page 1") < joined.body.index("page 2") < joined.body.index("page 3")
    assert joined.next_page_url is None and not joined.warnings
    assert crawler.stats.values["newsspider/multipage/story_count"] == 1
    assert crawler.stats.values["newsspider/multipage/page_count"] == 2


def test_a_later_page_asks_for_its_earlier_page_through_the_dupefilter() -> None:
    from dataclasses import replace

    from newsspider.items import PageItem

    joiner, crawler, _ = _joiner()
    (first, _), (second, article) = _story_pages(2)
    later = replace(article, earlier_page_url=first, earlier_page_signal="page_one_link")
    page = PageItem(url=second, body=b"<html></html>", meta={"priority": 5})
    assert joiner.later_page(page, later)
    (request,) = crawler.engine.requests
    assert request.url == first and not request.dont_filter and request.priority == 5
    assert crawler.stats.values == {"newsspider/multipage/later_page_count/page_one_link": 1}
    # A first page, and a page naming itself, are no later pages; nor with one page a story.
    assert not joiner.later_page(page, article)
    assert not joiner.later_page(page, replace(later, earlier_page_url=second))
    single, crawler, _ = _joiner(max_pages=1)
    assert not single.later_page(page, later) and not crawler.engine.requests


def test_a_failed_continuation_keeps_what_was_fetched_with_a_warning() -> None:
    from twisted.python.failure import Failure

    joiner, crawler, _ = _joiner()
    pages = _story_pages(3)
    _begin(joiner, *pages[0])
    request = crawler.engine.requests[-1]
    failure = Failure(ConnectionError("refused"))
    failure.request = request  # type: ignore[attr-defined]
    (item,) = list(request.errback(failure))
    joined = joiner.add(item, None)
    assert joined is not None and "Text of page 1" in joined.body
    assert "multipage-continuation-failed" in joined.warnings


def test_a_repeated_page_a_cycle_and_the_page_limit_stop_the_story() -> None:
    from dataclasses import replace

    # Page 2 repeats page 1's text (a site serving page 1 for any page number).
    joiner, crawler, _ = _joiner()
    pages = _story_pages(3)
    _begin(joiner, *pages[0])
    repeat = replace(pages[1][1], body=pages[0][1].body)
    joined = joiner.add(_continuation(crawler.engine.requests[-1], repeat), repeat)
    assert joined is not None and joined.body == pages[0][1].body
    assert crawler.stats.values["newsspider/multipage/stopped_count/repeat"] == 1
    # Page 2 links back to page 1.
    joiner, crawler, _ = _joiner()
    _begin(joiner, *pages[0])
    back = replace(pages[1][1], next_page_url=pages[0][0])
    joined = joiner.add(_continuation(crawler.engine.requests[-1], back), back)
    assert joined is not None and "page 2" in joined.body
    assert crawler.stats.values["newsspider/multipage/stopped_count/cycle"] == 1
    # At most two pages.
    joiner, crawler, _ = _joiner(max_pages=2)
    _begin(joiner, *pages[0])
    joined = joiner.add(_continuation(crawler.engine.requests[-1], pages[1][1]), pages[1][1])
    assert joined is not None and "page 3" not in joined.body
    assert joined.next_page_url == pages[2][0]
    assert "multipage-page-limit" in joined.warnings


@pytest.mark.parametrize(
    ("url", "story"),
    [
        ("https://a.example/news/2026/03/05/harbor-council-approves-new-flood-plan/", True),
        ("https://a.example/politics/budget.html", True),
        ("https://a.example/articles/482913", True),
        ("https://a.example/", False),
        ("https://a.example/reviews/headphones/", False),
        ("https://a.example/shop/lamps-and-lights-c042/", False),
        ("https://a.example/region/40512/CA/Town", False),
    ],
)
def test_only_story_shaped_urls_continue(url: str, story: bool) -> None:
    from newsspider.extraction.body.continuation import story_url

    assert story_url(url) is story


def test_a_category_page_taken_for_an_article_reports_no_next_page() -> None:
    paragraphs = "".join(
        f"<p>{'A long text about lamps and lights for every room. ' * 8}</p>" for _ in range(5)
    )
    html = (
        "<html lang='en'><head><title>Lamps</title><link rel='next' href='?page=2'></head><body>"
        f"<main><article><h1>Lamps and lights</h1>{paragraphs}<a href='?page=2'>2</a></article>"
        "</main></body></html>"
    )
    assert newsspider.extract(html, "https://a.example/shop/lamps/").next_page_url is None


def test_hrefs_and_urls_urllib_refuses_give_no_next_page() -> None:
    paragraphs = "".join(
        f"<p>{'A story about the harbour and its pier. ' * 10}</p>" for _ in range(5)
    )
    html = (
        "<html><head><title>t</title><link rel='next' href='http://[::1/2'></head><body><article>"
        f"<h1>A story</h1>{paragraphs}<a href='http://[::1/2'>2</a><a rel='next' href='http://[x'>"
        "Next</a></article></body></html>"
    )
    url = "https://a.example/news/2026/03/05/harbor-council-approves-new-flood-plan/"
    for page_url in (url, "http://[::1"):
        article = newsspider.extract(html, page_url)
        assert "internal-error" not in article.warnings
        assert article.next_page_url is None
