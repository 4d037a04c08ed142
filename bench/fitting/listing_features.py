"""Listing evidence tried beside the page classifier's features (issue 32, fourth round; not
shipped: `fit_page_type --listing` appends them to every row, docs/page-type.md).

What listings share that articles lack, read from the page model's structure only (no word
lists, no site names): sibling items of one *shape* repeated down a list, however long their
text and however few their links (the teaser templates of `page_features` need headline-length,
partly linked items); dates repeated item after item; a body made of such items; headings each
followed by a short text; and links crowding the body's container around the body.

Linear in the page's blocks and the body's segments: an item's shape is the tag sequence of its
subtree, read only for subtrees of at most `_SHAPE_BLOCKS` blocks, so each block is read by at
most that many ancestors.
"""

from __future__ import annotations

import math
from typing import Final

from newsspider.extraction.classify.pagetype import dated, has_digit
from newsspider.extraction.page.page_model import HEADING_TAGS, PageSegments

__all__ = ["LISTING_NAMES", "listing_features"]

#: The names of `listing_features`'s values, in order (after `page_features.FEATURE_NAMES`).
LISTING_NAMES: Final = (
    "shaped_items",
    "shaped_groups",
    "shaped_share",
    "shaped_dated_items",
    "body_in_shaped",
    "container_outside_links",
    "short_sections",
)

#: An item's shape is read for subtrees of 2 to this many blocks (a lone block is a paragraph,
#: not an item; a larger subtree is a region, not an item).
_SHAPE_BLOCKS: Final = 40
#: A group of items: at least this many siblings of one shape.
_GROUP_MIN: Final = 3
#: An item holds at least this many characters (an icon row is no list of items).
_ITEM_MIN_CHARS: Final = 10
#: A dated line: at most this many characters (a date line, not a sentence holding a date).
_DATE_LINE_MAX: Final = 60
#: A short section: a heading followed by fewer characters than this before the next heading.
_SHORT_SECTION: Final = 200


def _log(value: float) -> float:
    return math.log1p(value)


def _dated_blocks(page: PageSegments, count: int) -> list[bool]:
    """Per block: does it own a short line that reads as a date (`pagetype.dated`)?"""
    marks = [False] * count
    owners = page.segment_owners
    chars = page.segment_chars
    lines = page.segment_lines
    for index in range(len(owners)):
        if chars[index] > _DATE_LINE_MAX:
            continue
        owner = owners[index]
        if not 0 <= owner < count or marks[owner]:
            continue
        for line in lines[index]:
            if has_digit(line) and dated(line):
                marks[owner] = True
                break
    return marks


def _link_totals(page: PageSegments, count: int) -> list[int]:
    """Per block: the link characters in its subtree (children have larger ids than their
    parent, so one reverse sweep adds each block's total to its parent's)."""
    totals = [0] * count
    owners = page.segment_owners
    link_chars = page.segment_link_chars
    for index in range(len(owners)):
        owner = owners[index]
        if link_chars[index] and 0 <= owner < count:
            totals[owner] += link_chars[index]
    parents = page.block_parents
    for block in range(count - 1, 0, -1):
        parent = parents[block]
        if totals[block] and 0 <= parent < count:
            totals[parent] += totals[block]
    return totals


def listing_features(
    page: PageSegments, segment_ids: tuple[int, ...], container: int
) -> list[float]:
    """The values named in `LISTING_NAMES`:

    - ``shaped_items``: items in the largest group of three or more sibling blocks of one
      shape (the tag sequence of a subtree of 2 to 40 blocks), log;
    - ``shaped_groups``: such groups, log;
    - ``shaped_share``: the page's characters (prose and links) inside them;
    - ``shaped_dated_items``: their items holding a short dated line, log;
    - ``body_in_shaped``: the body's characters inside them;
    - ``container_outside_links``: link characters among the characters of the container's
      parent outside the container (the body's neighbours, -1 without a container);
    - ``short_sections``: the body's headings followed by fewer than 200 characters before
      the next heading, as a share of its headings (0 without one).
    """
    parents = page.block_parents
    tags = page.block_tags
    ends = page.block_ends
    prose = page.prose
    count = min(len(parents), len(tags), len(ends), len(prose))
    links = _link_totals(page, count)
    groups: dict[tuple[int, tuple[str, ...]], list[int]] = {}
    for block in range(1, count):
        end = ends[block]
        if end <= block or end - block >= _SHAPE_BLOCKS or end >= count:
            continue
        if prose[block] + links[block] < _ITEM_MIN_CHARS:
            continue
        key = (parents[block], tuple(tags[block : end + 1]))
        members = groups.get(key)
        if members is None:
            groups[key] = [block]
        else:
            members.append(block)
    largest = n_groups = shaped_chars = dated_items = 0
    inside = [False] * count
    dated_owned: list[bool] | None = None
    for members in groups.values():
        if len(members) < _GROUP_MIN:
            continue
        n_groups += 1
        largest = max(largest, len(members))
        if dated_owned is None:
            dated_owned = _dated_blocks(page, count)
        for block in members:
            if inside[block]:  # inside an item of an enclosing group: counted there
                continue
            shaped_chars += prose[block] + links[block]
            has_date = False
            for inner in range(block, ends[block] + 1):
                inside[inner] = True
                has_date = has_date or dated_owned[inner]
            dated_items += has_date
    total = (prose[0] + links[0]) if count else 0
    owners = page.segment_owners
    chars = page.segment_chars
    segment_tags = page.segment_tags
    body = in_shaped = headings = short = 0
    section = -1  # characters since the last heading, -1 before the first
    for index in segment_ids:
        size = chars[index]
        body += size
        owner = owners[index]
        if 0 <= owner < count and inside[owner]:
            in_shaped += size
        if segment_tags[index] in HEADING_TAGS:
            if 0 <= section < _SHORT_SECTION:
                short += 1
            headings += 1
            section = 0
        elif section >= 0:
            section += size
    if 0 <= section < _SHORT_SECTION:
        short += 1
    outside = -1.0
    if 0 < container < count:
        parent = parents[container]
        if 0 <= parent < count:
            rest = prose[parent] + links[parent] - prose[container] - links[container]
            rest_links = links[parent] - links[container]
            outside = rest_links / rest if rest > 0 else 0.0
    return [
        _log(largest),
        _log(n_groups),
        shaped_chars / total if total else 0.0,
        _log(dated_items),
        in_shaped / body if body else 0.0,
        outside,
        short / headings if headings else 0.0,
    ]
