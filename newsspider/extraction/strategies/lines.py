"""The line model shared by the line methods (Html2Article, max subsequence, CETR, the learned
line classifier).

Those methods were defined on the lines of the HTML *source*. This project parses and cleans
each page once for every strategy, so a line here is defined on the cleaned tree instead:

* **one line per text segment** of `PageSegments` (a run of inline text between two
  block boundaries, in document order), so line ``i`` is segment ``i`` and a method's answer is
  simply the ids of the lines it judges content;
* each line carries its **markup**: the tags (and their characters, as they would be written:
  ``<a href="...">`` counts its attributes, ``</a>`` its name) of the inline elements inside it,
  plus the block tags crossed since the previous line (the "boundary" before it, where in
  conventionally formatted source the block tags sit on lines of their own). Images and embeds
  met inside the line or in the boundary before it count for the line;
* the pieces of the line split after each ``</a>`` (Html2Article breaks source lines there), as
  character counts, for the methods that window over source-like lines.

Everything is computed in one iterative ``iterwalk`` over the cleaned tree that follows the
segment walk's boundaries exactly (same block tags, same skipped hidden inline elements), so the
n-th line it closes is the n-th segment; if the two ever disagree (the segment walk changed),
`build_lines` falls back to a markup estimate from the segments alone (``aligned`` is False).
No recursion, linear in the size of the tree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from lxml import etree

from newsspider.extraction.body.assembly import BodySelection
from newsspider.extraction.page.page_model import BLOCK_TAGS, PageSegments
from newsspider.extraction.page.visibility import hidden_class, hidden_style

__all__ = [
    "IMAGE_TAGS",
    "Lines",
    "build_lines",
    "container_of",
    "selection_from",
]

#: Elements that count as an image of the line (``amp-img`` is a block: it counts in the gap).
IMAGE_TAGS = frozenset({"img", "amp-img"})
#: Embedded media. Cleaning strips iframe/object/embed/video/audio, so few survive to be counted.
EMBED_TAGS = frozenset(
    {"iframe", "embed", "object", "video", "audio", "amp-iframe", "amp-video", "amp-youtube"}
)
#: Elements written without an end tag.
VOID_TAGS = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param"}
    | {"source", "track", "wbr"}
)
#: Inline elements the segment walk never skips, even when styled hidden.
_NEVER_SKIPPED = frozenset({"a", "br"})
#: Block tags that sit on the text line itself in formatted source (its own open and close).
_TAGS_ON_TEXT_LINE = 2


@dataclass(slots=True)
class Lines:
    """Per-line measures, one entry per segment (same index)."""

    #: Characters of the line's text (the segment's).
    chars: list[int]
    #: Characters inside links.
    link_chars: list[int]
    #: Tags: the inline tags within the line plus the block tags in the boundary before it.
    tags: list[int]
    #: Characters of those tags, as written in HTML.
    tag_chars: list[int]
    #: Block tags crossed between the previous line and this one.
    boundary: list[int]
    #: Images inside the line or in the boundary before it.
    images: list[int]
    #: Embedded media inside the line or in the boundary before it.
    embeds: list[int]
    #: Character counts of the line split after each ``</a>`` (one entry when it has no link).
    pieces: list[tuple[int, ...]]
    #: False when the markup walk did not match the segments and estimates were used.
    aligned: bool = True

    def __len__(self) -> int:
        return len(self.chars)

    def blank_lines_before(self, index: int) -> int:
        """Tag-only source lines the boundary before ``index`` would take in formatted HTML."""
        return max(0, self.boundary[index] - _TAGS_ON_TEXT_LINE)


def _start_tag_chars(element: etree._Element, tag: str) -> int:
    """Length of ``<tag a="v" ...>`` as written."""
    size = len(tag) + 2
    for name, value in element.items():
        size += len(name) + len(value) + 4
    return size


def _normalized_length(texts: list[str]) -> int:
    return len(" ".join("".join(texts).split()))


def _is_block(tag: str) -> bool:
    # Same rule as the segment walk: known block tags, and custom elements (<article-body>).
    return tag in BLOCK_TAGS or "-" in tag


def build_lines(root: etree._Element, page: PageSegments) -> Lines:
    """The line model of a cleaned tree and its segments (one iterative pass over ``root``)."""
    chars = list(page.segment_chars)
    link_chars = list(page.segment_link_chars)
    tags: list[int] = []
    tag_chars: list[int] = []
    boundary: list[int] = []
    images: list[int] = []
    embeds: list[int] = []
    pieces: list[tuple[int, ...]] = []

    # The run being read (inline markup and text since the last block boundary) ...
    run_tags = run_chars = run_images = run_embeds = 0
    run_texts: list[str] = []
    run_pieces: list[int] = []
    has_text = False
    # ... and the markup between the previous line and this run.
    gap_tags = gap_chars = gap_images = gap_embeds = gap_blocks = 0

    def close_run() -> None:
        """A block boundary: the run becomes a line if it has text, else its markup is gap."""
        nonlocal run_tags, run_chars, run_images, run_embeds, has_text
        nonlocal gap_tags, gap_chars, gap_images, gap_embeds, gap_blocks
        if has_text:
            tags.append(run_tags + gap_tags)
            tag_chars.append(run_chars + gap_chars)
            boundary.append(gap_blocks)
            images.append(run_images + gap_images)
            embeds.append(run_embeds + gap_embeds)
            if run_pieces:
                run_pieces.append(_normalized_length(run_texts))
                pieces.append(tuple(run_pieces))
            else:
                pieces.append(())  # filled from the segment's characters below
            gap_tags = gap_chars = gap_images = gap_embeds = gap_blocks = 0
        else:
            gap_tags += run_tags
            gap_chars += run_chars
            gap_images += run_images
            gap_embeds += run_embeds
        run_tags = run_chars = run_images = run_embeds = 0
        has_text = False
        run_texts.clear()
        run_pieces.clear()

    skipped: etree._Element | None = None
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, element in walker:
        tag = element.tag
        if not isinstance(tag, str):
            continue
        block = _is_block(tag)
        if event == "start":
            size = _start_tag_chars(element, tag)
            if block:
                close_run()
                gap_blocks += 1
                gap_tags += 1
                gap_chars += size
                if tag in IMAGE_TAGS:
                    gap_images += 1
                elif tag in EMBED_TAGS:
                    gap_embeds += 1
            else:
                style = classes = None
                if tag not in _NEVER_SKIPPED:
                    style, classes = element.get("style"), element.get("class")
                if (style is not None and hidden_style(style)) or (
                    classes is not None and hidden_class(classes)
                ):
                    walker.skip_subtree()
                    skipped = element
                    continue
                run_tags += 1
                run_chars += size
                if tag in IMAGE_TAGS:
                    run_images += 1
                elif tag in EMBED_TAGS:
                    run_embeds += 1
            text = element.text
        else:
            if element is skipped:
                skipped = None
            elif block:
                close_run()
                if tag not in VOID_TAGS:
                    gap_blocks += 1
                    gap_tags += 1
                    gap_chars += len(tag) + 3
            elif tag not in VOID_TAGS:
                run_tags += 1
                run_chars += len(tag) + 3
                if tag == "a":
                    run_pieces.append(_normalized_length(run_texts))
                    run_texts.clear()
            text = element.tail
        if text:
            run_texts.append(text)
            if not has_text and not text.isspace():
                has_text = True

    if len(tags) != len(chars):
        return _estimated(page)
    for index, split in enumerate(pieces):
        if not split:
            pieces[index] = (chars[index],)
    return Lines(chars, link_chars, tags, tag_chars, boundary, images, embeds, pieces)


def _estimated(page: PageSegments) -> Lines:
    """Markup from the segments alone: an open and a close tag per line, plus one per block of
    the boundary. Used only if the markup walk and the segment walk ever disagree."""
    n = len(page.segment_owners)
    tags = []
    tag_chars = []
    boundary = []
    previous = -1
    for owner in page.segment_owners:
        crossed = 2 if owner == previous else 2 + abs(owner - previous)
        tags.append(crossed)
        tag_chars.append(crossed * 6)
        boundary.append(crossed)
        previous = owner
    return Lines(
        chars=list(page.segment_chars),
        link_chars=list(page.segment_link_chars),
        tags=tags,
        tag_chars=tag_chars,
        boundary=boundary,
        images=[0] * n,
        embeds=[0] * n,
        pieces=[(chars,) for chars in page.segment_chars],
        aligned=False,
    )


def container_of(page: PageSegments, segment_ids: tuple[int, ...]) -> int:
    """The innermost block holding all the given segments (ids in document order)."""
    parents = page.block_parents
    ends = page.block_ends
    owners = page.segment_owners
    first = owners[segment_ids[0]]
    last = max(owners[i] for i in segment_ids)
    block = first
    # Block ids are in document order and a subtree is the range [id, end]: climb until the
    # range covers the last owner. One walk up, at most the tree's depth.
    while block > 0 and ends[block] < last:
        parent = parents[block]
        if parent < 0:
            break
        block = parent
    return block


def selection_from(page: PageSegments, content: Iterable[int]) -> BodySelection | None:
    """A body selection from the ids of the lines a method judged content.

    As in the default extractor, the ``h1`` headline is left to the title field and lines
    inside figures/captions go to the HTML as captions, not to the running text.
    """
    kept: list[int] = []
    captions: list[int] = []
    tags = page.segment_tags
    owners = page.segment_owners
    in_caption = page.block_captions
    for index in sorted(set(content)):
        if tags[index] == "h1":
            continue
        if in_caption[owners[index]]:
            captions.append(index)
        else:
            kept.append(index)
    if not kept:
        return None
    ids = tuple(kept)
    return BodySelection(container_of(page, ids), ids, tuple(captions))
