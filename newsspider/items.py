"""Item classes: `PageItem` (a fetched page, spider -> pipeline) and `ArticleItem` (the record).

Plain dataclasses, so itemadapter and the feed exporters handle them without Scrapy's `Item`.
This module does not import Scrapy: `from_response` only reads response attributes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Any, Final

from newsspider.extraction.article import Article, ArticleImage
from newsspider.extraction.parse.decoding import usable_encoding
from newsspider.settings_defaults import META_HINTS, META_STORY
from newsspider.truncation import response_warnings

__all__ = ["ArticleItem", "PageItem"]

# Request meta keys copied into `PageItem.meta` (all JSON-friendly, all set by Scrapy itself).
_COPIED_META: Final = ("depth", "redirect_urls", "retry_times", META_STORY)


def _now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(slots=True)
class PageItem:
    """A fetched page on its way to `ArticlePipeline`, which replaces it with an `ArticleItem`.

    Yield ``PageItem.from_response(response)`` from an article callback.
    """

    #: The final URL (after redirects).
    url: str
    #: The body bytes exactly as Scrapy holds them (decompressed). Kept out of ``repr`` so that
    #: log lines about the item (drops, errors) stay short.
    body: bytes = field(default=b"", repr=False)
    #: The encoding Scrapy resolved, or None when unknown or when the body does not decode with
    #: it (a lying Content-Type header) so that the extractor sniffs BOM and ``<meta charset>``.
    encoding: str | None = None
    #: The Content-Type header, or None.
    content_type: str | None = None
    #: The HTTP status.
    status: int = 200
    #: When the page was fetched, ISO 8601 UTC: the reference for relative dates.
    fetched_at: str = field(default_factory=_now_iso)
    #: Extraction hints (``title``, ``date``, ``authors`` ...), e.g. from a feed entry.
    hints: dict[str, Any] = field(default_factory=dict)
    #: JSON-friendly crawl details: ``depth``, ``redirect_urls``, ``retry_times`` when known.
    meta: dict[str, Any] = field(default_factory=dict)
    #: Warnings about the fetch (``response-truncated``), added to the article's warnings.
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def from_response(cls, response: Any, **hints: Any) -> PageItem:
        """Build from a Scrapy response. Keyword arguments become extraction hints, on top of
        any in ``response.meta["newsspider_hints"]``."""
        try:
            request_meta: dict[str, Any] = response.meta
        except AttributeError:  # a response not tied to a request (built by hand)
            request_meta = {}
        merged_hints = {**request_meta.get(META_HINTS, {}), **hints}
        body: bytes = response.body
        raw_type = response.headers.get(b"Content-Type")
        content_type = raw_type.decode("latin-1") if raw_type else None
        meta: dict[str, Any] = {k: request_meta[k] for k in _COPIED_META if k in request_meta}
        request = getattr(response, "request", None)
        if request is not None and request.priority:
            meta["priority"] = request.priority  # a multi-page story's next pages get it too
        return cls(
            url=response.url,
            body=body,
            encoding=usable_encoding(body, getattr(response, "encoding", None)),
            content_type=content_type,
            status=response.status,
            hints=merged_hints,
            meta=meta,
            warnings=response_warnings(response),
        )

    def crawl_context(self) -> dict[str, Any]:
        """What the exported record keeps of the fetch: ``status``, the copied request meta
        (``depth``, ``redirect_urls``, ``retry_times``) and the hints, when there are any."""
        context: dict[str, Any] = {"status": self.status, **self.meta}
        if self.hints:
            context["hints"] = dict(self.hints)
        return context

    @property
    def reference_time(self) -> datetime | None:
        """`fetched_at` as a datetime: pass it as `extract(..., reference_time=...)`."""
        try:
            return datetime.fromisoformat(self.fetched_at)
        except ValueError:
            return None


#: Characters of ``body``/``body_html`` that `ArticleItem`'s repr shows.
REPR_TEXT_CHARS: Final = 60


def _shortened(text: str) -> str:
    if len(text) <= REPR_TEXT_CHARS:
        return repr(text)
    return f"{text[:REPR_TEXT_CHARS]!r}... ({len(text)} chars)"


@dataclass(slots=True, repr=False)
class ArticleItem:
    """One article record: the `Article` fields plus crawl details. Every value is
    JSON-serialisable; the page's raw HTML is not part of it (``body_html`` is the cleaned
    main content)."""

    url: str | None = None
    title: str | None = None
    body: str = ""
    date: str | None = None
    confidence: float = 0.0
    canonical_url: str | None = None
    body_html: str = ""
    #: The article's images in body order, each ``{"url", "alt", "caption"}``.
    images: list[dict[str, str | None]] = field(default_factory=list)
    #: The body as Markdown (GitHub-flavoured) when ``NEWSSPIDER_MARKDOWN`` is on, else None.
    markdown: str | None = None
    date_modified: str | None = None
    authors: list[str] = field(default_factory=list)
    language: str | None = None
    description: str | None = None
    site_name: str | None = None
    image: str | None = None
    page_type: str = "other"
    article_probability: float = 0.0
    encoding: str | None = None
    warnings: list[str] = field(default_factory=list)
    # --- record metadata (issue 34): additive fields, documented on `Article` ---
    tags: list[str] = field(default_factory=list)
    section: str | None = None
    author_profiles: list[dict[str, str]] = field(default_factory=list)
    date_raw: str | None = None
    date_modified_raw: str | None = None
    paywalled: bool | None = None
    #: The URL of an earlier article of this crawl whose body this one nearly repeats (the
    #: near-duplicate filter in ``flag`` mode, `newsspider.pipelines.NearDuplicatePipeline`).
    duplicate_of: str | None = None
    #: A multi-page story's next page when it was not joined (joining off or stopped early).
    next_page_url: str | None = None
    #: A later page of a multi-page story: an earlier page of it, and what said so (only on
    #: items when joining is off: with it on, such a page gives no item).
    earlier_page_url: str | None = None
    earlier_page_signal: str | None = None
    #: When the page was fetched (ISO 8601 UTC).
    fetched_at: str | None = None
    #: True when kept although below ``NEWSSPIDER_MIN_CONFIDENCE`` (flag mode).
    low_confidence: bool = False
    #: How the page was fetched (`PageItem.crawl_context`): ``status``, and when known
    #: ``depth``, ``redirect_urls``, ``retry_times`` and the extraction ``hints``.
    crawl: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        # Scrapy logs every scraped item with its repr (DEBUG): whole bodies made the log far
        # bigger than the feed. The feed itself keeps the full text.
        values = []
        for f in fields(self):
            value = getattr(self, f.name)
            long_text = f.name in _LONG_TEXT_FIELDS and isinstance(value, str)
            shown = _shortened(value) if long_text else repr(value)
            values.append(f"{f.name}={shown}")
        return f"{type(self).__name__}({', '.join(values)})"

    @classmethod
    def from_article(
        cls, article: Article, page: PageItem | None = None, *, low_confidence: bool = False
    ) -> ArticleItem:
        # Only known fields: a field added to Article must not break crawls (a test asserts that
        # ArticleItem covers every Article field).
        item = cls(**_article_values(article))
        if page is not None:
            item.fetched_at = page.fetched_at
            item.crawl = page.crawl_context()
            if item.url is None:
                item.url = page.url
        item.low_confidence = low_confidence
        return item


def _article_values(article: Article) -> dict[str, Any]:
    """`Article.to_dict()` restricted to the item's fields. Field by field: `to_dict`'s
    `dataclasses.asdict` deep-copies, which costs the event-loop thread more than the rest of
    this conversion; for the plain values an Article holds the result is the same."""
    values: dict[str, Any] = {}
    for name in _COPIED_FIELDS:
        value = getattr(article, name)
        if isinstance(value, tuple):
            # Records (`images`) as their dicts; copies of the dicts (`author_profiles`): the
            # item's values are its own.
            value = [_item_value(v) for v in value]
        elif not isinstance(value, _PLAIN):
            data = article.to_dict()
            return {key: data[key] for key in _COPIED_FIELDS}
        values[name] = value
    return values


def _item_value(value: Any) -> Any:
    """One element of a tuple field as the item holds it: a record as its dict, a dict copied."""
    if isinstance(value, ArticleImage):
        return value.to_dict()
    return dict(value) if isinstance(value, dict) else value


_LONG_TEXT_FIELDS: Final = frozenset({"body", "body_html", "markdown"})
_ITEM_FIELDS: Final = frozenset(f.name for f in fields(ArticleItem))
_COPIED_FIELDS: Final = tuple(name for name in Article.field_names() if name in _ITEM_FIELDS)
#: Values `from_article` copies as they are (immutable); anything else goes through `to_dict`.
_PLAIN: Final = (str, int, float, type(None))
