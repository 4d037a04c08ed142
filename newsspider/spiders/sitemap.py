"""``sitemap``: articles listed in (news) sitemaps, found through robots.txt or given directly.

    scrapy crawl sitemap -a url=https://example.com/ -a since=2026-03-01 -O items.jsonl

A start URL may be a site (robots.txt ``Sitemap:`` lines are read, ``/sitemap.xml`` is the
fallback), a robots.txt, a sitemap index or a sitemap, gzipped or not. Google News entries give
the headline and publication date as hints, and let ``since`` skip old articles unfetched;
entries of plain sitemaps are judged by the content filter like any article candidate.
Unlike Scrapy's SitemapSpider this keeps the ``news:`` data (it parses the XML itself, with
entity expansion and network access off).

Extra argument: ``max_depth`` (default 3): how deep sitemap indexes may nest.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar
from urllib.parse import urljoin, urlsplit

from scrapy.http import Request, Response
from twisted.python.failure import Failure

from newsspider.spiders._base import NewsSpider
from newsspider.spiders._dates import is_older
from newsspider.spiders._sitemaps import parse_sitemap, sitemaps_from_robots


class NewsSitemapSpider(NewsSpider):
    name = "sitemap"
    default_max_pages: ClassVar[int] = 500
    extra_limits: ClassVar[dict[str, int]] = {"max_depth": 3}

    def start_requests_for(self, urls: list[str]) -> Iterator[Request]:
        for url in urls:
            parts = urlsplit(url)
            if parts.path in ("", "/") and not parts.query:
                request = self.page_request(
                    urljoin(url, "/robots.txt"), self.parse_robots, errback=self.robots_failed
                )
            elif parts.path.endswith("/robots.txt"):
                request = self.page_request(url, self.parse_robots, errback=self.robots_failed)
            else:
                request = self.page_request(url, self.parse_sitemap, cb_kwargs={"depth": 0})
            if request is not None:
                yield request

    def parse_robots(self, response: Response) -> Iterator[Any]:
        urls = sitemaps_from_robots(response.text, response.url) if response.status == 200 else []
        if not urls:
            self.logger.info("No Sitemap: line in %s, trying /sitemap.xml", response.url)
            urls = [urljoin(response.url, "/sitemap.xml")]
        for url in urls:
            request = self.page_request(url, self.parse_sitemap, cb_kwargs={"depth": 0})
            if request is not None:
                yield request

    def robots_failed(self, failure: Failure) -> Iterator[Any]:
        url = urljoin(failure.request.url, "/sitemap.xml")  # type: ignore[attr-defined]
        self.logger.info("No robots.txt (%s), trying %s", failure.getErrorMessage(), url)
        request = self.page_request(url, self.parse_sitemap, cb_kwargs={"depth": 0})
        if request is not None:
            yield request

    def parse_sitemap(self, response: Response, depth: int) -> Iterator[Any]:
        sitemap = parse_sitemap(response.body, response.url)
        if sitemap.kind == "sitemapindex":
            self._count("sitemap_index_count")
            if depth >= self.limits["max_depth"]:
                self.logger.warning("Sitemap index nested too deep, not followed: %s", response.url)
                return
            for entry in sitemap.entries:
                # A sub-sitemap last changed before `since` holds nothing newer.
                if is_older(entry.lastmod, self.since):
                    self._count("older_than_since_skipped_count")
                    continue
                request = self.page_request(
                    entry.url, self.parse_sitemap, cb_kwargs={"depth": depth + 1}
                )
                if request is not None:
                    yield request
        elif sitemap.kind == "urlset":
            self._count("sitemap_count")
            for entry in sitemap.entries:
                request = self.article_request(entry.url, entry.hints(), published=entry.best_date)
                if request is not None:
                    yield request
        else:
            self.logger.warning("Not a sitemap: %s", response.url)
            self._count("not_a_sitemap_count")
