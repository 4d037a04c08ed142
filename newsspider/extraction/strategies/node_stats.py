"""Per-element statistics for the DOM node methods (CETD, punctuation density, GNE), one pass.

CETD and its descendants score *every* element, not only block elements: characters, tags,
link characters, link tags and punctuation in the element's subtree. `collect_node_stats` walks
``<body>`` once in document order (no recursion: pages can be 100 000 levels deep) and numbers
the elements, so a subtree is the id range ``[i, end[i]]`` and every later sweep is a loop over
flat lists.

Text is counted per text node ("run"), whitespace collapsed as a browser renders it. A run is
attributed to the element that directly holds it (``element.text`` to the element, ``tail`` to
its parent); the DensitySum methods treat each run as a leaf child of that element.

Elements hidden by an inline style (``display:none``, ``visibility:hidden``) or the ``hidden``
attribute are left out with their subtree, as CETD's own preprocessing removes
``display: none`` elements before counting.

`selection_from_nodes` maps chosen elements back to `PageSegments`: a segment is selected when
its owner block is a chosen element or lies inside one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from newsspider.extraction.body.assembly import BodySelection
from newsspider.extraction.common.textstats import count_punctuation
from newsspider.extraction.page.page_model import PageSegments
from newsspider.extraction.page.visibility import hidden_attributes

_LINK_TAG = "a"
# GeneralNewsExtractor's normalisation turns childless <div>/<span> into <p> before counting.
_PARAGRAPH_TAG = "p"
_PARAGRAPH_IF_CHILDLESS = frozenset({"div", "span"})
_ROOT, _HIDDEN = -2, -1


@dataclass(slots=True)
class NodeStats:
    """Flat per-element lists, indexed by document order; element 0 is ``<body>``."""

    tag_names: list[str] = field(default_factory=list)
    classes: list[str | None] = field(default_factory=list)  # the class attribute
    parent: list[int] = field(default_factory=list)  # -1 for element 0
    end: list[int] = field(default_factory=list)  # last element id of the subtree (inclusive)
    chars: list[int] = field(default_factory=list)  # characters in the subtree
    tags: list[int] = field(default_factory=list)  # descendant elements
    link_chars: list[int] = field(default_factory=list)  # characters inside <a> in the subtree
    link_tags: list[int] = field(default_factory=list)  # <a> descendants
    punctuation: list[int] = field(default_factory=list)
    #: GNE's "text tag" count: descendant <p> (and childless <div>/<span>) holding text.
    paragraphs: list[int] = field(default_factory=list)
    #: Characters of the subtree that are not inside a block element of that subtree.
    loose: list[int] = field(default_factory=list)
    block: list[int] = field(default_factory=list)  # this element's block id, -1 if not a block
    enclosing: list[int] = field(default_factory=list)  # nearest block id at or above, or -1
    #: Block ids inside the subtree: ``range(block_start[i], block_stop[i])``.
    block_start: list[int] = field(default_factory=list)
    block_stop: list[int] = field(default_factory=list)
    #: Text runs (text nodes), each a leaf child of `run_owner` for the DensitySum methods.
    run_owner: list[int] = field(default_factory=list)
    run_chars: list[int] = field(default_factory=list)
    run_link_chars: list[int] = field(default_factory=list)
    run_punctuation: list[int] = field(default_factory=list)
    #: Per block of the page: hidden, never selected.
    excluded_blocks: bytearray = field(default_factory=bytearray)

    def __len__(self) -> int:
        return len(self.parent)

    def children(self, node: int) -> list[int]:
        """Direct child elements of `node`, in document order."""
        kids = []
        child = node + 1
        stop = self.end[node]
        while child <= stop:
            kids.append(child)
            child = self.end[child] + 1
        return kids


def _hidden(element: etree._Element) -> bool:
    """Hidden from readers by an inline style or the ``hidden`` attribute."""
    return hidden_attributes(element)


def _body_of(root: etree._Element) -> etree._Element:
    if root.tag == "body":
        return root
    body = root.find("body")
    return root if body is None else body


def collect_node_stats(root: etree._Element, page: PageSegments) -> NodeStats:
    """Count characters, tags, links and punctuation for every visible element under
    ``<body>`` and tie each element to the page's blocks.

    One preorder pass (``iter``, with a stack of the open ancestors) records each element and
    its own text, then one reverse sweep adds every subtree into its parent. (lxml's
    ``iterwalk`` "end" events cost time proportional to the depth, quadratic on deep pages.)
    No element proxy outlives the pass: lxml frees a proxy by walking up to the nearest
    ancestor that still has one, so proxies are dropped deepest first.
    """
    stats = NodeStats(excluded_blocks=bytearray(len(page.block_elements)))
    block_ends = page.block_ends
    block_ids = {element: index for index, element in enumerate(page.block_elements)}
    tag_names = stats.tag_names
    classes = stats.classes
    parent = stats.parent
    end = stats.end
    chars = stats.chars
    tags = stats.tags
    link_chars = stats.link_chars
    link_tags = stats.link_tags
    punctuation = stats.punctuation
    paragraphs = stats.paragraphs
    loose = stats.loose
    block = stats.block
    enclosing = stats.enclosing
    block_start = stats.block_start
    block_stop = stats.block_stop
    run_owner = stats.run_owner
    run_chars = stats.run_chars
    run_link_chars = stats.run_link_chars
    run_punctuation = stats.run_punctuation
    excluded = stats.excluded_blocks

    open_elements: list[etree._Element] = []  # the current element's ancestors
    open_ids: list[int] = []  # their node ids, _HIDDEN for hidden ones
    in_link: list[bool] = []  # the element is, or is inside, an <a>
    next_block = 0  # the id of the next block in document order

    def add_run(owner: int, text: str) -> None:
        count = len(" ".join(text.split()))
        if not count:
            return
        marks = count_punctuation(text)
        linked = count if in_link[owner] else 0
        run_owner.append(owner)
        run_chars.append(count)
        run_link_chars.append(linked)
        run_punctuation.append(marks)
        chars[owner] += count
        link_chars[owner] += linked
        punctuation[owner] += marks
        loose[owner] += count

    for element in _body_of(root).iter():
        tag = element.tag
        if not isinstance(tag, str):
            continue
        block_id = block_ids.get(element)
        if block_id is not None:
            next_block = block_id + 1
        # Preorder: the parent is on the stack (only <body>'s is not); close the others.
        above = element.getparent()
        while open_elements and open_elements[-1] is not above:
            open_elements.pop()
            open_ids.pop()
        up = open_ids[-1] if open_ids else _ROOT
        open_elements.append(element)
        if up == _HIDDEN or _hidden(element):
            open_ids.append(_HIDDEN)
            if block_id is not None:
                excluded[block_id] = 1
            if up >= 0 and element.tail:
                add_run(up, element.tail)  # the tail of a hidden element is visible
            continue
        node = len(parent)
        open_ids.append(node)
        tag_names.append(tag)
        classes.append(element.get("class"))
        parent.append(up if up >= 0 else -1)
        end.append(node)
        chars.append(0)
        tags.append(0)
        link_chars.append(0)
        link_tags.append(0)
        punctuation.append(0)
        paragraphs.append(0)
        loose.append(0)
        in_link.append(tag == _LINK_TAG or (up >= 0 and in_link[up]))
        if block_id is not None:
            block.append(block_id)
            block_start.append(block_id)
            block_stop.append(block_ends[block_id] + 1)
            enclosing.append(block_id)
        else:
            block.append(-1)
            block_start.append(next_block)
            block_stop.append(next_block)
            enclosing.append(enclosing[up] if up >= 0 else -1)
        if element.text:
            add_run(node, element.text)
        if up >= 0 and element.tail:
            add_run(up, element.tail)

    while open_elements:
        open_elements.pop()

    # Descendants come after their ancestors: one reverse sweep completes every subtree.
    for node in range(len(parent) - 1, 0, -1):
        up = parent[node]
        tag = tag_names[node]
        chars[up] += chars[node]
        link_chars[up] += link_chars[node]
        punctuation[up] += punctuation[node]
        tags[up] += tags[node] + 1
        link_tags[up] += link_tags[node] + (tag == _LINK_TAG)
        paragraphs[up] += paragraphs[node]
        if chars[node] and (
            tag == _PARAGRAPH_TAG or (tag in _PARAGRAPH_IF_CHILDLESS and not tags[node])
        ):
            paragraphs[up] += 1
        if block[node] < 0:
            loose[up] += loose[node]
        end[up] = max(end[up], end[node])
        block_stop[up] = max(block_stop[up], block_stop[node])
    return stats


def subtree_roots(stats: NodeStats, marks: bytearray, value: int = 1) -> list[int]:
    """The outermost elements marked `value` (their descendants are implied)."""
    roots = []
    node = 0
    count = len(stats)
    end = stats.end
    while node < count:
        if marks[node] == value:
            roots.append(node)
            node = end[node] + 1
        else:
            node += 1
    return roots


def selection_from_nodes(
    stats: NodeStats, page: PageSegments, roots: list[int], container_node: int
) -> BodySelection | None:
    """The page segments inside the chosen elements, in document order.

    A block element brings every block of its subtree. An inline element (a ``<font>`` or
    ``<span>`` wrapping the text) has no segments of its own: it brings the blocks inside it
    and, when it holds text outside them, the segments of its nearest block (segments are cut
    at block boundaries only, so that block's other inline text comes along).
    """
    chosen = bytearray(len(page.block_tags))
    for node in roots:
        start, stop = stats.block_start[node], stats.block_stop[node]
        if stop > start:
            chosen[start:stop] = b"\x01" * (stop - start)
        if stats.block[node] < 0 and stats.loose[node] > 0 and stats.enclosing[node] >= 0:
            chosen[stats.enclosing[node]] = 1
    excluded = stats.excluded_blocks
    segment_ids = tuple(
        index
        for index, owner in enumerate(page.segment_owners)
        if chosen[owner] and not excluded[owner]
    )
    if not segment_ids:
        return None
    container = stats.block[container_node]
    if container < 0:
        container = stats.enclosing[container_node]
    if container < 0:
        container = page.segment_owners[segment_ids[0]]
    return BodySelection(container, segment_ids, ())
