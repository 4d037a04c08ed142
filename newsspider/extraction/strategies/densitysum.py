"""CETD's selection procedure, shared by the density variants (TD, CTD, punctuation density).

Sun, Song & Liao, "DOM based content extraction via text density" (SIGIR 2011), as the
authors' reference implementation runs it:

1. DensitySum of an element = the sum of its children's densities, a text node counting as a
   leaf child (density of a run of ``c`` characters: the measure applied to ``C=c, T=0``).
2. The element with the largest DensitySum is content (its whole subtree).
3. threshold = the smallest density on the path from that element up to ``<body>``, both ends
   included.
4. Starting at ``<body>``, every element whose density is at least the threshold (and is not
   already content) marks the element with the largest DensitySum in its own subtree as
   content, and its children are examined the same way.

Here all of it runs on the flat lists of `NodeStats` (no recursion): a reverse sweep for the
subtree maxima, an explicit stack for step 4. Every element is marked at most once, so the
whole procedure is linear in the number of elements.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from newsspider.extraction.strategies import StrategyInput, StrategyResult
from newsspider.extraction.strategies.node_stats import (
    NodeStats,
    selection_from_nodes,
    subtree_roots,
)

_OUTSIDE, _CONTENT, _PATH = 0, 1, 2

#: A method's density: one value per element and one per text run of `NodeStats`.
DensityFunction = Callable[[NodeStats], tuple[list[float], list[float]]]


@dataclass(frozen=True, slots=True)
class Marking:
    """The outcome of CETD's marking: per element 0 (noise), 1 (content) or 2 (an ancestor of
    content), the element with the largest DensitySum, and the scores around it."""

    marks: bytearray
    target: int
    threshold: float
    best_sum: float
    #: The largest DensitySum of an element that is neither content nor an ancestor of it.
    runner_up_sum: float

    @property
    def runner_up_ratio(self) -> float:
        if self.best_sum <= 0:
            return 1.0
        return min(1.0, max(0.0, self.runner_up_sum / self.best_sum))


def density_sums(stats: NodeStats, density: list[float], run_density: list[float]) -> list[float]:
    """DensitySum per element: its children's densities plus its own text runs' densities."""
    sums = [0.0] * len(stats)
    parent = stats.parent
    for node in range(1, len(stats)):
        sums[parent[node]] += density[node]
    for owner, value in zip(stats.run_owner, run_density, strict=True):
        sums[owner] += value
    return sums


def mark_content(stats: NodeStats, density: list[float], sums: list[float]) -> Marking | None:
    """Steps 2-4 above. None when no element has a positive DensitySum."""
    count = len(stats)
    if not count:
        return None
    parent = stats.parent
    end = stats.end
    # best[i]: the element with the largest DensitySum in i's subtree, the first in document
    # order on ties (the reference implementation searches the subtree in document order).
    best = list(range(count))
    for node in range(count - 1, 0, -1):
        up = parent[node]
        candidate, current = best[node], best[up]
        if sums[candidate] > sums[current] or (
            sums[candidate] == sums[current] and candidate < current
        ):
            best[up] = candidate

    target = best[0]
    best_sum = sums[target]
    if best_sum <= 0:
        return None
    marks = bytearray(count)
    marks[target : end[target] + 1] = b"\x01" * (end[target] - target + 1)
    threshold = density[target]
    node = parent[target]
    while node >= 0:
        threshold = min(threshold, density[node])
        marks[node] = _PATH
        node = parent[node]

    stack = [0]
    while stack:
        node = stack.pop()
        if marks[node] == _CONTENT or density[node] < threshold:
            continue
        chosen = best[node]
        if marks[chosen] != _CONTENT:
            marks[chosen : end[chosen] + 1] = b"\x01" * (end[chosen] - chosen + 1)
            above = parent[chosen]
            while above >= 0 and marks[above] != _PATH:
                marks[above] = _PATH
                above = parent[above]
        stack.extend(stats.children(node))

    runner_up = max(
        (sums[node] for node in range(count) if marks[node] == _OUTSIDE),
        default=0.0,
    )
    return Marking(marks, target, threshold, best_sum, max(0.0, runner_up))


def run_density_method(
    inputs: StrategyInput,
    density_of: DensityFunction,
) -> StrategyResult | None:
    """Collect the statistics, score with `density_of`, mark, and map marks to segments."""
    stats = inputs.stats()
    if not len(stats) or not stats.chars[0]:
        return None
    density, run_density = density_of(stats)
    marking = mark_content(stats, density, density_sums(stats, density, run_density))
    if marking is None:
        return None
    roots = subtree_roots(stats, marking.marks, _CONTENT)
    selection = selection_from_nodes(stats, inputs.page, roots, marking.target)
    if selection is None:
        return None
    return StrategyResult(selection, marking.runner_up_ratio)
