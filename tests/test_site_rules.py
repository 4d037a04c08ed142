"""The ``site`` spider: URL rules, a second look at listing pages, the related-link budget."""

from __future__ import annotations

import re
from typing import Any

import pytest
from lxml import html
from scrapy.http import HtmlResponse, Request
from scrapy.utils.test import get_crawler

from newsspider.items import PageItem
from newsspider.spiders._args import SpiderArgumentError
from newsspider.spiders._links import LinkKind, UrlRules, classify_links
from newsspider.spiders.site import RELATED_PROBE, SiteSpider

SITE = "http://n.example"
_SEE_ALSO = "".join(
    f"<p>See <a href='/2026/03/0{i}/another-long-story-slug-{i}.html'>also</a></p>"
    for i in range(1, 8)
)
ARTICLE = (
    "<html><head><title>Harbour story</title></head><body><nav><a href='/world/'>World</a></nav>"
    "<article><h1>The harbour reopens</h1>"
    + "<p>The harbour reopened on Monday after a long winter of repairs to the old quay.</p>" * 12
    + _SEE_ALSO
    + "</article></body></html>"
)


def _response(path: str, body: str, **meta: Any) -> HtmlResponse:
    request = Request(SITE + path, meta=meta)
    return HtmlResponse(SITE + path, body=body.encode(), encoding="utf-8", request=request)


def _links(page: str) -> dict[str, LinkKind]:
    root = html.document_fromstring(page)
    return {link.url: link.kind for link in classify_links(root, SITE + "/", ["n.example"])}


def test_rules_force_and_forbid_kinds() -> None:
    page = (
        "<main><a href='/p/1234'>Short</a> <a href='/tag/harbour/'>Harbour</a>"
        "<a href='/2026/03/01/a-long-dated-story-about-the-harbour.html'>"
        "A long headline about the harbour reopening</a></main>"
    )
    found = _links(page)
    rules = UrlRules(article_allow=re.compile(r"/p/\d+$"))
    root = html.document_fromstring(page)
    kinds = {
        link.url: rules.kind_of(link) for link in classify_links(root, SITE + "/", ["n.example"])
    }
    assert found[SITE + "/p/1234"] is LinkKind.LISTING  # the classifier alone
    assert kinds[SITE + "/p/1234"] is LinkKind.ARTICLE  # article_allow wins ...
    # ... and with it given, nothing else is an article (the dated story becomes a listing).
    assert kinds[SITE + "/2026/03/01/a-long-dated-story-about-the-harbour.html"] is LinkKind.LISTING
    deny = UrlRules(listing_deny=re.compile("/tag/"))
    for link in classify_links(root, SITE + "/", ["n.example"]):
        if "/tag/" in link.url:
            assert deny.kind_of(link) is None


def test_a_bad_pattern_is_a_bad_argument() -> None:
    with pytest.raises(SpiderArgumentError, match="article_allow is not a valid regular"):
        SiteSpider(url=SITE + "/", article_allow="(unclosed")


def _crawled_site_spider(settings: dict[str, Any], **arguments: Any) -> SiteSpider:
    """The spider as ``scrapy crawl site -s ... -a ...`` builds it."""
    crawler = get_crawler(SiteSpider, settings)
    return SiteSpider.from_crawler(crawler, url=SITE + "/", **arguments)


def test_patterns_come_from_settings_when_no_argument_is_given() -> None:
    spider = _crawled_site_spider(
        {"NEWSSPIDER_SITE_ARTICLE_ALLOW": r"/p/\d+$", "NEWSSPIDER_SITE_LISTING_DENY": "/tag/"}
    )
    assert spider.rules.may_be_article(SITE + "/p/1234")
    assert not spider.rules.may_be_article(SITE + "/2026/03/01/a-long-dated-story.html")
    assert not spider.rules.may_be_listing(SITE + "/tag/harbour/")
    assert spider.rules.article_deny is None and spider.rules.listing_allow is None
    # Without the settings, the classifier alone decides.
    assert _crawled_site_spider({}).rules == UrlRules()


def test_a_spider_argument_wins_over_its_setting() -> None:
    settings = {"NEWSSPIDER_SITE_ARTICLE_ALLOW": r"/p/\d+$", "NEWSSPIDER_SITE_ARTICLE_DENY": "x"}
    spider = _crawled_site_spider(settings, article_allow="/story/")
    assert spider.rules.article_allow is not None
    assert spider.rules.article_allow.pattern == "/story/"
    # An empty argument switches the setting's pattern off for this crawl.
    assert _crawled_site_spider(settings, article_deny="").rules.article_deny is None


def test_a_bad_pattern_setting_is_named_in_the_error() -> None:
    with pytest.raises(SpiderArgumentError, match="NEWSSPIDER_SITE_LISTING_ALLOW"):
        _crawled_site_spider({"NEWSSPIDER_SITE_LISTING_ALLOW": "(unclosed"})


def test_an_image_link_does_not_make_an_article_a_pager() -> None:
    page = (
        "<main><a href='/read.php?id=77&page=1'><img src='x.jpg'></a>"
        "<a href='/read.php?id=77&page=1'>The council votes on the new harbour budget</a></main>"
    )
    assert _links(page)[SITE + "/read.php?id=77&page=1"] is not LinkKind.PAGINATION


def test_a_listing_link_that_leads_to_an_article_is_reported() -> None:
    spider = SiteSpider(url=SITE + "/")
    output = list(spider.parse_listing(_response("/harbour", ARTICLE), depth=1, page=1))
    pages = [item for item in output if isinstance(item, PageItem)]
    assert [page.url for page in pages] == [SITE + "/harbour"]
    requests = [r for r in output if isinstance(r, Request)]
    # Its links are followed as an article's: articles only, never the menu's listing.
    assert requests and all("/world/" not in r.url for r in requests)


def test_links_of_articles_stop_when_they_do_not_lead_to_articles() -> None:
    spider = SiteSpider(url=SITE + "/")
    issued = 0
    for n in range(6):  # six article pages, seven article links each, none ever answered
        body = ARTICLE.replace("another-long-story", f"story-{n}-long")
        response = _response(f"/2026/03/1{n}/page-{n}.html", body, site_depth=1)
        issued += sum(isinstance(r, Request) for r in spider.parse_article(response, {}))
    assert issued == RELATED_PROBE
    # One that proved an article buys more.
    answered = _response("/2026/03/01/x.html", ARTICLE, site_depth=1)
    answered.meta["newsspider_site_from_article"] = True
    more = [r for r in spider.parse_article(answered, {}) if isinstance(r, Request)]
    assert 0 < len(more) <= 2


def test_a_link_that_is_no_url_is_skipped() -> None:
    """Found by fuzzing the feed reader: urljoin raises ValueError on an unclosed IPv6 host."""
    page = (
        "<main><a href='http://[::1'>Broken host</a>"
        "<a href='/2026/03/01/a-long-dated-story-about-the-harbour.html'>"
        "A long headline about the harbour reopening</a></main>"
    )
    assert list(_links(page)) == [SITE + "/2026/03/01/a-long-dated-story-about-the-harbour.html"]
    with_base = "<head><base href='//[x'></head>" + page
    assert list(_links(with_base)) == list(_links(page))
