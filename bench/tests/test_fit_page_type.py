"""The page classifier's tree export (`bench.fitting.fit_page_type.export_trees`): the core's
evaluator (`page_classifier.TreeEnsemble`) gives scikit-learn's predict_proba on made-up rows."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from newsspider.extraction.classify.page_classifier import (
    INTERNAL_CLASSES,
    LEARNED_TYPES,
    load_model,
)
from newsspider.extraction.classify.page_features import FEATURE_NAMES

sklearn_ensemble = pytest.importorskip(
    "sklearn.ensemble", reason="fitting needs scikit-learn: pip install newsspider[fit]"
)


def test_exported_trees_agree_with_predict_proba() -> None:
    from bench.fitting.fit_page_type import export_trees

    rng = np.random.default_rng(7)
    width = len(FEATURE_NAMES)
    xs = rng.normal(size=(400, width))
    # Labels that depend on a few features (and some noise), so the trees split on them.
    score = xs[:, 0] + 0.5 * xs[:, 3] - xs[:, 7] * xs[:, 1]
    classes = np.array(["article", "listing", "no_article", "product"])
    ys = classes[np.digitize(score + 0.3 * rng.normal(size=400), [-1.0, 0.0, 1.0])]
    model = sklearn_ensemble.GradientBoostingClassifier(
        n_estimators=30, max_depth=3, learning_rate=0.2, subsample=0.8, random_state=0
    ).fit(xs, ys)
    shipped = load_model(json.dumps(export_trees(model, None, 0.5)))
    tests = rng.normal(size=(200, width))
    # Values on and next to thresholds too: the 32-bit comparison decides those.
    tests[:20, 0] = model.estimators_[0][0].tree_.threshold[0]
    expected = model.predict_proba(tests)
    for row, probabilities in zip(tests, expected, strict=True):
        got = shipped.predict(tuple(float(v) for v in row)).probabilities
        for name, p in zip(model.classes_, probabilities, strict=True):
            reported = INTERNAL_CLASSES.get(str(name), str(name))
            assert reported in LEARNED_TYPES
            assert got[LEARNED_TYPES.index(reported)] == pytest.approx(float(p), abs=1e-9)


def test_export_refuses_a_two_class_model() -> None:
    from bench.fitting.fit_page_type import export_trees

    xs = np.arange(20, dtype=float).reshape(10, 2)
    model = sklearn_ensemble.GradientBoostingClassifier(n_estimators=2).fit(xs, [0, 1] * 5)
    with pytest.raises(ValueError, match="multiclass"):
        export_trees(model, None, 0.5)


def test_a_blend_is_the_mean_of_its_parts() -> None:
    """`--learner blend` (held out only): both models fitted on the same rows, each row's
    probabilities the mean of theirs, every learned type present and summing to one."""
    from bench.fitting import fit_page_type as fit

    rng = np.random.default_rng(3)
    width = len(FEATURE_NAMES)
    labels = ["article", "listing", "product", "no_article"]
    rows = [
        fit.Row("c", "page", str(k), "https://a.example/", labels[k % 4], "a.example", "en",
                [float(v) + (k % 4) for v in rng.normal(size=width)])
        for k in range(80)
    ]  # fmt: skip
    saved = fit.LEARNER[0], dict(fit.TREES)
    try:
        fit.TREES.update(n_estimators=5)
        parts = []
        for learner in ("linear", "trees", "blend"):
            fit.LEARNER[0] = learner
            parts.append(fit._proba(fit._fit(rows), rows[:10]))
    finally:
        fit.LEARNER[0] = saved[0]
        fit.TREES.clear()
        fit.TREES.update(saved[1])
    for linear, trees, blend in zip(*parts, strict=True):
        assert set(blend) == set(LEARNED_TYPES)
        assert sum(blend.values()) == pytest.approx(1.0)
        for name in LEARNED_TYPES:
            assert blend[name] == pytest.approx((linear[name] + trees[name]) / 2)
    with pytest.raises(SystemExit, match="held out only"):
        fit.LEARNER[0] = "blend"
        try:
            fit.write_model(rows, Path("/nonexistent/page_type.json"), 0.5)
        finally:
            fit.LEARNER[0] = saved[0]
