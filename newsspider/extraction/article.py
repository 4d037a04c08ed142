"""The extraction result: an immutable, JSON-friendly article record."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

#: Page types the extractor reports. Anything but "article" means the body is not to be trusted.
PAGE_TYPES = ("article", "listing", "error", "login", "empty", "not_html", "other")


@dataclass(frozen=True, slots=True)
class Article:
    """What `newsspider.extract` found on one page.

    Every field is JSON-serialisable as is (strings, numbers, None, tuples of strings).
    """

    #: The URL the page was fetched from (as passed to `extract`).
    url: str | None = None
    #: The page's own canonical URL (``<link rel=canonical>``, ``og:url``), made absolute.
    canonical_url: str | None = None
    #: The headline, without the " | Site Name" that ``<title>`` usually carries.
    title: str | None = None
    #: Main text: one paragraph per line; headings and list items are lines of their own. On a
    #: page without an article (warning "no-article"), the page's own content.
    body: str = ""
    #: The main content as cleaned HTML: paragraphs, headings, lists, tables, quotes, figures.
    body_html: str = ""
    #: Publication date, ISO 8601 (``YYYY-MM-DD`` or a full datetime with offset), or None.
    date: str | None = None
    #: Last-modified date when the page states one separately, ISO 8601, or None.
    date_modified: str | None = None
    #: Author names, in page order.
    authors: tuple[str, ...] = ()
    #: BCP 47-ish language code from markup (``<html lang>``, ``og:locale``), or a script guess.
    language: str | None = None
    #: Short summary from the page's metadata (``description``/``og:description``).
    description: str | None = None
    #: Publisher / site name (``og:site_name``, JSON-LD publisher).
    site_name: str | None = None
    #: Lead image URL (``og:image``, JSON-LD image), made absolute.
    image: str | None = None
    #: One of `PAGE_TYPES`.
    page_type: str = "other"
    #: How likely it is that `body` is this page's article text, in [0, 1].
    confidence: float = 0.0
    #: The character encoding the page was decoded with.
    encoding: str | None = None
    #: Diagnostic notes (e.g. "truncated", "no-body-found", "no-article": the page holds no
    #: article and `body` is its own content); stable short tokens.
    warnings: tuple[str, ...] = field(default=())
    #: The article's next page when it is split over several (``rel="next"``, numbered or
    #: worded page links of the article itself; never a listing's pagination), made absolute.
    next_page_url: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A plain dict in field order, with tuples as lists, ready for ``json.dumps``."""
        data = asdict(self)
        for key, value in data.items():
            if isinstance(value, tuple):
                data[key] = list(value)
        return data

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))
