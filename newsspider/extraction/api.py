"""The public entry point `extract`: one page in, one `Article` out, never an exception."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, Final

from newsspider.extraction.article import Article, ArticleImage
from newsspider.extraction.body.article_html import article_html
from newsspider.extraction.body.assembly import BodySelection, body_text, select_body
from newsspider.extraction.body.continuation import head_page_links, story_links
from newsspider.extraction.body.page_content import CONTENT_PAGE_TYPES, content_selection
from newsspider.extraction.body.scoring import ContainerChoice, choose_container
from newsspider.extraction.body.threads import (
    ThreadSelection,
    names_forum_package,
    thread_selection,
)
from newsspider.extraction.body.trimming import trim_edges
from newsspider.extraction.classify.confidence import (
    DROP_THRESHOLD,
    article_presence,
    body_quality,
    combine,
    committee_can_change,
    confidence_features,
    page_evidence,
    structured_agreement,
    with_committee,
)
from newsspider.extraction.classify.page_classifier import (
    RULE_TYPES,
    PageTypePrediction,
    classify_page_type,
)
from newsspider.extraction.classify.page_features import (
    PageControls,
    page_type_features,
    read_controls,
)
from newsspider.extraction.classify.pagetype import (
    BodyShape,
    PageSignals,
    body_shape,
    classify_page,
    no_article_type,
    page_signals,
)
from newsspider.extraction.committee import Committee, run_committee
from newsspider.extraction.common.collector import collector_paused
from newsspider.extraction.metadata.language import page_language
from newsspider.extraction.metadata.reader import PageMetadata, read_metadata
from newsspider.extraction.page.cleaning import clean_tree
from newsspider.extraction.page.noscript import crawler_rendering, source_for_rendering
from newsspider.extraction.page.page_media import PageMedia, read_page_media
from newsspider.extraction.page.page_model import PageSegments
from newsspider.extraction.page.payload import (
    SHELL_MAX_PROSE,
    has_payload_marker,
    payload_thread_html,
    segment_payload,
)
from newsspider.extraction.page.segments import segment_page
from newsspider.extraction.parse.binary import (
    TEXT_SAMPLE,
    binary_signature,
    data_format,
    mostly_not_text,
)
from newsspider.extraction.parse.decoding import DecodedPage, decode_html
from newsspider.extraction.parse.parsing import parse_html, parse_prepared, prepare_markup
from newsspider.extraction.stages import StageRecord
from newsspider.extraction.strategies import STRATEGIES, StrategyInput

logger = logging.getLogger(__name__)

#: Names accepted by `extract(algorithm=...)`: the combined default first, then the methods it
#: grew from (see docs/algorithms/README.md).
ALGORITHMS: Final[tuple[str, ...]] = ("default", *STRATEGIES)
#: Pages are cut to this many bytes before parsing unless the caller says otherwise.
DEFAULT_MAX_BYTES: Final = 20 * 1024 * 1024
#: Characters of the description the confidence's evidence reads.
_EVIDENCE_DESCRIPTION: Final = 400


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


#: Page types whose next page continues the same text (a listing's next page holds others).
_CONTINUED_TYPES: Final = frozenset({"article"})


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
    """The stages, in order; `_Extraction` holds what each one made for the next."""
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
    # The page classifier's walk over the form controls also reads the title and the password
    # fields (what `read_form_signals` reads).
    controls = read_controls(root)
    media = read_page_media(root, url)  # before cleaning strips <head>
    head_links = head_page_links(root)  # cleaning drops the head's <link>s and <meta>s
    forum_page = names_forum_package(root)
    page = _segment(root, url, shell_source, media)
    if (page.prose[0] if page.prose else 0) < SHELL_MAX_PROSE and has_payload_marker(html):
        # A script shell with a thread shipped only as JSON: read from a fresh parse (cleaning
        # dropped the scripts); only such near-empty pages pay for it.
        page = _payload_page(html, used_encoding, page, url) or page
    del shell_source
    run = _Extraction(
        url,
        used_encoding,
        warnings,
        metadata,
        controls=controls,
        page=page,
        explaining=record is not None and record.explain,
    )
    run.media = media
    run.head_links, run.forum_page = head_links, forum_page
    try:
        if not run.choose_body(root, algorithm):
            return _without_body(url, used_encoding, metadata, warnings)
        root = None  # the body is chosen: no later stage reads the tree
        run.classify()
        run.page_content_instead()
        run.learned_type()
        return run.article()
    finally:
        if record is not None:
            run.record(record)


def _payload_page(
    html: bytes | str, encoding: str | None, visible: PageSegments, url: str | None
) -> PageSegments | None:
    """The thread of a forum package's JSON payload (`page.payload`), walked; else None."""
    if isinstance(html, str):
        text = html
    else:
        try:
            text = html.decode(encoding or "utf-8", "replace")
        except LookupError:  # a label Python does not know: the JSON is ASCII in practice
            text = html.decode("utf-8", "replace")
    fresh = parse_html(text)
    rendered = payload_thread_html(fresh) if fresh is not None else None
    return segment_payload(rendered, visible, url) if rendered is not None else None


def _segment(
    root: Any, url: str | None, shell_source: bytes | None, media: PageMedia
) -> PageSegments:
    """The cleaned tree walked into blocks and segments (a script shell: its rendering);
    cleaning reports the video iframes it strips to ``media``."""
    clean_tree(root, media.add_iframe)
    page = segment_page(root, url)
    if shell_source is not None:
        page = crawler_rendering(shell_source, page, url) or page
    return page


class _Extraction:
    """One page's way through the stages after the parse: what each stage made, for the next
    (and for `newsspider.explain`, which gets them in a `StageRecord` at the end).

    Without an explanation to give, each stage lets go of what no later one reads, as soon as
    it can: on a big page its memory is reused by the next stage instead of fresh pages."""

    def __init__(
        self,
        url: str | None,
        encoding: str | None,
        warnings: list[str],
        metadata: PageMetadata,
        *,
        controls: PageControls,
        page: PageSegments,
        explaining: bool,
    ) -> None:
        self.url = url
        self.encoding = encoding
        self.warnings = warnings
        self.metadata = metadata
        self.controls = controls
        # Every password field, hidden ones too, for the rule-based shape type: it feeds the
        # confidence and the page-content body as they were fitted and measured (no body
        # changes); the reported type reads the visible ones only (`learned_type`).
        self.title_text, self.password_fields = controls.title, controls.password_fields
        self.page = page
        self.explaining = explaining
        #: The default algorithm's container choice, kept for `content_selection`.
        self.choice: ContainerChoice | None = None
        self.thread: ThreadSelection | None = None
        #: The body is a thread whose posts a forum package's post template marks
        #: (`ThreadSelection.package`): kept after `thread` is let go, for `learned_type`.
        self.package_thread = False
        self.untrimmed: BodySelection | None = None
        self.selection = BodySelection(-1, ())  # `choose_body` sets it
        self.runner_up_ratio = 1.0
        self.furniture: Sequence[bool] | None = None
        self.text = ""
        self.signals: PageSignals | None = None
        self.shape: BodyShape | None = None
        self.page_type = "other"
        self.agreement: float | None = None
        self.features: tuple[float, ...] | None = None
        self.presence = 0.0
        #: The confidence without the committee (it decides `page_content_instead`), and the
        #: one the record carries (with the committee where it sat).
        self.confidence = 0.0
        self.reported = 0.0
        self.committee: Committee | None = None
        self.committee_used = False
        self.type_features: tuple[float, ...] | None = None
        self.type_prediction: PageTypePrediction | None = None
        #: Set when the page's own content replaced the article-like body.
        self.article_selection: BodySelection | None = None
        #: The base URL and video embeds `article_html` needs (`page_media`).
        self.media: PageMedia | None = None
        #: The head's ``<link rel="next|prev|first">`` and the article's next page and
        #: earlier page with its signal (`continuation`).
        self.head_links: tuple[str | None, str | None, str | None] = (None, None, None)
        #: The page's generator names a forum package (`threads.names_forum_package`).
        self.forum_page = False
        self.next_page: str | None = None
        self.earlier_page: tuple[str, str] | None = None

    def choose_body(self, root: Any, algorithm: str) -> bool:
        """The body: the default algorithm's container (or a forum thread's posts), trimmed at
        its edges, or the named method's. False when there is none."""
        page = self.page
        if algorithm != "default":
            result = STRATEGIES[algorithm](StrategyInput(root, page))
            if result is None:
                return False
            self.selection, self.runner_up_ratio = result.selection, result.runner_up_ratio
            return True
        choice = choose_container(page)
        if choice is None:
            return False
        thread = thread_selection(page, choice, self.forum_page)
        if thread is not None:
            self.selection = thread.selection
        else:
            self.untrimmed = select_body(page, choice)
            metadata = self.metadata
            self.selection = trim_edges(page, self.untrimmed, metadata.title, metadata.authors)
        self.choice, self.thread = choice, thread
        self.package_thread = thread is not None and thread.package
        if thread is None and self.selection.container >= 0:
            container = page.block_elements[self.selection.container]
            self.next_page, self.earlier_page = story_links(
                container, self.url, self.head_links, self.metadata.canonical_url
            )
        self.runner_up_ratio = choice.runner_up / choice.score if choice.score > 0 else 1.0
        self.furniture = choice.furniture.segments
        # The tree stays until `article` writes the HTML from it (`article_html`).
        return True

    def classify(self) -> None:
        """The body's text, the page type and the confidence that an article is there."""
        page, selection, metadata = self.page, self.selection, self.metadata
        text = self.text = body_text(page, selection)
        shape = self.shape = body_shape(
            page, selection.segment_ids, selection.container, self.furniture
        )
        # The first h1 segment's text: `list.index` scans the tags in C (a generator over
        # them compared each tag in compiled code).
        first_h1: str | None = None
        if "h1" in page.segment_tags:
            first_h1 = page.segment(page.segment_tags.index("h1")).text
        signals = self.signals = page_signals(self.title_text, self.password_fields, page, first_h1)
        page_type = self.page_type = classify_page(signals, shape, metadata.is_article_hint)
        agreement = self.agreement = structured_agreement(text, metadata.article_body)
        evidence = page_evidence(
            page,
            selection.segment_ids,
            selection.container,
            text,
            title=metadata.title,
            # Its first characters, as when descriptions were cut there: the confidence was
            # fitted on them.
            description=(
                metadata.description[:_EVIDENCE_DESCRIPTION] if metadata.description else None
            ),
        )
        features = self.features = confidence_features(
            shape,
            metadata.is_article_hint,
            agreement,
            self.runner_up_ratio,
            page_type,
            evidence=evidence,
        )
        # P(an article is present) once: the confidence is it times the body's quality.
        self.presence = article_presence(features) if text else 0.0
        self.confidence = combine(self.presence, body_quality(features), page_type) if text else 0.0
        self.reported = self.confidence
        self.consult_committee()
        posts = len(self.thread.posts) if self.thread is not None else 0
        self.type_features = page_type_features(
            self.url, metadata, self.controls, page, shape, evidence, posts,
            selection.segment_ids, selection.container,
        )  # fmt: skip

    def consult_committee(self) -> None:
        """The committee of seed methods (`committee`) sits only where the confidence
        is in the band where its evidence can move the page across the drop line
        (`committee_can_change`); an explanation always shows it. It changes the confidence
        only: `page_content_instead` reads the confidence without it, so no body changes."""
        used = self.choice is not None and bool(self.text) and committee_can_change(self.confidence)
        if not used and not (self.explaining and self.choice is not None and self.text):
            return
        assert self.features is not None
        committee = self.committee = run_committee(self.page, self.selection)
        self.committee_used = used
        # The models without the committee do not read its features: nothing else changes.
        features = self.features = with_committee(self.features, committee.evidence())
        if used:
            quality = body_quality(features, committee=True)
            self.reported = combine(self.presence, quality, self.page_type)

    def page_content_instead(self) -> None:
        """No article on the page: its body is the page's own content (a listing, a product
        grid); the page type and the article confidence, measured before, say what it is.
        A thread's posts are the page's content already."""
        choice = self.choice
        if (
            choice is not None
            and self.thread is None
            and self.page_type in CONTENT_PAGE_TYPES
            and self.confidence < DROP_THRESHOLD
        ):
            content = content_selection(self.page, choice)
            if content.segment_ids:
                self.article_selection = self.selection
                self.selection, self.text = content, body_text(self.page, content)
                if self.page_type == "empty":
                    assert self.signals is not None and self.shape is not None
                    self.page_type = no_article_type(self.signals, self.shape)
                self.warnings.append("no-article")
                # Not an article, so under the drop line whatever the committee said.
                self.reported = min(self.reported, self.confidence)
        if not self.explaining:
            # Scoring's per-block and per-segment lists are read no more: freed before the
            # HTML is built.
            self.choice = self.thread = self.furniture = None

    def learned_type(self) -> None:
        """The page's type as reported: the learned classifier's (`page_classifier`). The rule
        types stay; the rule-based shape type above feeds only the confidence and the
        page-content body (their fitted inputs)."""
        if self.type_features is None:
            return
        prediction = self.type_prediction = classify_page_type(self.type_features)
        if self.page_type == "login" and self.controls.hidden_password_fields:
            # Typed by the rule for a password field a reader does not see (a sign-in popup
            # kept hidden on a short post): typed again by the visible fields only.
            assert self.signals is not None and self.shape is not None
            controls = self.controls
            shown = controls.password_fields - controls.hidden_password_fields
            visible = replace(self.signals, password_fields=shown)
            self.page_type = classify_page(visible, self.shape, self.metadata.is_article_hint)
        if self.page_type in RULE_TYPES:
            return
        if self.package_thread:
            # A forum package's post template around the posts is the surest thread evidence
            # the page has (structure, not words): a short opening post with a few replies
            # reads like an article to the model, which sees only the page's measures.
            self.page_type = "thread"
            return
        if prediction is None:
            return
        self.page_type = prediction.page_type
        if self.page_type == "article" and self.article_selection is not None:
            # The extractor found no article here (its body is the page's content): the page
            # is typed by its likeliest other type, so the type never says "article" then.
            self.page_type = prediction.likeliest_besides_article()

    def article(self) -> Article:
        """The record: the body, its HTML, what the page is, and its metadata."""
        html, images = article_html(self.page, self.selection, self.media, self.url)
        # Only an article continues on another page: a listing's pages are other stories.
        continued = self.page_type in _CONTINUED_TYPES and self.article_selection is None
        earlier = self.earlier_page
        if not self.explaining:
            self.page.block_elements = []  # with the caller's `root`, the tree goes
        return Article(
            url=self.url,
            body=self.text,
            body_html=html,
            images=tuple(ArticleImage(url, alt, caption) for url, alt, caption in images),
            page_type=self.page_type,
            confidence=self.reported,
            article_probability=self._article_probability(),
            encoding=self.encoding,
            warnings=tuple(self.warnings),
            next_page_url=self.next_page if continued else None,
            earlier_page_url=earlier[0] if continued and earlier is not None else None,
            earlier_page_signal=earlier[1] if continued and earlier is not None else None,
            **_metadata_fields(self.metadata, self.text),
        )

    def _article_probability(self) -> float:
        prediction = self.type_prediction
        if prediction is None or self.page_type in RULE_TYPES:
            return 0.0
        return round(prediction.article_probability, 4)

    def record(self, record: StageRecord) -> None:
        """What the stages made, for `newsspider.explain`; without `StageRecord.explain`,
        only the measures read without an explanation (the stages let go of the rest)."""
        if not self.explaining:
            record.presence = self.presence
            record.page_content = self.article_selection is not None
            return
        record.metadata, record.page = self.metadata, self.page
        if self.shape is None:  # no body: the stages after the walk did not run
            return
        record.choice, record.untrimmed = self.choice, self.untrimmed
        record.thread_posts = self.thread.posts if self.thread is not None else None
        record.selection, record.runner_up_ratio = self.selection, self.runner_up_ratio
        record.page_content = self.article_selection is not None
        record.article_selection = self.article_selection
        record.signals, record.shape, record.features = self.signals, self.shape, self.features
        record.is_article_hint = self.metadata.is_article_hint
        record.structured_agreement = self.agreement
        record.presence = self.presence
        record.committee, record.committee_used = self.committee, self.committee_used
        record.type_features, record.type_prediction = self.type_features, self.type_prediction
        record.package_thread = self.package_thread


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


def _metadata_fields(metadata: PageMetadata, body: str = "") -> dict[str, Any]:
    """The Article fields that come from the page's metadata (the language checked against the
    body's text, or the title's and description's without one)."""
    return {
        "canonical_url": metadata.canonical_url,
        "title": metadata.title,
        "date": metadata.date,
        "date_modified": metadata.date_modified,
        "authors": metadata.authors,
        "language": page_language(metadata.language, (body, metadata.title, metadata.description)),
        "description": metadata.description,
        "site_name": metadata.site_name,
        "image": metadata.image,
        "tags": metadata.tags,
        "section": metadata.section,
        "author_profiles": metadata.author_profiles,
        "date_raw": metadata.date_raw,
        "date_modified_raw": metadata.date_modified_raw,
        "paywalled": metadata.paywalled,
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
