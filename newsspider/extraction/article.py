"""The extraction result: an immutable, JSON-friendly article record."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

#: Page types the extractor reports: the page classifier's (article ... other; docs/page-type.md),
#: then the rule types. Only "article" and "thread" bodies are an article's or a thread's text.
PAGE_TYPES = (
    "article",
    "thread",
    "listing",
    "product",
    "documentation",
    "other",
    "error",
    "login",
    "empty",
    "not_html",
)


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
    #: ISO 639-1 code: the markup's (``<html lang>``, ``content-language``, ``og:locale``) unless
    #: the text contradicts it; else the text's script (Han, Kana, Hangul, Thai, ...) or the
    #: language identifier (py3langid) on a sample of the body.
    language: str | None = None
    #: Summary from the page's metadata (``description``/``og:description``), whole.
    description: str | None = None
    #: Publisher / site name (``og:site_name``, JSON-LD publisher).
    site_name: str | None = None
    #: Lead image URL (``og:image``, JSON-LD image), made absolute.
    image: str | None = None
    # --- record metadata (issue 34): additive fields ---
    #: Tags: ``article:tag`` and JSON-LD ``keywords``; without them ``news_keywords`` or the
    #: ``keywords`` meta tag. In page order, without repeats.
    tags: tuple[str, ...] = ()
    #: The site section: ``article:section``, JSON-LD ``articleSection``, else the breadcrumb
    #: trail's last entry above the page (JSON-LD ``BreadcrumbList``, breadcrumb markup).
    section: str | None = None
    #: ``{"name", "url"}`` for each author whose profile page the page links (JSON-LD
    #: ``author.url``/``sameAs``, ``rel=author`` and byline links); names as in ``authors``.
    author_profiles: tuple[dict[str, str], ...] = field(default=(), hash=False)
    #: The text the publication date was read from (a meta value, a ``<time>``'s text, a URL).
    date_raw: str | None = None
    #: The text the modification date was read from.
    date_modified_raw: str | None = None
    #: True: the page marks (part of) its content as not free (JSON-LD ``isAccessibleForFree``
    #: false on the article or a ``hasPart``, ``article:content_tier`` locked/metered); False:
    #: marked free; None: not said.
    paywalled: bool | None = None
    #: One of `PAGE_TYPES`.
    page_type: str = "other"
    #: How likely it is that `body` is this page's article text, in [0, 1].
    confidence: float = 0.0
    #: How likely it is that the page is an article (news or blog post), in [0, 1]: the page
    #: classifier's probability for "article" (0 for the rule types: error, login, empty...).
    article_probability: float = 0.0
    #: The character encoding the page was decoded with.
    encoding: str | None = None
    #: Diagnostic notes (e.g. "truncated", "no-body-found", "no-article": the page holds no
    #: article and `body` is its own content); stable short tokens.
    warnings: tuple[str, ...] = field(default=())
    #: The article's next page when it is split over several (``rel="next"``, numbered or
    #: worded page links of the article itself; never a listing's pagination), made absolute.
    next_page_url: str | None = None
    #: When the page is a later page of an article split over several: an earlier page of it
    #: that the page links (the first page where the page says which: ``rel="first"``, the
    #: pager's "1", the canonical URL; else the previous page, ``rel="prev"`` or a
    #: previous-page word), made absolute. Same tests as `next_page_url`, read backwards.
    earlier_page_url: str | None = None
    #: What said so: ``rel_first``, ``page_one_link``, ``rel_prev``, ``previous_link`` or
    #: ``canonical`` (None without `earlier_page_url`).
    earlier_page_signal: str | None = None

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
