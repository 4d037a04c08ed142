"""``site``: start from a home or section page and find the article pages without site rules.

    scrapy crawl site -a url=https://example.com/ -a max_depth=3 -O items.jsonl

Links are classified by `newsspider.spiders._links` (URL shape, anchor text, position on the
page): article links are fetched and judged by the content filter, listing links (sections,
tags, authors) are followed to find more, pagination is followed along a listing. Only the start
URLs' sites are crawled (``www.`` and subdomains included).

Extra arguments:
    max_depth       link hops from a start page (default 3); pagination does not add hops
    max_pagination  pages followed along one listing's pagination (default 5)
    max_pages defaults to 300 here (listing pages fetched in all).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar
from urllib.parse import urlsplit

from scrapy.http import Request, Response, TextResponse

from newsspider.settings_defaults import META_SITE
from newsspider.spiders._base import NewsSpider
from newsspider.spiders._dates import date_in_url, is_older
from newsspider.spiders._links import LinkKind, classify_links


class SiteSpider(NewsSpider):
    name = "site"
    default_max_pages: ClassVar[int] = 300
    extra_limits: ClassVar[dict[str, int]] = {"max_depth": 3, "max_pagination": 5}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hosts = sorted({_site(u) for u in self.start_urls})
        # OffsiteMiddleware keeps redirects and stray requests on these sites.
        self.allowed_domains = list(self.hosts)

    def add_site(self, host: str) -> None:
        """Crawl this site too (a seed from a shared crawl's Redis list, or a request that
        descends from one that another worker took)."""
        if host and host not in self.hosts:
            self.hosts = sorted({*self.hosts, host})
            self.allowed_domains.append(host)

    def start_requests_for(self, urls: list[str]) -> Iterator[Request]:
        for url in urls:
            site = _site(url)
            self.add_site(site)
            request = self.page_request(
                url, self.parse_listing, cb_kwargs={"depth": 0, "page": 1}, meta={META_SITE: site}
            )
            if request is not None:
                yield request

    def parse_listing(self, response: Response, depth: int, page: int) -> Iterator[Any]:
        """A home, section, tag or author page: queue its articles and further listings."""
        if not isinstance(response, TextResponse):
            return
        self._count("listing_count")
        yield from self._follow(response, depth, page)

    def parse_article(self, response: Response, hints: dict[str, Any]) -> Iterator[Any]:
        yield from super().parse_article(response, hints)
        # Related and "most read" links on articles find stories no listing shows any more.
        depth = int(response.meta.get("site_depth", 0))
        if isinstance(response, TextResponse):
            yield from self._follow(response, depth, 1, listings=False)

    def _follow(
        self, response: TextResponse, depth: int, page: int, *, listings: bool = True
    ) -> Iterator[Request]:
        if depth >= self.limits["max_depth"]:
            return
        site = response.meta.get(META_SITE)
        for link in classify_links(response.selector.root, response.url, self.hosts):
            request: Request | None = None
            if link.kind is LinkKind.ARTICLE:
                day = date_in_url(link.url)
                if day is not None and is_older(day.isoformat(), self.since):
                    self._count("older_than_since_skipped_count")
                    continue
                request = self.article_request(
                    link.url, published=None, site_depth=depth + 1, **{META_SITE: site}
                )
            elif not listings:
                continue
            elif link.kind is LinkKind.PAGINATION:
                if page < self.limits["max_pagination"]:
                    request = self.page_request(
                        link.url,
                        self.parse_listing,
                        cb_kwargs={"depth": depth, "page": page + 1},
                        meta={META_SITE: site},
                    )
            else:
                request = self.page_request(
                    link.url,
                    self.parse_listing,
                    cb_kwargs={"depth": depth + 1, "page": 1},
                    meta={META_SITE: site},
                )
            if request is not None:
                yield request


def _site(url: str) -> str:
    """The host a site crawl keeps to: lower case, without ``www.``."""
    return (urlsplit(url).hostname or "").lower().removeprefix("www.")
