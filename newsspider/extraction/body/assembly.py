"""From a chosen container to the article body: which segments stay, in document order."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from newsspider.extraction.body.scoring import ContainerChoice, effective_chars
from newsspider.extraction.common.textstats import SENTENCE_ENDS
from newsspider.extraction.page.page_model import HEADING_TAGS, SUBHEADING_TAGS, PageSegments

MAX_LINK_DENSITY: Final = 0.5
# A sibling of the container joins the body when it is at least this share of the container's
# score: articles split into several sibling blocks (lead, body, continuation) are common.
SIBLING_SHARE: Final = 0.25
#: Elements that are a box of their own inside the article, whatever their class: a `<form>`
#: holds a form's labels and instructions ("Request information", "First name *"), never the
#: article's text, unless it wraps the whole page (ASP.NET), which `is_wrapper` tells.
_BOX_TAGS: Final = frozenset({"form"})


@dataclass(frozen=True, slots=True)
class BodySelection:
    container: int
    segment_ids: tuple[int, ...]
    #: Figure captions inside the article: left out of the text, kept for the HTML.
    caption_ids: tuple[int, ...] = ()


def furniture_below(
    page: PageSegments, roots: list[int], labelled: list[bool], *, article: bool = True
) -> list[bool]:
    """Per block: is it, or a block between it and one of the chosen roots, page furniture?
    (`labelled`: the sections scoring found opened by a furniture heading; ``article``: the
    roots hold an article, so `_BOX_TAGS` are boxes in it. A page's content, `page_content`,
    may be a product grid inside a form.)"""
    parents = page.block_parents
    signals = page.block_signals
    tags = page.block_tags
    box_tags = _BOX_TAGS if article else frozenset()
    furniture = [False] * len(parents)
    for root in roots:
        for block_id in range(root + 1, page.block_ends[root] + 1):
            parent = parents[block_id]
            inherited = furniture[parent] if parent > root else False
            furniture[block_id] = (
                inherited
                or labelled[block_id]
                or (
                    (signals[block_id] < 0 or tags[block_id] in box_tags)
                    and not page.is_wrapper(block_id, root)
                )
            )
    return furniture


def _is_heading_block(page: PageSegments, block_id: int) -> bool:
    if block_id < 0:
        return False
    return page.block_tags[block_id] in SUBHEADING_TAGS and page.block_signals[block_id] >= 0


def _sibling_roots(page: PageSegments, choice: ContainerChoice) -> list[int]:
    parent = page.block_parents[choice.block]
    # The page's <main> holds all of its content: what lies beside it is not the article.
    if parent < 0 or choice.score <= 0 or choice.block in page.main_regions:
        return [choice.block]
    threshold = choice.score * SIBLING_SHARE
    ends = page.block_ends
    signals = page.block_signals
    scores = choice.subtree_scores
    siblings: list[int] = []
    block_id = parent + 1
    while block_id <= ends[parent]:
        siblings.append(block_id)
        block_id = ends[block_id] + 1
    joined = [
        block_id == choice.block or (signals[block_id] >= 0 and scores[block_id] >= threshold)
        for block_id in siblings
    ]
    rows = set(_repeated_rows(page, choice, choice.block))
    joined = [was or block_id in rows for was, block_id in zip(joined, siblings, strict=True)]
    roots: list[int] = []
    for position, block_id in enumerate(siblings):
        if not joined[position]:
            continue
        # A sub-heading right before a joined block introduces it: "Apple AirPods Pro" over
        # the paragraph about them scores too little to join on its own.
        previous = siblings[position - 1] if position else -1
        if _is_heading_block(page, previous) and (not roots or roots[-1] != previous):
            roots.append(previous)
        roots.append(block_id)
    # Rows one level up: the container is the text column of the first row.
    if not rows and parent not in page.main_regions:
        upper = _repeated_rows(page, choice, parent)
        if upper:
            roots = sorted([*roots, *upper])
    return roots


def _same_template(page: PageSegments, block_id: int, other: int) -> bool:
    classes = page.block_elements[block_id].get("class")
    return (
        bool(classes)
        and page.block_tags[other] == page.block_tags[block_id]
        and page.block_elements[other].get("class") == classes
    )


def _repeated_rows(page: PageSegments, choice: ContainerChoice, block_id: int) -> list[int]:
    """An article laid out as repeated rows (each a text column beside an aside) is split
    across blocks built from one template: the container's siblings, or its parent's, with
    the same tag and class that add prose, however little. Boxes, disclaimers and summaries
    beside the text are built from other templates and stay out."""
    parent = page.block_parents[block_id]
    if parent < 0:
        return []
    ends = page.block_ends
    rows = []
    sibling = parent + 1
    while sibling <= ends[parent]:
        if (
            sibling != block_id
            and choice.subtree_scores[sibling] > 0
            and page.block_signals[sibling] >= 0
            and _same_template(page, block_id, sibling)
        ):
            rows.append(sibling)
        sibling = ends[sibling] + 1
    return rows


def _run_roots(page: PageSegments, choice: ContainerChoice) -> list[int]:
    """A run of siblings (`scoring.best_child_run`) stops at a negative block: a paragraph
    dense with links, a recommendation box. The siblings its best block would join on its
    own (`_sibling_roots`) join the run too: an article cut in two by a box stays whole."""
    scores = choice.subtree_scores
    best = max(choice.run, key=scores.__getitem__)
    alone = replace(choice, block=best, score=scores[best], run=())
    return sorted(set(choice.run).union(_sibling_roots(page, alone)))


def _keep(
    page: PageSegments,
    index: int,
    link_density: float,
    value: float,
    *,
    furniture: bool,
    caption: bool,
) -> bool:
    if furniture or caption:
        return False
    tag = page.segment_tags[index]
    if tag == "h1":
        return False  # the headline is the title field, not body text
    if tag in HEADING_TAGS:
        return link_density <= MAX_LINK_DENSITY
    return link_density <= MAX_LINK_DENSITY or value > 0 or _cited_sentence(page, index)


#: A sentence whose own words, outside its links, run to this many characters (CJK counted
#: as dense) is text that cites, however much of it is linked.
CITING_SENTENCE_CHARS: Final = 40


def _cited_sentence(page: PageSegments, index: int) -> bool:
    """A line of prose that links what it names ("This hotel features in my lists of the
    <a>best hotels in New York</a> and the <a>most stunning pools</a>."): it ends a sentence
    and has words of its own. A "Related: <a>Headline</a>" line has one or two."""
    segment = page.segment(index)  # a few segments per page get here
    # Its own words weighed like all of its text (CJK as words), by their share of it.
    own = (segment.chars - segment.link_chars) * effective_chars(segment) / segment.chars
    return own >= CITING_SENTENCE_CHARS and segment.text.rstrip().endswith(SENTENCE_ENDS)


def select_body(page: PageSegments, choice: ContainerChoice) -> BodySelection:
    roots = _run_roots(page, choice) if choice.run else _sibling_roots(page, choice)
    furniture = furniture_below(page, roots, choice.furniture.labelled)
    in_body = [False] * len(page.block_tags)
    for root in roots:
        end = page.block_ends[root]
        in_body[root : end + 1] = [True] * (end + 1 - root)
    kept = []
    captions = []
    block_captions = page.block_captions
    chars, link_chars = page.segment_chars, page.segment_link_chars
    for index, owner in enumerate(page.segment_owners):
        if not in_body[owner]:
            continue
        caption = block_captions[owner]
        link_density = link_chars[index] / chars[index] if chars[index] else 0.0
        value = choice.values[index]
        if _keep(page, index, link_density, value, furniture=furniture[owner], caption=caption):
            kept.append(index)
        elif caption and not furniture[owner] and link_density <= MAX_LINK_DENSITY:
            captions.append(index)
    return BodySelection(choice.block, tuple(kept), tuple(captions))


def body_text(page: PageSegments, selection: BodySelection) -> str:
    lines: list[str] = []
    for index in selection.segment_ids:
        lines.extend(page.segment_lines[index])
    return "\n".join(lines)
