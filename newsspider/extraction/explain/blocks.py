"""Why each text block of a page is in the body or left out, and which container was chosen:
read back from the stages' results (`StageRecord`), never by re-running a stage."""

from __future__ import annotations

from typing import Any

from newsspider.extraction.body.assembly import MAX_LINK_DENSITY, BodySelection
from newsspider.extraction.body.scoring import ContainerChoice, teaser_blocks
from newsspider.extraction.body.threads import MAX_LINK_DENSITY as MAX_POST_LINK_DENSITY
from newsspider.extraction.body.trimming import MIN_AUTHOR_NAME, _is_metadata_line
from newsspider.extraction.body.trimming import _squash as _squash_edge
from newsspider.extraction.explain.model import (
    MAX_BLOCK_TEXT,
    MAX_BLOCKS,
    BlockExplanation,
    ContainerExplanation,
)
from newsspider.extraction.metadata.reader import PageMetadata
from newsspider.extraction.page.class_words import (
    OVERLAY_TOKENS,
    STRONG_FURNITURE,
    STRONG_NEGATIVE_TOKENS,
    WEAK_NEGATIVE_TOKENS,
    class_meaning,
)
from newsspider.extraction.page.page_model import SUBHEADING_TAGS, PageSegments, Segment
from newsspider.extraction.page.visibility import hidden_attributes, hidden_class
from newsspider.extraction.stages import StageRecord


def block_path(element: Any) -> str:
    """``tag#id.class1.class2`` for an element, shortened: enough to find it in the page."""
    tag = element.tag if isinstance(element.tag, str) else "?"
    ident = (element.get("id") or "").strip()
    classes = (element.get("class") or "").split()[:3]
    path = tag + (f"#{ident[:40]}" if ident else "")
    return path + "".join(f".{c[:40]}" for c in classes)


_WORD_ORDER = (OVERLAY_TOKENS, STRONG_NEGATIVE_TOKENS, WEAK_NEGATIVE_TOKENS)


def _furniture_word(element: Any) -> str | None:
    """The class/id word, tag or attribute that marks an element as furniture."""
    tag = element.tag if isinstance(element.tag, str) else ""
    if tag in ("nav", "aside", "footer", "menu"):
        return f"the <{tag}> tag"
    if hidden_attributes(element):
        return "hidden (inline style or hidden attribute)"
    classes, ident = element.get("class"), element.get("id")
    if classes and hidden_class(classes):
        return f'hidden by its class="{classes[:60]}"'
    if element.get("aria-modal") == "true" or element.get("role") in ("dialog", "alertdialog"):
        return "a dialog (role or aria-modal)"
    found = class_meaning(classes, ident)[3]
    # The word that set the signal first: an overlay word, then a strong one, then a weak one.
    words = [w for group in _WORD_ORDER for w in sorted(found & group)]
    if words:
        word = words[0]
        attr, value = ("class", classes) if classes and word in classes.lower() else ("id", ident)
        return f'the word "{word}" in {attr}="{(value or "")[:60]}"'
    return None


def _furniture_origin(
    page: PageSegments, labelled: list[bool], owner: int, stop: int, level: int
) -> str:
    """Which block at or above `owner` (not above `stop`) carries a furniture signal at or
    below `level`, and why."""
    block_id = owner
    while block_id >= 0 and block_id >= stop:
        if page.block_signals[block_id] <= level:
            element = page.block_elements[block_id]
            word = _furniture_word(element) or "its class or id"
            where = "" if block_id == owner else f" on the enclosing {block_path(element)}"
            return f"{word}{where}"
        if labelled[block_id]:
            heading = _first_heading_text(page, block_id)
            return f'a section opened by a furniture heading "{heading}"'
        block_id = page.block_parents[block_id]
    return "inherited furniture mark"


def _first_heading_text(page: PageSegments, block_id: int) -> str:
    end = page.block_ends[block_id]
    for index, owner in enumerate(page.segment_owners):
        if block_id <= owner <= end:
            return page.segment(index).text[:60]
    return ""


def _roots(page: PageSegments, selection: BodySelection | None) -> list[int]:
    """The body's top blocks: the container and any siblings joined to it."""
    if selection is None:
        return []
    owners = {page.segment_owners[i] for i in selection.segment_ids}
    parents = page.block_parents
    container = selection.container
    roots = {container}
    for owner in owners:
        block_id = owner
        while block_id >= 0 and parents[block_id] != parents[container]:
            block_id = parents[block_id]
        if block_id >= 0:
            roots.add(block_id)
    return sorted(roots)


def explain_blocks(
    page: PageSegments, choice: ContainerChoice | None, record: StageRecord
) -> tuple[tuple[BlockExplanation, ...], int]:
    selection = record.selection
    kept = set(selection.segment_ids) if selection else set()
    captions = set(selection.caption_ids) if selection else set()
    untrimmed = set(record.untrimmed.segment_ids) if record.untrimmed else set()
    roots = _roots(page, selection)
    in_roots = [False] * len(page.block_tags)
    for root in roots:
        in_roots[root : page.block_ends[root] + 1] = [True] * (page.block_ends[root] + 1 - root)
    teaser = teaser_blocks(page) if choice is not None else []
    furniture = choice.furniture.blocks if choice is not None else []
    labelled = choice.furniture.labelled if choice is not None else []
    main = next(iter(page.main_regions)) if len(page.main_regions) == 1 else None
    values = choice.values if choice is not None else ()
    count = len(page.segment_owners)
    # A line left out inside one of the thread's posts has a reason of its own.
    post_of = [-1] * len(page.block_tags)
    if record.thread_posts:
        for post in record.thread_posts:
            end = page.block_ends[post]
            post_of[post : end + 1] = [post] * (end + 1 - post)
    explained = []
    for index in range(min(count, MAX_BLOCKS)):
        owner = page.segment_owners[index]
        chars = page.segment_chars[index]
        density = page.segment_link_chars[index] / chars if chars else 0.0
        value = values[index] if values else 0.0
        reason, detail = None, None
        if index not in kept:
            reason, detail = _drop_reason(
                page, index, owner, density, value,
                labelled=labelled,
                metadata=record.metadata,
                in_roots=bool(roots) and in_roots[owner],
                caption=index in captions or page.block_captions[owner],
                trimmed=index in untrimmed,
                teaser=bool(teaser) and teaser[owner],
                furniture=bool(furniture) and furniture[owner],
                outside_main=main is not None and not main <= owner <= page.block_ends[main],
                thread=record.thread,
                post=post_of[owner],
                chosen=choice is not None,
                container=selection.container if selection else 0,
            )  # fmt: skip
        explained.append(
            BlockExplanation(
                index=index,
                tag=page.segment_tags[index],
                path=block_path(page.block_elements[owner]),
                text=page.segment(index).text[:MAX_BLOCK_TEXT],
                chars=chars,
                link_density=round(density, 3),
                value=round(value, 2),
                in_body=index in kept,
                reason=reason,
                detail=detail,
            )
        )
    return tuple(explained), max(0, count - MAX_BLOCKS)


def _drop_reason(
    page: PageSegments,
    index: int,
    owner: int,
    density: float,
    value: float,
    *,
    labelled: list[bool],
    metadata: PageMetadata | None,
    in_roots: bool,
    caption: bool,
    trimmed: bool,
    teaser: bool,
    furniture: bool,
    outside_main: bool,
    thread: bool,
    post: int,
    chosen: bool,
    container: int,
) -> tuple[str, str | None]:
    """Why one segment is not in the body: the first of the assembly's tests it failed."""
    if not chosen:
        return "not-chosen", "no container was chosen (or another algorithm ran)"
    if trimmed:
        return "trimmed-edge", _trim_detail(page.segment(index), metadata)
    if page.segment_tags[index] == "h1":
        return "headline", "the h1 is the title field, not body text"
    if caption:
        return "caption", "a figure caption or credit: kept in body_html, not in the text"
    if thread:
        return _thread_drop_reason(page, index, density, labelled=labelled, post=post)
    if in_roots:
        if (
            page.block_signals[owner] < 0
            or any(page.block_signals[b] < 0 for b in _ancestors(page, owner, container))
            or labelled[owner]
        ):
            return "furniture", _furniture_origin(page, labelled, owner, container, -1)
        if density > MAX_LINK_DENSITY:
            return (
                "link-density",
                f"{density:.0%} of its text is links (limit {MAX_LINK_DENSITY:.0%})",
            )
        return "furniture", "a box marked as furniture inside the container"
    if furniture:
        return "furniture", _furniture_origin(page, labelled, owner, 0, STRONG_FURNITURE)
    if teaser:
        return "teaser", "part of a stream of linked headlines with summaries (a listing)"
    if outside_main:
        return "outside-main-region", "the page marks its main content (<main>) elsewhere"
    if density > MAX_LINK_DENSITY:
        return "link-density", f"outside the container, and {density:.0%} of it is links"
    return "outside-container", f"value {value:.1f}, outside the chosen container"


def _thread_drop_reason(
    page: PageSegments, index: int, density: float, *, labelled: list[bool], post: int
) -> tuple[str, str | None]:
    """Why a line is not in a thread's body (`threads.thread_segments`' tests, in order)."""
    owner = page.segment_owners[index]
    if post < 0:
        return "not-a-post", "the body is the posts of a forum thread; this is outside them"
    # The post's own name may be furniture ("comment"): only what it holds counts.
    inside = [owner, *_ancestors(page, owner, post)] if owner != post else []
    if any(page.block_signals[b] <= STRONG_FURNITURE for b in inside):
        return "furniture", _furniture_origin(page, labelled, owner, post + 1, STRONG_FURNITURE)
    if density > MAX_POST_LINK_DENSITY:
        return "link-density", f"{density:.0%} of this line in a post is links"
    if page.segment_tags[index] in SUBHEADING_TAGS:
        return "heading-without-text", "no post text follows this heading in the thread"
    return "not-a-post", "left out of the thread's posts"


def _trim_detail(segment: Segment, metadata: PageMetadata | None) -> str:
    """Which of the edge tests (`trimming.trim_edges`) a trimmed line met."""
    title = metadata.title if metadata else None
    if title and _squash_edge(segment.text) == _squash_edge(title):
        return "at the body's edge, it repeats the headline (the title field)"
    names = [
        a.casefold() for a in (metadata.authors if metadata else ()) if len(a) >= MIN_AUTHOR_NAME
    ]
    if _is_metadata_line(segment, names):
        return "a short edge line with a date, a time or an author (a dateline or byline)"
    return "a short line without sentence punctuation at the body's end (a widget crumb)"


def _ancestors(page: PageSegments, owner: int, stop: int) -> list[int]:
    """The blocks enclosing ``owner``, nearest first, up to (not including) ``stop``."""
    found = []
    block_id = page.block_parents[owner]
    while block_id > stop:
        found.append(block_id)
        block_id = page.block_parents[block_id]
    return found


def explain_container(
    page: PageSegments, choice: ContainerChoice, record: StageRecord
) -> ContainerExplanation:
    selection = record.selection
    assert selection is not None
    runner_up = _runner_up_block(page, choice)
    roots = _roots(page, selection)
    return ContainerExplanation(
        path=block_path(page.block_elements[selection.container]),
        score=round(choice.subtree_scores[selection.container], 2),
        runner_up_path=block_path(page.block_elements[runner_up])
        if runner_up is not None
        else None,
        runner_up_score=round(choice.runner_up, 2),
        method="thread" if record.thread else "page-content" if record.page_content else "density",
        roots=tuple(block_path(page.block_elements[r]) for r in roots if r != selection.container),
    )


def _runner_up_block(page: PageSegments, choice: ContainerChoice) -> int | None:
    """The best-scoring block outside the chosen subtree and its ancestors (as scoring picks it,
    with furniture excluded)."""
    if choice.runner_up <= 0:
        return None
    ancestors = {choice.block, *_ancestors(page, choice.block, -1)}
    end = page.block_ends[choice.block]
    furniture = choice.furniture.blocks
    best, best_score = None, 0.0
    for block_id, score in enumerate(choice.subtree_scores):
        if block_id in ancestors or choice.block <= block_id <= end:
            continue
        if furniture[block_id]:
            continue
        weighed = score * 1.5 if block_id in page.declared_bodies else score
        if weighed > best_score:
            best, best_score = block_id, weighed
    return best
