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
``rowspan``, ``start``), every URL checked by `page_media.safe_url`, and serialised by lxml,
which escapes text and attribute values. No element or attribute of the page is copied.
"""

from __future__ import annotations

import logging
import re
from typing import Final

from lxml import etree

from newsspider.extraction.article import ArticleImage
from newsspider.extraction.assembly import BodySelection
from newsspider.extraction.html_output import body_html as text_body_html
from newsspider.extraction.page_media import (
    IMAGE_SCHEMES,
    LINK_SCHEMES,
    Embed,
    PageMedia,
    image_source,
    is_tiny,
    safe_url,
)
from newsspider.extraction.page_model import PageSegments
from newsspider.extraction.segments import _hidden_inline_class
from newsspider.extraction.visibility import hidden_style

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
#: The largest ``colspan``/``rowspan``/``start`` kept (browsers cap spans at 1000 and 65534).
_MAX_NUMBER: Final = 1000
_SPACES: Final = re.compile(r"\s+")
#: Characters of an ``alt`` kept.
MAX_ALT_CHARS: Final = 500

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
        self.out: etree._Element | None = None
        self.media_ok = False
        self.ordinal = 0  # runs with text seen so far (blocks)
        self.inlines: list[_Frame] = []  # open inline frames (blocks)
        self.scope = False  # a figure: the captions inside belong to its images
        self.caption: list[str] = []
        self.first_image = 0


#: Shared frames of nodes that write nothing: ignored nodes, hidden and unwrapped inline ones.
_IGNORED_FRAME: Final = _Frame(_IGNORED, -1, None, None, None)
_SKIPPED_INLINE: Final = _Frame(_SKIP, -1, None, None, None)
_UNWRAPPED: Final = _Frame(_INLINE, -1, None, None, None)


class _Image:
    __slots__ = ("alt", "caption", "url")

    def __init__(self, url: str, alt: str | None) -> None:
        self.url = url
        self.alt = alt
        self.caption: str | None = None


def _append_text(parent: etree._Element, text: str) -> None:
    if len(parent):
        last = parent[-1]
        last.tail = (last.tail or "") + text
    else:
        parent.text = (parent.text or "") + text


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
        self.media = media
        self.base = base
        self.root_out = etree.Element("div")
        # Runs are built under this element of the output's document, so that attaching one
        # moves nodes within a document (moving them between documents costs several times
        # more); it is left out of the output.
        self.scratch = etree.SubElement(self.root_out, "div")
        self.top = _Frame(_LIVE, -1, None, None, None)
        self.top.out = self.root_out
        self.block = self.top
        self.frames: list[_Frame] = []
        self.holder: etree._Element | None = None
        self.point: etree._Element | None = None
        self.has_text = False
        self.has_media = False
        self.has_image = False
        self.pending: list[_Image] = []
        self.images: list[_Image] = []
        self.scopes: list[_Frame] = []
        self.pre_depth = 0
        self.emitted = 0
        self.live: set[int] = set()
        self.texty: set[int] = set()
        self.owned: dict[int, list[int]] = {}
        self.anchor = -1
        self.anchor_end = -1

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
        live = self.live
        for owner in kept_owners:
            block = owner
            while block >= top and block not in live:
                live.add(block)
                block = parents[block]
        # The region's segments are contiguous: from the kept ones outwards.
        end = ends[top]
        first = min(self.kept)
        while first > 0 and top <= owners[first - 1] <= end:
            first -= 1
        last = max(self.kept)
        while last + 1 < len(owners) and top <= owners[last + 1] <= end:
            last += 1
        texty, owned = self.texty, self.owned
        for index in range(first, last + 1):
            owner = owners[index]
            if owner in live:
                runs = owned.get(owner)
                if runs is None:
                    owned[owner] = [index]
                else:
                    runs.append(index)
            block = owner
            while block >= top and block not in texty:
                texty.add(block)
                block = parents[block]
        container = self.container
        if 0 <= container < len(parents) and parents[container] >= 0:
            anchor = parents[container]
            self.anchor, self.anchor_end = anchor, ends[anchor]
        return top

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
        media = self.media
        embeds_first = media.first if media is not None and media.first else None
        embeds_after = media.after if media is not None and media.after else None
        walker = etree.iterwalk(elements[top], events=("start", "end"))
        for event, element in walker:
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
        if block_id in self.live:
            kind = _LIVE
            media_ok = self.media_allowed(block_id)
        elif (
            parent.kind != _SKIP
            and parent.media_ok
            and page.block_signals[block_id] >= 0
            and (block_id not in self.texty or page.block_captions[block_id])
        ):
            kind, media_ok = _MEDIA, True
        else:
            return _Frame(_SKIP, block_id, None, None, parent)
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
            href = safe_url(element.get("href"), self.base, LINK_SCHEMES)
            if href is not None:
                out_tag, attrs = "a", {"href": href}
        elif tag == "br":
            if self.holder is not None and block.kind == _LIVE and self.point is not None:
                etree.SubElement(self.point, "br")
        elif tag == "img":
            self.image(element)
        else:
            out_tag = _INLINE_OUTPUT.get(tag)
        if out_tag is None:
            # Nothing of its own is written: one shared frame (its `out` stays None).
            block.inlines.append(_UNWRAPPED)
            return _UNWRAPPED
        frame = _Frame(_INLINE, -1, out_tag, attrs, block)
        if self.point is not None:
            frame.out = (
                etree.SubElement(self.point, out_tag, attrs)
                if attrs
                else etree.SubElement(self.point, out_tag)
            )
            self.point = frame.out
        block.inlines.append(frame)
        return frame

    def leave_inline(self) -> None:
        block = self.block
        block.inlines.pop()
        if self.holder is not None:
            point = self.holder
            for frame in block.inlines:
                if frame.out is not None:
                    point = frame.out
            self.point = point

    # --- content ----------------------------------------------------------------------------

    def ensure_holder(self) -> etree._Element:
        """The current run's element, with the open inline elements of its block re-opened."""
        point = self.point
        if point is not None:
            return point
        holder = self.holder = etree.SubElement(self.scratch, "p")
        point = holder
        for frame in self.block.inlines:
            if frame.tag is not None:
                frame.out = (
                    etree.SubElement(point, frame.tag, frame.attrs)
                    if frame.attrs
                    else etree.SubElement(point, frame.tag)
                )
                point = frame.out
        self.point = point
        return point

    def text(self, text: str) -> None:
        if self.block.kind != _LIVE:
            return  # a media block's text is not the article's
        blank = text.isspace()
        if blank and not (self.has_text or self.pre_depth):
            return
        if not blank:
            self.has_text = True
        if not self.pre_depth and (
            blank or "  " in text or "\n" in text or "\t" in text or "\r" in text
        ):
            # Other runs of white space (a no-break space) are left: collapsing them is
            # cosmetic, and searching every text for them cost a tenth of this module.
            text = _SPACES.sub(" ", text)
        _append_text(self.ensure_holder(), text)

    def image(self, element: etree._Element) -> None:
        if is_tiny(element):
            return
        url = safe_url(image_source(element), self.base, IMAGE_SCHEMES)
        if url is None:
            return
        alt = " ".join((element.get("alt") or "").split())[:MAX_ALT_CHARS] or None
        point = self.ensure_holder()
        attrs = {"src": url, "alt": alt} if alt is not None else {"src": url}
        etree.SubElement(point, "img", attrs)
        self.has_media = self.has_image = True
        self.pending.append(_Image(url, alt))

    def embeds(self, found: list[Embed]) -> None:
        if self.block.kind == _SKIP:
            return
        for embed in found:
            link = etree.SubElement(self.ensure_holder(), "a", {"href": embed.url})
            link.text = embed.title or embed.url
            self.has_media = True

    def flush(self) -> None:
        """End the current run: attach it where it belongs when it is kept."""
        block = self.block
        if self.holder is None:  # nothing written (text always is): no run to count or keep
            return
        keep = False
        if block.kind == _LIVE and self.has_text:
            runs = self.owned.get(block.block)
            if runs is None or block.ordinal >= len(runs):
                raise _Mismatch(f"block {block.block}: more runs than segments")
            segment = runs[block.ordinal]
            block.ordinal += 1
            keep = segment in self.kept
            if keep:
                self.emitted += 1
                if segment in self.captions and self.scopes:
                    self.scopes[-1].caption.append(" ".join(self.page.segment_lines[segment]))
        elif self.has_media and block.media_ok:
            keep = True
        holder = self.holder
        if keep:
            self.attach(block, holder)
            self.images.extend(self.pending)
        else:
            self.scratch.remove(holder)
        self.holder = self.point = None
        self.has_text = self.has_media = self.has_image = False
        if self.pending:
            self.pending = []
        for frame in block.inlines:
            frame.out = None

    def attach(self, block: _Frame, holder: etree._Element) -> None:
        out = self.materialize(block)
        if block.tag in _TEXT_BLOCKS or (block.tag == "figure" and not self.has_text):
            if holder.text:
                _append_text(out, holder.text)
            out.extend(list(holder))
            self.scratch.remove(holder)
            return
        if not self.has_text and self.has_image:
            holder.tag = "figure"
        out.append(holder)

    def materialize(self, frame: _Frame) -> etree._Element:
        """The output element of a block frame, creating those of its ancestors as needed."""
        chain: list[_Frame] = []
        current: _Frame | None = frame
        while current is not None and current.out is None:
            chain.append(current)
            current = current.parent
        out = current.out if current is not None and current.out is not None else self.root_out
        for pending in reversed(chain):
            if pending.tag is not None:
                out = (
                    etree.SubElement(out, pending.tag, pending.attrs)
                    if pending.attrs
                    else etree.SubElement(out, pending.tag)
                )
            pending.out = out
        return out

    def result(self) -> tuple[str, tuple[ArticleImage, ...]]:
        if self.emitted != len(self.kept):
            raise _Mismatch(f"{self.emitted} of {len(self.kept)} kept segments written")
        root = self.root_out
        root.remove(self.scratch)
        if not len(root):
            html = ""
        else:
            # One serialisation (one per block cost more than the rest of this module): the
            # blocks one per line, the wrapper cut off.
            children = list(root)
            for child in children[:-1]:
                child.tail = "\n"
            html = etree.tostring(root, method="html", encoding="unicode")
            html = html[html.index(">") + 1 : html.rindex("<")]
        seen: set[str] = set()
        images = []
        for image in self.images:
            if image.url not in seen:
                seen.add(image.url)
                images.append(ArticleImage(image.url, image.alt, image.caption))
        return html, tuple(images)


def article_html(
    page: PageSegments,
    selection: BodySelection,
    media: PageMedia | None = None,
    url: str | None = None,
) -> tuple[str, tuple[ArticleImage, ...]]:
    """(`Article.body_html`, `Article.images`) for the chosen segments. The page's tree must
    still be there (`page.block_elements`); when it is not, or the walk disagrees with the page
    model, the text renderer's HTML and no images."""
    if not selection.segment_ids and not selection.caption_ids:
        return "", ()
    if not page.block_elements:
        return _text_only(page, selection)
    renderer = _Renderer(page, selection, media, media.base if media is not None else url)
    try:
        renderer.walk(renderer.region())
        return renderer.result()
    except _Mismatch as error:
        logger.debug("newsspider: body_html from the text (%s)", error)
    except Exception:  # a bug here must not cost the page its article
        logger.exception("newsspider: rendering body_html failed")
    return _text_only(page, selection)


def _text_only(
    page: PageSegments, selection: BodySelection
) -> tuple[str, tuple[ArticleImage, ...]]:
    return text_body_html(page, selection.segment_ids, selection.caption_ids), ()
