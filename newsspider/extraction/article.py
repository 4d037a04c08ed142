"""The extraction result: an immutable, JSON-friendly article record."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

#: Page types the extractor reports. Anything but "article" means the body is not to be trusted.
PAGE_TYPES = ("article", "listing", "error", "login", "empty", "not_html", "other")


@dataclass(frozen=True, slots=True)
class ArticleImage:
    """One image of the article, in body order (`Article.images`)."""

    #: http(s) URL, absolute when the page's URL is known: the best ``srcset`` candidate,
    #: lazy-load attributes (``data-src``, ``data-srcset``, ...) resolved.
    url: str
    #: The image's ``alt`` text, or None.
    alt: str | None = None
    #: The caption of the figure it is in (its kept ``figcaption``/caption text), or None.
    caption: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {"url": self.url, "alt": self.alt, "caption": self.caption}


@dataclass(frozen=True, slots=True)
class Article:
    """What `newsspider.extract` found on one page.

    Every field is JSON-serialisable as is (strings, numbers, None, tuples of strings) but
    `images`, whose records `to_dict` turns into dicts.
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
    #: The main content as safe HTML, the same text as `body` in the same order: paragraphs,
    #: headings, lists, tables, quotes, code, links (absolute ``href``), figures with their
    #: images (absolute ``src``) and captions, video embeds as links. Nothing executable.
    body_html: str = ""
    #: The article's images in body order: URL, alt text, caption (`ArticleImage`).
    images: tuple[ArticleImage, ...] = ()
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

    @property
    def markdown(self) -> str:
        """The body as Markdown (GitHub-flavoured: tables, fenced code), written from
        `body_html` by `newsspider.extraction.body.markdown.to_markdown`; computed on each read."""
        from newsspider.extraction.body.markdown import to_markdown

        return to_markdown(self.body_html)

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
