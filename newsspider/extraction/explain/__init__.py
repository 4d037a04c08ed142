"""Why the extractor chose what it chose: a typed, JSON-serialisable explanation of one page.

`explain` runs `extract` with a `StageRecord` and works out the reasons afterwards from the stages'
results (and, for the metadata sources, from a second parse of the page), so the default
extraction path does no explaining work at all. One module per part of the answer: `blocks`
(each block in or out, the container), `sources` (where each metadata field came from),
`scores` (confidence and page type), `model` (the records).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from newsspider.extraction.api import extract
from newsspider.extraction.article import Article
from newsspider.extraction.classify.content_score import score_page
from newsspider.extraction.explain.blocks import block_path, explain_blocks, explain_container
from newsspider.extraction.explain.model import (
    MAX_BLOCK_TEXT,
    MAX_BLOCKS,
    REASONS,
    BlockExplanation,
    Candidate,
    ConfidenceExplanation,
    ContainerExplanation,
    Explanation,
    FeatureContribution,
    FieldSource,
    PageTypeExplanation,
)
from newsspider.extraction.explain.scores import explain_confidence, explain_page_type
from newsspider.extraction.explain.sources import metadata_sources
from newsspider.extraction.page_judgement import DEFAULT_MIN_PRESENCE, keep_or_drop, presence_of
from newsspider.extraction.parse.decoding import decode_html
from newsspider.extraction.stages import StageRecord

__all__ = [
    "MAX_BLOCKS",
    "MAX_BLOCK_TEXT",
    "REASONS",
    "BlockExplanation",
    "Candidate",
    "ConfidenceExplanation",
    "ContainerExplanation",
    "Explanation",
    "FeatureContribution",
    "FieldSource",
    "PageTypeExplanation",
    "block_path",
    "explain",
]


def explain(
    html: bytes | str,
    url: str | None = None,
    encoding: str | None = None,
    *,
    reference_time: datetime | None = None,
    hints: Mapping[str, Any] | None = None,
    content_type: str | None = None,
    min_presence: float = DEFAULT_MIN_PRESENCE,
) -> tuple[Article, Explanation]:
    """Extract one page and say why: the `Article` exactly as `extract` gives it, and its
    `Explanation`. ``min_presence``: the crawl's content-filter threshold, for its verdict.
    Never raises on page content (an internal error explains what it can)."""
    record = StageRecord()
    article = extract(
        html, url, encoding, reference_time=reference_time, hints=hints, record=record
    )
    raw = html if isinstance(html, bytes) else html.encode("utf-8")
    content_filter = _content_filter(
        raw, content_type, encoding, article, record, min_presence=min_presence
    )
    try:
        source = html if isinstance(html, str) else decode_html(html, encoding).text
        return article, _explanation(article, record, content_filter, source)
    except Exception:  # an explanation bug must not hide the article
        return article, Explanation(
            url, (), None, (), None, PageTypeExplanation(article.page_type), content_filter,
            (*article.warnings, "explain-failed"),
        )  # fmt: skip


def _content_filter(
    raw: bytes,
    content_type: str | None,
    encoding: str | None,
    article: Article,
    record: StageRecord,
    *,
    min_presence: float,
) -> dict[str, Any]:
    """What the crawl's content filter (`page_judgement.judge_page`) decides for this page, from
    this extraction: keep or the drop reason, P(an article is present) against the threshold,
    and the text statistics it settles the certain cases with."""
    verdict = score_page(raw, content_type, encoding)
    presence = presence_of(record)
    reason = keep_or_drop(verdict, article, presence, min_presence)
    return {
        "keep": reason is None,
        "reason": reason,
        "presence": round(presence, 4),
        "min_presence": min_presence,
        "text_statistics": verdict.to_dict(),
    }


def _explanation(
    article: Article, record: StageRecord, content_filter: dict[str, Any], source: str
) -> Explanation:
    page, choice = record.page, record.choice
    blocks: tuple[BlockExplanation, ...] = ()
    left_out = 0
    container = None
    if page is not None:
        blocks, left_out = explain_blocks(page, choice, record)
        if choice is not None and record.selection is not None:
            container = explain_container(page, choice, record)
    metadata: tuple[FieldSource, ...] = ()
    if record.metadata is not None:
        metadata = metadata_sources(source, article, record.metadata)
    return Explanation(
        url=article.url,
        blocks=blocks,
        container=container,
        metadata=metadata,
        confidence=explain_confidence(article, record.features),
        page_type=explain_page_type(article, record),
        content_filter=content_filter,
        warnings=article.warnings,
        blocks_left_out=left_out,
    )
