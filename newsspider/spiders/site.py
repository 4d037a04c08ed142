"""``site``: start from a home or section page and find the article pages without site rules.

    scrapy crawl site -a url=https://example.com/ -a max_depth=3 -O items.jsonl

Links are classified by `newsspider.spiders._links` (URL shape, anchor text, position on the
page): article links are fetched and judged by the content filter, listing links (sections,
tags, authors) are followed to find more, pagination is followed along a listing. Only the start
URLs' sites are crawled (``www.`` and subdomains included).

A page fetched as a listing that reads as an article (the content filter's own test: a long main
text run, not link-dominated) is reported as one: a headline link with a short anchor or an
undashed URL is not lost. Links on article pages are followed only as articles, never as
listings: an article's body and navigation links lead to tags, authors and missing pages.

Extra arguments:
    max_depth       link hops from a start page (default 3); pagination does not add hops
    max_pagination  pages followed along one listing's pagination (default 5)
    article_allow, article_deny, listing_allow, listing_deny
                    regular expressions searched in link URLs (`UrlRules`), e.g.
                    ``-a article_allow=/story/[0-9]+`` ``-a listing_deny=/(tag|author)/``;
                    also settings (``NEWSSPIDER_SITE_ARTICLE_ALLOW`` ...) for a project whose
                    crawls share them: an argument, even empty, wins over its setting
    max_pages defaults to 300 here (listing pages fetched in all).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from scrapy.http import Request, Response, TextResponse

from newsspider.extraction.body.continuation import page_number
from newsspider.extraction.classify.content_score import score_page
from newsspider.items import PageItem
from newsspider.settings_defaults import (
    DEFAULTS,
    META_SITE,
    MULTIPAGE_ENABLED,
    SITE_ARTICLE_ALLOW,
    SITE_ARTICLE_DENY,
    SITE_LISTING_ALLOW,
    SITE_LISTING_DENY,
)
from newsspider.spiders._args import parse_pattern
from newsspider.spiders._base import NewsSpider
from newsspider.spiders._dates import date_in_url, is_older
from newsspider.spiders._links import (
    LinkKind,
    UrlRules,
    classify_links,
    looks_like_headline,
    site_host,
)

#: Requests for links found on article pages allowed before any of them proved an article ...
RELATED_PROBE = 10
#: ... and how many more each one that did buys. Above a 1-in-2 success rate the budget never
#: runs out; on a site whose article pages link mostly to missing or non-article pages
#: (embeds, stale links, another site's relative links) it stops after the probe.
RELATED_PER_SUCCESS = 2
_FROM_ARTICLE = "newsspider_site_from_article"


class SiteSpider(NewsSpider):
    name = "site"
    default_max_pages: ClassVar[int] = 300
    extra_limits: ClassVar[dict[str, int]] = {"max_depth": 3, "max_pagination": 5}
    argument_settings: ClassVar[dict[str, str]] = {
        "article_allow": SITE_ARTICLE_ALLOW,
        "article_deny": SITE_ARTICLE_DENY,
        "listing_allow": SITE_LISTING_ALLOW,
        "listing_deny": SITE_LISTING_DENY,
    }

    def __init__(
        self,
        *args: Any,
        article_allow: str | None = None,
        article_deny: str | None = None,
        listing_allow: str | None = None,
        listing_deny: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rules = UrlRules(
            parse_pattern(self.argument_label("article_allow"), article_allow),
            parse_pattern(self.argument_label("article_deny"), article_deny),
            parse_pattern(self.argument_label("listing_allow"), listing_allow),
            parse_pattern(self.argument_label("listing_deny"), listing_deny),
        )
        self.hosts = sorted({site_host(u) for u in self.start_urls})
        # OffsiteMiddleware keeps redirects and stray requests on these sites.
        self.allowed_domains = list(self.hosts)
        #: Requests for links found on article pages: issued, and how many were articles.
        self.related = {"issued": 0, "articles": 0}

    def add_site(self, host: str) -> None:
        """Crawl this site too (a seed from a shared crawl's Redis list, or a request that
        descends from one that another worker took)."""
        if host and host not in self.hosts:
            self.hosts = sorted({*self.hosts, host})
            self.allowed_domains.append(host)

    def start_requests_for(self, urls: list[str]) -> Iterator[Request]:
        for url in urls:
            site = site_host(url)
            self.add_site(site)
            request = self.page_request(
                url,
                self.parse_listing,
                cb_kwargs={"depth": 0, "page": 1, "start": True},
                meta={META_SITE: site},
            )
            if request is not None:
                yield request

    def parse_listing(
        self,
        response: Response,
        depth: int,
        page: int,
        start: bool = False,
        uncertain: bool = False,
    ) -> Iterator[Any]:
        """A home, section, tag or author page: queue its articles and further listings.

        @demo_page /en/city/
        @cb_kwargs {"depth": 0, "page": 1, "start": true}
        @returns items 0 0
        @returns requests 4

        ``uncertain``: reached through a headline-like link. Read as a listing all the same,
        such a page is most often an article the content test takes for a listing (long link
        lists around a short text): its links are followed as an article's are.
        """
        if not isinstance(response, TextResponse):
            return
        if uncertain and page == 1 and not self._reads_as_article(response):
            self._count("uncertain_listing_count")
            yield from self._follow(response, depth, 1, listings=False)
            return
        if not start and page == 1 and self._reads_as_article(response):
            # A headline link the classifier took for a section: report the article here.
            self._count("listing_was_article_count")
            if not self.take("articles"):
                return
            yield PageItem.from_response(response)
            yield from self._follow(response, depth, 1, listings=False)
            return
        self._count("listing_count")
        yield from self._follow(response, depth, page)

    def _reads_as_article(self, response: TextResponse) -> bool:
        if not self.rules.may_be_article(response.url):
            return False
        raw_type = response.headers.get(b"Content-Type")
        verdict = score_page(
            response.body, raw_type.decode("latin-1") if raw_type else None, response.encoding
        )
        # Not `keep`: the filter keeps doubtful pages for the pipeline to judge; a listing
        # read as an article would end the crawl's descent here.
        return verdict.article_shaped

    def parse_article(self, response: Response, hints: dict[str, Any]) -> Iterator[Any]:
        """The article's page for the pipeline, then its related links as article requests.

        @demo_page /en/city/2026/02/08/night-buses-return-to-the-harbor-district/
        @cb_kwargs {"hints": {}}
        @returns items 1 1
        @returns requests 1
        @scrapes url body status
        """
        if response.meta.get(_FROM_ARTICLE):
            self.related["articles"] += 1
        yield from super().parse_article(response, hints)
        # Related and "most read" links on articles find stories no listing shows any more.
        depth = int(response.meta.get("site_depth", 0))
        if isinstance(response, TextResponse):
            yield from self._follow(response, depth, 1, listings=False)

    def _multipage(self) -> bool:
        crawler = getattr(self, "crawler", None)
        if crawler is None:
            return False
        return bool(crawler.settings.getbool(MULTIPAGE_ENABLED, DEFAULTS[MULTIPAGE_ENABLED]))

    def _related_allowed(self) -> bool:
        budget = RELATED_PROBE + RELATED_PER_SUCCESS * self.related["articles"]
        return self.related["issued"] < budget

    def _follow(
        self, response: TextResponse, depth: int, page: int, *, listings: bool = True
    ) -> Iterator[Request]:
        if depth >= self.limits["max_depth"]:
            return
        site = response.meta.get(META_SITE)
        # No sites yet only without start URLs (`scrapy check`): the page's own site.
        hosts = self.hosts or [site_host(response.url)]
        # An article's own next pages are joined into it by the pipeline (`multipage`): never
        # fetched as articles of their own.
        joined = not listings and self._multipage()
        for link in classify_links(response.selector.root, response.url, hosts):
            request: Request | None = None
            if joined and page_number(response.url, link.url) is not None:
                self._count("continuation_link_skipped_count")
                continue
            kind = self.rules.kind_of(link)
            if kind is None:
                self._count("rule_skipped_count")
                continue
            if kind is LinkKind.ARTICLE:
                day = date_in_url(link.url)
                if day is not None and is_older(day.isoformat(), self.since):
                    self._count("older_than_since_skipped_count")
                    continue
                if listings:
                    request = self.article_request(
                        link.url, published=None, site_depth=depth + 1, **{META_SITE: site}
                    )
                elif self._related_allowed():
                    meta: dict[str, Any] = {
                        "site_depth": depth + 1,
                        _FROM_ARTICLE: True,
                        META_SITE: site,
                    }
                    request = self.article_request(link.url, None, published=None, **meta)
                    self.related["issued"] += request is not None
                else:
                    self._count("related_link_skipped_count")
            elif not listings:
                continue
            elif kind is LinkKind.PAGINATION:
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
                    cb_kwargs={
                        "depth": depth + 1,
                        "page": 1,
                        "uncertain": looks_like_headline(link),
                    },
                    meta={META_SITE: site},
                )
            if request is not None:
                yield request
