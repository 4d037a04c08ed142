"""The confidence fit's weighting and threshold rule (bench.fit_confidence), on made-up rows."""

from __future__ import annotations

import numpy as np

from bench.fit_confidence import drop_threshold, fit, group_weights


def test_group_weights_give_every_group_the_same_total() -> None:
    weights = group_weights(["a"] * 6 + ["b"] * 2 + ["c"])
    totals = [weights[:6].sum(), weights[6:8].sum(), weights[8:].sum()]
    assert np.allclose(totals, totals[0])
    assert np.isclose(weights.mean(), 1.0)


def test_row_weights_move_the_fitted_base_rate() -> None:
    # One feature that says nothing: the intercept is the (weighted) base rate.
    xs = np.zeros((10, 1))
    ys = np.array([1.0] * 8 + [0.0] * 2)
    unweighted = fit(xs, ys, l2=1.0)
    balanced = fit(xs, ys, l2=1.0, weights=np.array([0.25] * 8 + [1.0] * 2))
    assert np.isclose(1 / (1 + np.exp(-unweighted[0])), 0.8)
    assert np.isclose(1 / (1 + np.exp(-balanced[0])), 0.5)


def test_drop_threshold_is_the_highest_step_within_the_loss_budget() -> None:
    # 100 good bodies: 2 under 0.2, a third at 0.22, the rest high. A 3% budget allows 0.25
    # (3 lost) but not 0.3 if a fourth sits at 0.27.
    goods = [0.05, 0.15, 0.22, 0.27] + [0.9] * 96
    assert drop_threshold(goods) == 0.25
    assert drop_threshold([0.01] * 10 + [0.9] * 90) == 0.0
