"""From a chosen container to the article body: which segments stay, in document order."""

from __future__ import annotations

from dataclasses import dataclass

from newsspider.extraction.scoring import ContainerChoice
from newsspider.extraction.segments import HEADING_TAGS, SUBHEADING_TAGS, PageSegments, Segment

MAX_LINK_DENSITY = 0.5
# A sibling of the container joins the body when it is at least this share of the container's
# score: articles split into several sibling blocks (lead, body, continuation) are common.
SIBLING_SHARE = 0.25


@dataclass(frozen=True, slots=True)
class BodySelection:
    container: int
    segment_ids: tuple[int, ...]
    #: Figure captions inside the article: left out of the text, kept for the HTML.
    caption_ids: tuple[int, ...] = ()


def _furniture_below(page: PageSegments, roots: list[int]) -> list[bool]:
    """Per block: is it, or a block between it and one of the chosen roots, page furniture?"""
    blocks = page.blocks
    furniture = [False] * len(blocks)
    for root in roots:
        for block_id in range(root + 1, blocks[root].end + 1):
            block = blocks[block_id]
            inherited = furniture[block.parent] if block.parent > root else False
            furniture[block_id] = (
                inherited
                or block.labelled_furniture
                or (block.signal < 0 and not page.is_wrapper(block_id, root))
            )
    return furniture


def _is_heading_block(page: PageSegments, block_id: int) -> bool:
    if block_id < 0:
        return False
    block = page.blocks[block_id]
    return block.tag in SUBHEADING_TAGS and block.signal >= 0


def _sibling_roots(page: PageSegments, choice: ContainerChoice) -> list[int]:
    blocks = page.blocks
    container = blocks[choice.block]
    # The page's <main> holds all of its content: what lies beside it is not the article.
    if container.parent < 0 or choice.score <= 0 or container.main_region:
        return [choice.block]
    threshold = choice.score * SIBLING_SHARE
    roots: list[int] = []
    parent = container.parent
    block_id = parent + 1
    end = blocks[parent].end
    previous = -1
    while block_id <= end:
        node = blocks[block_id]
        if block_id == choice.block or (
            node.signal >= 0 and choice.subtree_scores[block_id] >= threshold
        ):
            # A sub-heading right before a joined block introduces it: "Apple AirPods Pro" over
            # the paragraph about them scores too little to join on its own.
            if _is_heading_block(page, previous) and (not roots or roots[-1] != previous):
                roots.append(previous)
            roots.append(block_id)
        previous = block_id
        block_id = node.end + 1
    return roots


def _keep(segment: Segment, value: float, furniture: bool, caption: bool) -> bool:
    if furniture or caption:
        return False
    if segment.tag == "h1":
        return False  # the headline is the title field, not body text
    if segment.tag in HEADING_TAGS:
        return segment.link_density <= MAX_LINK_DENSITY
    return segment.link_density <= MAX_LINK_DENSITY or value > 0


def select_body(page: PageSegments, choice: ContainerChoice) -> BodySelection:
    roots = _sibling_roots(page, choice)
    furniture = _furniture_below(page, roots)
    in_body = [False] * len(page.blocks)
    for root in roots:
        end = page.blocks[root].end
        in_body[root : end + 1] = [True] * (end + 1 - root)
    kept = []
    captions = []
    for index, segment in enumerate(page.segments):
        owner = segment.owner
        if not in_body[owner]:
            continue
        node = page.blocks[owner]
        if _keep(segment, choice.values[index], furniture[owner], node.caption):
            kept.append(index)
        elif node.caption and not furniture[owner] and segment.link_density <= MAX_LINK_DENSITY:
            captions.append(index)
    return BodySelection(choice.block, tuple(kept), tuple(captions))


def body_text(page: PageSegments, selection: BodySelection) -> str:
    lines: list[str] = []
    for index in selection.segment_ids:
        lines.extend(page.segments[index].lines)
    return "\n".join(lines)
