"""The record's metadata fields: tags, section, author profiles, raw dates, paywall flag and the
whole description (issue 34)."""

from __future__ import annotations

import json
from typing import Any

from newsspider import extract
from newsspider.items import ArticleItem
from newsspider.schema import article_schema

URL = "https://gazette.example/news/2024/rivers-rise"
BODY = (
    "<p>The river rose two metres overnight after the heaviest rain in a decade, flooding the "
    "lower town and closing three bridges across the valley.</p>"
    "<p>Emergency crews worked through the night to move residents from the riverside streets "
    "to the school gym, the county's officials said on Tuesday morning.</p>"
    "<p>Forecasters expect the water to fall slowly over the weekend, but warned that the "
    "ground is saturated and further showers could bring new flooding.</p>"
)


def article_page(head: str = "", body_top: str = "", jsonld: dict[str, Any] | None = None) -> bytes:
    script = f'<script type="application/ld+json">{json.dumps(jsonld)}</script>' if jsonld else ""
    return (
        f"<html lang='en'><head><meta charset='utf-8'><title>Rivers rise after storm</title>"
        f"{head}{script}</head><body>{body_top}<article><h1>Rivers rise after storm</h1>"
        f"{BODY}</article></body></html>"
    ).encode()


NEWS = {"@context": "https://schema.org", "@type": "NewsArticle", "headline": "Rivers rise"}


def test_jsonld_keywords_section_author_url_and_free_flag() -> None:
    data = {
        **NEWS,
        "datePublished": "2024-03-05T10:00:00+01:00",
        "keywords": "Weather, Floods,  weather ",
        "articleSection": ["Environment", "Local"],
        "author": [
            {"@type": "Person", "name": "Ana Lima", "url": "/authors/ana-lima"},
            {"@type": "Person", "name": "Tom Berg", "sameAs": ["https://social.example/tberg"]},
            {"@type": "Person", "name": "Eve Nash", "@id": "https://gazette.example/#/person/9"},
        ],
        "isAccessibleForFree": "False",
    }
    article = extract(article_page(jsonld=data), url=URL)
    assert article.tags == ("Weather", "Floods")
    assert article.section == "Environment"
    assert article.authors == ("Ana Lima", "Tom Berg", "Eve Nash")
    # A node id with a fragment names a JSON-LD node, not a profile page.
    assert article.author_profiles == (
        {"name": "Ana Lima", "url": "https://gazette.example/authors/ana-lima"},
        {"name": "Tom Berg", "url": "https://social.example/tberg"},
    )
    assert article.paywalled is True
    assert article.date == "2024-03-05T10:00:00+01:00"
    assert article.date_raw == "2024-03-05T10:00:00+01:00"


def test_paywalled_part_free_article_and_content_tier() -> None:
    part = {
        **NEWS,
        "isAccessibleForFree": True,
        "hasPart": {
            "@type": "WebPageElement",
            "isAccessibleForFree": False,
            "cssSelector": ".paywall",
        },
    }
    assert extract(article_page(jsonld=part), url=URL).paywalled is True
    free = {**NEWS, "isAccessibleForFree": True}
    assert extract(article_page(jsonld=free), url=URL).paywalled is False
    tier = '<meta property="article:content_tier" content="locked">'
    assert extract(article_page(head=tier), url=URL).paywalled is True
    assert extract(article_page(), url=URL).paywalled is None


def test_open_graph_tags_and_section_come_first() -> None:
    head = (
        '<meta property="article:tag" content="Rivers">'
        '<meta property="article:tag" content="Storms, Rain">'
        '<meta property="article:section" content="Weather">'
        '<meta name="keywords" content="news, site, everything">'
    )
    data = {**NEWS, "keywords": ["Rain", "Valley"], "articleSection": "Environment"}
    article = extract(article_page(head=head, jsonld=data), url=URL)
    assert article.tags == ("Rivers", "Storms", "Rain", "Valley")
    assert article.section == "Weather"
    # Without article tags or JSON-LD keywords, the keywords meta tag is what there is.
    only_meta = extract(article_page(head='<meta name="keywords" content="a, b">'), url=URL)
    assert only_meta.tags == ("a", "b")


def test_section_from_a_jsonld_breadcrumb_trail() -> None:
    trail = {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": 3, "name": "Rivers rise after storm", "item": URL},
            {
                "@type": "ListItem",
                "position": 1,
                "name": "Home",
                "item": "https://gazette.example/",
            },
            {
                "@type": "ListItem",
                "position": 2,
                "name": "Local news",
                "item": "https://gazette.example/local/",
            },
        ],
    }
    assert extract(article_page(jsonld=trail), url=URL).section == "Local news"


def test_section_from_breadcrumb_markup() -> None:
    nav = (
        '<nav aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li>'
        '<li><a href="/science/">Science</a></li><li>Rivers rise after storm</li></ol></nav>'
    )
    assert extract(article_page(body_top=nav), url=URL).section == "Science"
    # One "back" link is no trail.
    back = '<div class="breadcrumb"><a href="/blog/">Back to the blog</a></div>'
    assert extract(article_page(body_top=back), url=URL).section is None


def _with_byline(byline: str) -> bytes:
    heading = b"<h1>Rivers rise after storm</h1>"
    return article_page().replace(heading, heading + byline.encode())


def test_byline_link_gives_the_authors_profile() -> None:
    byline = '<p class="byline">By <a href="/staff/ana-lima">Ana Lima</a></p>'
    article = extract(_with_byline(byline), url=URL)
    assert article.authors == ("Ana Lima",)
    assert article.author_profiles == (
        {"name": "Ana Lima", "url": "https://gazette.example/staff/ana-lima"},
    )
    marked = '<p>By <a rel="author" href="https://gazette.example/staff/tom">Tom Berg</a></p>'
    article = extract(_with_byline(marked), url=URL)
    assert article.author_profiles == (
        {"name": "Tom Berg", "url": "https://gazette.example/staff/tom"},
    )
    # A link whose text is not the author's name is not their profile.
    other = '<p class="byline">By Ana Lima <a href="/newsletter">Subscribe</a></p>'
    assert extract(_with_byline(other), url=URL).author_profiles == ()


def test_raw_date_strings_are_the_texts_read() -> None:
    visible = '<p class="date">Published: 5 March 2024, 10:30</p>'
    article = extract(_with_byline(visible), url="https://gazette.example/news/rivers")
    assert article.date is not None and article.date.startswith("2024-03-05")
    assert article.date_raw is not None and "5 March 2024" in article.date_raw
    head = '<meta property="article:modified_time" content="2024-03-06T08:00:00Z">'
    modified = extract(
        article_page(head=head, jsonld={**NEWS, "datePublished": "2024-03-05"}), url=URL
    )
    assert modified.date_raw == "2024-03-05"
    assert modified.date_modified_raw == "2024-03-06T08:00:00Z"


def test_the_description_keeps_its_whole_text() -> None:
    text = "A long summary sentence about the flood and its causes. " * 20
    article = extract(article_page(head=f'<meta name="description" content="{text}">'), url=URL)
    assert article.description == text.strip()
    assert len(article.description) > 1000


def test_new_fields_reach_items_and_the_schema() -> None:
    data = {**NEWS, "keywords": ["Rain"], "author": {"name": "Ana Lima", "url": "/a/ana"}}
    article = extract(article_page(jsonld=data), url=URL)
    item = ArticleItem.from_article(article)
    assert item.tags == ["Rain"]
    assert item.author_profiles == [{"name": "Ana Lima", "url": "https://gazette.example/a/ana"}]
    item.author_profiles[0]["name"] = "changed"
    assert article.author_profiles[0]["name"] == "Ana Lima"  # the item's values are its own
    assert item.duplicate_of is None
    properties = article_schema()["properties"]
    for name in ("tags", "section", "author_profiles", "date_raw", "date_modified_raw",
                 "paywalled", "duplicate_of"):  # fmt: skip
        assert name in properties
    assert properties["paywalled"]["type"] == ["boolean", "null"]
    assert properties["author_profiles"]["items"]["type"] == "object"


def test_warc_rows_carry_the_new_fields() -> None:
    from newsspider.warc import batch

    for name in ("tags", "section", "author_profiles", "date_raw", "paywalled", "duplicate_of"):
        assert name in batch._FIELDS
