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
    # Extended in place: a concatenation would copy the page-sized list twice more.
    padded = [0.0] * radius
    padded.extend(values)
    padded.extend([0.0] * radius)
    full = kernel[0] + 2 * sum(kernel[1:], 0.0)
    if radius == 2:
        # The confidence's window, on every page: one pass over five shifted views.
        # An index loop: compiled, a zip of five slices is a generic iterator with a tuple per
        # value. The window slides: one value read per step, the other four carried in
        # unboxed locals (five list reads a value cost more than the sum), each sum the same
        # expression as `_window_sum`'s and divided as it is made: no page-sized list of sums
        # (only the ends need theirs again, `_window_sum`).
        near, far = kernel[1], kernel[2]
        smoothed = [0.0] * count
        a, b, c, d = padded[0], padded[1], padded[2], padded[3]
        for i in range(count):
            e = padded[i + 4]
            smoothed[i] = (c + near * (b + d) + far * (a + e)) / full
            a = b
            b = c
            c = d
            d = e
        for index in {*range(min(radius, count)), *range(max(0, count - radius), count)}:
            smoothed[index] = _window_sum(padded, index, near, far) / _end_weight(
                kernel, radius, index, count
            )
        return smoothed
    sums = [kernel[0] * v for v in values]
    for k in range(1, radius + 1):
        left = padded[radius - k : radius - k + count]
        right = padded[radius + k : radius + k + count]
        g = kernel[k]
        sums = [s + g * (a + b) for s, a, b in zip(sums, left, right, strict=True)]
    smoothed = [s / full for s in sums]
    for index in {*range(min(radius, count)), *range(max(0, count - radius), count)}:
        smoothed[index] = sums[index] / _end_weight(kernel, radius, index, count)
    return smoothed


def _window_sum(padded: list[float], index: int, near: float, far: float) -> float:
    """The radius-2 window's weighted sum around ``padded[index + 2]`` (not yet normalised)."""
    return (
        padded[index + 2]
        + near * (padded[index + 1] + padded[index + 3])
        + far * (padded[index] + padded[index + 4])
    )


def _end_weight(kernel: list[float], radius: int, index: int, count: int) -> float:
    """The kernel's weight left within the values at ``index`` near either end."""
    return kernel[0] + sum(
        kernel[k] * ((index - k >= 0) + (index + k < count)) for k in range(1, radius + 1)
    )
