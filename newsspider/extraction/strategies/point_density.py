"""``point-density``: CETD with punctuation ("point") density (Yang & Yang, 2015).

    PD_i = P_i / T_i        PointDensitySum_i = sum of PD over i's children (text runs: P/1)

P: punctuation marks in the element's subtree (`textstats.count_punctuation`, any script),
T: tags (0 counts as 1). Characters are replaced by punctuation marks because menus, link
lists and footers carry almost none. Selection as in CETD (`densitysum`): the element with the
largest PointDensitySum, threshold = the smallest PD on its path to ``<body>``, recursive marking.
"""

from __future__ import annotations

from newsspider.extraction.strategies import StrategyInput, StrategyResult
from newsspider.extraction.strategies.densitysum import run_density_method
from newsspider.extraction.strategies.node_stats import NodeStats


def punctuation_density(stats: NodeStats) -> tuple[list[float], list[float]]:
    """PD per element, and per text run (a leaf: its punctuation count)."""
    density = [
        marks / (tags or 1) for marks, tags in zip(stats.punctuation, stats.tags, strict=True)
    ]
    return density, [float(marks) for marks in stats.run_punctuation]


def point_density(inputs: StrategyInput) -> StrategyResult | None:
    return run_density_method(inputs, punctuation_density)
