"""Why the extractor chose what it chose: a typed, JSON-serialisable explanation of one page.

`explain` runs `extract` with a `StageRecord` and works out the reasons afterwards from the stages'
results (and, for the metadata sources, from a second parse of the page), so the default
extraction path does no explaining work at all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from newsspider.extraction.api import extract
from newsspider.extraction.article import Article
from newsspider.extraction.assembly import MAX_LINK_DENSITY, BodySelection
from newsspider.extraction.class_words import (
    OVERLAY_TOKENS,
    STRONG_FURNITURE,
    STRONG_NEGATIVE_TOKENS,
    WEAK_NEGATIVE_TOKENS,
    class_meaning,
)
from newsspider.extraction.confidence import (
    CAPPED_TYPES,
    FEATURE_NAMES,
    NON_ARTICLE_CAP,
    PRESENCE_MODEL,
    QUALITY_MODEL,
    LogisticModel,
)
from newsspider.extraction.content_score import score_page
from newsspider.extraction.decoding import decode_html
from newsspider.extraction.jsonld import jsonld_objects
from newsspider.extraction.metadata import PageMetadata
from newsspider.extraction.page_model import PageSegments, Segment
from newsspider.extraction.page_scan import scan_page
from newsspider.extraction.parsing import parse_html
from newsspider.extraction.scoring import ContainerChoice, teaser_blocks
from newsspider.extraction.stages import StageRecord
from newsspider.extraction.trimming import MIN_AUTHOR_NAME, _is_metadata_line
from newsspider.extraction.trimming import _squash as _squash_edge
from newsspider.extraction.visibility import hidden_attributes, hidden_class

#: Block texts are cut to this many characters in the explanation (the body is in the Article).
MAX_BLOCK_TEXT = 2000
#: At most this many blocks are explained (a page of 50,000 menu links needs no more).
MAX_BLOCKS = 3000

# Reason tokens for a block left out of the body: stable, short, documented in docs/explain.md.
REASONS = (
    "furniture",
    "teaser",
    "link-density",
    "caption",
    "headline",
    "trimmed-edge",
    "outside-container",
    "outside-main-region",
    "not-a-post",
    "not-chosen",
)


@dataclass(frozen=True, slots=True)
class BlockExplanation:
    """One text segment of the page, in reading order."""

    index: int
    tag: str
    #: Where it sits: the owner block as ``tag#id.class`` (ids and classes shortened).
    path: str
    text: str
    chars: int
    link_density: float
    #: Its density value (positive: reads like prose; negative: furniture-like).
    value: float
    in_body: bool
    #: One of `REASONS` for a block left out, else None.
    reason: str | None = None
    #: What the reason rests on: the furniture word and the element carrying it, the density...
    detail: str | None = None


@dataclass(frozen=True, slots=True)
class ContainerExplanation:
    """The block whose subtree scored best, and the best block outside it."""

    path: str
    score: float
    runner_up_path: str | None
    runner_up_score: float
    #: "density" (the best-scoring subtree), "thread" (posts of a forum thread) or an algorithm.
    method: str
    #: Blocks joined to the body beside the container (an article split into siblings).
    roots: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Candidate:
    source: str
    value: str
    chosen: bool


@dataclass(frozen=True, slots=True)
class FieldSource:
    """Where one metadata field's value came from, and what else the page offered."""

    field: str
    value: str | None
    source: str | None
    candidates: tuple[Candidate, ...] = ()


@dataclass(frozen=True, slots=True)
class FeatureContribution:
    """One confidence feature: its value and what it adds to each model's log-odds."""

    name: str
    value: float
    presence: float
    quality: float


@dataclass(frozen=True, slots=True)
class ConfidenceExplanation:
    confidence: float
    #: Probability that the page holds an article at all, and that this body is it.
    presence: float
    quality: float
    presence_intercept: float
    quality_intercept: float
    #: The page type capped the confidence (error and login pages).
    capped: bool
    features: tuple[FeatureContribution, ...] = ()


@dataclass(frozen=True, slots=True)
class PageTypeExplanation:
    page_type: str
    #: The measures `classify_page` decided on, by name.
    evidence: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why `extract` returned what it did for one page. `to_dict` is plain JSON."""

    url: str | None
    blocks: tuple[BlockExplanation, ...]
    container: ContainerExplanation | None
    metadata: tuple[FieldSource, ...]
    confidence: ConfidenceExplanation | None
    page_type: PageTypeExplanation
    #: The crawl's cheap content filter (`score_page`) on the same page: keep, reason, stats.
    content_filter: Mapping[str, Any]
    warnings: tuple[str, ...] = ()
    #: Blocks past `MAX_BLOCKS` that are not listed.
    blocks_left_out: int = 0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = _plain(asdict(self))
        return data

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Explanation:
        container = data.get("container")
        confidence = data.get("confidence")
        return cls(
            url=data.get("url"),
            blocks=tuple(BlockExplanation(**b) for b in data.get("blocks", ())),
            container=(
                ContainerExplanation(**{**container, "roots": tuple(container.get("roots", ()))})
                if container
                else None
            ),
            metadata=tuple(
                FieldSource(
                    **{**m, "candidates": tuple(Candidate(**c) for c in m.get("candidates", ()))}
                )
                for m in data.get("metadata", ())
            ),
            confidence=(
                ConfidenceExplanation(
                    **{
                        **confidence,
                        "features": tuple(
                            FeatureContribution(**f) for f in confidence.get("features", ())
                        ),
                    }
                )
                if confidence
                else None
            ),
            page_type=PageTypeExplanation(**data["page_type"]),
            content_filter=dict(data.get("content_filter", {})),
            warnings=tuple(data.get("warnings", ())),
            blocks_left_out=int(data.get("blocks_left_out", 0)),
        )


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def explain(
    html: bytes | str,
    url: str | None = None,
    encoding: str | None = None,
    *,
    reference_time: datetime | None = None,
    hints: Mapping[str, Any] | None = None,
    content_type: str | None = None,
) -> tuple[Article, Explanation]:
    """Extract one page and say why: the `Article` exactly as `extract` gives it, and its
    `Explanation`. Never raises on page content (an internal error explains what it can)."""
    record = StageRecord()
    article = extract(
        html, url, encoding, reference_time=reference_time, hints=hints, record=record
    )
    raw = html if isinstance(html, bytes) else html.encode("utf-8")
    verdict = score_page(raw, content_type, encoding).to_dict()
    try:
        source = html if isinstance(html, str) else decode_html(html, encoding).text
        return article, _explanation(article, record, verdict, source)
    except Exception:  # an explanation bug must not hide the article
        return article, Explanation(
            url, (), None, (), None, PageTypeExplanation(article.page_type), verdict,
            (*article.warnings, "explain-failed"),
        )  # fmt: skip


def _explanation(
    article: Article, record: StageRecord, verdict: dict[str, Any], source: str
) -> Explanation:
    page, choice = record.page, record.choice
    blocks: tuple[BlockExplanation, ...] = ()
    left_out = 0
    container = None
    if page is not None:
        blocks, left_out = _blocks(page, choice, record)
        if choice is not None and record.selection is not None:
            container = _container(page, choice, record)
    metadata: tuple[FieldSource, ...] = ()
    if record.metadata is not None:
        metadata = _metadata_sources(source, article, record.metadata)
    return Explanation(
        url=article.url,
        blocks=blocks,
        container=container,
        metadata=metadata,
        confidence=_confidence(article, record.features),
        page_type=_page_type(article, record),
        content_filter=verdict,
        warnings=article.warnings,
        blocks_left_out=left_out,
    )


# --- blocks ---------------------------------------------------------------------------------


def block_path(element: Any) -> str:
    """``tag#id.class1.class2`` for an element, shortened: enough to find it in the page."""
    tag = element.tag if isinstance(element.tag, str) else "?"
    ident = (element.get("id") or "").strip()
    classes = (element.get("class") or "").split()[:3]
    path = tag + (f"#{ident[:40]}" if ident else "")
    return path + "".join(f".{c[:40]}" for c in classes)


_WORD_ORDER = (OVERLAY_TOKENS, STRONG_NEGATIVE_TOKENS, WEAK_NEGATIVE_TOKENS)


def _furniture_word(element: Any) -> str | None:
    """The class/id word, tag or attribute that marks an element as furniture."""
    tag = element.tag if isinstance(element.tag, str) else ""
    if tag in ("nav", "aside", "footer", "menu"):
        return f"the <{tag}> tag"
    if hidden_attributes(element):
        return "hidden (inline style or hidden attribute)"
    classes, ident = element.get("class"), element.get("id")
    if classes and hidden_class(classes):
        return f'hidden by its class="{classes[:60]}"'
    if element.get("aria-modal") == "true" or element.get("role") in ("dialog", "alertdialog"):
        return "a dialog (role or aria-modal)"
    found = class_meaning(classes, ident)[3]
    # The word that set the signal first: an overlay word, then a strong one, then a weak one.
    words = [w for group in _WORD_ORDER for w in sorted(found & group)]
    if words:
        word = words[0]
        attr, value = ("class", classes) if classes and word in classes.lower() else ("id", ident)
        return f'the word "{word}" in {attr}="{(value or "")[:60]}"'
    return None


def _furniture_origin(
    page: PageSegments, labelled: list[bool], owner: int, stop: int, level: int
) -> str:
    """Which block at or above `owner` (not above `stop`) carries a furniture signal at or
    below `level`, and why."""
    block_id = owner
    while block_id >= 0 and block_id >= stop:
        if page.block_signals[block_id] <= level:
            element = page.block_elements[block_id]
            word = _furniture_word(element) or "its class or id"
            where = "" if block_id == owner else f" on the enclosing {block_path(element)}"
            return f"{word}{where}"
        if labelled[block_id]:
            heading = _first_heading_text(page, block_id)
            return f'a section opened by a furniture heading "{heading}"'
        block_id = page.block_parents[block_id]
    return "inherited furniture mark"


def _first_heading_text(page: PageSegments, block_id: int) -> str:
    end = page.block_ends[block_id]
    for index, owner in enumerate(page.segment_owners):
        if block_id <= owner <= end:
            return page.segment(index).text[:60]
    return ""


def _roots(page: PageSegments, selection: BodySelection | None) -> list[int]:
    """The body's top blocks: the container and any siblings joined to it."""
    if selection is None:
        return []
    owners = {page.segment_owners[i] for i in selection.segment_ids}
    parents = page.block_parents
    container = selection.container
    roots = {container}
    for owner in owners:
        block_id = owner
        while block_id >= 0 and parents[block_id] != parents[container]:
            block_id = parents[block_id]
        if block_id >= 0:
            roots.add(block_id)
    return sorted(roots)


def _blocks(
    page: PageSegments, choice: ContainerChoice | None, record: StageRecord
) -> tuple[tuple[BlockExplanation, ...], int]:
    selection = record.selection
    kept = set(selection.segment_ids) if selection else set()
    captions = set(selection.caption_ids) if selection else set()
    untrimmed = set(record.untrimmed.segment_ids) if record.untrimmed else set()
    roots = _roots(page, selection)
    in_roots = [False] * len(page.block_tags)
    for root in roots:
        in_roots[root : page.block_ends[root] + 1] = [True] * (page.block_ends[root] + 1 - root)
    teaser = teaser_blocks(page) if choice is not None else []
    furniture = choice.furniture.blocks if choice is not None else []
    labelled = choice.furniture.labelled if choice is not None else []
    main = next(iter(page.main_regions)) if len(page.main_regions) == 1 else None
    values = choice.values if choice is not None else ()
    count = len(page.segment_owners)
    explained = []
    for index in range(min(count, MAX_BLOCKS)):
        owner = page.segment_owners[index]
        chars = page.segment_chars[index]
        density = page.segment_link_chars[index] / chars if chars else 0.0
        value = values[index] if values else 0.0
        reason, detail = None, None
        if index not in kept:
            reason, detail = _drop_reason(
                page, index, owner, density, value,
                labelled=labelled,
                metadata=record.metadata,
                in_roots=bool(roots) and in_roots[owner],
                caption=index in captions or page.block_captions[owner],
                trimmed=index in untrimmed,
                teaser=bool(teaser) and teaser[owner],
                furniture=bool(furniture) and furniture[owner],
                outside_main=main is not None and not main <= owner <= page.block_ends[main],
                thread=record.thread,
                chosen=choice is not None,
                container=selection.container if selection else 0,
            )  # fmt: skip
        explained.append(
            BlockExplanation(
                index=index,
                tag=page.segment_tags[index],
                path=block_path(page.block_elements[owner]),
                text=page.segment(index).text[:MAX_BLOCK_TEXT],
                chars=chars,
                link_density=round(density, 3),
                value=round(value, 2),
                in_body=index in kept,
                reason=reason,
                detail=detail,
            )
        )
    return tuple(explained), max(0, count - MAX_BLOCKS)


def _drop_reason(
    page: PageSegments,
    index: int,
    owner: int,
    density: float,
    value: float,
    *,
    labelled: list[bool],
    metadata: PageMetadata | None,
    in_roots: bool,
    caption: bool,
    trimmed: bool,
    teaser: bool,
    furniture: bool,
    outside_main: bool,
    thread: bool,
    chosen: bool,
    container: int,
) -> tuple[str, str | None]:
    """Why one segment is not in the body: the first of the assembly's tests it failed."""
    if not chosen:
        return "not-chosen", "no container was chosen (or another algorithm ran)"
    if trimmed:
        return "trimmed-edge", _trim_detail(page.segment(index), metadata)
    if page.segment_tags[index] == "h1":
        return "headline", "the h1 is the title field, not body text"
    if caption:
        return "caption", "a figure caption or credit: kept in body_html, not in the text"
    if thread:
        return "not-a-post", "the body is the posts of a forum thread; this is outside them"
    if in_roots:
        if (
            page.block_signals[owner] < 0
            or any(page.block_signals[b] < 0 for b in _ancestors(page, owner, container))
            or labelled[owner]
        ):
            return "furniture", _furniture_origin(page, labelled, owner, container, -1)
        if density > MAX_LINK_DENSITY:
            return (
                "link-density",
                f"{density:.0%} of its text is links (limit {MAX_LINK_DENSITY:.0%})",
            )
        return "furniture", "a box marked as furniture inside the container"
    if furniture:
        return "furniture", _furniture_origin(page, labelled, owner, 0, STRONG_FURNITURE)
    if teaser:
        return "teaser", "part of a stream of linked headlines with summaries (a listing)"
    if outside_main:
        return "outside-main-region", "the page marks its main content (<main>) elsewhere"
    if density > MAX_LINK_DENSITY:
        return "link-density", f"outside the container, and {density:.0%} of it is links"
    return "outside-container", f"value {value:.1f}, outside the chosen container"


def _trim_detail(segment: Segment, metadata: PageMetadata | None) -> str:
    """Which of the edge tests (`trimming.trim_edges`) a trimmed line met."""
    title = metadata.title if metadata else None
    if title and _squash_edge(segment.text) == _squash_edge(title):
        return "at the body's edge, it repeats the headline (the title field)"
    names = [
        a.casefold() for a in (metadata.authors if metadata else ()) if len(a) >= MIN_AUTHOR_NAME
    ]
    if _is_metadata_line(segment, names):
        return "a short edge line with a date, a time or an author (a dateline or byline)"
    return "a short line without sentence punctuation at the body's end (a widget crumb)"


def _ancestors(page: PageSegments, owner: int, stop: int) -> list[int]:
    """The blocks enclosing ``owner``, nearest first, up to (not including) ``stop``."""
    found = []
    block_id = page.block_parents[owner]
    while block_id > stop:
        found.append(block_id)
        block_id = page.block_parents[block_id]
    return found


def _container(
    page: PageSegments, choice: ContainerChoice, record: StageRecord
) -> ContainerExplanation:
    selection = record.selection
    assert selection is not None
    runner_up = _runner_up_block(page, choice)
    roots = _roots(page, selection)
    return ContainerExplanation(
        path=block_path(page.block_elements[selection.container]),
        score=round(choice.subtree_scores[selection.container], 2),
        runner_up_path=block_path(page.block_elements[runner_up])
        if runner_up is not None
        else None,
        runner_up_score=round(choice.runner_up, 2),
        method="thread" if record.thread else "density",
        roots=tuple(block_path(page.block_elements[r]) for r in roots if r != selection.container),
    )


def _runner_up_block(page: PageSegments, choice: ContainerChoice) -> int | None:
    """The best-scoring block outside the chosen subtree and its ancestors (as scoring picks it,
    with furniture excluded)."""
    if choice.runner_up <= 0:
        return None
    ancestors = {choice.block, *_ancestors(page, choice.block, -1)}
    end = page.block_ends[choice.block]
    furniture = choice.furniture.blocks
    best, best_score = None, 0.0
    for block_id, score in enumerate(choice.subtree_scores):
        if block_id in ancestors or choice.block <= block_id <= end:
            continue
        if furniture[block_id]:
            continue
        weighed = score * 1.5 if block_id in page.declared_bodies else score
        if weighed > best_score:
            best, best_score = block_id, weighed
    return best


# --- metadata sources -----------------------------------------------------------------------

_DATE_KEYS = ("datePublished", "dateCreated", "uploadDate", "dateModified")
_META_TITLE = (
    "og:title",
    "twitter:title",
    "headline",
    "dc.title",
    "sailthru.title",
    "parsely-title",
)
_META_AUTHOR = (
    "author",
    "article:author",
    "dc.creator",
    "parsely-author",
    "byl",
    "twitter:creator",
)
_META_LANGUAGE = ("content-language", "og:locale", "dc.language", "language", "inlanguage")
_URL_DATE = re.compile(r"/((?:19|20)\d\d)[/-]?(\d\d)[/-]?(\d\d)?(?:/|-|$)")


def _metadata_sources(
    source: str | bytes, article: Article, metadata: PageMetadata
) -> tuple[FieldSource, ...]:
    """Where the title, date, authors and language came from, by matching the chosen values
    against what a second parse of the page offers (the metadata code itself is untouched)."""
    root = parse_html(source)
    if root is None:
        return ()
    scan = scan_page(root)
    articles, pages, others = jsonld_objects(scan.jsonld)
    titles = _meta_candidates(scan.meta, _META_TITLE, per_key=2)
    titles += [("JSON-LD headline", str(o["headline"])) for o in articles if o.get("headline")]
    if scan.title:
        titles.append(("<title>", scan.title))
    titles += [("<h1>", " ".join(" ".join(h.itertext()).split())) for h in scan.h1s]

    dates: list[tuple[str, str]] = []
    for key, values in scan.meta.items():
        if ("date" in key or "time" in key or "published" in key) and "modified" not in key:
            dates += [(f"meta {key}", v) for v in values[:2]]
    for obj in articles + pages + others:
        dates += [(f"JSON-LD {k}", str(obj[k])) for k in _DATE_KEYS if isinstance(obj.get(k), str)]
    dates += [("<time>", t.get("datetime") or " ".join(t.itertext()).strip()) for t in scan.times]
    if article.url and (m := _URL_DATE.search(article.url)):
        dates.append(("the URL", "-".join(g for g in m.groups() if g)))

    authors: list[tuple[str, str]] = []
    for obj in articles[:2]:
        value = obj.get("author") or obj.get("creator")
        for person in value if isinstance(value, list) else [value]:
            name = person.get("name") if isinstance(person, dict) else person
            if isinstance(name, str):
                authors.append(("JSON-LD author", name))
    authors += _meta_candidates(scan.meta, _META_AUTHOR, per_key=3)

    languages: list[tuple[str, str]] = []
    if root.get("lang"):
        languages.append(("<html lang>", root.get("lang") or ""))
    languages += _meta_candidates(scan.meta, _META_LANGUAGE, per_key=1)

    return (
        _field("title", article.title, titles, _same_text, "visible text or a hint"),
        _field("date", article.date, dates, _same_day, "visible text near the headline or a hint"),
        _field(
            "authors",
            ", ".join(article.authors) or None,
            authors,
            _names_match,
            "a byline near the headline or a hint",
        ),
        _field(
            "language",
            article.language,
            languages,
            _same_language,
            "a guess from the script of the text",
        ),
    )


def _meta_candidates(
    meta: Mapping[str, Sequence[str]], keys: Sequence[str], *, per_key: int
) -> list[tuple[str, str]]:
    """``("meta KEY", value)`` rows for the first ``per_key`` values of each ``<meta>`` key."""
    return [(f"meta {key}", value) for key in keys for value in meta.get(key, ())[:per_key]]


def _field(
    name: str,
    value: str | None,
    offered: Sequence[tuple[str, str]],
    matches: Any,
    fallback: str,
) -> FieldSource:
    candidates = []
    source = None
    seen = set()
    for where, raw in offered[:20]:
        text = " ".join(raw.split())[:300]
        if (where, text) in seen or not text:
            continue
        seen.add((where, text))
        chosen = value is not None and source is None and bool(matches(text, value))
        if chosen:
            source = where
        candidates.append(Candidate(where, text, chosen))
    if value is not None and source is None:
        source = fallback
    return FieldSource(name, value, source, tuple(candidates))


def _squash(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _same_text(raw: str, value: str) -> bool:
    chosen, offered = _squash(value), _squash(raw)
    return bool(chosen) and (chosen == offered or (len(chosen) > 8 and chosen in offered))


def _same_day(raw: str, value: str) -> bool:
    day = value[:10]
    return any(form in raw for form in (day, day.replace("-", "/"), day.replace("-", "")))


def _names_match(raw: str, value: str) -> bool:
    first = _squash(value.split(",", maxsplit=1)[0])
    return bool(first) and first in _squash(raw)


def _same_language(raw: str, value: str) -> bool:
    return raw.strip().lower().replace("_", "-").split("-")[0] == value


# --- confidence and page type ---------------------------------------------------------------


def _contributions(model: LogisticModel, features: Sequence[float]) -> dict[int, float]:
    return {c: w * features[c] for c, w in zip(model.columns, model.weights, strict=True)}


def _confidence(
    article: Article, features: tuple[float, ...] | None
) -> ConfidenceExplanation | None:
    if features is None:
        return None
    presence = _contributions(PRESENCE_MODEL, features)
    quality = _contributions(QUALITY_MODEL, features)
    rows = tuple(
        FeatureContribution(
            name,
            round(features[i], 4),
            round(presence.get(i, 0.0), 4),
            round(quality.get(i, 0.0), 4),
        )
        for i, name in enumerate(FEATURE_NAMES)
    )
    p_presence = PRESENCE_MODEL.probability(features)
    p_quality = QUALITY_MODEL.probability(features)
    return ConfidenceExplanation(
        confidence=article.confidence,
        presence=round(p_presence, 4),
        quality=round(p_quality, 4),
        presence_intercept=PRESENCE_MODEL.intercept,
        quality_intercept=QUALITY_MODEL.intercept,
        capped=article.page_type in CAPPED_TYPES and p_presence * p_quality > NON_ARTICLE_CAP,
        features=rows,
    )


def _page_type(article: Article, record: StageRecord) -> PageTypeExplanation:
    evidence: dict[str, Any] = {}
    if record.signals is not None:
        evidence.update(asdict(record.signals))
    if record.shape is not None:
        shape = record.shape
        evidence.update(
            chars=shape.chars,
            paragraphs=shape.paragraphs,
            body_share=round(shape.body_share, 3),
            page_link_density=round(shape.page_link_density, 3),
            container_link_density=round(shape.container_link_density, 3),
        )
    evidence["structured_data_says_article"] = record.is_article_hint
    if article.warnings:
        evidence["warnings"] = list(article.warnings)
    return PageTypeExplanation(article.page_type, evidence)
