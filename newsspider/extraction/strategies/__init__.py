"""Selectable body-selection strategies: the published text-density methods side by side.

Every strategy sees the same cleaned tree and the same `PageSegments` (one parse, one cleaning,
one segment walk) and answers with a `BodySelection` of the page's segment ids; text, HTML,
metadata and confidence are then built by the shared code in `newsspider.extraction.api`. A
strategy returns None when it finds no body.

The node methods read per-element statistics (`node_stats.NodeStats`), the line methods a line
model (`lines.Lines`). Given in the `StrategyInput`, those are used as they are: the
confidence's committee (`newsspider.extraction.committee`) runs the methods on
statistics built from the page model alone (`node_stats.block_node_stats`,
`lines.estimated_lines`), without a walk of the tree; ``root`` may then be None. Otherwise a
method walks the cleaned tree for them itself.

``default`` is the project's combined extractor (`scoring` + `assembly`); the others are the
methods it grew from, kept for comparison (see ``docs/algorithms/README.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lxml import etree

from newsspider.extraction.body.assembly import BodySelection
from newsspider.extraction.page.page_model import PageSegments

if TYPE_CHECKING:  # the modules import this one (StrategyInput): no cycle at run time
    from newsspider.extraction.strategies.lines import Lines
    from newsspider.extraction.strategies.node_stats import NodeStats


@dataclass(frozen=True, slots=True)
class StrategyInput:
    """What a strategy may look at: the cleaned tree and its segments, or statistics already
    built for it (then the tree is not read, and may be None)."""

    root: etree._Element | None
    page: PageSegments
    #: Per-element statistics for the node methods (None: walk ``root`` for them).
    node_stats: NodeStats | None = None
    #: The line model for the line methods (None: walk ``root`` for it).
    lines: Lines | None = None

    def stats(self) -> NodeStats:
        """The node methods' statistics: the given ones, else one walk of the tree."""
        if self.node_stats is not None:
            return self.node_stats
        from newsspider.extraction.strategies.node_stats import collect_node_stats

        return collect_node_stats(self._root(), self.page)

    def line_model(self) -> Lines:
        """The line methods' line model: the given one, else one walk of the tree."""
        if self.lines is not None:
            return self.lines
        from newsspider.extraction.strategies.lines import build_lines

        return build_lines(self._root(), self.page)

    def _root(self) -> etree._Element:
        if self.root is None:
            raise ValueError("a strategy without the tree needs its statistics given")
        return self.root


@dataclass(frozen=True, slots=True)
class StrategyResult:
    selection: BodySelection
    #: Score of the best competing region over the chosen one's, in [0, 1]; 1.0 when the
    #: method has no notion of a competitor (a neutral value for the confidence model).
    runner_up_ratio: float = 1.0


Strategy = Callable[[StrategyInput], StrategyResult | None]

#: name -> strategy, filled by `_register` below; "default" is handled by the api itself.
STRATEGIES: dict[str, Strategy] = {}


def _register() -> None:
    """Fill `STRATEGIES` in the order the methods are documented (DOM methods, then lines)."""
    # --- DOM node methods (CETD TD/CTD, point density, GNE) ---
    from newsspider.extraction.strategies.cetd_ctd import cetd_ctd
    from newsspider.extraction.strategies.cetd_td import cetd_td
    from newsspider.extraction.strategies.gne import gne
    from newsspider.extraction.strategies.point_density import point_density

    STRATEGIES["cetd-td"] = cetd_td
    STRATEGIES["cetd-ctd"] = cetd_ctd
    STRATEGIES["point-density"] = point_density
    STRATEGIES["gne"] = gne
    # --- line methods (Html2Article, max subsequence, text/markup ratio, learned classifier) ---
    from newsspider.extraction.strategies.cetr import cetr
    from newsspider.extraction.strategies.html2article import html2article
    from newsspider.extraction.strategies.line_classifier import line_classifier
    from newsspider.extraction.strategies.max_subsequence import max_subsequence

    STRATEGIES["html2article"] = html2article
    STRATEGIES["max-subsequence"] = max_subsequence
    STRATEGIES["cetr"] = cetr
    STRATEGIES["line-classifier"] = line_classifier


_register()
