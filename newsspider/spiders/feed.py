"""``feed``: articles listed in RSS 2.0 / RSS 1.0 / Atom feeds.

    scrapy crawl feed -a url=https://example.com/rss.xml -O items.jsonl

The feed is parsed 8 KiB at a time with the event loop free between steps (see
`newsspider.spiders._feeds` for what real feeds do that it copes with). Each entry's link is
fetched as an article, with the entry's title, date and authors passed to
the extractor as hints. A start URL that turns out to be an HTML page is searched for
``<link rel="alternate">`` feeds, so a site's home page works too.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any, ClassVar

from scrapy.http import Request, Response, TextResponse

from newsspider.spiders._base import NewsSpider
from newsspider.spiders._feeds import FeedReader
from newsspider.spiders._loop import yield_to_loop

_FEED_TYPES = ("application/rss+xml", "application/atom+xml", "application/rdf+xml")


class FeedSpider(NewsSpider):
    name = "feed"
    default_max_pages: ClassVar[int] = 200

    def start_requests_for(self, urls: list[str]) -> Iterator[Request]:
        for url in urls:
            request = self.page_request(url, self.parse_feed, cb_kwargs={"discover": True})
            if request is not None:
                yield request

    async def parse_feed(self, response: Response, discover: bool = False) -> AsyncIterator[Any]:
        """A feed: each entry's link as an article request, with the entry's hints.

        @demo_page /en/rss.xml
        @returns items 0 0
        @returns requests 10
        """
        reader = FeedReader(response.body, response.url)
        if not reader.kind:
            if discover and isinstance(response, TextResponse):
                for feed_request in self._discovered_feeds(response):
                    yield feed_request
            else:
                self.logger.warning("Not an RSS or Atom feed: %s", response.url)
                self._count("not_a_feed_count")
            return
        self._count("feed_count")
        found = 0
        for batch in reader.batches():
            found += len(batch)
            for entry in batch:
                request = self.article_request(entry.url, entry.hints(), published=entry.date)
                if request is not None:
                    yield request
            # One parsing step done (8 KiB of feed): let downloads run before the next.
            await yield_to_loop()
        if not found:
            self.logger.info("Feed without entries: %s", response.url)

    def _discovered_feeds(self, response: TextResponse) -> Iterator[Request]:
        found = 0
        for link in response.xpath("//link[@rel='alternate'][@href]"):
            if (link.attrib.get("type") or "").lower() in _FEED_TYPES:
                found += 1
                request = self.page_request(response.urljoin(link.attrib["href"]), self.parse_feed)
                if request is not None:
                    yield request
        if not found:
            self.logger.warning("Neither a feed nor a page that links to one: %s", response.url)
            self._count("not_a_feed_count")
