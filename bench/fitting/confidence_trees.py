"""Issue 32's confidence experiments: a non-linear quality model, the committee unfitted.

``python -m bench.fitting.confidence_trees --rows F`` (rows saved by
``python -m bench.fitting.fit_confidence --save-rows F``, which carry the committee's agreements
on every page, the learned page type's probabilities and the thread's post count: `Row.extra`).

Every variant is judged exactly as `fit_confidence` judges today's model: leave one group out
over the same rows and groups, the presence model (logistic, `fit_confidence.fit_model`) fitted
on the other groups and left as it is, only the **quality** model varied; the confidence is
presence × quality (`confidence.combine`). Per held-out group: AUROC on its real pages (good body
vs the rest); pooled: ECE over real + article-removed chrome-only pages, the share of good bodies
and of article-removed chrome-only pages under the 0.3 drop line.

Variants (`VARIANTS`): today's logistic model; the issue's unfitted rules (today's confidence
plus, or times, the committee's mean agreement: no fitting, so held-out safe, but not a
probability, so no ECE or drop line); logistic and gradient-boosted trees
(scikit-learn's `HistGradientBoostingClassifier`, small, optionally monotone) over today's
features, with the committee, and with the page type's probabilities and the thread's posts.
Where a variant reads the committee it is judged twice: on every page and where the confidence
without it is in `fit_confidence.COMMITTEE_BAND` (where the committee can sit at run time
within the speed budget).

None of them reached the target or beat today's model without losing good bodies, so none ships
(docs/confidence.md, "Issue 32: a non-linear quality model"). For the day one does,
`export_trees` writes fitted trees as plain JSON and `TreeEnsemble` evaluates them with the
core's tree walk (the page type's `page_classifier.TreeEnsemble`), no scikit-learn or numpy
(`bench/tests/test_confidence_trees.py` checks it against `predict_proba`).
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.ensemble import GradientBoostingClassifier, HistGradientBoostingClassifier

from bench.accuracy.metric import auroc
from bench.fitting.fit_confidence import (
    _PRESENCE,
    _QUALITY,
    COMMITTEE_BAND,
    DROP_BELOW,
    EXTRA_NAMES,
    L2,
    Row,
    _sigmoid,
    ece,
    fit,
    group_weights,
    load_row,
)
from newsspider.extraction.classify import confidence
from newsspider.extraction.classify.confidence import FEATURE_NAMES
from newsspider.extraction.classify.page_classifier import TreeEnsemble as CoreTrees

#: Every column a variant may read: the confidence's features, then `EXTRA_NAMES`.
COLUMNS = (*FEATURE_NAMES, *EXTRA_NAMES)
TODAY = tuple(FEATURE_NAMES[i] for i in _QUALITY)
COMMITTEE = ("committee_agreement",)
PAGE_TYPE = (
    "p_article",
    "p_thread",
    "p_listing",
    "p_product",
    "p_documentation",
    "p_other",
    "log_thread_posts",
)
#: The direction each column may move P(good) in a monotone model (+1 up, -1 down, 0 free):
#: only where the reason is structural, not fitted (more agreement with a second opinion, more
#: of CETR's dense lines, fewer skipped pieces).
MONOTONE = {
    "tag_ratio_agreement": 1,
    "committee_agreement": 1,
    "log_skipped_inside": -1,
    "description_agreement": 1,
    "short_body": -1,
}


@dataclass(frozen=True, slots=True)
class Trees:
    """Small gradient-boosted trees' settings."""

    max_iter: int = 100
    learning_rate: float = 0.05
    max_depth: int = 3
    max_leaf_nodes: int = 8
    min_samples_leaf: int = 20
    l2: float = 1.0
    monotone: bool = False

    def classifier(self, names: Sequence[str]) -> HistGradientBoostingClassifier:
        return HistGradientBoostingClassifier(
            max_iter=self.max_iter,
            learning_rate=self.learning_rate,
            max_depth=self.max_depth,
            max_leaf_nodes=self.max_leaf_nodes,
            min_samples_leaf=self.min_samples_leaf,
            l2_regularization=self.l2,
            early_stopping=False,
            monotonic_cst=[MONOTONE.get(n, 0) for n in names] if self.monotone else None,
            random_state=0,
        )


class _LogisticStart(ClassifierMixin, BaseEstimator):  # type: ignore[misc]
    """Today's logistic quality model (fitted weights over the first columns) as the starting
    point of `GradientBoostingClassifier` (its ``init``): the trees then fit only what the
    straight lines leave."""

    def __init__(self, columns: int = 0, weights: np.ndarray | None = None) -> None:
        self.columns = columns
        self.weights = weights

    def fit(self, xs: np.ndarray, ys: np.ndarray, sample_weight: Any = None) -> _LogisticStart:
        self.classes_ = np.array([0, 1])
        return self

    def predict_proba(self, xs: np.ndarray) -> np.ndarray:
        assert self.weights is not None
        p = _sigmoid(self.weights, xs[:, : self.columns])
        return np.column_stack([1.0 - p, p])


@dataclass(frozen=True, slots=True)
class Correction:
    """A few shallow trees boosted on top of today's logistic model over the variant's first
    ``len(TODAY)`` columns (which must be `TODAY`)."""

    rounds: int = 30
    max_depth: int = 2
    min_samples_leaf: int = 40
    learning_rate: float = 0.05


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    columns: tuple[str, ...]
    #: None: logistic regression (`fit_confidence.fit`); else these trees, or today's model
    #: corrected by trees.
    trees: Trees | Correction | None = None


VARIANTS = (
    Variant("logistic, today's 9", TODAY),
    Variant("logistic, 9 + committee", (*TODAY, *COMMITTEE)),
    Variant("logistic, 9 + page type + posts", (*TODAY, *PAGE_TYPE)),
    Variant("logistic, 9 + committee + page type + posts", (*TODAY, *COMMITTEE, *PAGE_TYPE)),
    Variant("trees, today's 9", TODAY, Trees()),
    Variant("trees, 9 + committee", (*TODAY, *COMMITTEE), Trees()),
    Variant("trees, 9 + page type + posts", (*TODAY, *PAGE_TYPE), Trees()),
    Variant("trees, 9 + committee + page type + posts", (*TODAY, *COMMITTEE, *PAGE_TYPE), Trees()),
    Variant(
        "monotone trees, 9 + committee + page type + posts",
        (*TODAY, *COMMITTEE, *PAGE_TYPE),
        Trees(monotone=True),
    ),
    Variant(
        "trees, all 27 + page type + posts",
        tuple(n for n in COLUMNS if n != "article_probability"),
        Trees(),
    ),
)

#: Smaller trees (the first round's depth-3 trees learnt the groups): boosted stumps (an additive
#: model whose terms need not be straight lines) and depth 2, with larger leaves.
STUMPS = Trees(max_iter=150, learning_rate=0.05, max_depth=1, max_leaf_nodes=2, min_samples_leaf=40)
DEPTH2 = Trees(
    max_iter=60, learning_rate=0.05, max_depth=2, max_leaf_nodes=4, min_samples_leaf=60, l2=10.0
)
SMALL_VARIANTS = (
    VARIANTS[0],
    Variant("stumps, today's 9", TODAY, STUMPS),
    Variant("stumps, 9 + committee", (*TODAY, *COMMITTEE), STUMPS),
    Variant("monotone stumps, 9 + committee", (*TODAY, *COMMITTEE), replace(STUMPS, monotone=True)),
    Variant("stumps, 9 + committee + page type + posts", (*TODAY, *COMMITTEE, *PAGE_TYPE), STUMPS),
    Variant("depth 2, today's 9", TODAY, DEPTH2),
    Variant("depth 2, 9 + committee", (*TODAY, *COMMITTEE), DEPTH2),
    Variant(
        "monotone depth 2, 9 + committee", (*TODAY, *COMMITTEE), replace(DEPTH2, monotone=True)
    ),
)
#: Run third, after the first two sets lost: today's model left as it is, trees fitting only
#: what it leaves.
CORRECTED_VARIANTS = (
    VARIANTS[0],
    Variant("logistic + 30 depth-2 trees, 9", TODAY, Correction()),
    Variant("logistic + 30 depth-2 trees, 9 + committee", (*TODAY, *COMMITTEE), Correction()),
    Variant(
        "logistic + 30 depth-2 trees, 9 + committee + page type + posts",
        (*TODAY, *COMMITTEE, *PAGE_TYPE),
        Correction(),
    ),
    Variant("logistic + 60 stumps, 9 + committee", (*TODAY, *COMMITTEE), Correction(60, 1)),
)
VARIANT_SETS = {"first": VARIANTS, "small": SMALL_VARIANTS, "corrected": CORRECTED_VARIANTS}


def matrix(rows: Sequence[Row]) -> np.ndarray:
    return np.array([(*r.features, *r.extra) for r in rows], dtype=float)


def _index(names: Sequence[str]) -> list[int]:
    return [COLUMNS.index(n) for n in names]


def fit_quality(variant: Variant, xs: np.ndarray, good: np.ndarray, weights: np.ndarray) -> Any:
    cols = _index(variant.columns)
    if variant.trees is None:
        return fit(xs[:, cols], good, L2, weights)
    if isinstance(variant.trees, Correction):
        if variant.columns[: len(TODAY)] != TODAY:
            raise ValueError("a correction starts from today's model: its columns first")
        c = variant.trees
        start = _LogisticStart(len(TODAY), fit(xs[:, _index(TODAY)], good, L2, weights))
        corrected = GradientBoostingClassifier(
            init=start,
            n_estimators=c.rounds,
            max_depth=c.max_depth,
            min_samples_leaf=c.min_samples_leaf,
            learning_rate=c.learning_rate,
            random_state=0,
        )
        corrected.fit(xs[:, cols], good, sample_weight=weights)
        return corrected
    model = variant.trees.classifier(variant.columns)
    model.fit(xs[:, cols], good, sample_weight=weights)
    return model


def quality_of(variant: Variant, model: Any, xs: np.ndarray) -> np.ndarray:
    cols = _index(variant.columns)
    if variant.trees is None:
        return _sigmoid(model, xs[:, cols])
    return np.asarray(model.predict_proba(xs[:, cols])[:, 1])


def _combine(presence: np.ndarray, quality: np.ndarray, rows: Sequence[Row]) -> np.ndarray:
    return np.array(
        [
            confidence.combine(float(p), float(q), r.page_type)
            for p, q, r in zip(presence, quality, rows, strict=True)
        ]
    )


@dataclass(slots=True)
class Scores:
    """One way of scoring: held-out confidence per row (NaN until filled); ``probability``:
    whether it is one (ECE and the drop line make sense)."""

    name: str
    values: np.ndarray
    probability: bool = True


def loco(rows: Sequence[Row], variants: Sequence[Variant]) -> list[Scores]:
    """Every variant's held-out confidences (leave one group out), plus the unfitted rules."""
    xs = matrix(rows)
    groups = sorted({r.group for r in rows})
    fitted = [r for r in rows if not r.chrome or r.article_removed]
    fitted_index = [i for i, r in enumerate(rows) if not r.chrome or r.article_removed]
    committee_col = COLUMNS.index("committee_agreement")
    out: dict[str, Scores] = {}

    def slot(name: str, probability: bool = True) -> np.ndarray:
        if name not in out:
            out[name] = Scores(name, np.full(len(rows), np.nan), probability)
        return out[name].values

    for group in groups:
        train = [i for i, r in zip(fitted_index, fitted, strict=True) if r.group != group]
        test = [i for i, r in enumerate(rows) if r.group == group]
        train_rows = [rows[i] for i in train]
        present = np.array([0.0 if r.chrome else 1.0 for r in train_rows])
        presence_w = fit(
            xs[train][:, _PRESENCE], present, L2, group_weights([r.group for r in train_rows])
        )
        real_train = [i for i in train if not rows[i].chrome]
        good = np.array([float(rows[i].good) for i in real_train])
        weights = group_weights([rows[i].group for i in real_train])
        test_rows = [rows[i] for i in test]
        presence = _sigmoid(presence_w, xs[test][:, _PRESENCE])
        base: np.ndarray | None = None
        for variant in variants:
            model = fit_quality(variant, xs[real_train], good, weights)
            scored = _combine(presence, quality_of(variant, model, xs[test]), test_rows)
            slot(variant.name)[test] = scored
            if base is None:
                base = scored  # the first variant is today's model
            elif "committee_agreement" in variant.columns:
                low, high = COMMITTEE_BAND
                in_band = (base >= low) & (base < high)
                slot(f"{variant.name}, in band")[test] = np.where(in_band, scored, base)
        assert base is not None
        agreement = xs[test, committee_col]
        slot("unfitted: today + committee agreement", False)[test] = base + agreement
        slot("unfitted: today × committee agreement", False)[test] = base * agreement
    first = out.pop(variants[0].name)
    return [first, *out.values()]


def report(rows: Sequence[Row], scores: Sequence[Scores]) -> list[str]:
    groups = sorted({r.group for r in rows})
    real = {g: [i for i, r in enumerate(rows) if r.group == g and not r.chrome] for g in groups}
    labels = {g: [rows[i].good for i in real[g]] for g in groups}
    short = {g: g.replace("wceb2026_llm_dev", "wceb")[:18] for g in groups}
    scored_groups = [g for g in groups if 0 < sum(labels[g]) < len(labels[g])]
    head = f"{'variant':58s} " + " ".join(f"{short[g]:>18s}" for g in scored_groups)
    head += f" {'min':>6s} {'ECE':>6s} {'ECE real':>8s} {'good<0.3':>8s} {'chrome<0.3':>10s}"
    head += f" {'chrome, same loss':>17s}"
    lines = [head]
    judged = [i for i, r in enumerate(rows) if not r.chrome or r.article_removed]
    good = [i for i, r in enumerate(rows) if r.good]
    chrome = [i for i, r in enumerate(rows) if r.article_removed]
    real_all = [i for i, r in enumerate(rows) if not r.chrome]
    # The rank trade-off, whatever the scale: the share of article-removed chrome-only pages
    # under the cut that loses as many good bodies as the first score (today's) loses at 0.3.
    lost = sum(scores[0].values[i] < DROP_BELOW for i in good)
    for s in scores:
        v = s.values
        per = [auroc([float(v[i]) for i in real[g]], labels[g]) for g in scored_groups]
        cells = " ".join(f"{a:18.3f}" if a is not None else f"{'-':>18s}" for a in per)
        worst = min(a for a in per if a is not None)
        if s.probability:
            error = ece([float(v[i]) for i in judged], [rows[i].good for i in judged])
            error_real = ece([float(v[i]) for i in real_all], [rows[i].good for i in real_all])
            tail = (
                f" {worst:6.3f} {error:6.3f} {error_real:8.3f}"
                f" {sum(v[i] < DROP_BELOW for i in good) / len(good):8.1%}"
                f" {sum(v[i] < DROP_BELOW for i in chrome) / len(chrome):10.1%}"
            )
        else:
            tail = f" {worst:6.3f} {'n/a':>6s} {'n/a':>8s} {'n/a':>8s} {'n/a':>10s}"
        cut = sorted(float(v[i]) for i in good)[lost]
        same_loss = sum(v[i] < cut for i in chrome) / len(chrome)
        lines.append(f"{s.name:58s} {cells}{tail} {same_loss:17.1%}")
    return lines


# --- export -----------------------------------------------------------------------------------


def export_trees(model: HistGradientBoostingClassifier, names: Sequence[str]) -> dict[str, Any]:
    """A fitted binary `HistGradientBoostingClassifier` as plain JSON: the baseline logit and,
    per tree, its nodes as parallel lists (feature name index, threshold, left, right, value;
    a leaf has left -1). P = sigmoid(baseline + sum of the leaves reached), with
    ``x <= threshold`` going left (scikit-learn's rule; the rows have no missing values)."""
    if model.n_trees_per_iteration_ != 1:
        raise ValueError("binary models only")
    trees = []
    # scikit-learn keeps the fitted trees in `_predictors` (no public accessor); the test
    # `tests/test_trees.py` checks the export against `predict_proba` on a generated model.
    for (predictor,) in model._predictors:
        nodes = predictor.nodes
        trees.append(
            {
                "feature": [int(f) for f in nodes["feature_idx"]],
                "threshold": [float(t) for t in nodes["num_threshold"]],
                "left": [
                    int(lf) if not leaf else -1
                    for lf, leaf in zip(nodes["left"], nodes["is_leaf"], strict=True)
                ],
                "right": [int(r) for r in nodes["right"]],
                "value": [float(v) for v in nodes["value"]],
            }
        )
    baseline = float(np.ravel(model._baseline_prediction)[0])
    return {"features": list(names), "baseline": baseline, "trees": trees}


@dataclass(frozen=True, slots=True)
class TreeEnsemble:
    """Boosted trees as `export_trees` stores them, evaluated by the core's tree walk
    (`page_classifier.TreeEnsemble`, one class, float64 comparisons as
    `HistGradientBoostingClassifier` makes them): no second evaluator to keep in step."""

    features: tuple[str, ...]
    baseline: float
    trees: CoreTrees

    @classmethod
    def from_json(cls, stored: dict[str, Any]) -> TreeEnsemble:
        width = len(stored["features"])
        split_features: list[int] = []
        thresholds: list[float] = []
        lefts: list[int] = []
        rights: list[int] = []
        values: list[float] = []
        roots: list[int] = []
        for tree in stored["trees"]:
            feature = [int(f) for f in tree["feature"]]
            left = [int(n) for n in tree["left"]]
            right = [int(n) for n in tree["right"]]
            size = len(feature)
            if not all(len(tree[k]) == size for k in ("threshold", "left", "right", "value")):
                raise ValueError("a tree's node lists differ in length")
            start = len(split_features)
            for node in range(size):
                # Children come after their parent: a walk always ends, at a leaf.
                leaf = left[node] < 0
                if not leaf and not (
                    node < left[node] < size
                    and node < right[node] < size
                    and 0 <= feature[node] < width
                ):
                    raise ValueError(f"node {node} of a tree points outside it")
                split_features.append(-1 if leaf else feature[node])
                lefts.append(-1 if leaf else start + left[node])
                rights.append(-1 if leaf else start + right[node])
            thresholds.extend(map(float, tree["threshold"]))
            values.extend(map(float, tree["value"]))
            roots.append(start)
        core = CoreTrees(
            split_features=tuple(split_features),
            thresholds=tuple(thresholds),
            lefts=tuple(lefts),
            rights=tuple(rights),
            values=tuple(values),
            roots=tuple(roots),
            tree_classes=(0,) * len(roots),
            float32=False,
        )
        return cls(tuple(stored["features"]), float(stored["baseline"]), core)

    def probability(self, values: Sequence[float]) -> float:
        """P(good) for ``values``, one per name in `features`, in that order."""
        if len(values) != len(self.features):
            raise ValueError(f"{len(values)} values for a model of {len(self.features)}")
        logit = [self.baseline]
        self.trees.add_scores(tuple(values), logit)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit[0]))))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--rows", type=Path, required=True, help="rows from fit_confidence --save-rows"
    )
    parser.add_argument("--variants", choices=sorted(VARIANT_SETS), default="first")
    args = parser.parse_args(argv)
    saved = json.loads(args.rows.read_text(encoding="utf-8"))
    rows = [load_row(r) for r in saved]
    if not rows or len(rows[0].extra) != len(EXTRA_NAMES):
        raise SystemExit("these rows carry no page-type evidence: save them again")
    scores = loco(rows, VARIANT_SETS[args.variants])
    print("\n".join(report(rows, scores)))


if __name__ == "__main__":
    main()
