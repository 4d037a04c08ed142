"""The boosted trees' export and plain-Python evaluator (`bench.fitting.confidence_trees`) agree
with scikit-learn, on models fitted to generated data."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from sklearn.ensemble import HistGradientBoostingClassifier

from bench.fitting.confidence_trees import TreeEnsemble, export_trees


def _fitted(seed: int, monotone: bool) -> tuple[HistGradientBoostingClassifier, np.ndarray]:
    rng = np.random.default_rng(seed)
    xs = rng.normal(size=(400, 4))
    # A non-linear truth: an interaction and a step, with noise.
    logit = 1.5 * xs[:, 0] * xs[:, 1] + 2.0 * (xs[:, 2] > 0.3) - 0.5 * xs[:, 3]
    ys = (logit + rng.normal(scale=0.5, size=400) > 0).astype(int)
    model = HistGradientBoostingClassifier(
        max_iter=30,
        max_depth=3,
        learning_rate=0.1,
        monotonic_cst=[0, 0, 1, -1] if monotone else None,
        random_state=seed,
    )
    model.fit(xs, ys)
    probe = np.vstack([rng.normal(size=(200, 4)), xs[:50]])
    return model, probe


@pytest.mark.parametrize(("seed", "monotone"), [(1, False), (2, True)])
def test_the_exported_trees_give_scikit_learns_probabilities(seed: int, monotone: bool) -> None:
    model, probe = _fitted(seed, monotone)
    names = ["a", "b", "c", "d"]
    stored = json.loads(json.dumps(export_trees(model, names)))  # through JSON, as shipped
    ensemble = TreeEnsemble.from_json(stored)
    ours = np.array([ensemble.probability(tuple(row)) for row in probe])
    theirs = model.predict_proba(probe)[:, 1]
    assert len(stored["trees"]) == model.n_iter_
    assert np.allclose(ours, theirs, atol=1e-9)
    # Not a constant: the probe spans both classes.
    assert ours.min() < 0.2 and ours.max() > 0.8


def test_a_value_on_a_threshold_goes_left_as_in_scikit_learn() -> None:
    model, _ = _fitted(3, False)
    stored = export_trees(model, ["a", "b", "c", "d"])
    ensemble = TreeEnsemble.from_json(stored)
    tree = stored["trees"][0]
    feature, threshold = tree["feature"][0], tree["threshold"][0]
    row = np.zeros(4)
    row[feature] = threshold
    assert ensemble.probability(tuple(row)) == pytest.approx(
        model.predict_proba(row[None, :])[0, 1], abs=1e-9
    )


def test_a_malformed_model_or_input_is_refused() -> None:
    stored: dict[str, Any] = {
        "features": ["a"],
        "baseline": 0.0,
        "trees": [{"feature": [0, 0, 0], "threshold": [0.5, 0, 0], "left": [0, -1, -1],
                   "right": [2, 0, 0], "value": [0.0, 1.0, -1.0]}],
    }  # fmt: skip
    # Node 0's left child is itself: a walk would never end.
    with pytest.raises(ValueError, match="points outside"):
        TreeEnsemble.from_json(stored)
    stored["trees"][0]["left"][0] = 1
    ensemble = TreeEnsemble.from_json(stored)
    assert ensemble.probability((0.0,)) > 0.5 > ensemble.probability((1.0,))
    with pytest.raises(ValueError, match="values for a model"):
        ensemble.probability((0.0, 1.0))
