"""Sitemaps, sitemap indexes and Google News sitemaps (which Scrapy's SitemapSpider flattens).

The ``news:`` namespace carries the headline and the publication date of each article; keeping
them lets the spider skip old articles without fetching them and gives the extractor hints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

from lxml import etree

from newsspider.spiders._dates import normalize_date
from newsspider.spiders._xml import child_text, children, local_name, parse_xml


@dataclass(frozen=True, slots=True)
class SitemapEntry:
    url: str
    lastmod: str | None = None
    #: From ``<news:news>``: headline, publication date (ISO 8601), language.
    title: str | None = None
    date: str | None = None
    language: str | None = None

    def hints(self) -> dict[str, Any]:
        """Keyword hints for ``PageItem.from_response``; news: data only (lastmod is not a date
        of publication)."""
        hints: dict[str, Any] = {}
        if self.title:
            hints["title"] = self.title
        if self.date:
            hints["date"] = self.date
        return hints

    @property
    def best_date(self) -> str | None:
        """For the ``since`` filter: the publication date, else the last modification."""
        return self.date or self.lastmod


@dataclass(frozen=True, slots=True)
class Sitemap:
    #: "urlset", "sitemapindex", or "" when the document is not a sitemap.
    kind: str
    entries: list[SitemapEntry] = field(default_factory=list)


def parse_sitemap(data: bytes, base_url: str) -> Sitemap:
    """A sitemap or sitemap index (gzip or plain); ``Sitemap("")`` for anything else."""
    root = parse_xml(data)
    if root is None:
        return Sitemap("")
    kind = local_name(root)
    if kind == "urlset":
        return Sitemap(kind, [e for e in map(_url_entry, children(root, "url")) if e])
    if kind == "sitemapindex":
        entries = [
            SitemapEntry(
                url=urljoin(base_url, loc), lastmod=normalize_date(child_text(n, "lastmod"))
            )
            for n in children(root, "sitemap")
            if (loc := child_text(n, "loc"))
        ]
        return Sitemap(kind, entries)
    return Sitemap("")


def _url_entry(node: etree._Element) -> SitemapEntry | None:
    loc = child_text(node, "loc")
    if not loc:
        return None
    title = date = language = None
    for news in children(node, "news"):
        title = child_text(news, "title")
        date = normalize_date(child_text(news, "publication_date"))
        for publication in children(news, "publication"):
            language = child_text(publication, "language")
    return SitemapEntry(
        url=loc,
        lastmod=normalize_date(child_text(node, "lastmod")),
        title=title,
        date=date,
        language=language,
    )


def sitemaps_from_robots(text: str, base_url: str) -> list[str]:
    """``Sitemap:`` lines of a robots.txt, made absolute, in order, without duplicates."""
    urls: list[str] = []
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip().lower() == "sitemap" and value.strip():
            url = urljoin(base_url, value.strip())
            if url not in urls:
                urls.append(url)
    return urls
