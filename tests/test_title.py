"""Headline choice and site-name stripping."""

from __future__ import annotations

import pytest
from lxml import etree

from newsspider.extraction.title import choose_title, strip_site_name


@pytest.mark.parametrize(
    ("title", "site", "url", "expected"),
    [
        ("Bridge opens | Riverton Gazette", "Riverton Gazette", None, "Bridge opens"),
        ("Gazette - Bridge opens today", None, "https://gazette.com/", "Bridge opens today"),
        ("城市公园今日开放_社会频道_示例新闻网", None, None, "城市公园今日开放"),
        ("城市公园今日开放-示例新闻网", None, None, "城市公园今日开放"),
        ("「Wi-Fi保護」を発表 - ニュース", None, None, "「Wi-Fi保護」を発表"),
        ("A long headline about the vote - Daily", None, None, "A long headline about the vote"),
        ("Just-released exploit crashes", None, None, "Just-released exploit crashes"),
        ("Screenshot : «Vape Wave»", None, None, "Screenshot : «Vape Wave»"),
    ],
)  # fmt: skip
def test_strip_site_name(title: str, site: str | None, url: str | None, expected: str) -> None:
    assert strip_site_name(title, site_name=site, url=url) == expected


def h(text: str) -> etree._Element:
    el = etree.Element("h1")
    el.text = text
    return el


def test_heading_that_agrees_with_title_wins() -> None:
    heading = h("Council approves bridge after decade of debate")
    title, el = choose_title(
        meta={"og:title": ["Council approves bridge after decade of debate | Gazette"]},
        jsonld=[],
        title_tag="Council approves bridge after decade of debate | Gazette",
        headings=[h("Gazette"), heading],
        site_name="Gazette",
        url=None,
    )
    assert title == "Council approves bridge after decade of debate"
    assert el is heading


def test_logo_heading_is_not_the_headline() -> None:
    title, el = choose_title(
        meta={},
        jsonld=[],
        title_tag="Standalone binaries with Emscripten · V8",
        headings=[h("V8")],
        site_name=None,
        url="https://v8.dev/blog/x",
    )
    assert title == "Standalone binaries with Emscripten"
    assert el is None


def test_og_title_equal_to_site_name_is_ignored() -> None:
    title, _ = choose_title(
        meta={"og:title": ["Example News"]},
        jsonld=[],
        title_tag="Rates rise again - Example News",
        headings=[],
        site_name="Example News",
        url=None,
    )
    assert title == "Rates rise again"


def test_jsonld_headline_first() -> None:
    title, _ = choose_title(
        meta={"og:title": ["Other"]},
        jsonld=[{"@type": "NewsArticle", "headline": "  The real   headline "}],
        title_tag="",
        headings=[],
        site_name=None,
        url=None,
    )
    assert title == "The real headline"


def test_nothing_gives_hint_or_none() -> None:
    def pick(hint: str | None) -> tuple[str | None, object]:
        return choose_title(
            meta={}, jsonld=[], title_tag="", headings=[], site_name=None, url=None, hint=hint
        )

    assert pick(None) == (None, None)
    assert pick("Feed") == ("Feed", None)
