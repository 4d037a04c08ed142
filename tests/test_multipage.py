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
from newsspider.extraction.body.continuation import next_page_url, page_number

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
        assert _extract(site, path).next_page_url is None


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
