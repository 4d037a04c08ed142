"""URL joining that never raises on page- or feed-supplied text."""

from __future__ import annotations

from urllib.parse import urljoin


def join_url(base: str, link: str) -> str | None:
    """``link`` resolved against ``base``; None when either cannot be parsed as a URL.

    `urllib.parse.urljoin` raises ValueError for an unclosed IPv6 host (``http://[::1``), which
    a hostile or broken feed, sitemap or page can supply in any link or base.
    """
    try:
        return urljoin(base, link)
    except ValueError:
        return None
