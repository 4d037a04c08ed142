"""The page model the extraction stages share: blocks and text segments as parallel lists.

Block elements and segments are numbered in document order, so a subtree is a contiguous id
range ``[id, end]``. `newsspider.extraction.page.segments` builds it in one walk over the tree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Final

from lxml import etree

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.page.class_words import OVERLAY

BLOCK_TAGS: Final = frozenset(
    """address article aside blockquote body center dd details dialog div dl dt fieldset
    figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html li main menu nav ol p
    pre section summary table tbody td tfoot th thead tr ul caption""".split()
)
HEADING_TAGS: Final = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: A CJK/kana/hangul character carries about as much as a short word: each counts this many
#: times extra wherever segment sizes are weighed (`effective_chars`).
DENSE_CHAR_EXTRA: Final = 2
#: Headings inside an article (the h1 is its headline).
SUBHEADING_TAGS: Final = HEADING_TAGS - {"h1"}
#: Headings that, when linked, are teaser headlines (h1 is the page's own headline).
TEASER_HEADINGS: Final = frozenset({"h2", "h3", "h4"})
#: A furniture-named block is the layout around the article when it holds this share of the
#: blocks and WRAPPER_HALF_PROSE of the prose, or WRAPPER_PROSE_SHARE of the prose alone.
WRAPPER_BLOCK_SHARE: Final = 0.5
WRAPPER_HALF_PROSE: Final = 0.5
WRAPPER_PROSE_SHARE: Final = 0.75


@dataclass(slots=True)
class Segment:
    """A run of inline text owned by one block element: one segment's fields together, for code
    that reads a few segments (`PageSegments.segment`). Loops over every segment read the
    page's lists."""

    owner: int
    lines: tuple[str, ...]
    chars: int
    link_chars: int
    punctuation: int
    dense_chars: int  # CJK/kana/hangul characters, each worth about a word
    tag: str

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def link_density(self) -> float:
        return self.link_chars / self.chars if self.chars else 0.0


@dataclass(slots=True)
class PageSegments:
    """The page's blocks and segments.

    Block elements and segments are numbered in document order, and each of their properties
    is a list indexed by id (``block_tags[i]``, ``segment_chars[i]``, ...): an object per block
    and per segment cost more than the rest of their share of the walk.
    """

    block_elements: list[etree._Element] = field(default_factory=list)
    block_tags: list[str] = field(default_factory=list)
    #: Id of the enclosing block, -1 for the root.
    block_parents: list[int] = field(default_factory=list)
    #: OVERLAY/STRONG_FURNITURE/WEAK_FURNITURE by tag or class/id, +1 article-like class/id,
    #: else 0.
    block_signals: list[int] = field(default_factory=list)
    #: Last block id inside each block (inclusive): a subtree is the id range [id, end].
    block_ends: list[int] = field(default_factory=list)
    #: Inside a figure or caption: shown with the article, not part of its running text.
    block_captions: list[bool] = field(default_factory=list)
    #: itemprop="articleBody" and the like: the page says this block is the article.
    declared_bodies: set[int] = field(default_factory=set)
    #: <main> or role="main": the page says its main content is in here.
    main_regions: set[int] = field(default_factory=set)
    #: Id of the block element that owns each segment.
    segment_owners: list[int] = field(default_factory=list)
    #: Each segment's text, normalised, one string per line (several after <br> or in <pre>).
    segment_lines: list[tuple[str, ...]] = field(default_factory=list)
    segment_chars: list[int] = field(default_factory=list)
    segment_link_chars: list[int] = field(default_factory=list)
    segment_punctuation: list[int] = field(default_factory=list)
    #: CJK/kana/hangul characters, each worth about a word.
    segment_dense_chars: list[int] = field(default_factory=list)
    #: The owner's tag.
    segment_tags: list[str] = field(default_factory=list)
    #: Segments whose text ends in a colon: sentences that may introduce a list.
    colon_segments: list[int] = field(default_factory=list)
    #: Non-link characters in each block's subtree.
    prose: list[int] = field(default_factory=list)
    #: Links inside h2-h4 headings: teaser headlines, the mark of a listing page.
    linked_headings: int = 0

    def segment(self, index: int) -> Segment:
        """One segment's fields as an object."""
        return Segment(
            self.segment_owners[index],
            self.segment_lines[index],
            self.segment_chars[index],
            self.segment_link_chars[index],
            self.segment_punctuation[index],
            self.segment_dense_chars[index],
            self.segment_tags[index],
        )

    @property
    def segments(self) -> list[Segment]:
        """Every segment as an object (built on each call: tests and one-off reads only)."""
        return [self.segment(index) for index in range(len(self.segment_owners))]

    def linked_heading_owners(self) -> list[int]:
        """Owners of h2-h4 segments that are mostly link text (a teaser's or a post's linked
        headline), in document order; an empty segment has no link density."""
        owners, tags = self.segment_owners, self.segment_tags
        chars, link_chars = self.segment_chars, self.segment_link_chars
        # An index loop: compiled, a zip is a generic iterator (about 140 instructions a
        # segment); the tag test first, as few segments are headings. The lists are parallel.
        return [
            owners[index]
            for index in range(len(owners))
            if tags[index] in TEASER_HEADINGS
            and chars[index]
            and link_chars[index] * 2 > chars[index]
        ]

    def subtree_totals(self, per_segment: list[int]) -> list[int]:
        """Per block: the sum of ``per_segment`` (one count per segment) over the segments of
        its subtree. `subtree_scores` is the same sum for scores. (The compiled sums,
        `SUBTREE_TOTALS`, when built and not switched off.)"""
        compiled = SUBTREE_TOTALS.active
        if compiled is not None:
            return compiled(self.segment_owners, self.block_parents, per_segment)
        totals = [0] * len(self.block_parents)
        owners = self.segment_owners
        # Index loops and `a[i] = a[i] + x`: compiled, a zip with strict=True is a generic
        # iterator and an augmented item assignment a generic object operation.
        for index in range(len(owners)):
            owner = owners[index]
            totals[owner] = totals[owner] + per_segment[index]
        # Children have larger ids than their parents: one reverse sweep sums every subtree.
        parents = self.block_parents
        for block_id in range(len(parents) - 1, 0, -1):
            parent = parents[block_id]
            if parent >= 0:
                totals[parent] = totals[parent] + totals[block_id]
        return totals

    def subtree_scores(self, per_segment: list[float]) -> list[float]:
        """`subtree_totals` for scores: written for floats, as mypyc compiles float and int
        arithmetic to different native code."""
        compiled = SUBTREE_SCORES.active
        if compiled is not None:
            return compiled(self.segment_owners, self.block_parents, per_segment)
        totals = [0.0] * len(self.block_parents)
        owners = self.segment_owners
        for index in range(len(owners)):
            owner = owners[index]
            totals[owner] = totals[owner] + per_segment[index]
        parents = self.block_parents
        for block_id in range(len(parents) - 1, 0, -1):
            parent = parents[block_id]
            if parent >= 0:
                totals[parent] = totals[parent] + totals[block_id]
        return totals

    def ancestors(self, block_id: int) -> set[int]:
        """The ids of the blocks around `block_id` (not itself), up to the root."""
        parents = self.block_parents
        found: set[int] = set()
        block = parents[block_id]
        while block >= 0:
            found.add(block)
            block = parents[block]
        return found

    def is_wrapper(self, block_id: int, around: int) -> bool:
        """Does this block hold so much of `around` that it is a layout wrapper, not furniture?

        ("has-sidebar" on <body>, an off-canvas "menu-wrapper" or a "widget-container" around
        the whole article.) A footer can hold most of a short page's prose, but not most of
        its structure; a call-to-action box listing forty staff names can hold most of a short
        article's structure, but not half its prose. Hence the two measures.
        """
        ends = self.block_ends
        inner = ends[block_id] - block_id + 1
        outer = ends[around] - around + 1
        prose, around_prose = self.prose[block_id], self.prose[around]
        if inner >= WRAPPER_BLOCK_SHARE * outer and prose >= WRAPPER_HALF_PROSE * around_prose:
            return True
        return (
            self.block_signals[block_id] != OVERLAY and prose >= WRAPPER_PROSE_SHARE * around_prose
        )


# The compiled subtree sums (newsspider/extraction/page/_segments_c.pyx, beside the compiled
# walk), built at install time when a C compiler is there; the methods above are the reference.
_compiled_sums: ModuleType | None = None
try:
    from newsspider.extraction.page import _segments_c
except ImportError:  # not built (no compiler at install time): the Python sums
    pass
else:
    _compiled_sums = _segments_c

#: `PageSegments.subtree_totals` compiled: (owners, parents, per_segment) -> per-block sums.
#: (A walk module built before the sums were added has none: the Python sums then.)
SUBTREE_TOTALS: Final[CompiledTwin[Callable[[list[int], list[int], list[int]], list[int]]]] = (
    CompiledTwin(getattr(_compiled_sums, "subtree_totals", None))
)
#: `PageSegments.subtree_scores` compiled.
SUBTREE_SCORES: Final[CompiledTwin[Callable[[list[int], list[int], list[float]], list[float]]]] = (
    CompiledTwin(getattr(_compiled_sums, "subtree_scores", None))
)
