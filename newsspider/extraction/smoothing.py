"""CETR's Gaussian smoothing of per-line ratios: one rule, used by the CETR method
(`strategies.cetr`) and by the confidence's second opinion (`pagetype.tag_ratio_agreement`)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def gaussian_smooth(values: Sequence[float], radius: int, sigma: float = 1.0) -> list[float]:
    """Each value averaged with its neighbours up to `radius` away, Gaussian-weighted; the
    kernel is cut at the ends and renormalised there. Linear in the number of values."""
    count = len(values)
    kernel = [math.exp(-(k * k) / (2 * sigma * sigma)) for k in range(radius + 1)]
    padded = [0.0] * radius + list(values) + [0.0] * radius
    if radius == 2:
        # The confidence's window, on every page: one pass over five shifted views.
        # An index loop: compiled, a zip of five slices is a generic iterator with a tuple per
        # value; indexed, each value is read unboxed.
        near, far = kernel[1], kernel[2]
        sums = [
            padded[i + 2]
            + near * (padded[i + 1] + padded[i + 3])
            + far * (padded[i] + padded[i + 4])
            for i in range(count)
        ]
    else:
        sums = [kernel[0] * v for v in values]
        for k in range(1, radius + 1):
            left = padded[radius - k : radius - k + count]
            right = padded[radius + k : radius + k + count]
            g = kernel[k]
            sums = [s + g * (a + b) for s, a, b in zip(sums, left, right, strict=True)]
    full = kernel[0] + 2 * sum(kernel[1:], 0.0)
    smoothed = [s / full for s in sums]
    for index in {*range(min(radius, count)), *range(max(0, count - radius), count)}:
        weight = kernel[0] + sum(
            kernel[k] * ((index - k >= 0) + (index + k < count)) for k in range(1, radius + 1)
        )
        smoothed[index] = sums[index] / weight
    return smoothed
