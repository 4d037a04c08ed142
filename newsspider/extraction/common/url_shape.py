"""What a URL's shape says about the page behind it: dates and ids in the path, long slugs,
listing names (tag, category, archive), pages that are neither articles nor listings.

Pure and shared: the site spider's link classifier (`newsspider.spiders._links`) scores links
with it, and the page classifier (`page_features`) reads the page's own URL with it.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Final
from urllib.parse import urlsplit

__all__ = [
    "JUNK_TOKENS",
    "LISTING_TOKENS",
    "NUMERIC_ID",
    "PAGE_EXTENSIONS",
    "PAGINATION_URL",
    "date_in_url",
    "path_segments",
    "url_article_score",
]

_DATE_IN_PATH: Final = re.compile(
    r"(?<!\d)((?:19|20)\d{2})[/_-]?(0[1-9]|1[0-2])[/_-]?(0[1-9]|[12]\d|3[01])(?!\d)"
)
#: Path segments that name a listing.
LISTING_TOKENS: Final = frozenset(
    {
        "tag", "tags", "topic", "topics", "category", "categories", "section", "sections",
        "author", "authors", "archive", "archives", "page", "index", "list", "latest",
        "news", "rubric", "theme",
    }
)  # fmt: skip
#: Segments of pages that are neither articles nor listings.
JUNK_TOKENS: Final = frozenset(
    {
        "about", "contact", "contacts", "privacy", "terms", "login", "logout", "signin",
        "signup", "register", "subscribe", "account", "search", "cart", "shop", "jobs",
        "careers", "advertise", "feed", "rss", "cdn-cgi", "wp-admin", "wp-login.php",
        "share", "print", "help", "faq", "cookies", "legal",
    }
)  # fmt: skip
PAGE_EXTENSIONS: Final = frozenset({"html", "htm", "shtml", "php", "asp", "aspx", "jsp"})
NUMERIC_ID: Final = re.compile(r"(?<![0-9])\d{4,}(?![0-9])")
PAGINATION_URL: Final = re.compile(
    r"(?:/page/\d+/?$|/p/?\d+/?$|[?&](?:page|p|pg|paged|start|offset)=\d+|[_-](?:page|p)?\d{1,3}\.s?html?$)",
    re.IGNORECASE,
)
_WORD_SPLIT: Final = re.compile(r"[-_+.]+")


def date_in_url(url: str) -> date | None:
    """A publication date spelled in the URL path (``/2026/03/05/``, ``/20260305/``), if any."""
    match = _DATE_IN_PATH.search(urlsplit(url).path)
    if not match:
        return None
    try:
        return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None


def path_segments(url: str) -> list[str]:
    return [segment for segment in urlsplit(url).path.split("/") if segment]


def url_article_score(url: str) -> float | None:
    """How much the URL alone looks like an article's (a date, a numeric id, a long slug, a
    page extension, depth; minus a listing name); None for a site root (no path)."""
    segments = path_segments(url)
    if not segments:
        return None
    lowered = [segment.lower() for segment in segments]
    last = lowered[-1]
    stem, _, extension = last.rpartition(".")
    if not stem or extension not in PAGE_EXTENSIONS:
        stem = last
    words = [word for word in _WORD_SPLIT.split(stem) if word]
    score = 0.0
    if date_in_url(url) is not None:
        score += 3.0
    if NUMERIC_ID.search(stem) or (len(lowered) > 1 and NUMERIC_ID.fullmatch(lowered[-2])):
        score += 2.0
    if len(words) >= 4 and len(stem) >= 20:
        score += 2.0
    elif len(words) >= 3:
        score += 1.0
    if extension in PAGE_EXTENSIONS:
        score += 0.5
    score += 0.5 if len(segments) >= 2 else -1.0
    # /tag/x/, /author/x/, /news/: listing names, unless the last segment is itself an item.
    if last in LISTING_TOKENS or (
        len(lowered) > 1 and lowered[-2] in LISTING_TOKENS and not NUMERIC_ID.search(stem)
    ):
        score -= 3.0
    return score
