"""The article as HTML: the chosen content rendered from the page's own tree, with its structure,
links, images and video embeds, and nothing that runs.

The body is a set of text segments (`assembly.select_body`, `threads`, `page_content`, the
strategies); this module walks the part of the tree that holds them once more and writes each
kept segment's run of inline content (text, links, emphasis, code, images) inside the blocks
that structure it (paragraphs, headings, lists, tables, quotes, code, figures). Which run is
which segment is read from the page model, not guessed: the runs are counted the way the
segment walk cuts them (`segments._walk_python`: a run ends at every block boundary and is a
segment when it holds text that is not blank), and every kept segment must come out exactly
once, or the text renderer (`html_output`) is used instead. So `body_html` holds exactly the
body's text, in its order, plus figure captions and the media beside it.

Images without text of their own (an ``<img>`` alone in a block, a figure whose caption was
left out) come with the article when they sit inside a kept block below the container's parent
and no block between says it is furniture.

Safety is by construction: the output is a new tree, built by this module from an allow-list of
tags (`_BLOCK_OUTPUT`, `_INLINE_OUTPUT`) and attributes (``href``, ``src``, ``alt``, ``colspan``,
``rowspan``, ``start``), every URL checked by `page_media.safe_url`, and written with text and
attribute values escaped as lxml's HTML serialiser escapes them (`_serialize`, which hands the
tree to lxml itself when a value is in doubt, or when the installed libxml2 writes its probe
otherwise). No element or attribute of the page is copied. The output tree is plain objects,
not lxml's: building it through lxml cost a third of this module.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any, Final

from lxml import etree

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.body.assembly import BodySelection
from newsspider.extraction.body.html_output import body_html as text_body_html
from newsspider.extraction.common.gil import yield_point
from newsspider.extraction.page.page_media import (
    _DESCRIPTOR,
    _LAZY_SRC_ATTRIBUTES,
    _PICTURE_LEVELS,
    _SRCSET_ATTRIBUTES,
    IMAGE_SCHEMES,
    LINK_SCHEMES,
    MAX_URL_CHARS,
    TINY_IMAGE,
    Embed,
    PageMedia,
    Resolver,
    image_source,
    is_tiny,
    srcset_best,
)
from newsspider.extraction.page.page_model import PageSegments
from newsspider.extraction.page.segments import _hidden_inline_class
from newsspider.extraction.page.visibility import hidden_style

logger = logging.getLogger(__name__)

#: Blocks written as themselves whose content is inline: a run of text goes straight in.
_TEXT_BLOCKS: Final = frozenset("p h1 h2 h3 h4 h5 h6 li dt dd td th pre figcaption caption".split())
#: Every block written as itself; any other block (div, section, article, ...) is transparent
#: and each of its runs of text becomes a paragraph.
_BLOCK_OUTPUT: Final = _TEXT_BLOCKS | frozenset(
    "ul ol dl table thead tbody tfoot tr blockquote figure".split()
)
#: Inline elements written as themselves (or as the tag given); any other is unwrapped.
_INLINE_OUTPUT: Final = {
    **{tag: tag for tag in "b strong i em u s del ins mark small sub sup code kbd".split()},
    **{tag: tag for tag in "samp var q cite abbr dfn time".split()},
    "strike": "s",
    "tt": "code",
}
#: Blocks whose runs are written into them directly (no paragraph around).
_DIRECT: Final = _TEXT_BLOCKS
#: The largest ``colspan``/``rowspan``/``start`` kept (browsers cap spans at 1000 and 65534).
_MAX_NUMBER: Final = 1000
#: Characters of an ``alt`` kept.
MAX_ALT_CHARS: Final = 500

#: (URL, alt, caption) of one image: `api` makes it an `ArticleImage` (a stage does not import
#: the record module).
ImageRecord = tuple[str, str | None, str | None]

# Frame kinds. A block is live (it holds a kept segment), media (it holds no kept text, but
# its images and embeds belong to the article), or skipped; inline frames are kept or skipped;
# other nodes (no tag name) are ignored, tail included, as the segment walk does.
_LIVE, _MEDIA, _SKIP, _INLINE, _IGNORED = 0, 1, 2, 3, 4


class _Mismatch(Exception):
    """The runs counted here disagree with the page model's segments."""


class _Frame:
    """One open element of the walk."""

    __slots__ = (
        "attrs",
        "block",
        "caption",
        "first_image",
        "inlines",
        "kind",
        "media_ok",
        "ordinal",
        "out",
        "parent",
        "scope",
        "tag",
    )

    def __init__(
        self,
        kind: int,
        block: int,
        tag: str | None,
        attrs: dict[str, str] | None,
        parent: _Frame | None,
    ) -> None:
        self.kind = kind
        self.block = block  # block id, or -1 for an inline element
        self.tag = tag  # output tag; None: transparent (block) or unwrapped (inline)
        self.attrs = attrs
        self.parent = parent  # the enclosing block frame
        self.out: _Node | None = None
        self.media_ok = False
        self.ordinal = 0  # runs with text seen so far (blocks)
        self.inlines: list[_Frame] = []  # open inline frames (blocks)
        self.scope = False  # a figure: the captions inside belong to its images
        self.caption: list[str] = []
        self.first_image = 0


class _Node:
    """One element of the output: the few operations the renderer needs of an lxml element
    (append a child, text, tail, rename, drop trailing children), without lxml's per-call cost
    (a sub-element cost about 9,000 instructions, setting a text 3,500). `_serialize` writes
    the tree as lxml's HTML serialisation would, or hands it to lxml when in doubt."""

    __slots__ = ("attrs", "children", "tag", "tail", "text")

    def __init__(self, tag: str, attrs: dict[str, str] | None) -> None:
        self.tag = tag
        self.attrs = attrs
        self.text = ""
        self.tail = ""
        self.children: list[_Node] = []

    def remove(self, child: _Node) -> None:
        """Remove ``child`` (by identity, with its tail, as lxml's ``remove``)."""
        children = self.children
        for index in range(len(children) - 1, -1, -1):
            if children[index] is child:
                del children[index]
                return
        raise ValueError("not a child")


def _sub(parent: _Node, tag: str, attrs: dict[str, str] | None) -> _Node:
    node = _Node(tag, attrs)
    parent.children.append(node)
    return node


#: Elements lxml (libxml2 2.14) writes without an end tag: always, and when empty.
_VOID: Final = frozenset({"br", "img"})
_END_OMITTED_WHEN_EMPTY: Final = frozenset({"li"})
#: Attributes libxml2 writes as URIs (spaces, tabs, newlines and non-ASCII percent-encoded).
_URI_ATTRIBUTES: Final = frozenset({"href", "src"})
#: The UTF-8 bytes of what `_serialize` writes itself: output holding any other (a control
#: character lxml refuses, DEL) is written by lxml, which decides.
_PLAIN_BYTES: Final = bytes(range(0x20, 0x7F)) + b"\t\n\r" + bytes(range(0x80, 0x100))


_NOT_ENCODED: Final = re.compile(r"[\ud800-\udfff\ufffe\uffff]")


def _escape_text(text: str) -> str:
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if "\r" in text:
        text = text.replace("\r", "&#13;")
    return text


def _uri_escape(value: str) -> str:
    """libxml2's escaping of a URI attribute: spaces, tabs, newlines and characters past ASCII
    as UTF-8 percent-escapes."""
    if value.isascii() and " " not in value and "\t" not in value and "\n" not in value:
        return value
    parts: list[str] = []
    for char in value:
        # Surrogates and non-characters are left for `_doubtful` (lxml refuses them).
        if char in " \t\n" or (ord(char) > 0x7F and not _NOT_ENCODED.search(char)):
            parts.append("".join(f"%{byte:02X}" for byte in char.encode("utf-8")))
        else:
            parts.append(char)
    return "".join(parts)


def _serialize(nodes: list[_Node]) -> str | None:
    """``nodes`` (with their tails) as ``etree.tostring(method="html")`` writes them, or None
    when a value holds what only lxml should judge (a double quote in an attribute, control
    characters)."""
    out: list[str] = []
    stack: list[_Node] = list(reversed(nodes))
    leaving: list[bool] = [False] * len(stack)
    while stack:
        node = stack.pop()
        if leaving.pop():
            out.append(f"</{node.tag}>")
            if node.tail:
                out.append(_escape_text(node.tail))
            continue
        attrs = node.attrs
        if attrs:
            out.append("<" + node.tag)
            for name, value in attrs.items():
                if '"' in value:
                    return None
                written = _uri_escape(value) if name in _URI_ATTRIBUTES else value
                out.append(f' {name}="{_escape_text(written)}"')
            out.append(">")
        else:
            out.append(f"<{node.tag}>")
        tag = node.tag
        children = node.children
        if tag in _VOID:
            if children or node.text:
                return None  # never made by the renderer
            if node.tail:
                out.append(_escape_text(node.tail))
            continue
        if tag in _END_OMITTED_WHEN_EMPTY and not children and not node.text:
            if node.tail:
                out.append(_escape_text(node.tail))
            continue
        if node.text:
            out.append(_escape_text(node.text))
        stack.append(node)
        leaving.append(True)
        for index in range(len(children) - 1, -1, -1):
            stack.append(children[index])
            leaving.append(False)
    html = "".join(out)
    return None if _doubtful(html) else html


def _doubtful(html: str) -> bool:
    """Does ``html`` hold a character lxml refuses (a control character, a non-character, a
    surrogate) or might write otherwise (DEL)? The UTF-8 bytes less every other byte value
    (passes in C: a regular expression cost 40 instructions a character)."""
    if "\ufffe" in html or "\uffff" in html:
        return True
    try:
        data = html.encode("utf-8")
    except UnicodeEncodeError:  # a surrogate
        return True
    return bool(data.translate(None, _PLAIN_BYTES))


def _lxml_html(root: _Node) -> str:
    """The same tree built in lxml and serialised by it (what `_serialize` mirrors); raises
    ValueError where lxml refuses a text."""
    built = etree.Element(root.tag)
    stack: list[tuple[_Node, etree._Element]] = [(root, built)]
    while stack:
        node, element = stack.pop()
        if node.text:
            element.text = node.text
        for child in node.children:
            attrs = child.attrs
            made = (
                etree.SubElement(element, child.tag, attrs)
                if attrs
                else etree.SubElement(element, child.tag)
            )
            if child.tail:
                made.tail = child.tail
            stack.append((child, made))
    html = etree.tostring(built, method="html", encoding="unicode")
    return html[html.index(">") + 1 : html.rindex("<")]


def _writer_agrees() -> bool:
    """Does `_serialize` write what the installed lxml writes, on a probe of every rule it
    mirrors? (Another libxml2 may write otherwise: then lxml writes every article.)"""
    root = _Node("div", None)
    paragraph = _sub(root, "p", None)
    paragraph.text = "a & b < c > d\r é\u00a0"
    link = _sub(paragraph, "a", {"href": "https://x.test/a b/é?q=1&r=<2>'"})
    link.text = "e"
    link.tail = "f"
    _sub(paragraph, "br", None).tail = "g"
    _sub(paragraph, "img", {"src": "https://x.test/i\tj.png", "alt": "it's <x>"})
    _sub(_sub(root, "ul", None), "li", None)
    cell = _sub(_sub(_sub(root, "table", None), "tr", None), "td", {"colspan": "2"})
    cell.text = "h"
    pre = _sub(root, "pre", None)
    pre.text = "\n  i\n"
    for child in root.children[:-1]:
        child.tail = "\n"
    try:
        return _serialize(root.children) == _lxml_html(root)
    except ValueError:
        return False


_WRITER_AGREES: Final = _writer_agrees()


#: Shared frames of nodes that write nothing: ignored nodes, hidden and unwrapped inline ones.
_IGNORED_FRAME: Final = _Frame(_IGNORED, -1, None, None, None)
_SKIPPED_INLINE: Final = _Frame(_SKIP, -1, None, None, None)
_SKIPPED_BLOCK: Final = _Frame(_SKIP, 0, None, None, None)
_UNWRAPPED: Final = _Frame(_INLINE, -1, None, None, None)


class _Image:
    __slots__ = ("alt", "caption", "url")

    def __init__(self, url: str, alt: str | None) -> None:
        self.url = url
        self.alt = alt
        self.caption: str | None = None


def _collapse_spaces(text: str) -> str:
    """``re.sub(r"\\s+", " ", text)`` by `str.split`, which splits at the same characters
    (both test `Py_UNICODE_ISSPACE`) in a third of the instructions."""
    inner = " ".join(text.split())
    if not inner:
        return " " if text else ""
    if text[0].isspace():
        inner = " " + inner
    if text[-1].isspace():
        inner += " "
    return inner


def _number(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    if not value.isdigit() or not value.isascii():
        return None
    number = int(value)
    return str(number) if 0 < number <= _MAX_NUMBER else None


def _block_attrs(tag: str, element: etree._Element) -> dict[str, str] | None:
    if tag in ("td", "th"):
        attrs = {}
        for name in ("colspan", "rowspan"):
            number = _number(element.get(name))
            if number is not None and number != "1":
                attrs[name] = number
        return attrs or None
    if tag == "ol":
        number = _number(element.get("start"))
        return {"start": number} if number is not None and number != "1" else None
    return None


class _Renderer:
    """One walk over the region that holds the kept segments."""

    def __init__(
        self,
        page: PageSegments,
        selection: BodySelection,
        media: PageMedia | None,
        base: str | None,
    ) -> None:
        self.page = page
        self.container = selection.container
        self.kept = set(selection.segment_ids)
        self.captions = set(selection.caption_ids)
        self.kept.update(self.captions)
        self.embeds_found = media
        self.resolver = Resolver(base)
        self.root_out = _Node("div", None)
        self.top = _Frame(_LIVE, -1, None, None, None)
        self.top.out = self.root_out
        self.block = self.top
        self.frames: list[_Frame] = []
        # The current run. Its segment is known when it starts (the block's next one): a run
        # that will be kept is written straight into the output ("writing"), any other is only
        # counted, its images and embeds noted in `media` in case it turns out to hold no text.
        self.writing = False
        self.run_segment = -1  # the segment the run will be if it holds text
        self.point: _Node | None = None  # where the run's content goes
        self.holder: _Node | None = None  # the <p> made for it, if any
        self.run_base: _Node | None = None  # ... else the block's own element
        self.holder_parent: _Node | None = None  # where the <p> went
        self.run_first = 0  # and its children before the run
        self.tail_of: _Node | None = None  # text goes to its tail (None: point.text)
        self.buffer: list[str] = []  # text not yet written
        self.media: list[tuple[str, str, str | None]] = []  # ("img"|"a", URL, alt or text)
        self.has_text = False
        self.has_media = False
        self.has_image = False
        self.pending: list[_Image] = []
        self.images: list[_Image] = []
        self.scopes: list[_Frame] = []
        self.pre_depth = 0
        self.emitted = 0
        # Per block id (sized by `region`): flags in lists, where sets hashed a boxed int each.
        self.live: list[bool] = []
        self.texty: list[bool] = []
        self.owned: dict[int, list[int]] = {}
        self.anchor = -1
        self.anchor_end = -1
        self.holds_media: set[etree._Element] = set()

    # --- the region and its blocks ------------------------------------------------------------

    def region(self) -> int:
        """The lowest block holding every kept segment; fills `live`, `texty` and `owned`."""
        page = self.page
        owners, parents, ends = page.segment_owners, page.block_parents, page.block_ends
        kept_owners = [owners[index] for index in self.kept]
        low, high = min(kept_owners), max(kept_owners)
        top = low
        while ends[top] < high:
            top = parents[top]
        live = self.live = [False] * len(parents)
        for owner in kept_owners:
            block = owner
            while block >= top and not live[block]:
                live[block] = True
                block = parents[block]
        # The region's segments are contiguous: from the kept ones outwards.
        end = ends[top]
        first = min(self.kept)
        while first > 0 and top <= owners[first - 1] <= end:
            first -= 1
        last = max(self.kept)
        while last + 1 < len(owners) and top <= owners[last + 1] <= end:
            last += 1
        texty = self.texty = [False] * len(parents)
        owned = self.owned
        for index in range(first, last + 1):
            owner = owners[index]
            if live[owner]:
                runs = owned.get(owner)
                if runs is None:
                    owned[owner] = [index]
                else:
                    runs.append(index)
            block = owner
            while block >= top and not texty[block]:
                texty[block] = True
                block = parents[block]
        self.mark_media(page.block_elements[top])
        container = self.container
        if 0 <= container < len(parents) and parents[container] >= 0:
            anchor = parents[container]
            self.anchor, self.anchor_end = anchor, ends[anchor]
        return top

    def mark_media(self, top: etree._Element) -> None:
        """`holds_media`: the elements of the region with an image or an embed below them (a
        block without text is walked only then). One pass in libxml2 over the region."""
        marked = self.holds_media
        starts: list[etree._Element] = []
        for image in top.iter("img"):
            starts.append(image)
        media = self.embeds_found
        if media is not None:
            starts.extend(media.first)
            for anchor in media.after:
                parent = anchor.getparent()
                if parent is not None:
                    starts.append(parent)
        for start in starts:
            element: etree._Element | None = start
            while element is not None and element not in marked:
                marked.add(element)
                if element is top:
                    break
                element = element.getparent()

    def media_allowed(self, block: int) -> bool:
        return self.anchor < 0 or self.anchor < block <= self.anchor_end

    # --- the walk ---------------------------------------------------------------------------

    def walk(self, top: int) -> None:
        page = self.page
        elements = page.block_elements
        ends = page.block_ends
        count = len(elements)
        next_block = top
        frames = self.frames
        media = self.embeds_found
        embeds_first = media.first if media is not None and media.first else None
        embeds_after = media.after if media is not None and media.after else None
        walker = etree.iterwalk(elements[top], events=("start", "end"))
        for item in walker:
            # Typed, the pair is read as a tuple; untyped, unpacking it cost three calls of the
            # iterator protocol per event, more than the walker's own.
            pair: tuple[str, Any] = item
            event, element = pair
            if event == "start":
                tag = element.tag
                if not isinstance(tag, str):
                    walker.skip_subtree()
                    frames.append(_IGNORED_FRAME)
                    continue
                if next_block < count and element is elements[next_block]:
                    block_id = next_block
                    next_block += 1
                    frame = self.enter_block(block_id, tag, element)
                    frames.append(frame)
                    if frame.kind == _SKIP:
                        walker.skip_subtree()
                        next_block = ends[block_id] + 1
                        continue
                else:
                    frame = self.enter_inline(tag, element)
                    frames.append(frame)
                    if frame.kind == _SKIP:
                        walker.skip_subtree()
                        continue
                text = element.text
                if text:
                    self.text(text)
                if embeds_first is not None:
                    found = embeds_first.get(element)
                    if found is not None:
                        self.embeds(found)
            else:
                frame = frames.pop()
                if frame.kind == _IGNORED:
                    continue
                if frame.block >= 0:
                    if frame.kind != _SKIP:
                        self.leave_block(frame, element)
                elif frame.kind != _SKIP:
                    self.leave_inline()
                if embeds_after is not None:
                    found = embeds_after.get(element)
                    if found is not None:
                        self.embeds(found)
                tail = element.tail
                if tail:
                    self.text(tail)

    def enter_block(self, block_id: int, tag: str, element: etree._Element) -> _Frame:
        self.flush()
        page = self.page
        parent = self.block
        if self.live[block_id]:
            kind = _LIVE
            media_ok = self.media_allowed(block_id)
        elif (
            parent.kind != _SKIP
            and parent.media_ok
            and page.block_signals[block_id] >= 0
            and (not self.texty[block_id] or page.block_captions[block_id])
        ):
            kind, media_ok = _MEDIA, True
        else:
            return _SKIPPED_BLOCK
        if kind == _MEDIA and element not in self.holds_media:
            return _SKIPPED_BLOCK  # no image or embed anywhere below: nothing to write
        captioned = page.block_captions[block_id]
        scope = tag == "figure" or (
            captioned and not (parent.block >= 0 and page.block_captions[parent.block])
        )
        out_tag: str | None = tag if tag in _BLOCK_OUTPUT else None
        if out_tag is None and scope:
            out_tag = "figure"
        frame = _Frame(kind, block_id, out_tag, _block_attrs(tag, element), parent)
        frame.media_ok = media_ok
        if scope:
            frame.scope = True
            frame.first_image = len(self.images)
            self.scopes.append(frame)
        if tag == "pre":
            self.pre_depth += 1
        self.block = frame
        self.start_run()
        return frame

    def leave_block(self, frame: _Frame, element: etree._Element) -> None:
        self.flush()
        if element.tag == "pre":
            self.pre_depth -= 1
        if frame.scope:
            self.scopes.pop()
            caption = " ".join(frame.caption) if frame.caption else None
            if caption is not None:
                for image in self.images[frame.first_image :]:
                    if image.caption is None:
                        image.caption = caption
        self.block = frame.parent if frame.parent is not None else self.top
        self.start_run()

    def enter_inline(self, tag: str, element: etree._Element) -> _Frame:
        block = self.block
        if tag not in ("a", "br"):
            # The segment walk's test for inline elements hidden by their style or class.
            style = element.get("style")
            classes = element.get("class")
            if (style is not None and hidden_style(style)) or (
                classes is not None and _hidden_inline_class(classes)
            ):
                return _SKIPPED_INLINE
        out_tag: str | None = None
        attrs: dict[str, str] | None = None
        if tag == "a":
            if self.writing:
                href = self.resolver.resolve(element.get("href"), LINK_SCHEMES)
                if href is not None:
                    out_tag, attrs = "a", {"href": href}
        elif tag == "br":
            if self.point is not None:  # a break before any content is dropped
                self.tail_of = self.child("br", None)
        elif tag == "img":
            self.image(element)
        else:
            out_tag = _INLINE_OUTPUT.get(tag)
        if out_tag is None or not self.writing:
            # Nothing of its own is written: one shared frame (its `out` stays None).
            block.inlines.append(_UNWRAPPED)
            return _UNWRAPPED
        frame = _Frame(_INLINE, -1, out_tag, attrs, block)
        if self.point is not None:
            frame.out = self.point = self.child(out_tag, attrs)
            self.tail_of = None
        block.inlines.append(frame)
        return frame

    def leave_inline(self) -> None:
        frame = self.block.inlines.pop()
        out = frame.out
        if out is not None and self.point is not None:
            self.write_buffer()
            point = self.holder if self.holder is not None else self.run_base
            for other in self.block.inlines:
                if other.out is not None:
                    point = other.out
            self.point = point
            self.tail_of = out

    # --- content ----------------------------------------------------------------------------

    def start_run(self) -> None:
        """A run of the current block starts: is it the block's next segment, and kept?"""
        block = self.block
        segment = -1
        if block.kind == _LIVE:
            runs = self.owned.get(block.block)
            if runs is not None and block.ordinal < len(runs):
                segment = runs[block.ordinal]
        self.writing = segment >= 0 and segment in self.kept
        self.run_segment = segment

    def ensure_point(self) -> _Node:
        """Where the run's content goes (a writing run): the block's own element when it holds
        inline content, else a new paragraph; the open inline elements of the block re-opened."""
        point = self.point
        if point is not None:
            return point
        block = self.block
        out = self.materialize(block)
        if block.tag in _DIRECT:
            self.holder = None
            self.run_base = point = out
            self.run_first = len(out.children)
            self.tail_of = out.children[-1] if self.run_first else None
        else:
            # A figure's text is its caption (or, rarely, text beside the picture).
            caption = block.tag == "figure" and self.run_segment in self.captions
            self.holder = point = _sub(out, "figcaption" if caption else "p", None)
            self.holder_parent = out
            self.run_base = None
            self.tail_of = None
        for frame in block.inlines:
            if frame.tag is not None:
                frame.out = point = _sub(point, frame.tag, frame.attrs)
                self.tail_of = None
        self.point = point
        return point

    def child(self, tag: str, attrs: dict[str, str] | None) -> _Node:
        """A new element at the run's point, after the text written so far."""
        self.write_buffer()
        point = self.ensure_point()
        return _sub(point, tag, attrs)

    def write_buffer(self) -> None:
        """The run's text so far, into the tree: one assignment per text node."""
        buffer = self.buffer
        if not buffer:
            return
        text = buffer[0] if len(buffer) == 1 else "".join(buffer)
        buffer.clear()
        point = self.ensure_point()
        target = self.tail_of
        if target is not None:
            tail = target.tail
            target.tail = tail + text if tail else text
        else:
            existing = point.text
            point.text = existing + text if existing else text

    def text(self, text: str) -> None:
        if self.block.kind != _LIVE:
            return  # a media block's text is not the article's
        blank = text.isspace()
        if blank and not (self.has_text or self.pre_depth):
            return
        if not blank:
            self.has_text = True
        if not self.writing:
            return
        if not self.pre_depth and (
            blank or "  " in text or "\n" in text or "\t" in text or "\r" in text
        ):
            # Other runs of white space (a no-break space) are left: collapsing them is
            # cosmetic, and searching every text for them cost a tenth of this module.
            text = _collapse_spaces(text)
        if self.point is None:
            self.ensure_point()
        self.buffer.append(text)

    def image(self, element: etree._Element) -> None:
        if is_tiny(element):
            return
        url = self.resolver.resolve(image_source(element), IMAGE_SCHEMES)
        if url is None:
            return
        alt = " ".join((element.get("alt") or "").split())[:MAX_ALT_CHARS] or None
        if self.writing:
            self.tail_of = self.child("img", {"src": url, "alt": alt} if alt else {"src": url})
        else:
            self.media.append(("img", url, alt))
        self.has_media = self.has_image = True
        self.pending.append(_Image(url, alt))

    def embeds(self, found: list[Embed]) -> None:
        if self.block.kind == _SKIP:
            return
        for embed in found:
            text = embed.title or embed.url
            if self.writing:
                link = self.child("a", {"href": embed.url})
                link.text = text
                self.tail_of = link
            else:
                self.media.append(("a", embed.url, text))
            self.has_media = True

    def flush(self) -> None:
        """End the current run: count its segment, keep or drop what it wrote."""
        if not (self.has_text or self.has_media or self.point is not None):
            return  # nothing in it (most runs between blocks): the next run is the same
        block = self.block
        if self.has_text:
            runs = self.owned.get(block.block)
            if runs is None or block.ordinal >= len(runs):
                raise _Mismatch(f"block {block.block}: more runs than segments")
            segment = runs[block.ordinal]
            block.ordinal += 1
            kept = segment in self.kept
            if kept != self.writing:
                raise _Mismatch(f"segment {segment}: run and page model disagree")
            if kept:
                self.write_buffer()
                self.emitted += 1
                self.images.extend(self.pending)
                if segment in self.captions and self.scopes:
                    self.scopes[-1].caption.append(" ".join(self.page.segment_lines[segment]))
        elif self.has_media and block.media_ok:
            if self.writing:
                self.write_buffer()
                if self.holder is not None and self.has_image and block.tag != "figure":
                    self.holder.tag = "figure"
            else:
                self.write_media(block)
            self.images.extend(self.pending)
        elif self.writing and self.point is not None:
            self.discard()  # written, but no text and no media it may keep
        self.point = self.holder = self.run_base = self.tail_of = None
        self.has_text = self.has_media = self.has_image = False
        if self.buffer:
            self.buffer.clear()
        if self.pending:
            self.pending = []
        if self.media:
            self.media = []
        for frame in block.inlines:
            frame.out = None
        self.start_run()

    def discard(self) -> None:
        holder = self.holder
        if holder is not None:
            parent = self.holder_parent
            if parent is not None:
                parent.remove(holder)
        elif self.run_base is not None:
            del self.run_base.children[self.run_first :]

    def write_media(self, block: _Frame) -> None:
        """The images and embeds of a run without text, noted while it was counted."""
        out = self.materialize(block)
        target = (
            out
            if block.tag in _DIRECT or block.tag == "figure"
            else _sub(out, "figure" if self.has_image else "p", None)
        )
        for tag, url, text in self.media:
            if tag == "img":
                _sub(target, "img", {"src": url, "alt": text} if text else {"src": url})
            else:
                link = _sub(target, "a", {"href": url})
                link.text = text or ""

    def materialize(self, frame: _Frame) -> _Node:
        """The output element of a block frame, creating those of its ancestors as needed."""
        chain: list[_Frame] = []
        current: _Frame | None = frame
        while current is not None and current.out is None:
            chain.append(current)
            current = current.parent
        out = current.out if current is not None and current.out is not None else self.root_out
        for pending in reversed(chain):
            if pending.tag is not None:
                out = _sub(out, pending.tag, pending.attrs)
            pending.out = out
        return out

    def result(self) -> tuple[str, tuple[ImageRecord, ...]]:
        if self.emitted != len(self.kept):
            raise _Mismatch(f"{self.emitted} of {len(self.kept)} kept segments written")
        root = self.root_out
        children = root.children
        if not children:
            html = ""
        else:
            # The blocks one per line, the wrapper left out.
            for child in children[:-1]:
                child.tail = "\n"
            written = _serialize(children) if _WRITER_AGREES else None
            html = written if written is not None else _lxml_html(root)
        seen: set[str] = set()
        images = []
        for image in self.images:
            if image.url not in seen:
                seen.add(image.url)
                images.append((image.url, image.alt, image.caption))
        return html, tuple(images)


def article_html(
    page: PageSegments,
    selection: BodySelection,
    media: PageMedia | None = None,
    url: str | None = None,
) -> tuple[str, tuple[ImageRecord, ...]]:
    """(`Article.body_html`, `Article.images`) for the chosen segments. The page's tree must
    still be there (`page.block_elements`); when it is not, or the walk disagrees with the page
    model, the text renderer's HTML and no images."""
    if not selection.segment_ids and not selection.caption_ids:
        return "", ()
    if not page.block_elements:
        return _text_only(page, selection)
    base = media.base if media is not None else url
    render = RENDER.active
    try:
        if render is not None:
            return render(page, selection, media, base)
        renderer = _Renderer(page, selection, media, base)
        renderer.walk(renderer.region())
        return renderer.result()
    except _Mismatch as error:
        logger.debug("newsspider: body_html from the text (%s)", error)
    except Exception:  # a bug here must not cost the page its article
        logger.exception("newsspider: rendering body_html failed")
    return _text_only(page, selection)


def _text_only(page: PageSegments, selection: BodySelection) -> tuple[str, tuple[ImageRecord, ...]]:
    return text_body_html(page, selection.segment_ids, selection.caption_ids), ()


# The compiled renderer (`_article_html_c`, built with the other Cython parts: the same walk over
# libxml2's nodes, the same rules); None falls back to `_Renderer` (NEWSSPIDER_PURE_PYTHON=1, no
# compiler at install, or a twin that reads other image attributes than `page_media`).
_Render = Callable[
    [PageSegments, BodySelection, PageMedia | None, str | None],
    tuple[str, tuple[ImageRecord, ...]],
]
_compiled_render: _Render | None = None
try:
    from newsspider.extraction.body import _article_html_c
except ImportError:  # not built: the pure-Python renderer
    pass
else:
    if (
        _article_html_c.SRCSET_ATTRIBUTES == _SRCSET_ATTRIBUTES
        and (*_LAZY_SRC_ATTRIBUTES, "src") == _article_html_c.SRC_ATTRIBUTES
        and _article_html_c.WRITER_AGREES == _WRITER_AGREES
    ):
        _article_html_c.bind(
            mismatch=_Mismatch,
            resolver=Resolver,
            hidden_style=hidden_style,
            hidden_inline_class=_hidden_inline_class,
            image_source=image_source,
            srcset_best=srcset_best,
            descriptor=_DESCRIPTOR,
            max_url_chars=MAX_URL_CHARS,
            link_schemes=LINK_SCHEMES,
            image_schemes=IMAGE_SCHEMES,
            yield_point=yield_point,
            block_output=_BLOCK_OUTPUT,
            direct=_DIRECT,
            inline_output=_INLINE_OUTPUT,
            max_number=_MAX_NUMBER,
            max_alt_chars=MAX_ALT_CHARS,
            picture_levels=_PICTURE_LEVELS,
            tiny_image=TINY_IMAGE,
        )
        _compiled_render = _article_html_c.render

#: The compiled renderer when built (`active` when not switched off: `core_loader.use_compiled`,
#: NEWSSPIDER_PURE_PYTHON=1).
RENDER: Final[CompiledTwin[_Render]] = CompiledTwin(_compiled_render)
