"""The content filter's full judgement of one page: the cheap verdict, then the extractor's.

`score_page` (text statistics, no tree) settles the certain cases at a fraction of an
extraction's cost: not HTML, no visible text. Every other page is extracted, and kept when the
extractor's presence model (is there an article on this page at all, `confidence.PRESENCE_MODEL`)
says so and the page type is not one that says in its own words that it holds no article. So
the filter and the extractor's page type agree by construction, and the extracted `Article`
goes on to the pipeline instead of being extracted again.

Pure core, no Scrapy: this runs on an extraction worker (thread or process), never on the event
loop.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, Final

from newsspider.extraction.api import extract
from newsspider.extraction.article import Article
from newsspider.extraction.classify.content_score import PageVerdict, Thresholds, score_page
from newsspider.extraction.parse.decoding import usable_encoding
from newsspider.extraction.stages import StageRecord

__all__ = [
    "CERTAIN_REASONS",
    "DEFAULT_MIN_PRESENCE",
    "DEFAULT_PAGE_TYPES",
    "Judgement",
    "judge_page",
    "keep_or_drop",
    "passes_page_type",
    "presence_of",
]

#: `score_page` reasons decided without extraction: the page has no text to extract (binary or
#: non-HTML bytes; no visible text, also with `<noscript>` unwrapped), or says in its own words
#: that it is an error page or a consent wall and has no 250-character run of text. Measured on
#: the development corpora (docs/content-filter.md): none of these drops an article the
#: extractor would keep; "listing", "thin" and "login" did, so they go to the extractor.
CERTAIN_REASONS: Final = frozenset({"not_html", "empty", "soft_404", "consent"})

#: P(an article is present) under which an extracted page is dropped (the setting
#: ``NEWSSPIDER_CONTENT_FILTER_MIN_PRESENCE``): the highest value that loses at most 0.5% of the
#: development articles (docs/content-filter.md).
DEFAULT_MIN_PRESENCE: Final = 0.08

#: The page types that pass by default (``NEWSSPIDER_PAGE_TYPES``): articles and threads
#: (forum, Q&A and comment threads); the pipeline drops every other type the same way.
DEFAULT_PAGE_TYPES: Final = ("article", "thread")

#: Page types that say what they are (the extractor found no body, an error message, a sign-in
#: form, bytes that are not text) and the drop reason each gives. The pipeline never keeps them
#: either: their confidence is 0 or capped below any sensible threshold.
NON_ARTICLE_TYPES: Final = {
    "empty": "no_article",
    "not_html": "not_html",
    "error": "soft_404",
    "login": "login",
}
#: The reason for a page below the presence threshold, by page type (else "no_article").
_LOW_PRESENCE_REASON: Final = {"listing": "listing"}


@dataclass(frozen=True, slots=True)
class Judgement:
    """What the filter decided for one page and what it decided on."""

    keep: bool
    #: A `content_score.REASONS` name, or "no_article"; None when kept.
    reason: str | None
    #: The text-statistics verdict (always computed).
    verdict: PageVerdict
    #: The extraction, when the page was extracted.
    article: Article | None = None
    #: P(an article is present), when the extraction measured it (the default extractor).
    presence: float | None = None
    #: The encoding the extraction was given (`decoding.usable_encoding` of the response's).
    encoding: str | None = None


def presence_of(record: StageRecord) -> float:
    """P(an article is present) of an extraction made with ``record``; 0 when the article-like
    body was empty (a page-content body, `page_content`, does not count as one)."""
    return record.presence


def judge_page(
    body: bytes,
    url: str,
    content_type: str | None,
    response_encoding: str | None,
    *,
    thresholds: Thresholds,
    min_presence: float,
    extract_function: Callable[..., Article] = extract,
    extract_kwargs: Mapping[str, Any] | None = None,
    page_types: Collection[str] = DEFAULT_PAGE_TYPES,
) -> Judgement:
    """Judge one response: `score_page` first; unless its verdict is a certain drop, extract
    (``extract_function(body, url, encoding, **extract_kwargs)``, as the pipeline would) and
    keep the page when P(present) >= ``min_presence`` and the page type is not a non-article
    type. With a custom extraction function, which measures no presence, the page type and the
    text-statistics verdict decide."""
    verdict = score_page(body, content_type, response_encoding, thresholds)
    if not verdict.keep and verdict.reason in CERTAIN_REASONS:
        return Judgement(False, verdict.reason, verdict)
    encoding = usable_encoding(body, response_encoding)
    kwargs = dict(extract_kwargs or {})
    record: StageRecord | None = None
    if extract_function is extract:
        # The presence only: no explanation (the committee on every page, the tree kept until
        # the end) is paid for, and the article is the one `extract` alone makes.
        record = StageRecord(explain=False)
        kwargs["record"] = record
    article = extract_function(body, url, encoding, **kwargs)
    presence = presence_of(record) if record is not None else None
    reason = keep_or_drop(verdict, article, presence, min_presence, page_types)
    return Judgement(reason is None, reason, verdict, article, presence, encoding)


def passes_page_type(article: Article, page_types: Collection[str]) -> bool:
    """The one page-type test of the crawl: the pipeline and the content filter both ask it."""
    return article.page_type in page_types


def keep_or_drop(
    verdict: PageVerdict,
    article: Article,
    presence: float | None,
    min_presence: float,
    page_types: Collection[str] = DEFAULT_PAGE_TYPES,
) -> str | None:
    """The drop reason for an extracted page (None: keep). ``presence`` None: the extraction
    measured none (a custom function), so the text-statistics verdict decides, as it did alone.
    A page whose type is not in ``page_types`` is dropped as "page_type", as the pipeline
    drops it (`passes_page_type`)."""
    if not verdict.keep and verdict.reason in CERTAIN_REASONS:
        return verdict.reason
    if article.page_type in NON_ARTICLE_TYPES:
        return NON_ARTICLE_TYPES[article.page_type]
    if presence is None:
        return verdict.reason or (None if passes_page_type(article, page_types) else "page_type")
    if presence == 0.0:
        # No article-like body at all (the page type was "empty" before the page's content
        # became its body, `page_content`): dropped whatever the threshold.
        return "no_article"
    if presence < min_presence:
        return _LOW_PRESENCE_REASON.get(article.page_type, "no_article")
    if not passes_page_type(article, page_types):
        return "page_type"
    return None
