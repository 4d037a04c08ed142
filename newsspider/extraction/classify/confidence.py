"""How far to trust an extraction: a logistic score over a few measures of the result.

The features say whether the body looks like an article's running text (length, paragraphs,
punctuation), whether it agrees with a second opinion on where the page's text is (its overlap
with the lines CETR's smoothed text-to-tag ratio marks dense, computed on the same segments; this
also says whether the body dominates the page's prose, so the plain prose share is no longer a
feature), whether its container is clean (link density), whether the body is one run of text or
stitched around many skipped pieces, whether it is mostly headings, and whether the page's own
metadata agrees (structured data says "article"; JSON-LD ``articleBody`` overlaps the body).
The shape of the lines says whether the body is an archive or a thread taken as one article
(many short, dated lines; most text in table cells or list items) or carries boxes marked as
furniture. The rest of the page is a witness too (`page_evidence`): a body that repeats the
page's title and description, near the top, is the page's article; a page whose article was
removed (header, navigation, teasers, footer left) has none of that. The page type is
evidence, not a verdict: a thin `<br>`-separated body classified
`listing` or `other` still ranks by its other measures; only `error` and `login` pages, which
say so in their own words, are capped.
Weights live in ``newsspider/models/confidence.json``, written by
``python -m bench.fitting.fit_confidence --write`` (logistic regression, label
"body F1 >= 0.8", with chrome-only pages, the article removed, as "no article here"), judged
leave one corpus out.
`article_presence` and `body_quality` are the two models alone (stable names: the crawl-time
content filter asks only whether an article is present).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.classify.pagetype import BodyShape
from newsspider.extraction.common.textstats import count_dense_script
from newsspider.extraction.page.page_model import PageSegments

FEATURE_NAMES: Final = (
    "log_chars",
    "paragraphs",
    "punctuation_per_100",
    "container_link_density",
    "article_hint",
    "structured_body_agreement",
    "runner_up_ratio",
    "log_skipped_inside",
    "heading_share",
    "tag_ratio_agreement",
    "short_line_share",
    "date_line_share",
    "cell_share",
    "boxed_share",
    "page_type_listing",
    "page_type_other",
    "title_agreement",
    "description_agreement",
    "body_share",
    "body_link_share",
    "declared_container",
    "body_position",
    "log_segments",
    "short_body",
)

#: Read through importlib.resources, which also works inside a zipped egg (Scrapyd's); the
#: file-system path is for `bench.fitting.fit_confidence --write` in a source checkout.
_MODEL_RESOURCE: Final = resources.files("newsspider") / "models" / "confidence.json"
MODEL_PATH: Final = Path(str(_MODEL_RESOURCE))


@dataclass(frozen=True, slots=True)
class LogisticModel:
    """A logistic model over some of the features (by index into FEATURE_NAMES)."""

    intercept: float
    columns: tuple[int, ...]
    weights: tuple[float, ...]

    def probability(self, features: tuple[float, ...]) -> float:
        logit = self.intercept + sum(
            w * features[c] for c, w in zip(self.columns, self.weights, strict=True)
        )
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))


def _load_models() -> tuple[LogisticModel, LogisticModel]:
    stored = json.loads(_MODEL_RESOURCE.read_text(encoding="utf-8"))
    models = []
    for name in ("article_present", "body_good"):
        model = stored[name]
        unknown = set(model["features"]) - set(FEATURE_NAMES)
        if unknown:
            # A packaging mistake, not page content: say so at import rather than score wrongly.
            raise ValueError(f"{MODEL_PATH} uses unknown features {sorted(unknown)}: refit it")
        models.append(
            LogisticModel(
                float(model["intercept"]),
                tuple(FEATURE_NAMES.index(f) for f in model["features"]),
                tuple(map(float, model["weights"])),
            )
        )
    return models[0], models[1]


#: Two logistic models over the features: is there an article on the page at all (fitted on
#: real pages against chrome-only ones), and is this body the article (body F1 >= 0.8, on real
#: pages). The confidence is their product: each is fitted to its own question, so neither kind
#: of negative swamps the other.
PRESENCE_MODEL, QUALITY_MODEL = _load_models()
#: Page types that say what they are in their own words (an error message, a sign-in form):
#: whatever their text, it is not an article body.
#: The confidence under which a record is not trusted as an article: the pipeline's default
#: drop line (``NEWSSPIDER_MIN_CONFIDENCE``), chosen by the rule in
#: `bench.fitting.fit_confidence.drop_threshold` (the highest 0.05 step losing at most 3% of the
#: good bodies held out; docs/confidence.md). 0.25 until 2026-11-26's fourth sitting, whose final
#: extraction code moved the held-out good bodies under 0.3 from 3.4% to 2.9%.
DROP_THRESHOLD: Final = 0.3
CAPPED_TYPES: Final = frozenset({"error", "login"})
NON_ARTICLE_CAP: Final = 0.15


@dataclass(frozen=True, slots=True)
class PageEvidence:
    """What the rest of the page says about the body: evidence a page without its article
    (header, navigation, teasers, footer left) lacks. Each is cheap, read from what `extract`
    already has: the title and description it read, the page model, the selected segments."""

    #: Share of the title's character grams in the body's opening (None: no usable title;
    #: `text_agreement`).
    title_agreement: float | None = None
    #: The same for the page's meta/og description.
    description_agreement: float | None = None
    #: Share of the body's characters inside links.
    body_link_share: float = 0.0
    #: The container is, holds or sits in an element the page declares as its article or main
    #: content (itemprop="articleBody", <article>, <main>).
    declared_container: bool = False
    #: Where the body starts, as a share of the page's segments (0: at the top).
    body_position: float = 0.0
    #: Body segments.
    segments: int = 0


SHORT_BODY_LOG: Final = math.log1p(500)
_DECLARING_TAGS: Final = frozenset({"article", "main"})


def page_evidence(
    page: PageSegments,
    segment_ids: tuple[int, ...],
    container: int,
    body: str,
    *,
    title: str | None,
    description: str | None,
) -> PageEvidence:
    """The page's own evidence for the body (`PageEvidence`); linear in the body's segments
    plus the declared regions."""
    chars = page.segment_chars
    body_chars = sum(chars[i] for i in segment_ids)
    link_chars = sum(page.segment_link_chars[i] for i in segment_ids)
    end = page.block_ends[container] if 0 <= container < len(page.block_ends) else container
    declared = 0 <= container < len(page.block_tags) and (
        page.block_tags[container] in _DECLARING_TAGS
    )
    if not declared:
        for region in (*page.declared_bodies, *page.main_regions):
            # The container holds the region, or the region holds the container.
            if container <= region <= end or region <= container <= page.block_ends[region]:
                declared = True
                break
    total = len(page.segment_owners)
    opening = _Opening(_squashed(body))
    return PageEvidence(
        title_agreement=opening.agreement(title, 8),
        description_agreement=opening.agreement(description, 30),
        body_link_share=link_chars / body_chars if body_chars else 0.0,
        declared_container=declared,
        body_position=min(segment_ids) / total if segment_ids and total else 0.0,
        segments=len(segment_ids),
    )


def _signed(share: float | None) -> float:
    # Missing evidence is neutral (0); present, it runs from -1 (none found) to 1 (all found).
    return 0.0 if share is None else 2.0 * share - 1.0


def confidence_features(
    shape: BodyShape,
    is_article_hint: bool | None,
    structured_agreement: float | None,
    runner_up_ratio: float,
    page_type: str,
    *,
    evidence: PageEvidence | None = None,
) -> tuple[float, ...]:
    evidence = evidence or PageEvidence()
    punctuation_rate = 100.0 * shape.punctuation / shape.chars if shape.chars else 0.0
    return (
        math.log1p(shape.chars),
        float(min(shape.paragraphs, 12)),
        min(punctuation_rate, 6.0),
        shape.container_link_density,
        0.0 if is_article_hint is None else (1.0 if is_article_hint else -1.0),
        # No articleBody on the page is neutral; a contradicting one is strong evidence.
        0.0 if structured_agreement is None else 2.0 * structured_agreement - 1.0,
        min(runner_up_ratio, 1.5),
        math.log1p(shape.skipped_inside),
        shape.heading_share,
        shape.tag_ratio_agreement,
        shape.short_line_share,
        shape.date_line_share,
        shape.cell_share,
        shape.boxed_share,
        float(page_type == "listing"),
        float(page_type == "other"),
        # Nearly every page has a title; none (a JSON document, plain text) agrees with nothing.
        -1.0 if evidence.title_agreement is None else _signed(evidence.title_agreement),
        _signed(evidence.description_agreement),
        shape.body_share,
        evidence.body_link_share,
        float(evidence.declared_container),
        evidence.body_position,
        math.log1p(evidence.segments),
        # How far under ~500 characters the body is (log scale): below that, good bodies are
        # rare (13 of 596 development pages), a cliff the linear log_chars term cannot draw.
        max(0.0, SHORT_BODY_LOG - math.log1p(shape.chars)),
    )


_SAMPLE: Final = 3000


def _squashed(text: str) -> str:
    squash = SQUASH.active
    if squash is not None:
        return squash(text, _SAMPLE)
    return "".join(text[:_SAMPLE].split()).casefold()


def _grams(squashed: str) -> Iterator[tuple[str, str, str, str]]:
    """The character 4-grams, as tuples: `zip` builds them in C, where a slice per gram costs a
    bytecode loop (the same grams, so the same counts)."""
    return zip(squashed, squashed[1:], squashed[2:], squashed[3:], strict=False)


def structured_agreement(body: str, declared_body: str | None) -> float | None:
    """How much of the page's own JSON-LD ``articleBody`` (its opening) the body contains, as a
    share of character 4-grams: script-independent, and cheap on a bounded sample. None when the
    page declares no usable articleBody."""
    if not declared_body or len(declared_body) < 200:
        return None
    share = GRAM_SHARE.active
    if share is not None:
        distinct, shared = share(_squashed(declared_body), _squashed(body), 4)
        return shared / distinct if distinct else None
    declared = set(_grams(_squashed(declared_body)))
    if not declared:
        return None
    # The body's grams are only looked up, never kept: no second set.
    return len(declared.intersection(_grams(_squashed(body)))) / len(declared)


def text_agreement(body: str, reference: str | None, min_chars: int) -> float | None:
    """Share of ``reference``'s character grams (whitespace removed, case folded) found in the
    body's opening: script-independent, bounded. Grams of 4 characters, of 2 where the reference
    is mostly CJK/kana/hangul (a character there is about a word: a headline's 4-character runs
    seldom recur in its article). None when the reference is missing or shorter than
    ``min_chars`` characters."""
    return _Opening(_squashed(body)).agreement(reference, min_chars)


#: Above this many reference grams, one set of the opening's grams is cheaper than a substring
#: search per gram (a page-controlled description may be long).
_SEARCHES_MAX: Final = 200


class _Opening:
    """The body's opening, squashed once for the title and the description."""

    def __init__(self, opening: str) -> None:
        self.opening = opening

    def agreement(self, reference: str | None, min_chars: int) -> float | None:
        if not reference:
            return None
        squashed = _squashed(reference)
        dense = 2 * count_dense_script(squashed) > len(squashed)
        size, least = (2, min_chars // 2 - 1) if dense else (4, min_chars - 3)
        share = GRAM_SHARE.active
        if share is not None:
            distinct, shared = share(squashed, self.opening, size)
            return shared / distinct if distinct >= max(1, least) else None
        wanted = {squashed[i : i + size] for i in range(len(squashed) - size + 1)}
        if len(wanted) < max(1, least):
            return None
        opening = self.opening
        if len(wanted) > _SEARCHES_MAX:
            found = {opening[i : i + size] for i in range(len(opening) - size + 1)}
            return len(wanted & found) / len(wanted)
        # A substring search per reference gram (C speed) costs less than a set of the
        # opening's ~3000 grams built in Python; the share is the same.
        return sum(gram in opening for gram in wanted) / len(wanted)


# The grams counted in C (`_grams_c.gram_share`), built at install time with a compiler: the
# same (distinct, found) counts as the Python code above, a tenth of its cost.
try:
    from newsspider.extraction.classify import _grams_c
except ImportError:  # not built: the Python code
    _grams_c = None  # type: ignore[assignment]
GRAM_SHARE: Final[CompiledTwin[Callable[[str, str, int], tuple[int, int]]]] = CompiledTwin(
    _grams_c.gram_share if _grams_c is not None else None
)

# The grams' text squashed in C (`_grams_c.squashed`): the same str, without a str a word for
# the split and the join and, for most text, without Python's table lookups to case fold.
SQUASH: Final[CompiledTwin[Callable[[str, int], str]]] = CompiledTwin(
    _grams_c.squashed if _grams_c is not None else None
)


#: Whether the compiled gram counts can run here.
COMPILED_GRAMS_AVAILABLE: Final = GRAM_SHARE.available


def combine(presence: float, quality: float, page_type: str) -> float:
    """The confidence from the two models' probabilities, capped for page types that are
    never an article."""
    value = presence * quality
    if page_type in CAPPED_TYPES:
        value = min(value, NON_ARTICLE_CAP)
    return round(value, 4)


def article_presence(features: tuple[float, ...]) -> float:
    """P(there is an article on this page at all), from `confidence_features`: the presence
    model alone (real pages against chrome-only ones), for callers that ask only that, such as
    the crawl-time content filter. A stable name: the confidence is this times body quality."""
    return PRESENCE_MODEL.probability(features)


def body_quality(features: tuple[float, ...]) -> float:
    """P(this body is the article | there is one): the quality model alone."""
    return QUALITY_MODEL.probability(features)


def score_confidence(features: tuple[float, ...], page_type: str) -> float:
    return combine(article_presence(features), body_quality(features), page_type)
