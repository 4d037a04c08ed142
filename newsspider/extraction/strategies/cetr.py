"""CETR, thresholded: the text-to-tag ratio of each line, smoothed, against a threshold set by
its spread (Weninger, Hsu & Han, "CETR — Content Extraction via Tag Ratios", WWW 2010; the
threshold variant of Weninger & Hsu 2008).

Per line ``i``::

    TTR(i)  = text_chars(i) / tags(i)         (tags(i) = 0 counts as 1)
    S(i)    = Σ_k G(k)·TTR(i+k), |k| ≤ RADIUS  (Gaussian weights, σ = SIGMA, normalised)
    content ⇔ S(i) > τ = LAMBDA · std(S)

``tags(i)`` is the line's markup in the shared line model (`lines`): the inline tags within the
segment plus the block tags of the boundary before it (about two for a plain paragraph, more
for a link, a list item or a line after a wide gap of layout markup). Smoothing lets a short
line inside a run of prose (a subheading, a one-line paragraph) ride with its neighbours;
the threshold is a fixed multiple of the page's own spread, so it adapts to how verbose the
page's markup is. The kept lines need not be contiguous.
"""

from __future__ import annotations

import math

from newsspider.extraction.common.smoothing import gaussian_smooth
from newsspider.extraction.strategies import StrategyInput, StrategyResult
from newsspider.extraction.strategies.lines import Lines, build_lines, selection_from

__all__ = ["LAMBDA", "RADIUS", "SIGMA", "cetr", "content_lines", "smoothed_ratios"]

SIGMA = 1.0
RADIUS = 3
LAMBDA = 1.0


def smoothed_ratios(lines: Lines) -> list[float]:
    """The Gaussian-smoothed text-to-tag ratio of each line (weights renormalised at the ends)."""
    ratios = [chars / max(1, tags) for chars, tags in zip(lines.chars, lines.tags, strict=True)]
    return gaussian_smooth(ratios, RADIUS, SIGMA)


def content_lines(lines: Lines) -> list[int]:
    smoothed = smoothed_ratios(lines)
    if not smoothed:
        return []
    mean = sum(smoothed) / len(smoothed)
    spread = math.sqrt(sum((s - mean) ** 2 for s in smoothed) / len(smoothed))
    threshold = LAMBDA * spread
    return [index for index, value in enumerate(smoothed) if value > threshold]


def cetr(data: StrategyInput) -> StrategyResult | None:
    lines = build_lines(data.root, data.page)
    selection = selection_from(data.page, content_lines(lines))
    return None if selection is None else StrategyResult(selection)
