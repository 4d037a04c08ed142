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
        near, far = kernel[1], kernel[2]
        views = zip(padded, padded[1:], padded[2:], padded[3:], padded[4:], strict=False)
        sums = [c + near * (b + d) + far * (a + e) for a, b, c, d, e in views]
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
