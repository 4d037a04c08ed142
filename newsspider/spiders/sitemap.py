"""``sitemap``: articles listed in (news) sitemaps, found through robots.txt or given directly.

    scrapy crawl sitemap -a url=https://example.com/ -a since=2026-03-01 -O items.jsonl

A start URL may be a site (robots.txt ``Sitemap:`` lines are read, ``/sitemap.xml`` is the
fallback), a robots.txt, a sitemap index or a sitemap, gzipped or not. Google News entries give
the headline and publication date as hints, and let ``since`` skip old articles unfetched;
entries of plain sitemaps are judged by the content filter like any article candidate.
Unlike Scrapy's SitemapSpider this keeps the ``news:`` data (it parses the XML itself, with
entity expansion and network access off).

Big sitemaps do not stall the crawl: a sitemap is parsed 8 KiB at a time, each step's requests
are yielded before the next step, and the event loop gets a turn between steps, so downloads go
on while a 100 000-URL sitemap is read. At most ``NEWSSPIDER_SITEMAP_MAX_URLS`` URLs (default
50 000, the protocol's limit) are read from one sitemap; the rest is skipped, logged and counted
(``newsspider/spider/sitemap_capped_count``).

Extra argument: ``max_depth`` (default 3): how deep sitemap indexes may nest.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any, ClassVar
from urllib.parse import urljoin, urlsplit

from scrapy.http import Request, Response
from scrapy.utils.sitemap import sitemap_urls_from_robots
from twisted.python.failure import Failure

from newsspider.settings_defaults import DEFAULTS, SITEMAP_MAX_URLS
from newsspider.spiders._base import NewsSpider
from newsspider.spiders._dates import is_older
from newsspider.spiders._loop import yield_to_loop
from newsspider.spiders._sitemaps import SitemapReader


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
        """robots.txt: its ``Sitemap:`` lines (else /sitemap.xml) as sitemap requests.

        @demo_page /robots.txt
        @returns items 0 0
        @returns requests 1
        """
        urls = robots_sitemaps(response.body, response.url) if response.status == 200 else []
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

    async def parse_sitemap(self, response: Response, depth: int) -> AsyncIterator[Any]:
        """A sitemap index (its sitemaps) or a urlset (its URLs as article requests).

        @demo_page /sitemaps/news-en.xml
        @cb_kwargs {"depth": 0}
        @returns items 0 0
        @returns requests 10
        """
        reader = SitemapReader(response.body, response.url, self._max_sitemap_urls())
        if reader.kind == "sitemapindex":
            self._count("sitemap_index_count")
            if depth >= self.limits["max_depth"]:
                self.logger.warning("Sitemap index nested too deep, not followed: %s", response.url)
                return
        elif reader.kind == "urlset":
            self._count("sitemap_count")
        else:
            self.logger.warning("Not a sitemap: %s", response.url)
            self._count("not_a_sitemap_count")
            return
        for batch in reader.batches():
            for entry in batch:
                if reader.kind == "sitemapindex":
                    # A sub-sitemap last changed before `since` holds nothing newer.
                    if is_older(entry.lastmod, self.since):
                        self._count("older_than_since_skipped_count")
                        continue
                    request = self.page_request(
                        entry.url, self.parse_sitemap, cb_kwargs={"depth": depth + 1}
                    )
                else:
                    request = self.article_request(
                        entry.url, entry.hints(), published=entry.best_date
                    )
                if request is not None:
                    yield request
            # One parsing step done: let downloads and other callbacks run before the next.
            await yield_to_loop()
        if reader.capped:
            self._count("sitemap_capped_count")
            self.logger.warning(
                "Read the first %d URLs of %s and skipped the rest (%s)",
                reader.max_urls,
                response.url,
                SITEMAP_MAX_URLS,
            )

    def _max_sitemap_urls(self) -> int:
        crawler = getattr(self, "crawler", None)
        if crawler is None:
            return int(DEFAULTS[SITEMAP_MAX_URLS])
        return int(crawler.settings.getint(SITEMAP_MAX_URLS, DEFAULTS[SITEMAP_MAX_URLS]))


def robots_sitemaps(body: bytes, base_url: str) -> list[str]:
    """``Sitemap:`` URLs of a robots.txt, by Scrapy's `sitemap_urls_from_robots`, which takes
    the body as bytes from Scrapy 2.14 on (str is deprecated there) and as str before."""
    try:
        return list(sitemap_urls_from_robots(body, base_url=base_url))
    except TypeError:  # Scrapy 2.13: str only
        text = body.decode("utf-8", "replace")
        return list(sitemap_urls_from_robots(text, base_url=base_url))
