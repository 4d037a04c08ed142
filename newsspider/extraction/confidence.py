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
furniture. The page type is evidence, not a verdict: a thin `<br>`-separated body classified
`listing` or `other` still ranks by its other measures; only `error` and `login` pages, which
say so in their own words, are capped.
Weights live in ``newsspider/models/confidence.json``, written by
``python -m bench.fit_confidence --write`` (logistic regression, label "body F1 >= 0.8", with
chrome-only pages, the article removed, as "no article here"), judged leave one corpus out.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

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
    "short_line_share",
    "date_line_share",
    "cell_share",
    "boxed_share",
    "page_type_listing",
    "page_type_other",
)

MODEL_PATH = Path(str(resources.files("newsspider") / "models" / "confidence.json"))


def _load_weights() -> tuple[float, ...]:
    """Intercept first, then one weight per feature, in FEATURE_NAMES order."""
    model = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    if tuple(model["features"]) != FEATURE_NAMES:
        # A packaging mistake, not page content: say so at import rather than score wrongly.
        raise ValueError(f"{MODEL_PATH} was fitted to other features: refit it")
    return (float(model["intercept"]), *map(float, model["weights"]))


WEIGHTS = _load_weights()
#: Page types that say what they are in their own words (an error message, a sign-in form):
#: whatever their text, it is not an article body.
CAPPED_TYPES = frozenset({"error", "login"})
NON_ARTICLE_CAP = 0.15


def confidence_features(
    shape: BodyShape,
    is_article_hint: bool | None,
    structured_agreement: float | None,
    runner_up_ratio: float,
    page_type: str,
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
        shape.short_line_share,
        shape.date_line_share,
        shape.cell_share,
        shape.boxed_share,
        float(page_type == "listing"),
        float(page_type == "other"),
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


def probability(logit: float, page_type: str) -> float:
    """The logistic of `logit`, capped for page types that are never an article."""
    value = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))
    if page_type in CAPPED_TYPES:
        value = min(value, NON_ARTICLE_CAP)
    return round(value, 4)


def score_confidence(features: tuple[float, ...], page_type: str) -> float:
    logit = WEIGHTS[0] + sum(w * x for w, x in zip(WEIGHTS[1:], features, strict=True))
    return probability(logit, page_type)
