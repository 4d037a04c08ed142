"""``cetd-td``: CETD with plain text density (Sun, Song & Liao, SIGIR 2011).

TD_i = C_i / T_i: characters over tags in the element's subtree (T_i = 0 counts as 1). The
selection is CETD's DensitySum / threshold / marking procedure (`densitysum`).
"""

from __future__ import annotations

from newsspider.extraction.strategies import StrategyInput, StrategyResult
from newsspider.extraction.strategies.densitysum import run_density_method
from newsspider.extraction.strategies.node_stats import NodeStats


def text_density(stats: NodeStats) -> tuple[list[float], list[float]]:
    """TD per element, and per text run (a leaf: its character count)."""
    density = [chars / (tags or 1) for chars, tags in zip(stats.chars, stats.tags, strict=True)]
    return density, [float(chars) for chars in stats.run_chars]


def cetd_td(inputs: StrategyInput) -> StrategyResult | None:
    return run_density_method(inputs, text_density)
