"""`find_navigation`: a listing page's article links, next page and sub-categories as data.

The link classification is the ``site`` spider's own (`newsspider.spiders._links.classify_links`:
URL shape, anchor text, position on the page), so what `ArticleNavigation` reports is what a site
crawl follows. This module adds only what a crawl does not need: which pagination link is the
*next* page, and the listing's name. No Scrapy or web-poet objects: the function takes bytes and
returns plain data, so it runs on the crawl's extraction workers (threads or processes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from lxml import etree
from parsel import Selector

from newsspider.extraction.common.urls import join_url
from newsspider.extraction.parse.decoding import decode_html
from newsspider.spiders._links import (
    Link,
    LinkKind,
    classify_links,
    looks_like_headline,
    shop_listing,
    site_host,
)
from newsspider.spiders._xml import text_of

__all__ = ["NavLink", "Navigation", "find_navigation", "navigation_of"]

#: Anchor texts that name the next page (the pager's own words; digits are handled apart).
_NEXT_TEXT: Final = re.compile(
    r"^\s*(?:next|next page|older|older posts|older entries|more|load more|»|›|>|→|>>|"
    r"下一页|下页|后页|下一頁|следующая|следующая страница|далее|дальше|вперёд|вперед|"
    r"suivant|siguiente|weiter|nächste|próxima|successiva|次へ|다음)\s*[»›>→]*\s*$",
    re.IGNORECASE,
)
#: The current page's number in its URL (``/page/3/``, ``?page=3``, ``index_3.html``).
_PAGE_NUMBER: Final = re.compile(
    r"(?:/page/(\d{1,4})/?$|[?&](?:page|p|pg|paged)=(\d{1,4})(?:&|$)|[_-](\d{1,4})\.s?html?$)",
    re.IGNORECASE,
)
_TITLE_SEPARATORS: Final = re.compile(r"\s+[|\-–—:·•»]\s+")


@dataclass(frozen=True, slots=True)
class NavLink:
    url: str
    text: str
    #: The classifier's score (article links: >= `ARTICLE_THRESHOLD`); 0 for pagination.
    score: float = 0.0
    #: An article link by its headline alone (anchor text and place, not URL shape): the
    #: ``site`` spider fetches it as a listing and keeps it when the page reads as an article.
    headline_only: bool = False


@dataclass(frozen=True, slots=True)
class Navigation:
    """What a listing page links to, in page order."""

    url: str
    #: Links the site spider would fetch as articles, then headline links in the page's
    #: content whose URL alone does not say article (`NavLink.headline_only`), in page order.
    articles: list[NavLink] = field(default_factory=list)
    #: Links it would follow as listings (sections, tags, authors), pagination left out.
    listings: list[NavLink] = field(default_factory=list)
    #: The next page of this listing, when the page has a pager.
    next_page: NavLink | None = None
    #: This page's number along its pagination, when the URL or pager says it.
    page_number: int | None = None
    #: The listing's name: its first ``<h1>``, else its ``<title>`` without the site name.
    name: str | None = None


def _page_number(url: str) -> int | None:
    match = _PAGE_NUMBER.search(url)
    if match is None:
        return None
    return int(next(group for group in match.groups() if group))


def _rel_next(root: etree._Element, base: str) -> str | None:
    for node in root.iter("link", "a"):
        if "next" in (node.get("rel") or "").lower().split() and node.get("href"):
            return join_url(base, node.get("href", "").strip())
    return None


def _name(root: etree._Element) -> str | None:
    for node in root.iter("h1"):
        text = " ".join(text_of(node).split())
        if text:
            return text
    for node in root.iter("title"):
        text = " ".join(text_of(node).split())
        if text:
            return _TITLE_SEPARATORS.split(text)[0] or text
    return None


def _next_page(
    root: etree._Element, url: str, pagination: list[Link], page: int | None
) -> NavLink | None:
    """``rel=next`` first; else a pager link saying "next"; else the link to page n+1."""
    by_url = {link.url: link for link in pagination}
    linked = _rel_next(root, url)
    if linked is not None and linked != url:
        known = by_url.get(linked)
        return NavLink(linked, known.text if known else "")
    for link in pagination:
        if _NEXT_TEXT.match(link.text):
            return NavLink(link.url, link.text)
    wanted = (page or 1) + 1
    for link in pagination:
        if link.text.strip() == str(wanted) or _page_number(link.url) == wanted:
            return NavLink(link.url, link.text)
    return None


def navigation_of(root: etree._Element, url: str) -> Navigation:
    """The navigation of a parsed page (``root``: an lxml HTML tree, e.g. a response's
    ``selector.root``). Same-site links only (the page's host, ``www.`` and subdomains)."""
    links = classify_links(root, url, [site_host(url)])
    articles = []
    listings = []
    # On a shop's listing a headline-length anchor is a product name.
    shop = shop_listing(
        root, sum(1 for x in links if x.kind is not LinkKind.PAGINATION and looks_like_headline(x))
    )
    for x in links:
        if x.kind is LinkKind.ARTICLE:
            articles.append(NavLink(x.url, x.text, x.score))
        elif x.kind is LinkKind.LISTING and looks_like_headline(x) and not shop:
            articles.append(NavLink(x.url, x.text, x.score, headline_only=True))
        elif x.kind is LinkKind.LISTING:
            listings.append(NavLink(x.url, x.text, x.score))
    pagination = [x for x in links if x.kind is LinkKind.PAGINATION]
    page = _page_number(url)
    next_page = _next_page(root, url, pagination, page)
    if page is None and next_page is not None:
        page = 1
    return Navigation(url, articles, listings, next_page, page, _name(root))


def find_navigation(body: bytes, url: str, encoding: str | None = None) -> Navigation:
    """The navigation of a page's bytes (decoded as the extractor decodes pages). Never
    raises on page content: a page that does not parse has no links."""
    text = decode_html(body, encoding).text
    try:
        root = Selector(text=text or "<html></html>", type="html").root
    except (ValueError, etree.LxmlError):
        return Navigation(url)
    if not isinstance(root, etree._Element):
        return Navigation(url)
    return navigation_of(root, url)
