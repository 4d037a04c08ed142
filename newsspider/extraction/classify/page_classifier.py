"""What kind of page this is: a multinomial logistic model over `page_features`.

The vocabulary (`LEARNED_TYPES`): ``article`` (news and blog posts), ``thread`` (forum, Q&A and
comment threads), ``listing`` (section, tag, search, home and collection pages), ``product``,
``documentation`` and ``other`` (service and landing pages). The rule-based types that say what
they are in their own words (``error``, ``login``, ``empty``, ``not_html``) are decided before it
(`pagetype.classify_page`, `api`).

Weights live in ``newsspider/models/page_type.json``, written by
``python -m bench.fitting.fit_page_type --write`` (scikit-learn, fitted on the labelled
wceb2026_llm_dev pages, the other development corpora's articles, their article-removed copies
and generated non-articles; judged leave one site out and leave one corpus out:
docs/page-type.md). Inference is a few hundred multiplications in plain Python: no scikit-learn
at run time.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from operator import mul
from pathlib import Path
from typing import Final

from newsspider.extraction.classify.page_features import FEATURE_NAMES

__all__ = [
    "LEARNED_TYPES",
    "MODEL",
    "MODEL_PATH",
    "RULE_TYPES",
    "PageTypeModel",
    "PageTypePrediction",
    "classify_page_type",
]

#: The types the model chooses from, in its output order.
LEARNED_TYPES: Final = ("article", "thread", "listing", "product", "documentation", "other")
#: Types decided by rules before the model (`pagetype.classify_page`): the page says what it is
#: in its own words (an error message, a sign-in form) or has no text; "not_html" is decided
#: before the page is parsed.
RULE_TYPES: Final = frozenset({"error", "login", "empty", "not_html"})

_MODEL_RESOURCE: Final = resources.files("newsspider") / "models" / "page_type.json"
MODEL_PATH: Final = Path(str(_MODEL_RESOURCE))


@dataclass(frozen=True, slots=True)
class PageTypePrediction:
    """The chosen type and every type's probability (in `LEARNED_TYPES` order)."""

    page_type: str
    probabilities: tuple[float, ...]

    @property
    def article_probability(self) -> float:
        return self.probabilities[LEARNED_TYPES.index("article")]

    def likeliest_besides_article(self) -> str:
        """The likeliest type other than "article" (for a page the extractor found no article
        on: `api` types it so whatever P(article) is)."""
        others = range(1, len(LEARNED_TYPES))  # LEARNED_TYPES[0] is "article"
        return LEARNED_TYPES[max(others, key=self.probabilities.__getitem__)]

    def as_dict(self) -> dict[str, float]:
        return {t: round(p, 4) for t, p in zip(LEARNED_TYPES, self.probabilities, strict=True)}


#: Classes the model is fitted with besides `LEARNED_TYPES`, and the type each one reports as:
#: pages around a missing article (its text removed, a wall, a shell) are "other" pages, but
#: look nothing like service and landing pages, so they get a class of their own.
INTERNAL_CLASSES: Final = {"no_article": "other"}


@dataclass(frozen=True, slots=True)
class PageTypeModel:
    """One weight row per class over the raw features (the fit's standardisation folded in:
    w / scale, and the offset b - sum(w * mean / scale)), softmax; ``targets[k]``: the index in
    `LEARNED_TYPES` that class k's probability counts for."""

    weights: tuple[tuple[float, ...], ...]
    offsets: tuple[float, ...]
    targets: tuple[int, ...]
    #: The page is typed "article" when P(article) reaches this, whatever type is likelier: a
    #: real article typed otherwise is lost to the crawl, so the fit chooses the floor that
    #: keeps 98% of every held-out article corpus (`bench.fitting.fit_page_type`).
    article_floor: float = 0.5

    def predict(self, features: tuple[float, ...]) -> PageTypePrediction:
        if len(features) != len(self.weights[0]):
            raise ValueError(f"{len(features)} features for a model of {len(self.weights[0])}")
        # `map(mul, ...)` multiplies in C: a fraction of a generator's cost per weight.
        logits = [
            offset + sum(map(mul, row, features))
            for row, offset in zip(self.weights, self.offsets, strict=True)
        ]
        top = max(logits)
        exps = [math.exp(logit - top) for logit in logits]
        total = sum(exps)
        merged = [0.0] * len(LEARNED_TYPES)
        for target, value in zip(self.targets, exps, strict=True):
            merged[target] += value / total
        if merged[0] >= self.article_floor:  # LEARNED_TYPES[0] is "article"
            return PageTypePrediction("article", tuple(merged))
        best = max(range(len(merged)), key=merged.__getitem__)
        return PageTypePrediction(LEARNED_TYPES[best], tuple(merged))


def load_model(text: str) -> PageTypeModel:
    """The model stored as JSON text (`bench.fitting.fit_page_type` writes it)."""
    stored = json.loads(text)
    classes = [INTERNAL_CLASSES.get(c, c) for c in stored["classes"]]
    if tuple(stored["features"]) != FEATURE_NAMES or not set(classes) <= set(LEARNED_TYPES):
        # A packaging mistake, not page content: say so at import rather than type wrongly.
        raise ValueError(f"{MODEL_PATH} does not match the page features or types: refit it")
    means = [float(m) for m in stored["means"]]
    scales = [float(s) or 1.0 for s in stored["scales"]]
    weights = []
    offsets = []
    for row, intercept in zip(stored["weights"], stored["intercepts"], strict=True):
        folded = tuple(float(w) / s for w, s in zip(row, scales, strict=True))
        weights.append(folded)
        offsets.append(float(intercept) - sum(w * m for w, m in zip(folded, means, strict=True)))
    return PageTypeModel(
        tuple(weights),
        tuple(offsets),
        tuple(LEARNED_TYPES.index(c) for c in classes),
        float(stored.get("article_floor", 0.5)),
    )


def _load() -> PageTypeModel | None:
    try:
        text = _MODEL_RESOURCE.read_text(encoding="utf-8")
    except FileNotFoundError:  # only while `bench.fitting.fit_page_type` fits the first model
        return None
    return load_model(text)


#: The shipped model (None only in a checkout where it was never fitted).
MODEL: Final = _load()


def classify_page_type(features: tuple[float, ...]) -> PageTypePrediction | None:
    """The shipped model's prediction for `page_features.page_type_features` (None: no model)."""
    return MODEL.predict(features) if MODEL is not None else None
