"""How far to trust an extraction: a logistic score over a few measures of the result.

The features say whether the body looks like an article's running text (length, paragraphs,
punctuation), whether it agrees with a second opinion on where the page's text is (its overlap
with the lines CETR's smoothed text-to-tag ratio marks dense, computed on the same segments; this
also says whether the body dominates the page's prose, so the plain prose share is no longer a
feature), whether its container is clean (link density), whether the body is one run of text or
stitched around many skipped pieces, whether it is mostly headings, and whether the page's own
metadata agrees (structured data says "article"; JSON-LD ``articleBody`` overlaps the body).
Weights were fitted by ``python -m bench.fit_confidence`` (logistic regression, labels "body F1
>= 0.8") on the development corpora; the features are plain so the weights stay explainable.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from newsspider.extraction.pagetype import BodyShape

FEATURE_NAMES = (
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
)

# Intercept first, then one weight per feature, in FEATURE_NAMES order.
WEIGHTS = (
    0.2601,
    0.1030,
    0.1464,
    -0.0415,
    -2.6978,
    0.4954,
    0.6485,
    -1.1016,
    -1.0777,
    -2.9314,
    3.5052,
)
# Non-article page types are capped: whatever their text, it is not an article body.
NON_ARTICLE_CAP = 0.15


def confidence_features(
    shape: BodyShape,
    is_article_hint: bool | None,
    structured_agreement: float | None,
    runner_up_ratio: float,
) -> tuple[float, ...]:
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
    )


_SAMPLE = 3000


def _squashed(text: str) -> str:
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
    declared = set(_grams(_squashed(declared_body)))
    if not declared:
        return None
    # The body's grams are only looked up, never kept: no second set.
    return len(declared.intersection(_grams(_squashed(body)))) / len(declared)


def score_confidence(features: tuple[float, ...], page_type: str) -> float:
    logit = WEIGHTS[0] + sum(w * x for w, x in zip(WEIGHTS[1:], features, strict=True))
    probability = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))
    if page_type != "article":
        probability = min(probability, NON_ARTICLE_CAP)
    return round(probability, 4)
