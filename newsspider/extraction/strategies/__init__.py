"""Selectable body-selection strategies: the published text-density methods side by side.

Every strategy sees the same cleaned tree and the same `PageSegments` (one parse, one cleaning,
one segment walk) and answers with a `BodySelection` of the page's segment ids; text, HTML,
metadata and confidence are then built by the shared code in `newsspider.extraction.api`. A
strategy returns None when it finds no body.

``default`` is the project's combined extractor (`scoring` + `assembly`); the others are the
methods it grew from, kept for comparison (see ``docs/algorithms/README.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lxml import etree

from newsspider.extraction.body.assembly import BodySelection
from newsspider.extraction.page.page_model import PageSegments


@dataclass(frozen=True, slots=True)
class StrategyInput:
    """What a strategy may look at: the cleaned tree and its segments."""

    root: etree._Element
    page: PageSegments


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
