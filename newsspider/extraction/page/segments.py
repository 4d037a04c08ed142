"""One pass over the tree: block elements and the text segments they own, with their statistics.

The page model it fills lives in `page_model`, what class and id words mean in `class_words`.

A *segment* is a run of inline text between two block boundaries (a paragraph, a list item, a
heading, the loose text of a ``div``). Each carries what the density methods need: characters,
characters inside links, punctuation, and the block element that owns it. Block elements are
numbered in document order, so a subtree is a contiguous id range ``[id, end]`` — container
scoring is then a single reverse sweep, never a recursion.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import ModuleType
from typing import Final

from lxml import etree

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.common.caching import cacheable
from newsspider.extraction.common.gil import yield_point
from newsspider.extraction.common.textstats import count_dense_script, count_punctuation
from newsspider.extraction.common.urls import split_url
from newsspider.extraction.page.class_words import (
    FURNITURE_TOKENS,
    OVERLAY,
    OVERLAY_TOKENS,
    REGION_TOKENS,
    REMEMBERED,
    STRONG_FURNITURE,
    WEAK_FURNITURE,
    WEAK_NEGATIVE_TOKENS,
    _attribute_cache,
    _class_meaning,
    signal_without,
)
from newsspider.extraction.page.cleaning import FORM_BOX_ATTRIBUTE
from newsspider.extraction.page.page_model import (
    BLOCK_TAGS,
    TEASER_HEADINGS,
    PageSegments,
)
from newsspider.extraction.page.visibility import hidden_class, hidden_style

__all__ = [
    "WALK",
    "segment_page",
    "segment_page_compiled",
    "segment_page_python",
]

# Page regions that are boilerplate by their HTML5 role.
_BOILERPLATE_TAGS: Final = frozenset({"nav", "aside", "footer", "menu"})


_CAPTION_TAGS: Final = frozenset({"figure", "figcaption"})
_PAGE_TAGS: Final = frozenset({"html", "body"})
_DIALOG_ROLES: Final = frozenset({"dialog", "alertdialog"})


# Stands for <br> inside collected text; the parser has already removed every control character.
_BREAK: Final = "\x00"
_INLINE, _BLOCK, _LINK, _BREAK_TAG = 0, 1, 2, 3
# The walk's marks for an inline element hidden by its style and for what it contains.
_HIDDEN, _INSIDE_HIDDEN = 4, 5
# A custom element: a block, except inside a paragraph (the walk decides, from the open block).
_CUSTOM: Final = 6
_tag_kinds: dict[str, int] = dict.fromkeys(BLOCK_TAGS, _BLOCK) | {"a": _LINK, "br": _BREAK_TAG}


def _tag_kind(tag: str) -> int:
    kind = _tag_kinds.get(tag)
    if kind is None:
        # Custom elements (<article-body>, <amp-story>) are containers more often than inline.
        kind = _CUSTOM if "-" in tag else _INLINE
        if len(_tag_kinds) < 10_000 and cacheable(tag):
            _tag_kinds[tag] = kind
    return kind


_TAG_SIGNAL: Final = dict.fromkeys(_BOILERPLATE_TAGS, STRONG_FURNITURE)
_CLASS_OR_ID: Final = frozenset({"class", "id"})

#: A block that is furniture by the words of its class and id alone (the walks' `named`): its
#: id, those words, and its class and id values (read once, by the walk).
Named = tuple[int, frozenset[str], str | None, str | None]


def _attributed_block(
    page: PageSegments,
    captioned: list[int],
    block_id: int,
    tag: str,
    items: list[tuple[str, str]],
    *,
    named: list[Named],
) -> int:
    """A block's furniture signal from its tag and attributes; its caption, declared-body and
    main-region marks go to `captioned` and the page, and the block with the furniture words of
    its class and id (and their values) to `named` (when nothing but those words makes it
    furniture)."""
    name, value = items[0]
    attrs: dict[str, str] | None = None
    if len(items) == 1 and name in _CLASS_OR_ID:
        # The commonest block: a lone class or id, no dict needed and no other attribute.
        classes = value if name == "class" else None
        ident = value if name == "id" else None
    else:
        attrs = dict(items)
        classes = attrs.get("class")
        ident = attrs.get("id")
    if tag in _PAGE_TAGS or (classes is None and ident is None):
        # <html>/<body> classes describe page state ("has-sidebar", feature flags).
        signal, caption, hidden, words = 0, False, False, frozenset[str]()
    else:
        # `class_meaning` with its cache lookup inline: most blocks hit the cache.
        meaning = _attribute_cache.get((classes, ident))
        signal, caption, hidden, words = (
            _class_meaning(classes, ident) if meaning is None else meaning
        )
    hidden = hidden or tag in _BOILERPLATE_TAGS
    overlay = declared_body = False
    role = None
    # Most blocks carry only a class and/or an id: then none of the rarer attributes is there.
    if attrs is not None and len(attrs) > (classes is not None) + (ident is not None):
        style = attrs.get("style")
        # Hidden blocks are furniture unless they wrap the page's prose: some sites (WeChat)
        # hide the whole article until a script reveals it.
        hidden = hidden or (style is not None and hidden_style(style)) or "hidden" in attrs
        role = attrs.get("role")
        # A `popover` element is hidden by the browser until a script opens it over the page.
        overlay = attrs.get("aria-modal") == "true" or role in _DIALOG_ROLES or "popover" in attrs
        declared_body = attrs.get("itemprop") == "articleBody"
        if FORM_BOX_ATTRIBUTE in attrs:  # the box around a form's fields (`cleaning`)
            signal = min(signal, WEAK_FURNITURE)
    if hidden:
        signal = min(signal, STRONG_FURNITURE)
    elif words and not overlay:
        named.append((block_id, words, classes, ident))
    if overlay:
        signal = OVERLAY
    # The block's own caption mark; inheritance is settled once sizes are known.
    if caption or tag in _CAPTION_TAGS:
        captioned.append(block_id)
    if declared_body:
        page.declared_bodies.add(block_id)
    if tag == "main" or role == "main":
        page.main_regions.add(block_id)
    return signal


def segment_page(root: etree._Element, url: str | None = None) -> PageSegments:
    """Walk the tree once and cut it into blocks and text segments (compiled walk when built
    and not switched off, see `WALK`). The page's `url` tells what kind of page it is
    (`url_section_words`)."""
    walk = WALK.active
    if walk is None:
        return segment_page_python(root, url)
    return walk(root, url)


def segment_page_python(root: etree._Element, url: str | None = None) -> PageSegments:
    """`segment_page` by the pure-Python walk: the reference, and the fallback."""
    page = PageSegments()
    captioned: list[int] = []  # blocks with their own caption mark
    named: list[Named] = []  # blocks that are furniture by name alone
    _walk_python(root, page, captioned, named)
    _finish(page, captioned, named, url_section_words(url))
    return page


def segment_page_compiled(root: etree._Element, url: str | None = None) -> PageSegments:
    """`segment_page` by the compiled walk (`_segments_c`); RuntimeError when it is not built."""
    if _compiled is None:
        raise RuntimeError(f"the compiled walk is not available: {COMPILED_ERROR}")
    page = PageSegments()
    captioned: list[int] = []
    named: list[Named] = []
    _compiled.walk(root, page, captioned, named)
    _finish(page, captioned, named, url_section_words(url))
    return page


def url_section_words(url: str | None) -> frozenset[str]:
    """The furniture words that name a part of the page's URL path ("/newsletter/<issue>",
    "/r/<forum>/comments/<id>/", "/menu"): the page is one of those, so the block it names
    may be the page's content (`_settle_layout_words`). Whole path parts only, squashed: a
    slug ("how-to-build-a-sidebar") names no furniture."""
    if not url:
        return frozenset()
    parts = split_url(url)
    if parts is None:  # "http://[::1": no path to read
        return frozenset()
    path = parts.path.lower()
    words = {_squashed(part) for part in path.split("/") if 0 < len(part) <= _MAX_SECTION_CHARS}
    return frozenset(words & FURNITURE_TOKENS)


#: Longer path parts are slugs and ids, not section names.
_MAX_SECTION_CHARS: Final = 32


def _walk_python(
    root: etree._Element,
    page: PageSegments,
    captioned: list[int],
    named: list[Named],
) -> None:
    """Walk the tree once (iteratively): blocks and segments into `page`, the blocks with their
    own caption mark into `captioned`, those that are furniture by name alone into `named`.

    ``root.iter()`` only reports entering an element: an element is left when a later one is
    not inside it, which a stack of open elements and ``getparent()`` tell. That costs about
    half of ``etree.iterwalk``'s start and end events. `_segments_c` mirrors this function.
    """
    elements = page.block_elements
    tags = page.block_tags
    parents = page.block_parents
    signals = page.block_signals
    ends = page.block_ends
    segment_owners = page.segment_owners
    segment_lines = page.segment_lines
    segment_chars = page.segment_chars
    segment_link_chars = page.segment_link_chars
    segment_punctuation = page.segment_punctuation
    segment_dense_chars = page.segment_dense_chars
    segment_tags = page.segment_tags
    stack: list[int] = []  # open block ids
    open_elements: list[etree._Element] = []  # entered and not yet left, outermost first
    open_kinds: list[int] = []  # their tag kinds, or _HIDDEN/_INSIDE_HIDDEN
    pieces: list[str] = []
    link_pieces: list[str] = []
    has_text = False
    link_depth = 0
    pre_depth = 0
    hidden = False  # inside an inline element hidden by its style: nothing there is read

    def flush(owner: int) -> None:
        nonlocal has_text
        has_text = False
        raw = "".join(pieces)
        pieces.clear()
        if pre_depth:
            lines = [line.rstrip() for line in raw.replace(_BREAK, "\n").split("\n")]
            lines = [line for line in lines if line.strip()]
        elif _BREAK in raw:
            lines = [" ".join(line.split()) for line in raw.split(_BREAK)]
            lines = [line for line in lines if line]
        else:
            lines = [" ".join(raw.split())]
        link_chars = 0
        if link_pieces:
            link_chars = len(" ".join("".join(link_pieces).split()))
            link_pieces.clear()
        if not lines:
            return
        text = lines[0] if len(lines) == 1 else " ".join(lines)
        chars = len(text)
        if text.endswith(":"):
            page.colon_segments.append(len(segment_owners))
        segment_owners.append(owner)
        # A tuple of strings leaves the collector's tracking; a list stays tracked, and
        # a million of them made the cyclic collector's full passes grow faster than the page.
        segment_lines.append(tuple(lines))
        segment_chars.append(chars)
        segment_link_chars.append(link_chars if link_chars < chars else chars)
        segment_punctuation.append(count_punctuation(text))
        segment_dense_chars.append(count_dense_script(text))
        segment_tags.append(tags[owner])

    def leave() -> None:
        """Leave the innermost open element."""
        nonlocal has_text, link_depth, pre_depth, hidden
        element = open_elements.pop()
        kind = open_kinds.pop()
        if kind == _INSIDE_HIDDEN:
            return
        if kind == _BLOCK:
            own = stack.pop()
            if has_text:
                flush(own)
            elif pieces:
                pieces.clear()
                link_pieces.clear()
            ends[own] = len(tags) - 1
            if pre_depth and tags[own] == "pre":
                pre_depth -= 1
        elif kind == _LINK:
            link_depth -= 1
        elif kind == _HIDDEN:
            hidden = False
        tail = element.tail
        # Blank text before any words only matters inside <pre>: normalising drops it.
        if tail and (has_text or not tail.isspace() or pre_depth):
            pieces.append(tail)
            if link_depth:
                link_pieces.append(tail)
            if not has_text and not tail.isspace():
                has_text = True

    for element in root.iter():
        tag = element.tag
        kind = _tag_kinds.get(tag)
        if kind is None:
            if not isinstance(tag, str):
                continue  # no text of its own, and no children
            kind = _tag_kind(tag)
        parent = element.getparent()
        while open_elements and open_elements[-1] is not parent:
            leave()
        open_elements.append(element)
        if hidden:
            open_kinds.append(_INSIDE_HIDDEN)
            continue
        if kind == _CUSTOM:
            # A paragraph holds only phrasing content (the parser closes it before a block):
            # a custom element in one (MathJax's <mjx-container>, a quote ticker) is inline.
            kind = _INLINE if stack and tags[stack[-1]] == "p" else _BLOCK
        if kind == _BLOCK:
            if has_text:
                flush(stack[-1])
            elif pieces:
                pieces.clear()
                link_pieces.clear()
            # One C call for all attributes; a quarter of blocks have none at all. (The stubs
            # allow bytes; parsed HTML attributes are always str.)
            items: list[tuple[str, str]] = element.items()  # type: ignore[assignment]
            block_id = len(tags)
            parents.append(stack[-1] if stack else -1)
            if items:
                signals.append(
                    _attributed_block(page, captioned, block_id, tag, items, named=named)
                )
            else:
                signals.append(_TAG_SIGNAL.get(tag, 0))
                if tag in _CAPTION_TAGS:
                    captioned.append(block_id)
                elif tag == "main":
                    page.main_regions.add(block_id)
            elements.append(element)
            tags.append(tag)
            ends.append(-1)  # set when the block is left
            stack.append(block_id)
            if tag == "pre":
                pre_depth += 1
        elif kind == _LINK:
            link_depth += 1
            if stack and tags[stack[-1]] in TEASER_HEADINGS:
                page.linked_headings += 1
        elif kind == _BREAK_TAG:
            pieces.append(_BREAK)
        else:
            style = element.get("style")
            classes = element.get("class")
            if (style is not None and hidden_style(style)) or (
                classes is not None and _hidden_inline_class(classes)
            ):
                open_kinds.append(_HIDDEN)
                hidden = True
                continue
        open_kinds.append(kind)
        text = element.text
        # Blank text before any words only matters inside <pre>: normalising drops it.
        if text and (has_text or not text.isspace() or pre_depth):
            pieces.append(text)
            if link_depth:
                link_pieces.append(text)
            if not has_text and not text.isspace():
                has_text = True
    while open_elements:
        leave()
    if stack:
        flush(stack[-1])


def _finish(
    page: PageSegments,
    captioned: list[int],
    named: list[Named],
    section_words: frozenset[str] = frozenset(),
) -> None:
    """What follows either walk: blocks left open end with the page, prose totals, captions,
    layout words and heading anchors."""
    ends = page.block_ends
    last = len(ends) - 1
    for block_id, end in enumerate(ends):
        if end < 0:
            ends[block_id] = last
    _mark_captions(page, captioned)
    if named:
        _settle_layout_words(page, named, section_words)
        _free_label_words(page, named)
        _ignore_heading_anchors(page, named)
        _free_headline_words(page, named)


_inline_hidden_cache: dict[str, bool] = {}


def _hidden_inline_class(classes: str) -> bool:
    """`hidden_class`, cached: inline elements' class values repeat across a page."""
    hidden = _inline_hidden_cache.get(classes)
    if hidden is None:
        hidden = hidden_class(classes)
        if cacheable(classes):  # bounded in bytes too: values come from arbitrary pages
            if len(_inline_hidden_cache) > 10_000:
                _inline_hidden_cache.clear()
            _inline_hidden_cache[classes] = hidden
    return hidden


#: Only words that also name wrappers can be layout: never "comment" or "related", whose blocks
#: can hold most of a page's prose when the comments run long.
LAYOUT_CANDIDATES: Final = WEAK_NEGATIVE_TOKENS | OVERLAY_TOKENS
#: A furniture word is this page's layout vocabulary when it names at least this many blocks
#: (a repeated template: page builders put "widget" on every block) ...
LAYOUT_WORD_MIN_BLOCKS: Final = 3
#: ... and the outermost of them hold at least this share of the page's prose.
LAYOUT_WORD_PROSE_SHARE: Final = 0.5


def _settle_layout_words(
    page: PageSegments,
    named: list[Named],
    section_words: frozenset[str] = frozenset(),
) -> None:
    """Page builders and component libraries name every block with a furniture word
    ("elementor-widget-container", "WidgetArea", AEM's "cmp-text"): when the blocks a word
    names hold most of the page's prose, the word describes this page's layout, not its
    furniture, and those blocks are judged without it. Only class and id words: a hidden
    block or an <aside> stays furniture.

    A word that also names a part of the page's URL (`section_words`: a newsletter issue's
    "newsletter-content", a thread's "comments") may be any furniture word and name a single
    block: the page says it is one of those, and the block holds most of its prose."""
    candidates = LAYOUT_CANDIDATES | section_words
    blocks: dict[str, list[int]] = {}
    for block_id, words, _, _ in named:
        if words.isdisjoint(candidates):  # most blocks: no set built for them
            continue
        for word in words & candidates:
            blocks.setdefault(word, []).append(block_id)
    layout = {
        word
        for word, ids in blocks.items()
        if (len(ids) >= LAYOUT_WORD_MIN_BLOCKS or word in section_words)
        and _hold_most_prose(page, ids)
    }
    _judge_without(page, named, frozenset(layout))


def _hold_most_prose(page: PageSegments, block_ids: list[int]) -> bool:
    """Do these blocks (document order) hold `LAYOUT_WORD_PROSE_SHARE` of the page's prose?
    A block inside the last counted one is not counted again."""
    threshold = LAYOUT_WORD_PROSE_SHARE * page.prose[0] if page.prose else 0
    ends, prose = page.block_ends, page.prose
    covered, outer_end = 0, -1
    for block_id in block_ids:
        if block_id > outer_end:
            covered += prose[block_id]
            outer_end = ends[block_id]
    return covered >= threshold > 0


def _judge_without(page: PageSegments, named: list[Named], ignored: frozenset[str]) -> None:
    """Judge every block that `ignored` words name without them (they are this page's
    layout), in place."""
    if not ignored:
        return
    # Page builders repeat one class value on every block they make ("elementor-widget
    # elementor-widget-text-editor"): each (class, id) pair is worked out once.
    signals: dict[tuple[str | None, str | None], int] = {}
    for block_id, words, classes, ident in named:
        if not words.isdisjoint(ignored):
            key = (classes, ident)
            signal = signals.get(key)
            if signal is None:
                signal = signals[key] = signal_without(classes, ident, ignored)
            page.block_signals[block_id] = signal


def _free_headline_words(page: PageSegments, named: list[Named]) -> None:
    """The page's one headline (its only ``<h1>``, not a link: a logo's h1 links home) sits
    in no sidebar, footer or menu: region words (`REGION_TOKENS`) on the blocks around it
    describe this page's layout ("sidebar-first-only" on every column of a Drupal theme) when
    the blocks they name hold most of the page's prose, and those blocks are judged without
    them. Other words there stay: "mh0-print" is a print utility around the headline, and
    "print" still marks print-only furniture."""
    tags = page.block_tags
    # One compiled scan, stopping at a second h1: list.count() and .index() compare through
    # the generic comparison, about twice the instructions a block, and this runs on every page.
    headline = -1
    for block_id in range(len(tags)):
        if tags[block_id] == "h1":
            if headline >= 0:
                return
            headline = block_id
    if headline < 0:
        return
    element = page.block_elements[headline]
    if element.find(".//a") is not None or not page.prose[headline]:
        return
    parents = page.block_parents
    ancestors = page.ancestors(headline)
    # The named blocks among them (a dict of every named block cost more than this scan).
    words_of = {block_id: words for block_id, words, _, _ in named if block_id in ancestors}
    layout: set[str] = set()
    block = parents[headline]
    while block >= 0:
        words = words_of.get(block)
        if words is not None and page.block_signals[block] < 0:
            layout |= words & REGION_TOKENS
        block = parents[block]
    # ... when the blocks the word names hold most of the page's prose (a "region-sub-menu"
    # banner around the page title names only itself, and the menus stay furniture).
    held = {
        word
        for word in layout
        if _hold_most_prose(page, [block_id for block_id, words, _, _ in named if word in words])
    }
    _judge_without(page, named, frozenset(held))


#: Furniture words that name a control's label ("read-more", "load-more", "show-more"), and
#: as a modifier a section of the text ("more-features", docs' "more-on-lists").
LABEL_WORDS: Final = frozenset({"more"})
#: A block named only by a label word is a label when it holds less prose than this.
LABEL_MAX_PROSE: Final = 100


def _free_label_words(page: PageSegments, named: list[Named]) -> None:
    """A block that only a label word makes furniture, holding the prose of a paragraph or
    more, is a section of the text named by what it adds: it is judged without the word."""
    prose = page.prose
    for block_id, words, classes, ident in named:
        if words <= LABEL_WORDS and prose[block_id] >= LABEL_MAX_PROSE:
            element = page.block_elements[block_id]
            if element.get(FORM_BOX_ATTRIBUTE) is None:  # a sign-up box stays one
                signal = signal_without(classes, ident, LABEL_WORDS)
                page.block_signals[block_id] = signal


def _squashed(text: str) -> str:
    return "".join(char for char in text.lower() if char.isalnum())


#: An id and its block's first line that start with this many of the same letters and digits:
#: the id was generated from the text.
_ANCHOR_PREFIX: Final = 8
#: A generated anchor names a heading of at least this many words and characters: shorter ids
#: ("related-posts", "you-may-also-like") are names a developer gave to page furniture.
_ANCHOR_MIN_WORDS: Final = 4
_ANCHOR_MIN_CHARS: Final = 24
#: How many blocks into a subtree its first line is looked for.
_FIRST_LINE_REACH: Final = 64
_ID_PARTS: Final = re.compile(r"[-_:.]+")


def _long_id(ident: str | None) -> bool:
    """An id with enough separators to be a generated slug (a cheap first test)."""
    return ident is not None and ident.count("-") + ident.count("_") >= _ANCHOR_MIN_WORDS - 1


#: Parts a generator may put before the slug ("h", "toc-1", "1-heading", "section-4").
_MAX_MARKER_PARTS: Final = 2


def _anchor_of(ident: str, text: str) -> bool:
    """Was ``ident`` made from ``text`` (a block's first line, squashed)? Its slug, after up
    to two marker parts, starts like the text and names at least four words; or, with a
    counter among its parts ("4-heading-more-0"), is exactly the text's words."""
    parts = [part for part in _ID_PARTS.split(ident.lower()) if part]
    numbered = any(part.isdigit() for part in parts)
    while parts and parts[-1].isdigit():  # a counter that makes the anchor unique
        parts.pop()
    for skip in range(min(_MAX_MARKER_PARTS, len(parts) - 1) + 1):
        rest = parts[skip:]
        slug = "".join(char for char in "".join(rest) if char.isalnum())
        if not slug:
            continue
        if len(rest) >= _ANCHOR_MIN_WORDS and len(text) >= _ANCHOR_MIN_CHARS:
            if slug[:_ANCHOR_PREFIX] == text[:_ANCHOR_PREFIX]:
                return True
        elif numbered and skip and slug == text:
            return True
    return False


def _ignore_heading_anchors(page: PageSegments, named: list[Named]) -> None:
    """An id made from a heading's own text ("social-media-marketing" on "Social Media
    Marketing", "h-how-to-share" on a section opened by "How to share") is an anchor for
    links to that part of the text, not a name for page furniture."""
    candidates = [
        (block_id, classes, ident)
        for block_id, _, classes, ident in named
        if page.block_signals[block_id] < 0 and _long_id(ident)
    ]
    if not candidates:
        return
    first = [-1] * len(page.block_tags)
    for index, owner in enumerate(page.segment_owners):
        if first[owner] < 0:
            first[owner] = index
    ends = page.block_ends
    for block_id, classes, ident in candidates:
        lines = [
            first[inner]
            for inner in range(block_id, min(ends[block_id], block_id + _FIRST_LINE_REACH) + 1)
            if first[inner] >= 0
        ]
        if not lines:
            continue
        text = _squashed(" ".join(page.segment_lines[min(lines)]))
        if _anchor_of(ident or "", text):
            page.block_signals[block_id] = signal_without(classes, None, frozenset())


#: A caption is a line or two under a picture. A "caption" or "credit" word on a block with
#: more prose than this names something else ("creditCardProductModule" around a whole story).
CAPTION_MAX_PROSE: Final = 800
#: Blocks a figure shows rather than captions: HTML's figure holds "illustrations, diagrams,
#: photos, code listings", and WordPress wraps every table and pull quote in a <figure>.
_FIGURE_CONTENT_TAGS: Final = frozenset({"table", "blockquote", "pre"})


def _mark_captions(page: PageSegments, captioned: list[int]) -> None:
    """Per-block prose totals and inherited caption marks (of the blocks in `captioned`);
    furniture flags are decided by scoring once it knows the densest region (a furniture
    class on an ancestor of that region is a layout wrapper)."""
    parents = page.block_parents
    count = len(parents)
    chars, link_chars = page.segment_chars, page.segment_link_chars
    prose = page.prose = page.subtree_totals(
        [chars[index] - link_chars[index] for index in range(len(chars))]
    )
    captions = page.block_captions = [False] * count
    if not captioned:
        return  # most pages: no caption to place or inherit
    for block_id in captioned:
        captions[block_id] = prose[block_id] <= CAPTION_MAX_PROSE
    # Parents come before children: one forward pass settles inheritance. A table, a quote or
    # a code listing in a figure is what the figure shows, not its caption.
    tags = page.block_tags
    for block_id, parent in enumerate(parents):
        if parent >= 0 and captions[parent] and tags[block_id] not in _FIGURE_CONTENT_TAGS:
            captions[block_id] = True


# The compiled walk (newsspider/extraction/page/_segments_c.pyx), built at install time when a C
# compiler is there; NEWSSPIDER_PURE_PYTHON=1 (read once, at import) keeps the pure-Python walk.
_compiled: ModuleType | None = None
COMPILED_ERROR = ""
try:
    from newsspider.extraction.page import _segments_c
except ImportError as error:  # not built (no compiler at install time): the Python walk
    COMPILED_ERROR = (
        f"newsspider.extraction.page._segments_c was not built or does not load ({error})"
    )
else:
    _compiled = _segments_c
    _segments_c.bind(
        attributed_block=_attributed_block,
        class_meaning=_class_meaning,
        remembered=REMEMBERED,
        attribute_cache=_attribute_cache,
        tag_kind=_tag_kind,
        tag_kinds=_tag_kinds,
        tag_signal=_TAG_SIGNAL,
        caption_tags=_CAPTION_TAGS,
        teaser_headings=TEASER_HEADINGS,
        page_tags=_PAGE_TAGS,
        boilerplate_tags=_BOILERPLATE_TAGS,
        dialog_roles=_DIALOG_ROLES,
        hidden_style=hidden_style,
        hidden_inline_class=_hidden_inline_class,
        inline_hidden_cache=_inline_hidden_cache,
        strong_furniture=STRONG_FURNITURE,
        weak_furniture=WEAK_FURNITURE,
        overlay=OVERLAY,
        yield_point=yield_point,
    )

#: The compiled walk when built (`active` when not switched off: `core_loader.use_compiled`,
#: NEWSSPIDER_PURE_PYTHON=1).
WALK: Final[CompiledTwin[Callable[[etree._Element, str | None], PageSegments]]] = CompiledTwin(
    segment_page_compiled if _compiled is not None else None
)
