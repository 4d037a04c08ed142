"""URLs from the page or the caller, read without raising."""

from __future__ import annotations

from urllib.parse import SplitResult, urlsplit


def split_url(url: str) -> SplitResult | None:
    """`urllib.parse.urlsplit`, or None for a URL it refuses: an unclosed IPv6 host
    ("http://[::1"), a bracketed host that is no address. A page's own links (its og:image)
    and the caller's URL reach it: one bad URL must not cost the page its metadata."""
    try:
        return urlsplit(url)
    except ValueError:
        return None
