"""A committee of the seed methods: how far cheap published extractors agree with the body.

The project implements the methods it grew from (`newsspider.extraction.strategies`). How much
their bodies agree with the default body is evidence about the body from outside it: methods
built on other ideas picking the same text, or scattering. On held-out pages from other sources
(issue 32) the mean agreement of four of them ranked good bodies about as well as the fitted
confidence, and added to it raised its AUROC on every set; on the development set, leave one
corpus out, it mostly repeats what the quality model's features already say (docs/confidence.md).
The confidence's quality model reads it (`confidence.confidence_features`) where the committee
sits (`confidence.committee_can_change`).

`MEMBERS` says which of them sit. They run on what the default extraction already built: the
page model (`PageSegments`) of the one parse, cleaning and segment walk, with no second walk of
the tree and no second metadata read. The node methods read `node_stats.block_node_stats` (the
page's blocks stand for its elements), the line methods `lines.estimated_lines` (markup
estimated from the block structure); both are linear in blocks and segments. Each member
answers with a selection of the page's segments, like the default.

Agreement is the corpus metric's body F1 (``../shared/corpora/README.md``: ``\\w+`` tokens,
4-word shingles, a text under 4 tokens one shingle) between the member's body and the default's.
Both bodies are runs of the same page's segments, so it is computed from each segment's token
count without building the texts (`selection_agreement`): a shingle of one body is in the other
when its tokens come from segments both bodies hold, with nothing between them in only one. That
is the multiset metric (`shingle_f1`) wherever no 4-word sequence recurs elsewhere in the two
bodies; it never counts more matches than the metric does.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from newsspider.extraction.body.assembly import BodySelection
from newsspider.extraction.page.page_model import PageSegments
from newsspider.extraction.strategies import STRATEGIES, StrategyInput
from newsspider.extraction.strategies.lines import estimated_lines
from newsspider.extraction.strategies.node_stats import block_node_stats

#: The members, by their `extract(algorithm=...)` names: a node method (GNE's text and symbol
#: density) and a line method (the maximum run of line values). Of the four issue 32 measured
#: (cetd-ctd, gne, max-subsequence, line-classifier: a plain mean of their agreements ranked
#: good bodies at AUROC 0.76-0.86 on held-out sets), every subset's mean did about as well as
#: the four on the development groups, leave one corpus out (within a few pages either way:
#: docs/confidence.md); these two cost least (on scrapinghub_aeb, per sitting, about 0.5x the
#: bare parse together, the four 1.9x: line-classifier alone 0.8x, cetd-ctd 0.4x).
MEMBERS: Final[tuple[str, ...]] = ("gne", "max-subsequence")
#: The four methods issue 32 measured: any of them can sit (`run_committee(members=...)`).
SEED_METHODS: Final[tuple[str, ...]] = ("cetd-ctd", "gne", "max-subsequence", "line-classifier")
#: Shingle length of the corpus metric.
SHINGLE: Final = 4
_WORD: Final = re.compile(r"\w+")
#: A line this long recurring in both bodies' one-sided parts is the same text, not chance.
_RECURRING_CHARS: Final = 40


@dataclass(frozen=True, slots=True)
class Opinion:
    """One member's body (as segment ids of the page) and its agreement with the default."""

    method: str
    #: The member's body, or None when it found none.
    selection: BodySelection | None
    #: Shingle F1 between the member's body and the default body, in [0, 1] (0: no body).
    agreement: float


@dataclass(frozen=True, slots=True)
class Committee:
    """The members' opinions, in `MEMBERS` order."""

    opinions: tuple[Opinion, ...]

    @property
    def mean_agreement(self) -> float:
        """The plain mean of the agreements (0 for an empty committee)."""
        if not self.opinions:
            return 0.0
        return sum(o.agreement for o in self.opinions) / len(self.opinions)

    def evidence(self) -> tuple[float, ...]:
        """What the confidence reads (`confidence.COMMITTEE_FEATURES`): the mean agreement,
        then each of `MEMBERS`' (0 for a member that did not sit)."""
        return (self.mean_agreement, *(self.agreement(m) or 0.0 for m in MEMBERS))

    def agreement(self, method: str) -> float | None:
        """One member's agreement, None when it did not sit."""
        for opinion in self.opinions:
            if opinion.method == method:
                return opinion.agreement
        return None


def tokens(text: str) -> list[str]:
    """The corpus metric's tokens."""
    return _WORD.findall(text)


def _shingles(words: Sequence[str]) -> Counter[tuple[str, ...]]:
    if not words:
        return Counter()
    if len(words) < SHINGLE:
        return Counter([tuple(words)])
    return Counter(zip(*(words[i:] for i in range(SHINGLE)), strict=False))


def shingle_f1(reference: str, other: str) -> float:
    """The corpus metric's page F1 of ``other`` against ``reference`` (multisets of 4-word
    shingles). 1.0 for two texts without words, 0.0 when only one has words. The reference
    for `selection_agreement`, and what it falls back to on very short bodies."""
    precision, recall = _text_overlap(reference, other)
    if not precision or not recall:
        return 0.0
    return 2 * precision * recall / (precision + recall)


class SegmentTokens:
    """Each segment's token count, counted once per page when first asked for."""

    def __init__(self, page: PageSegments) -> None:
        self.page = page
        self.counts = [-1] * len(page.segment_owners)

    def __call__(self, index: int) -> int:
        count = self.counts[index]
        if count < 0:
            count = sum(len(_WORD.findall(line)) for line in self.page.segment_lines[index])
            self.counts[index] = count
        return count

    def shared_text(self, first: Sequence[int], second: Sequence[int]) -> bool:
        """Does a line of at least `_RECURRING_CHARS` characters of the ``first`` segments
        recur among the ``second``'s?"""
        lines = self.page.segment_lines
        seen = {line for i in first for line in lines[i] if len(line) >= _RECURRING_CHARS}
        return bool(seen) and any(line in seen for i in second for line in lines[i])

    def text(self, segment_ids: Sequence[int]) -> str:
        lines: list[str] = []
        for index in segment_ids:
            lines.extend(self.page.segment_lines[index])
        return "\n".join(lines)


def _windows(count: int) -> int:
    return count - SHINGLE + 1 if count >= SHINGLE else 0


def selection_agreement(
    reference: Sequence[int], other: Sequence[int], counts: SegmentTokens
) -> float:
    """`shingle_f1` of two bodies of the same page given as ascending segment ids
    (`selection_overlap`)."""
    precision, recall = selection_overlap(reference, other, counts)
    if not precision or not recall:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def _text_overlap(reference: str, other: str) -> tuple[float, float]:
    """(precision, recall) of ``other`` against ``reference`` as `shingle_f1` counts them."""
    want, got = _shingles(tokens(reference)), _shingles(tokens(other))
    if not want and not got:
        return 1.0, 1.0
    matched = sum((want & got).values())
    if not matched:
        return 0.0, 0.0
    return matched / sum(got.values()), matched / sum(want.values())


def selection_overlap(
    reference: Sequence[int], other: Sequence[int], counts: SegmentTokens
) -> tuple[float, float]:
    """The corpus metric's (precision, recall) of ``other`` against ``reference``, two bodies of
    the same page given as ascending segment ids, from the segments' token counts: linear in the
    two selections. Where the text one body holds alone
    recurs in the text the other holds alone (a page that repeats its article), the metric
    matches it and position does not: then the texts are compared (`shingle_f1`)."""
    total_ref = sum(counts(i) for i in reference)
    total_other = sum(counts(i) for i in other)
    if total_ref < SHINGLE or total_other < SHINGLE:
        # One shingle is the whole text: compare the texts (they are short, or one is empty).
        return _text_overlap(counts.text(reference), counts.text(other))
    matched = run = 0
    i = j = 0
    alone_ref: list[int] = []
    alone_other: list[int] = []
    while i < len(reference) or j < len(other):
        a = reference[i] if i < len(reference) else -1
        b = other[j] if j < len(other) else -1
        if a >= 0 and a == b:
            run += counts(a)
            i += 1
            j += 1
            continue
        if b < 0 or (0 <= a < b):
            gap, i = a, i + 1
            alone = alone_ref
        else:
            gap, j = b, j + 1
            alone = alone_other
        if counts(gap):
            # Words in one body only: no shingle spans them in both.
            matched += _windows(run)
            run = 0
            alone.append(gap)
    matched += _windows(run)
    if alone_ref and alone_other and counts.shared_text(alone_ref, alone_other):
        return _text_overlap(counts.text(reference), counts.text(other))
    return matched / _windows(total_other), matched / _windows(total_ref)


def run_committee(
    page: PageSegments, selection: BodySelection, members: Sequence[str] = MEMBERS
) -> Committee:
    """Each member's body on ``page`` and its agreement with the default ``selection``; the
    statistics the members read are built once, from the page model alone."""
    node_stats = None
    lines = None
    counts = SegmentTokens(page)
    opinions: list[Opinion] = []
    for name in members:
        if name in _NODE_METHODS:
            if node_stats is None:
                node_stats = block_node_stats(page)
            shared = StrategyInput(None, page, node_stats=node_stats)
        else:
            if lines is None:
                lines = estimated_lines(page)
            shared = StrategyInput(None, page, lines=lines)
        result = STRATEGIES[name](shared)
        chosen = None if result is None else result.selection
        agreement = (
            0.0
            if chosen is None
            else selection_agreement(selection.segment_ids, chosen.segment_ids, counts)
        )
        opinions.append(Opinion(name, chosen, agreement))
    return Committee(tuple(opinions))


#: Members that read per-element statistics; the rest read the line model.
_NODE_METHODS: Final = frozenset({"cetd-td", "cetd-ctd", "point-density", "gne"})
