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
at run time. The file may hold boosted trees instead (``"kind": "trees"``, `TreeEnsemble`,
``--learner trees``): measured, they rank pages better but lose at the article floor.
"""

from __future__ import annotations

import json
import math
from array import array
from dataclasses import dataclass
from importlib import resources
from operator import mul
from pathlib import Path
from typing import Any, Final

from newsspider.extraction.classify.page_features import FEATURE_NAMES

__all__ = [
    "LEARNED_TYPES",
    "MODEL",
    "MODEL_PATH",
    "RULE_TYPES",
    "PageTypeModel",
    "PageTypePrediction",
    "TreeEnsemble",
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
class TreeEnsemble:
    """Boosted regression trees in flat arrays (the trees of a scikit-learn gradient-boosting
    classifier, exported by `bench.fitting.fit_page_type`). Node n splits on feature
    ``split_features[n]``: a value at most ``thresholds[n]`` goes to ``lefts[n]``, a larger one
    to ``rights[n]``; a node with ``split_features[n] < 0`` is a leaf worth ``values[n]`` (the
    learning rate folded in). Tree t starts at ``roots[t]`` and adds to class
    ``tree_classes[t]``'s score.

    Hand-written (a few lines) rather than a library: the core must not need scikit-learn or
    NumPy at run time, and mypyc compiles this loop to native comparisons."""

    split_features: tuple[int, ...]
    thresholds: tuple[float, ...]
    lefts: tuple[int, ...]
    rights: tuple[int, ...]
    values: tuple[float, ...]
    roots: tuple[int, ...]
    tree_classes: tuple[int, ...]
    #: scikit-learn's `DecisionTreeRegressor` compares the features as 32-bit floats: so
    #: does this, or a value between a float and its 32-bit rounding would go the other way.
    float32: bool = True

    def add_scores(self, features: tuple[float, ...], scores: list[float]) -> None:
        values = tuple(array("f", features)) if self.float32 else features
        split_features, thresholds = self.split_features, self.thresholds
        lefts, rights, leaf_values = self.lefts, self.rights, self.values
        classes = self.tree_classes
        roots = self.roots
        for tree in range(len(roots)):
            node = roots[tree]
            feature = split_features[node]
            while feature >= 0:
                node = lefts[node] if values[feature] <= thresholds[node] else rights[node]
                feature = split_features[node]
            target = classes[tree]
            scores[target] = scores[target] + leaf_values[node]


@dataclass(frozen=True, slots=True)
class PageTypeModel:
    """One score per class, softmax. The score: ``offsets[k]`` plus the linear row
    ``weights[k]`` over the raw features (a logistic model's standardisation folded in:
    w / scale, and the offset b - sum(w * mean / scale)), or plus the trees' leaves for class k
    (``trees``; then ``weights`` is empty). ``targets[k]``: the index in `LEARNED_TYPES` that
    class k's probability counts for."""

    weights: tuple[tuple[float, ...], ...]
    offsets: tuple[float, ...]
    targets: tuple[int, ...]
    #: The page is typed "article" when P(article) reaches this, whatever type is likelier: a
    #: real article typed otherwise is lost to the crawl, so the fit chooses the floor that
    #: keeps 98% of every held-out article corpus (`bench.fitting.fit_page_type`).
    article_floor: float = 0.5
    trees: TreeEnsemble | None = None
    #: How many features the model reads (`FEATURE_NAMES`).
    width: int = len(FEATURE_NAMES)
    #: The floor by the page's likeliest other type (its *rival*), in `LEARNED_TYPES` order
    #: (the first entry unused); empty: `article_floor` whatever the rival. A page whose rival
    #: is a listing or a product may need a higher P(article) than one whose rival is a manual:
    #: the fit raises each rival's floor as far as 98% of every held-out article corpus stays
    #: typed article or thread (`bench.fitting.fit_page_type`).
    rival_floors: tuple[float, ...] = ()

    def scores(self, features: tuple[float, ...]) -> list[float]:
        """Each class's score (logit) before the softmax."""
        if len(features) != self.width:
            raise ValueError(f"{len(features)} features for a model of {self.width}")
        trees = self.trees
        if trees is not None:
            scores = list(self.offsets)
            trees.add_scores(features, scores)
            return scores
        # `map(mul, ...)` multiplies in C: a fraction of a generator's cost per weight.
        return [
            offset + sum(map(mul, row, features))
            for row, offset in zip(self.weights, self.offsets, strict=True)
        ]

    def predict(self, features: tuple[float, ...]) -> PageTypePrediction:
        logits = self.scores(features)
        top = max(logits)
        exps = [math.exp(logit - top) for logit in logits]
        total = sum(exps)
        merged = [0.0] * len(LEARNED_TYPES)
        for target, value in zip(self.targets, exps, strict=True):
            merged[target] += value / total
        floor = self.article_floor
        if self.rival_floors:
            rival = max(range(1, len(merged)), key=merged.__getitem__)
            floor = self.rival_floors[rival]
        if merged[0] >= floor:  # LEARNED_TYPES[0] is "article"
            return PageTypePrediction("article", tuple(merged))
        best = max(range(len(merged)), key=merged.__getitem__)
        return PageTypePrediction(LEARNED_TYPES[best], tuple(merged))


def _trees(stored: dict[str, Any], width: int) -> TreeEnsemble:
    """The stored trees, checked: every child and split inside the arrays, every tree's
    class a class of the model (a damaged file fails at import, never mid-crawl)."""
    nodes = stored["nodes"]
    split_features = tuple(int(f) for f in nodes["feature"])
    thresholds = tuple(float(t) for t in nodes["threshold"])
    lefts = tuple(int(n) for n in nodes["left"])
    rights = tuple(int(n) for n in nodes["right"])
    values = tuple(float(v) for v in nodes["value"])
    roots = tuple(int(r) for r in stored["roots"])
    tree_classes = tuple(int(c) for c in stored["tree_classes"])
    count = len(split_features)
    if not (len(thresholds) == len(lefts) == len(rights) == len(values) == count):
        raise ValueError(f"{MODEL_PATH}: node arrays of different lengths: refit it")
    if len(roots) != len(tree_classes):
        raise ValueError(f"{MODEL_PATH}: roots and tree classes differ in number: refit it")
    for node in range(count):
        if split_features[node] >= width:
            raise ValueError(f"{MODEL_PATH}: a split on a feature it lacks: refit it")
        # Children come after their node (scikit-learn's depth-first order): no loop.
        if split_features[node] >= 0 and not (
            node < lefts[node] < count and node < rights[node] < count
        ):
            raise ValueError(f"{MODEL_PATH}: a node's child is out of place: refit it")
    if any(not 0 <= root < count for root in roots):
        raise ValueError(f"{MODEL_PATH}: a tree's root is out of place: refit it")
    return TreeEnsemble(
        split_features, thresholds, lefts, rights, values, roots, tree_classes,
        bool(stored.get("float32", True)),
    )  # fmt: skip


def load_model(text: str) -> PageTypeModel:
    """The model stored as JSON text (`bench.fitting.fit_page_type` writes it): a logistic
    model (``"kind": "linear"``, the default) or boosted trees (``"kind": "trees"``)."""
    stored = json.loads(text)
    classes = [INTERNAL_CLASSES.get(c, c) for c in stored["classes"]]
    if tuple(stored["features"]) != FEATURE_NAMES or not set(classes) <= set(LEARNED_TYPES):
        # A packaging mistake, not page content: say so at import rather than type wrongly.
        raise ValueError(f"{MODEL_PATH} does not match the page features or types: refit it")
    targets = tuple(LEARNED_TYPES.index(c) for c in classes)
    floor = float(stored.get("article_floor", 0.5))
    rival_floors = _rival_floors(stored.get("rival_floors"), floor)
    width = len(FEATURE_NAMES)
    if stored.get("kind", "linear") == "trees":
        trees = _trees(stored, width)
        offsets = tuple(float(b) for b in stored["base_scores"])
        if len(offsets) != len(classes) or any(
            not 0 <= c < len(classes) for c in trees.tree_classes
        ):
            raise ValueError(f"{MODEL_PATH}: the trees' classes do not match: refit it")
        return PageTypeModel((), offsets, targets, floor, trees, width, rival_floors)
    means = [float(m) for m in stored["means"]]
    scales = [float(s) or 1.0 for s in stored["scales"]]
    weights = []
    offsets_list = []
    for row, intercept in zip(stored["weights"], stored["intercepts"], strict=True):
        folded = tuple(float(w) / s for w, s in zip(row, scales, strict=True))
        weights.append(folded)
        offsets_list.append(
            float(intercept) - sum(w * m for w, m in zip(folded, means, strict=True))
        )
    return PageTypeModel(
        tuple(weights), tuple(offsets_list), targets, floor, None, width, rival_floors
    )


def _rival_floors(stored: object, floor: float) -> tuple[float, ...]:
    """The stored ``{type: floor}`` by rival type as a tuple in `LEARNED_TYPES` order (a type
    not named keeps ``floor``); none stored: empty, one floor for every rival."""
    if stored is None:
        return ()
    if not isinstance(stored, dict) or not set(stored) <= set(LEARNED_TYPES[1:]):
        raise ValueError(f"{MODEL_PATH}: rival floors name unknown types: refit it")
    floors = (floor, *(float(stored.get(t, floor)) for t in LEARNED_TYPES[1:]))
    if not all(0.0 <= f <= 1.0 for f in floors):
        raise ValueError(f"{MODEL_PATH}: a rival floor outside [0, 1]: refit it")
    return floors


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
