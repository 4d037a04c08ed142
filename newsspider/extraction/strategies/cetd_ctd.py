"""``cetd-ctd``: CETD with composite text density (Sun, Song & Liao, SIGIR 2011).

    CTD_i = (C_i / T_i) · log_{ln(C_i/nLC_i · LC_i + LC_b/C_b · C_i + e)} (C_i/LC_i · T_i/LT_i)

C: characters, T: tags, LC: characters inside links, LT: link tags, nLC = C - LC (non-link
characters), all over the element's subtree; LC_b/C_b is the link-character share of
``<body>``. A zero T, LC, LT or nLC counts as 1; an element without text has density 0. The
selection is CETD's DensitySum / threshold / marking procedure (`densitysum`).
"""

from __future__ import annotations

import math

from newsspider.extraction.strategies import StrategyInput, StrategyResult
from newsspider.extraction.strategies.densitysum import run_density_method
from newsspider.extraction.strategies.node_stats import NodeStats


def composite_density(
    chars: int, tags: int, link_chars: int, link_tags: int, ratio: float
) -> float:
    """CTD of one element (or of a text run: ``tags = link_tags = 0``)."""
    if chars <= 0:
        return 0.0
    non_link = chars - link_chars or 1
    tags = tags or 1
    link_chars = link_chars or 1
    link_tags = link_tags or 1
    value = math.log(chars / link_chars * tags / link_tags)
    # The base is >= e^... > 1 here (chars > 0, link_chars >= 1), so its log is positive.
    base = math.log(math.log(chars / non_link * link_chars + ratio * chars + math.e))
    return chars / tags * value / base


def composite_text_density(stats: NodeStats) -> tuple[list[float], list[float]]:
    """CTD per element and per text run."""
    ratio = stats.link_chars[0] / stats.chars[0] if stats.chars[0] else 0.0
    density = [
        composite_density(chars, tags, links, link_tags, ratio)
        for chars, tags, links, link_tags in zip(
            stats.chars, stats.tags, stats.link_chars, stats.link_tags, strict=True
        )
    ]
    runs = [
        composite_density(chars, 0, links, 0, ratio)
        for chars, links in zip(stats.run_chars, stats.run_link_chars, strict=True)
    ]
    return density, runs


def cetd_ctd(inputs: StrategyInput) -> StrategyResult | None:
    return run_density_method(inputs, composite_text_density)
