"""The public entry point `extract`: one page in, one `Article` out, never an exception."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Final

from newsspider.extraction.article import Article
from newsspider.extraction.article_html import article_html
from newsspider.extraction.assembly import body_text, select_body
from newsspider.extraction.binary import (
    TEXT_SAMPLE,
    binary_signature,
    data_format,
    mostly_not_text,
)
from newsspider.extraction.cleaning import clean_tree
from newsspider.extraction.collector import collector_paused
from newsspider.extraction.confidence import (
    DROP_THRESHOLD,
    article_presence,
    body_quality,
    combine,
    confidence_features,
    page_evidence,
    structured_agreement,
)
from newsspider.extraction.decoding import DecodedPage, decode_html
from newsspider.extraction.metadata import PageMetadata, read_metadata
from newsspider.extraction.noscript import crawler_rendering, source_for_rendering
from newsspider.extraction.page_content import CONTENT_PAGE_TYPES, content_selection
from newsspider.extraction.page_media import read_page_media
from newsspider.extraction.pagetype import (
    body_shape,
    classify_page,
    no_article_type,
    page_signals,
    read_form_signals,
)
from newsspider.extraction.parsing import parse_prepared, prepare_markup
from newsspider.extraction.scoring import ContainerChoice, choose_container
from newsspider.extraction.segments import segment_page
from newsspider.extraction.stages import StageRecord
from newsspider.extraction.strategies import STRATEGIES, StrategyInput
from newsspider.extraction.threads import ThreadSelection, thread_selection
from newsspider.extraction.trimming import trim_edges

logger = logging.getLogger(__name__)

#: Names accepted by `extract(algorithm=...)`: the combined default first, then the methods it
#: grew from (see docs/algorithms/README.md).
ALGORITHMS: Final[tuple[str, ...]] = ("default", *STRATEGIES)
#: Pages are cut to this many bytes before parsing unless the caller says otherwise.
DEFAULT_MAX_BYTES: Final = 20 * 1024 * 1024


def extract(
    html: bytes | str,
    url: str | None = None,
    encoding: str | None = None,
    *,
    reference_time: datetime | None = None,
    hints: Mapping[str, Any] | None = None,
    algorithm: str = "default",
    max_bytes: int | None = DEFAULT_MAX_BYTES,
    record: StageRecord | None = None,
) -> Article:
    """Extract the article from one page. Never raises on any page content.

    html: the page, raw bytes (decoded as a browser would) or already-decoded text.
    url: where the page came from; used to resolve links and as date evidence.
    encoding: the encoding the caller knows (HTTP header), tried after a BOM and valid UTF-8.
    reference_time: "now" for relative dates ("3 hours ago"); without it they are ignored.
    hints: metadata from elsewhere (a feed entry, a sitemap): ``title``, ``date``, ``authors``.
    algorithm: one of `ALGORITHMS` (a `ValueError` for any other name: that is a caller bug).
    max_bytes: parse at most this many bytes of the page (None: no limit).
    record: filled with the stages' results when given (`newsspider.explain` reads them).
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose from {', '.join(ALGORITHMS)}")
    try:
        size = len(html) if max_bytes is None else min(len(html), max_bytes)
        with collector_paused(size):
            return _extract(
                html,
                url,
                encoding,
                reference_time=reference_time,
                hints=hints,
                max_bytes=max_bytes,
                algorithm=algorithm,
                record=record,
            )
    except Exception:  # the promise is "never raises": a bug becomes a flagged, empty result
        logger.exception("newsspider: extraction failed for %s", url)
        return Article(url=url, page_type="other", warnings=("internal-error",))


def _extract(
    html: bytes | str,
    url: str | None,
    encoding: str | None,
    *,
    reference_time: datetime | None,
    hints: Mapping[str, Any] | None,
    max_bytes: int | None,
    algorithm: str = "default",
    record: StageRecord | None = None,
) -> Article:
    warnings: list[str] = []
    root, used_encoding, not_text, shell_source = _parse(html, encoding, max_bytes, warnings)
    if not_text is not None:
        return _not_text_article(url, used_encoding, warnings, not_text)
    if root is None:
        return Article(url=url, encoding=used_encoding, page_type="empty", warnings=(*warnings,))

    # Metadata and page signals first: cleaning removes the scripts and forms they read.
    metadata = read_metadata(root, url, reference_time=reference_time, hints=hints)
    if metadata.failed:
        warnings.append("metadata-error")
    title_text, password_fields = read_form_signals(root)
    media = read_page_media(root, url)  # before cleaning strips <head>
    clean_tree(root, media.add_iframe)
    page = segment_page(root, url)
    if shell_source is not None:
        page = crawler_rendering(shell_source, page, url) or page
        del shell_source
    if record is not None:
        record.metadata, record.page = metadata, page
    choice: ContainerChoice | None = None  # the default algorithm's, kept for `content_selection`
    thread: ThreadSelection | None = None
    if algorithm == "default":
        choice = choose_container(page)
        if choice is None:
            return _without_body(url, used_encoding, metadata, warnings)
        thread = thread_selection(page, choice)
        if thread is not None:
            selection = thread.selection
        else:
            untrimmed = select_body(page, choice)
            selection = trim_edges(page, untrimmed, metadata.title, metadata.authors)
            if record is not None:
                record.untrimmed = untrimmed
        if record is not None:
            record.choice = choice
            record.thread_posts = thread.posts if thread is not None else None
        runner_up_ratio = choice.runner_up / choice.score if choice.score > 0 else 1.0
        furniture: Sequence[bool] | None = choice.furniture.segments
        # The tree stays until `body_html` is written from it (`article_html`).
    else:
        result = STRATEGIES[algorithm](StrategyInput(root, page))
        if result is None:
            return _without_body(url, used_encoding, metadata, warnings)
        selection, runner_up_ratio = result.selection, result.runner_up_ratio
        furniture = None
    text = body_text(page, selection)
    shape = body_shape(page, selection.segment_ids, selection.container, furniture)
    first_h1 = next(
        (page.segment(i).text for i, tag in enumerate(page.segment_tags) if tag == "h1"), None
    )
    signals = page_signals(title_text, password_fields, page, first_h1)
    page_type = classify_page(signals, shape, metadata.is_article_hint)
    agreement = structured_agreement(text, metadata.article_body)
    evidence = page_evidence(
        page,
        selection.segment_ids,
        selection.container,
        text,
        title=metadata.title,
        description=metadata.description,
    )
    features = confidence_features(
        shape, metadata.is_article_hint, agreement, runner_up_ratio, page_type, evidence=evidence
    )
    # P(an article is present) once: the confidence is it times the body's quality.
    presence = article_presence(features) if text else 0.0
    confidence = combine(presence, body_quality(features), page_type) if text else 0.0
    if (
        choice is not None
        and thread is None
        and page_type in CONTENT_PAGE_TYPES
        and confidence < DROP_THRESHOLD
    ):
        # No article on the page: its body is the page's own content (a listing, a product
        # grid); the page type and the article confidence, measured above, say what it is.
        # A thread's posts are the page's content already.
        content = content_selection(page, choice)
        if content.segment_ids:
            if record is not None:
                record.page_content, record.article_selection = True, selection
            selection, text = content, body_text(page, content)
            page_type = no_article_type(signals, shape) if page_type == "empty" else page_type
            warnings.append("no-article")
    if record is not None:
        record.selection, record.runner_up_ratio = selection, runner_up_ratio
        record.signals, record.shape, record.features = signals, shape, features
        record.is_article_hint, record.structured_agreement = metadata.is_article_hint, agreement
        record.presence = presence
    # Scoring's per-block and per-segment lists are read no more: freed before the HTML is built.
    choice = thread = furniture = None
    html, images = article_html(page, selection, media, url)
    return Article(
        url=url,
        body=text,
        body_html=html,
        images=images,
        page_type=page_type,
        confidence=confidence,
        encoding=used_encoding,
        warnings=tuple(warnings),
        **_metadata_fields(metadata),
    )


def _parse(
    html: bytes | str, encoding: str | None, max_bytes: int | None, warnings: list[str]
) -> tuple[Any, str | None, str | None, bytes | None]:
    """(the page's tree or None, the encoding used, why it is not text or None, the parsed bytes
    when a script shell may need them again: `noscript.source_for_rendering`).

    The "this is not text" gate comes first: parsed as HTML, binary becomes a body of noise.
    Every other copy of the page (the cut bytes, the decoded text, its UTF-8) dies here, before
    extraction starts: on large pages they would otherwise double the peak memory."""
    if isinstance(html, str):
        data, cut = _utf8_prefix(html, max_bytes)
        reason = _not_text(html[:16].encode("latin-1", "replace"), lambda: html)
        used_encoding = None
    else:
        cut = max_bytes is not None and len(html) > max_bytes
        # Held in lists the closure reads, so both copies can be let go before the parse
        # (a compiled closure's variables cannot be deleted).
        page = [html[:max_bytes] if cut else html]
        decoded: list[DecodedPage] = []

        def decode() -> str:  # only once the page is known not to be a binary format
            decoded.append(decode_html(page[0], encoding))
            return decoded[0].sample(TEXT_SAMPLE)

        reason = _not_text(page[0][:16], decode)
        used_encoding = decoded[0].encoding if decoded else None
        if reason is None:
            # The page as UTF-8 bytes (what the parser reads fastest).
            utf8 = decoded[0].utf8
            data = utf8 if utf8 is not None else _encode(decoded[0].text)
        page.clear()  # the cut copy and the decoded text go before the parse
        decoded.clear()
    if reason is not None:
        warnings.extend(["truncated"] if cut else [])
        return None, used_encoding, reason, None
    # Absurdly dense markup is cut too (`parsing.guard_markup`): memory and time follow elements.
    data, dense = prepare_markup(data)
    if cut or dense:
        warnings.append("truncated")
    return parse_prepared(data), used_encoding, None, source_for_rendering(data)


def _not_text(head: bytes, text: Callable[[], str]) -> str | None:
    """Why the page is not a page ("binary-FORMAT" from its first bytes, "not-text" when its
    ``text()`` is noise, "not-html-FORMAT" for JSON, a feed or a sitemap), or None."""
    signature = binary_signature(head)
    if signature is not None:
        return f"binary-{signature}"
    sample = text()
    if mostly_not_text(sample):
        return "not-text"
    found = data_format(sample)
    return f"not-html-{found}" if found is not None else None


def _encode(text: str) -> bytes:
    # Lone surrogates (possible in a str) become "?": the parser needs valid UTF-8.
    return text.encode("utf-8", errors="replace")


def _utf8_prefix(text: str, max_bytes: int | None) -> tuple[bytes, bool]:
    """(``text`` as UTF-8 cut to ``max_bytes`` bytes, not characters, at a character boundary;
    whether it was cut)."""
    if max_bytes is None:
        return _encode(text), False
    cut_chars = len(text) > max_bytes
    # No more characters than bytes fit: cutting first saves encoding the rest.
    data = _encode(text[:max_bytes] if cut_chars else text)
    if len(data) <= max_bytes:
        return data, cut_chars
    cut = max_bytes
    while cut > 0 and 0x80 <= data[cut] < 0xC0:  # a continuation byte: inside a character
        cut -= 1
    return data[:cut], True


def _metadata_fields(metadata: PageMetadata) -> dict[str, Any]:
    """The Article fields that come straight from the page's metadata."""
    return {
        "canonical_url": metadata.canonical_url,
        "title": metadata.title,
        "date": metadata.date,
        "date_modified": metadata.date_modified,
        "authors": metadata.authors,
        "language": metadata.language,
        "description": metadata.description,
        "site_name": metadata.site_name,
        "image": metadata.image,
    }


def _without_body(
    url: str | None, encoding: str | None, metadata: PageMetadata, warnings: list[str]
) -> Article:
    return Article(
        url=url,
        page_type="empty",
        encoding=encoding,
        warnings=(*warnings, "no-body-found"),
        **_metadata_fields(metadata),
    )


def _not_text_article(
    url: str | None, encoding: str | None, warnings: list[str], why: str
) -> Article:
    """Binary or noise: nothing in it is an article, and the warning token says why."""
    return Article(url=url, page_type="not_html", encoding=encoding, warnings=(*warnings, why))
