"""`SiteScopeMiddleware`: a worker of a shared crawl learns a request's site from the request.

A ``site`` crawl keeps to the sites of its start URLs (``allowed_domains`` and its link
classifier). In a shared crawl a worker downloads requests that descend from seeds another
worker took, so each request carries its site (meta ``newsspider_site``) and this middleware,
before OffsiteMiddleware, adds it to the spider's sites. Redirects keep the meta but not the
host, so a redirect off the site is still refused.
"""

from __future__ import annotations

from typing import Any, Self

from newsspider.settings_defaults import META_SITE


class SiteScopeMiddleware:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        return cls(crawler)

    def process_request(self, request: Any) -> None:
        site = request.meta.get(META_SITE)
        add_site = getattr(self.crawler.spider, "add_site", None)
        if site and add_site is not None:
            add_site(site)
