"""``gne``: text density and symbol density combined, as GeneralNewsExtractor scores nodes.

GeneralNewsExtractor (after Hong et al., "基于文本及符号密度的网页正文提取方法") scores every
element under ``<body>`` and takes the best one's whole text:

    TD_i   = (T_i - LT_i) / (TG_i - LTG_i)            (0 when TG_i = LTG_i)
    SbD_i  = (T_i - LT_i) / (Sb_i + 1)                (1 when that is 0)
    score  = TD_i · log10(P_i + 2) · ln(SbD_i)

T: characters (doubled when the class attribute contains content, article, news_txt or
post_text), LT: characters inside links, TG: descendant tags, LTG: descendant ``<a>``,
Sb: punctuation marks, P: descendant ``<p>`` elements with text (GNE first turns childless
``<div>`` and ``<span>`` into ``<p>``, so those count too). The paper's extra factor log(std of
the children's densities) is left out, as GNE leaves it out.
"""

from __future__ import annotations

import math
import re

from newsspider.extraction.strategies import StrategyInput, StrategyResult
from newsspider.extraction.strategies.node_stats import (
    NodeStats,
    selection_from_nodes,
)

# GNE's HIGH_WEIGHT_ARRT_KEYWORD, matched anywhere in the class attribute, case-insensitively.
_HIGH_WEIGHT = re.compile("content|article|news_txt|post_text", re.IGNORECASE)


def gne_scores(stats: NodeStats) -> list[float]:
    """GNE's score for every element."""
    scores = []
    for node in range(len(stats)):
        text = stats.chars[node]
        classes = stats.classes[node]
        if classes and _HIGH_WEIGHT.search(classes):
            text *= 2
        prose = text - stats.link_chars[node]
        tags = stats.tags[node] - stats.link_tags[node]
        density = prose / tags if tags else 0.0
        symbol_density = prose / (stats.punctuation[node] + 1) or 1.0
        scores.append(density * math.log10(stats.paragraphs[node] + 2) * math.log(symbol_density))
    return scores


def gne(inputs: StrategyInput) -> StrategyResult | None:
    stats = inputs.stats()
    if not len(stats) or not stats.chars[0]:
        return None
    scores = gne_scores(stats)
    # GNE sorts by score (a stable sort): the first element in document order wins ties.
    best = max(range(len(scores)), key=lambda node: (scores[node], -node))
    selection = selection_from_nodes(stats, inputs.page, [best], best)
    if selection is None:
        return None
    return StrategyResult(selection, _runner_up_ratio(stats, scores, best))


def _runner_up_ratio(stats: NodeStats, scores: list[float], best: int) -> float:
    """The best score outside the chosen element (neither inside it nor one of its
    ancestors) over the chosen one's."""
    if scores[best] <= 0:
        return 1.0
    ancestors = set()
    node = stats.parent[best]
    while node >= 0:
        ancestors.add(node)
        node = stats.parent[node]
    last = stats.end[best]
    runner_up = max(
        (
            score
            for node, score in enumerate(scores)
            if not best <= node <= last and node not in ancestors
        ),
        default=0.0,
    )
    return min(1.0, max(0.0, runner_up / scores[best]))
