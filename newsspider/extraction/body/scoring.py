"""Density scoring: the value of each text segment and the best article container.

Each segment gets a value from its non-link text, its link text and its punctuation (the text
density and punctuation density ideas of CETD and Yang & Yang). A block element's score is the sum
of the values of the segments in its subtree, so the best container is the subtree with the most
dense prose and the least link and furniture text around it (a maximum-sum subtree, the tree
analogue of the line max-subsequence method).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Final

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.page.class_words import STRONG_FURNITURE
from newsspider.extraction.page.page_model import (
    DENSE_CHAR_EXTRA,
    TEASER_HEADINGS,
    WRAPPER_BLOCK_SHARE,
    PageSegments,
    Segment,
)

# A segment pays a fixed cost: menus and bylines are many short blocks, prose a few long ones.
SEGMENT_COST: Final = 10.0
LINK_PENALTY: Final = 3.5
# A link inside a sentence is a citation, not navigation: a segment with punctuation and few
# link characters pays less for them than a link list does.
INLINE_LINK_SHARE: Final = 0.3
INLINE_LINK_PENALTY: Final = 2.0
BOILERPLATE_FACTOR: Final = 0.0
_CELL_TAGS: Final = frozenset({"td", "th"})
_CELL_COST: Final = SEGMENT_COST * 0.3
#: A teaser is a linked headline with a line or two of summary; more prose than this under one
#: headline is an article, whatever links its heading carries.
TEASER_MAX_PROSE: Final = 600
#: A page that marks one region as its main content (<main>, role="main") keeps its article
#: there: blocks inside it score this many times their value when the container is chosen, so
#: a consent text, a pay-wall dialog or a transcript outside needs a far larger score to win.
MAIN_REGION_WEIGHT: Final = 3.0
#: A listing repeats the teaser pattern: at least this many sibling items.
TEASER_MIN_ITEMS: Final = 3


def effective_chars(segment: Segment) -> float:
    return segment.chars + DENSE_CHAR_EXTRA * segment.dense_chars


def segment_value(
    chars: int,
    link_chars: int,
    punctuation: int,
    dense_chars: int,
    tag: str,
    *,
    in_sentence: bool = False,
) -> float:
    """How much a segment looks like article prose (positive) or furniture (negative), before
    `BOILERPLATE_FACTOR` (see `choose_container`). ``in_sentence``: its links are known to
    belong to the text around them (`_forgive_closing_links`), whatever their share.

    Takes the segment's fields, not a `Segment`: it runs over the page's lists."""
    # Without CJK the scale is exactly 1.0 (as `effective_chars(segment) / chars` otherwise).
    scale = (chars + DENSE_CHAR_EXTRA * dense_chars) / chars if chars and dense_chars else 1.0
    text = (chars - link_chars) * scale
    links = link_chars * scale
    # Sentences end in punctuation; link lists and menus rarely carry any.
    cap = 1 + text / 40
    # min() as it picks; float() keeps the product a native one when compiled (int * 10.0 is
    # the same float).
    punctuation_bonus = (cap if cap < punctuation else float(punctuation)) * 10.0
    # Table cells are data, not lines of page furniture: they pay a smaller share of the cost.
    cost = _CELL_COST if tag in _CELL_TAGS else SEGMENT_COST
    inline = in_sentence or (punctuation > 0 and link_chars < INLINE_LINK_SHARE * chars)
    link_penalty = INLINE_LINK_PENALTY if inline else LINK_PENALTY
    return text + punctuation_bonus - link_penalty * links - cost


@dataclass(frozen=True, slots=True)
class FurnitureMarks:
    """Which blocks scoring judged to be page furniture (`mark_furniture`)."""

    #: Per block: it or one of its ancestors is page furniture.
    blocks: list[bool]
    #: Per block: inside a section opened by a furniture heading ("You may also like"):
    #: furniture even inside the article.
    labelled: list[bool]
    #: Per segment: its owner block is furniture.
    segments: list[bool]


@dataclass(frozen=True, slots=True)
class ContainerChoice:
    block: int  # id of the chosen container block
    score: float
    # Lists, not tuples: a tuple would copy each page-sized list once more. Read-only.
    values: list[float]  # value per segment
    subtree_scores: list[float]  # score per block
    #: What scoring judged to be furniture: assembly leaves it out of the body.
    furniture: FurnitureMarks
    #: Best score of a block outside the chosen subtree and its ancestors: a close runner-up
    #: means the page has two article-like regions and the choice is uncertain.
    runner_up: float = 0.0
    #: When the article is a run of sibling blocks inside `block` (see `best_child_run`): those
    #: blocks, which assembly takes as the body's roots. Empty: the body is `block`'s subtree.
    run: tuple[int, ...] = ()


def teaser_blocks(page: PageSegments) -> list[bool]:
    """Per block: is it inside a teaser item of a listing (a stream of "more stories")?

    A teaser item is the largest block around one linked h2-h4 headline that holds no other
    linked headline; when at least `TEASER_MIN_ITEMS` sibling blocks each hold such headlines,
    the summaries under them are a listing, not an article, however well they read.
    """
    parents = page.block_parents
    teaser = [False] * len(parents)
    headline_owners = page.linked_heading_owners()
    if len(headline_owners) < TEASER_MIN_ITEMS:
        return teaser
    headlines = [0] * len(parents)
    # `a[i] = a[i] + x`, not `a[i] += x`: compiled, an augmented item assignment is a generic
    # object operation (about 100 instructions), the spelled-out sum a native one.
    for owner in headline_owners:
        headlines[owner] = headlines[owner] + 1
    for block_id in range(len(parents) - 1, 0, -1):
        parent = parents[block_id]
        if parent >= 0:
            headlines[parent] = headlines[parent] + headlines[block_id]
    items: dict[int, list[int]] = {}  # listing block -> its teaser items
    for owner in headline_owners:
        item = owner
        while parents[item] >= 0 and headlines[parents[item]] == 1:
            item = parents[item]
        parent = parents[item]
        if parent >= 0 and page.prose[item] <= TEASER_MAX_PROSE:
            items.setdefault(parent, []).append(item)
    for listing_items in items.values():
        if len(listing_items) >= TEASER_MIN_ITEMS:
            for item in listing_items:
                for block_id in range(item, page.block_ends[item] + 1):
                    teaser[block_id] = True
    return teaser


def _mark_labelled_sections(
    page: PageSegments, furniture: list[bool], labelled: list[bool]
) -> None:
    """A section that opens with a heading marked as furniture ("related-posts-title" over a
    run of recommended posts) is that furniture, whatever its own class says, and however much
    prose it holds. A block holding most of the page's structure is a layout wrapper whose first
    heading happens to be furniture, not a labelled section."""
    parents = page.block_parents
    ends = page.block_ends
    owners = page.segment_owners
    for index, tag in enumerate(page.segment_tags):
        if tag not in TEASER_HEADINGS:
            continue
        heading = owners[index]
        section = parents[heading]
        if page.block_signals[heading] > STRONG_FURNITURE or section < 0:
            continue
        end = ends[section]
        # A subtree's segments are contiguous in document order: the heading opens the section
        # when the segment before it lies outside.
        if index > 0 and section <= owners[index - 1] <= end:
            continue
        if end - section + 1 >= WRAPPER_BLOCK_SHARE * len(parents):
            continue
        furniture[section : end + 1] = [True] * (end + 1 - section)
        labelled[section : end + 1] = [True] * (end + 1 - section)


def mark_furniture(page: PageSegments) -> FurnitureMarks:
    """Flag furniture subtrees: strong furniture words or tags, unless the block is a layout
    wrapper around the article (see `PageSegments.is_wrapper`)."""
    parents = page.block_parents
    signals = page.block_signals
    furniture = [False] * len(parents)
    labelled = [False] * len(parents)
    # Parents come before children: one forward pass settles inheritance.
    for block_id, parent in enumerate(parents):
        furniture[block_id] = (parent >= 0 and furniture[parent]) or (
            signals[block_id] <= STRONG_FURNITURE and not page.is_wrapper(block_id, 0)
        )
    _mark_labelled_sections(page, furniture, labelled)
    return FurnitureMarks(furniture, labelled, [furniture[owner] for owner in page.segment_owners])


#: A sentence that introduces a list: at least this many characters, ending in a colon.
INTRO_MIN_CHARS: Final = 20
#: What each item of an introduced list is worth: nothing to speak of, but not a cost, and
#: enough for assembly to keep a link-only item.
INTRODUCED_ITEM_VALUE: Final = 1.0
_LIST_TAGS: Final = frozenset({"ul", "ol", "dl"})
#: How far above its first item an introduced list may start (li > p, div > ul > li > p).
_MAX_LIST_DEPTH: Final = 4


def _forgive_introduced_lists(page: PageSegments, values: list[float]) -> None:
    """A list that a sentence of the text introduces ("Many patches were sent for review:")
    belongs to the text, however many links its items are: a changelog, a reading list, a
    documentation page's index. Its items no longer count as navigation against the
    container that holds them. Menus and link footers are not introduced by a sentence."""
    intros = page.colon_segments  # recorded by the walk
    if not intros:
        return
    lines = page.segment_lines
    owners = page.segment_owners
    parents = page.block_parents
    ends = page.block_ends
    tags = page.block_tags
    count = len(owners)
    done = -1  # the last segment of the last forgiven list
    for index in intros:
        if (
            index <= done
            or index + 1 >= count
            or values[index] <= 0
            or page.segment_chars[index] < INTRO_MIN_CHARS
            or lines[index][-1].count(" ") < 2
        ):
            continue
        intro_end = ends[owners[index]]
        block = owners[index + 1]
        for _ in range(_MAX_LIST_DEPTH):
            if tags[block] in _LIST_TAGS or parents[block] <= intro_end:
                break
            block = parents[block]
        if tags[block] not in _LIST_TAGS or block <= intro_end:
            continue
        list_end = ends[block]
        item = index + 1
        while item < count and owners[item] <= list_end:
            values[item] = max(values[item], INTRODUCED_ITEM_VALUE)
            item += 1
        done = item - 1


def _forgive_surrounded_lists(page: PageSegments, values: list[float]) -> None:
    """A list that the text runs on both sides of, inside one block (a paragraph before it
    and one after it), is part of that text: a roundup's items each led by a link, a guide's
    list of links between its paragraphs. Its items no longer count as navigation against the
    container that holds them: a negative value becomes neutral, and items with words of
    their own beside the link are kept (`INTRODUCED_ITEM_VALUE`); assembly still drops bare
    links. Menus and link footers stand beside the
    text, not inside it."""
    parents = page.block_parents
    tags = page.block_tags
    owners = page.segment_owners
    ends = page.block_ends
    # The outermost list around each block (-1: none); parents come before children.
    outer = [-1] * len(parents)
    for block_id, parent in enumerate(parents):
        if parent >= 0 and outer[parent] >= 0:
            outer[block_id] = outer[parent]
        elif tags[block_id] in _LIST_TAGS:
            outer[block_id] = block_id
    count = len(owners)
    index = 0
    while index < count:
        listed = outer[owners[index]]
        if listed < 0:
            index += 1
            continue
        last = index
        while last + 1 < count and outer[owners[last + 1]] == listed:
            last += 1
        parent = parents[listed]
        before, after = index - 1, last + 1
        if (
            before >= 0
            and after < count
            and values[before] > 0
            and values[after] > 0
            and parent <= owners[before] < listed
            and ends[listed] < owners[after] <= ends[parent]
        ):
            for item in range(index, last + 1):
                if values[item] < 0:
                    # An item with words of its own beside its link is kept; a bare link not.
                    own_words = page.segment_link_chars[item] < page.segment_chars[item]
                    values[item] = INTRODUCED_ITEM_VALUE if own_words else 0.0
        index = last + 1


def _forgive_closing_links(page: PageSegments, values: list[float]) -> None:
    """A link alone on the last line of a list item, right after that item's own prose ("Learn
    more about the Page Inspector" under a feature's description), is the item's call to
    action, not navigation: it pays the rate of a link inside a sentence. A list of features,
    each closed by such a link, otherwise scores below nothing and falls out of the page it
    belongs to. Menu items have no prose before their links."""
    owners = page.segment_owners
    chars = page.segment_chars
    link_chars = page.segment_link_chars
    ends = page.block_ends
    count = len(owners)
    # Segments owned by a list item (the owner's tag per segment): few on most pages.
    for index in [i for i, tag in enumerate(page.segment_tags) if tag == "li"]:
        if index == 0 or link_chars[index] != chars[index] or values[index] >= 0:
            continue
        item, before = owners[index], index - 1
        if (
            item <= owners[before] <= ends[item]  # the prose is the item's own
            and (index + 1 == count or owners[index + 1] > ends[item])  # the link closes it
            and values[before] > 0
            and page.segment_punctuation[before] > 0
            and chars[before] - link_chars[before] >= 2 * chars[index]
        ):
            in_sentence = segment_value(
                chars[index],
                link_chars[index],
                page.segment_punctuation[index],
                page.segment_dense_chars[index],
                "li",
                in_sentence=True,
            )
            values[index] = max(values[index], in_sentence)


def _weigh_main_region(page: PageSegments, adjusted: list[float]) -> list[float]:
    if len(page.main_regions) != 1:  # none, or a page that nests several documents
        return adjusted
    weighed = list(adjusted)
    (region,) = page.main_regions
    for block_id in range(region, page.block_ends[region] + 1):
        if weighed[block_id] > 0:
            weighed[block_id] = weighed[block_id] * MAIN_REGION_WEIGHT
    return weighed


def choose_container(page: PageSegments) -> ContainerChoice | None:
    """The block whose subtree has the largest total segment value."""
    parents = page.block_parents
    if not parents or not page.segment_owners:
        return None
    marks = mark_furniture(page)
    teaser = teaser_blocks(page)
    chars, link_chars = page.segment_chars, page.segment_link_chars
    punctuation, dense_chars, tags = (
        page.segment_punctuation,
        page.segment_dense_chars,
        page.segment_tags,
    )
    # An index loop: compiled, it calls `segment_value` natively, where map() goes through a
    # Python call boxing every argument (about 1,000 instructions a segment).
    value_list = [
        segment_value(chars[i], link_chars[i], punctuation[i], dense_chars[i], tags[i])
        for i in range(len(chars))
    ]
    _forgive_introduced_lists(page, value_list)
    _forgive_surrounded_lists(page, value_list)
    _forgive_closing_links(page, value_list)
    boilerplate = marks.segments
    if True in boilerplate:
        for index, value in enumerate(value_list):
            if value > 0 and boilerplate[index]:
                value_list[index] = value * BOILERPLATE_FACTOR
    if True in teaser:
        for index, owner in enumerate(page.segment_owners):
            # A teaser's summary can cost the page's score but never add to it.
            if teaser[owner] and value_list[index] > 0.0:
                value_list[index] = 0.0
    scores = page.subtree_scores(value_list)
    adjusted = list(scores)
    declared = page.declared_bodies  # most pages declare none: no set lookup per block
    for block_id, furniture in enumerate(marks.blocks):
        if furniture:
            # A sidebar full of teasers can outscore a short article; it is never the article.
            adjusted[block_id] = min(scores[block_id], 0.0) - 1.0
        elif declared and block_id in declared and scores[block_id] > 0:
            adjusted[block_id] = scores[block_id] * 1.5
    weighed = _weigh_main_region(page, adjusted)
    # The first block of the highest weight, as max() with a key finds it, in a compiled loop
    # (max() calls the key through Python for every block).
    best, best_weight = 0, weighed[0]
    for block_id in range(1, len(weighed)):
        if weighed[block_id] > best_weight:
            best, best_weight = block_id, weighed[block_id]
    run = best_child_run(page, weighed, best, marks.blocks)
    run_score = scores[best]
    if run:
        best = parents[run[0]]
        run_score = sum(scores[block_id] for block_id in run)
    return ContainerChoice(
        best, run_score, value_list, scores, marks, _runner_up(page, adjusted, best), tuple(run)
    )


def _runner_up(page: PageSegments, adjusted: list[float], best: int) -> float:
    """The best adjusted score outside `best`'s subtree and its ancestors, at least 0.0.

    Furniture needs no test: its adjusted score is at most -1, below the floor. An index loop,
    not a max() over slices: those would copy the page-sized list."""
    ancestors = page.ancestors(best)
    runner_up = 0.0
    for block_id in range(best):
        if adjusted[block_id] > runner_up and block_id not in ancestors:
            runner_up = adjusted[block_id]
    for block_id in range(page.block_ends[best] + 1, len(adjusted)):
        runner_up = max(runner_up, adjusted[block_id])
    return runner_up


#: A run of sibling blocks is the article when it scores at least this many times the best
#: single block: no one block holds half of it (an encyclopedia article's paragraphs, each a
#: child of one wrapper that also holds an infobox, navigation boxes and references).
RUN_FACTOR: Final = 2.0
#: ... and holds at least this share of the positive score of its parent's children.
RUN_SHARE: Final = 0.5


def best_child_run(
    page: PageSegments, weighed: list[float], best: int, furniture: list[bool]
) -> list[int]:
    """The children of one block forming the contiguous run with the largest total score (the
    maximum-subsequence idea applied to each block's children), when that run beats the best
    single subtree by `RUN_FACTOR`; else []. Furniture children are left out of the run's
    roots (they break it anyway: their score is negative). Linear: each block is one child."""
    ends = page.block_ends
    best_score = weighed[best]
    threshold = RUN_FACTOR * best_score if best_score > 0 else math.inf
    # Whether a block is a box of links (most of its subtree's text is link text) is asked
    # only of the few blocks with a negative score (`_best_run`).
    subtree_chars = page.subtree_totals(page.segment_chars)
    compiled = BEST_RUN.active
    search = _best_run if compiled is None else compiled
    found = search(
        page, weighed, subtree_chars, furniture, threshold=threshold, best=best, share=RUN_SHARE
    )
    if found is None:
        return []
    _, first, last = found
    run = []
    block_id = first
    while block_id <= last:
        if not furniture[block_id]:
            run.append(block_id)
        block_id = ends[block_id] + 1
    return run if len(run) >= 2 else []


def _best_run(
    page: PageSegments,
    weighed: list[float],
    subtree_chars: list[int],
    furniture: list[bool],
    *,
    threshold: float,
    best: int,
    share: float,
) -> tuple[float, int, int] | None:
    """`best_child_run`'s search: (sum, first child, last child) of the best run of sibling
    blocks above `threshold` that is not inside `best` and holds `share` of what its parent's
    positive children add; None without one. (`_segments_c.best_run` is its compiled twin.)"""
    parents, ends, prose = page.block_parents, page.block_ends, page.prose
    # Kadane per parent, all parents at once: children of a block come in document order.
    current = [0.0] * len(parents)
    start = [-1] * len(parents)
    positive = [0.0] * len(parents)  # the parent's positive children, summed
    best_run = [(0.0, -1, -1)] * len(parents)  # per parent: (sum, first child, last child)
    # The parents with a run above the threshold (few, often none): only they are compared.
    with_run: list[int] = []
    for block_id in range(1, len(parents)):
        parent = parents[block_id]
        if parent < 0:
            continue
        score = weighed[block_id]
        if (
            score < 0
            and subtree_chars[block_id] > 0
            and 2 * prose[block_id] < subtree_chars[block_id]
            and not furniture[block_id]
        ):
            # A box of links between the article's paragraphs (its table of contents, an
            # infobox) is left out by assembly; it does not end the article.
            score = 0.0
        if score > 0:
            positive[parent] = positive[parent] + score
        # The parent's running sum in a local: compiled, each read of the list unboxes it.
        running = current[parent]
        if running > 0:
            running = running + score
        else:
            running = score
            start[parent] = block_id
        current[parent] = running
        if running > threshold and running > best_run[parent][0]:
            if best_run[parent][1] < 0:
                with_run.append(parent)
            best_run[parent] = (running, start[parent], block_id)
    found: tuple[float, int, int] | None = None
    # In parent order, as the first of equal runs is kept.
    for parent in sorted(with_run):
        run_total = best_run[parent]
        # The run is the parent's content, not one fragment of an article cut by in-text
        # boxes: it holds most of what its siblings add.
        # Runs inside the best block only trim its edges: assembly already leaves out its
        # furniture, and its siblings may join it.
        inside = best <= parent <= ends[best]
        if (
            run_total[1] >= 0
            and not inside
            and run_total[0] >= share * positive[parent]
            and (found is None or run_total[0] > found[0])
        ):
            found = run_total
    return found


# The compiled search (newsspider/extraction/page/_segments_c.pyx, beside the compiled walk),
# built at install time when a C compiler is there; `_best_run` is the reference.
_compiled: ModuleType | None = None
try:
    from newsspider.extraction.page import _segments_c
except ImportError:  # not built (no compiler at install time): the Python search
    pass
else:
    _compiled = _segments_c

#: `_best_run` compiled (absent from a walk module built before it was added).
BEST_RUN: Final[CompiledTwin[Callable[..., tuple[float, int, int] | None]]] = CompiledTwin(
    getattr(_compiled, "best_run", None)
)
