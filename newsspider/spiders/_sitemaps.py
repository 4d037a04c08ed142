"""Sitemaps, sitemap indexes and Google News sitemaps, read a slice at a time.

Scrapy's own `scrapy.utils.sitemap.Sitemap` also parses incrementally, but it keeps only the
direct children of ``<url>`` as strings and so drops the ``news:`` namespace: the headline and
the publication date of each article. Keeping them lets the spider skip old articles without
fetching them and gives the extractor hints; that is why this module reads sitemaps itself.

`SitemapReader` parses `STEP_BYTES` (8 KiB) of the document per step and yields that step's
entries, so a spider can hand the event loop back between steps (a 100 000-URL sitemap is 10 to
40 MB), and stops after ``max_urls`` entries.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from lxml import etree

from newsspider.extraction.common.urls import join_url
from newsspider.extraction.parse.binary import SITEMAP_ROOTS
from newsspider.spiders._dates import normalize_date
from newsspider.spiders._feeds import FeedRepair
from newsspider.spiders._xml import XmlSteps, child_texts, local_name, xml_bytes

#: Default of ``NEWSSPIDER_SITEMAP_MAX_URLS``: the sitemap protocol's own limit per file.
DEFAULT_MAX_URLS: Final = 50_000


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


class SitemapReader:
    """Entries of a sitemap or sitemap index (gzip or plain), read in bounded steps.

    `kind` is "urlset", "sitemapindex", or "" when the document is not a sitemap (then there
    are no entries). After iterating, `capped` says whether entries past ``max_urls`` were left
    unread.
    """

    def __init__(self, data: bytes, base_url: str, max_urls: int = DEFAULT_MAX_URLS) -> None:
        self.base_url = base_url
        self.max_urls = max_urls
        self.count = 0
        self.capped = False
        # The feeds' repair (bare "&", HTML entity names, references to forbidden characters)
        # serves sitemaps too: they are written by the same kind of code.
        self._xml = XmlSteps(xml_bytes(data), ("url", "sitemap"), repair=FeedRepair)
        kind = self._xml.root_name
        self.kind = kind if kind in SITEMAP_ROOTS else ""

    def batches(self) -> Iterator[list[SitemapEntry]]:
        """The entries, one list (maybe empty) per parsing step."""
        if not self.kind:
            return
        wanted = "url" if self.kind == "urlset" else "sitemap"
        for closed in self._xml.steps():
            batch: list[SitemapEntry] = []
            for element in closed:
                # Only entries directly under the root (an <url> nested elsewhere is not one).
                parent = element.getparent()
                entry = None
                if local_name(element) == wanted and parent is not None:
                    entry = self._entry(element) if parent.getparent() is None else None
                self._xml.release(element)
                if entry is None:
                    continue
                if self.max_urls and self.count >= self.max_urls:
                    self.capped = True
                    break
                self.count += 1
                batch.append(entry)
            yield batch  # even when empty: one per step, so the caller can pause between steps
            if self.capped:
                return

    def __iter__(self) -> Iterator[SitemapEntry]:
        for batch in self.batches():
            yield from batch

    def _entry(self, node: etree._Element) -> SitemapEntry | None:
        fields = child_texts(node)
        loc = fields.get("loc")
        if not loc:
            return None
        # Relative <loc>s break the protocol, but an absolute URL is what a Request needs.
        url = loc if loc.startswith(("https://", "http://")) else join_url(self.base_url, loc)
        if url is None:
            return None
        lastmod = normalize_date(fields.get("lastmod"))
        if self.kind == "sitemapindex":
            return SitemapEntry(url=url, lastmod=lastmod)
        title = date = language = None
        for news in node:
            if local_name(news) == "news":
                news_fields = child_texts(news)
                title = news_fields.get("title")
                date = normalize_date(news_fields.get("publication_date"))
                for publication in news:
                    if local_name(publication) == "publication":
                        language = child_texts(publication).get("language")
        return SitemapEntry(url=url, lastmod=lastmod, title=title, date=date, language=language)


@dataclass(frozen=True, slots=True)
class Sitemap:
    #: "urlset", "sitemapindex", or "" when the document is not a sitemap.
    kind: str
    entries: list[SitemapEntry] = field(default_factory=list)


def parse_sitemap(data: bytes, base_url: str, max_urls: int = DEFAULT_MAX_URLS) -> Sitemap:
    """The whole of a sitemap at once (tests, small documents); `SitemapReader` for crawls."""
    reader = SitemapReader(data, base_url, max_urls)
    return Sitemap(reader.kind, list(reader))
