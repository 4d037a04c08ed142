"""URLs from the page or the caller, read and joined without raising.

`urllib.parse` raises ValueError for an unclosed IPv6 host (``http://[::1``) and a bracketed
host that is no address; a hostile or broken page, feed or sitemap can put one in any link, base
or meta value, and the caller can pass one as the page's URL. One bad URL must not cost a page
its metadata, nor a feed its items.
"""

from __future__ import annotations

from urllib.parse import SplitResult, urljoin, urlsplit


def split_url(url: str) -> SplitResult | None:
    """`urllib.parse.urlsplit`, or None for a URL it refuses."""
    try:
        return urlsplit(url)
    except ValueError:
        return None


def join_url(base: str, link: str) -> str | None:
    """``link`` resolved against ``base``; None when either cannot be parsed as a URL."""
    try:
        return urljoin(base, link)
    except ValueError:
        return None
