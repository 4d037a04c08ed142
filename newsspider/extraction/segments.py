"""One pass over the tree: block elements and the text segments they own, with their statistics.

A *segment* is a run of inline text between two block boundaries (a paragraph, a list item, a
heading, the loose text of a ``div``). Each carries what the density methods need: characters,
characters inside links, punctuation, and the block element that owns it. Block elements are
numbered in document order, so a subtree is a contiguous id range ``[id, end]`` — container
scoring is then a single reverse sweep, never a recursion.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from newsspider.extraction.caching import cacheable
from newsspider.extraction.textstats import count_dense_script, count_punctuation

BLOCK_TAGS = frozenset(
    """address article aside blockquote body center dd details dialog div dl dt fieldset
    figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html li main menu nav ol p
    pre section summary table tbody td tfoot th thead tr ul caption""".split()
)
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: A CJK/kana/hangul character carries about as much as a short word: each counts this many
#: times extra wherever segment sizes are weighed (`effective_chars`).
DENSE_CHAR_EXTRA = 2
#: Headings inside an article (the h1 is its headline).
SUBHEADING_TAGS = HEADING_TAGS - {"h1"}
# Page regions that are boilerplate by their HTML5 role.
_BOILERPLATE_TAGS = frozenset({"nav", "aside", "footer", "menu"})

_CAMEL = re.compile(r"([a-z])([A-Z])")
_TOKEN_SPLIT = re.compile(r"[^a-z0-9]+")
# Class/id words of page furniture. Whole tokens only: "comment" is noise, "commentary" is not.
# Strong words name regions that never wrap an article; weak ones ("widget", "modal", "promo")
# also appear on wrappers, so they only count inside the chosen container.
STRONG_NEGATIVE_TOKENS = frozenset(
    """comment comments commentlist disqus respond replies related relatedposts
    recommend recommended recommendation recommendations recirc recirculation outbrain taboola share
    sharing sharebar social socials newsletter subscribe subscription signup cookie cookies
    consent gdpr sidebar footer nav navbar navigation menu breadcrumb breadcrumbs pagination
    pager advert advertisement advertising ads adslot sponsor sponsored popup trending popular
    mostread""".split()
)
WEAK_NEGATIVE_TOKENS = frozenset(
    """reply ad banner modal toolbar widget masthead tags tagcloud keywords rating ratings skip
    print login teaser teasers more promo promotion""".split()
)
POSITIVE_TOKENS = frozenset(
    """article articlebody articlecontent articletext body content entry entrycontent post
    postbody postcontent story storybody storycontent text prose main maincontent blog news
    hentry""".split()
)


_CAPTION_TAGS = frozenset({"figure", "figcaption"})
_PAGE_TAGS = frozenset({"html", "body"})
#: Headings that, when linked, are teaser headlines (h1 is the page's own headline).
TEASER_HEADINGS = frozenset({"h2", "h3", "h4"})
CAPTION_TOKENS = frozenset(
    """caption captions wpcaption wpcaptiontext imagecaption photocaption figcaption credit
    credits imagecredit photocredit""".split()
)
#: A dialog laid over the page (consent and cookie notices, modals): furniture that may hold
#: more prose than the article itself, so only its share of the page's structure can make it
#: a wrapper.
OVERLAY = -3
STRONG_FURNITURE = -2
WEAK_FURNITURE = -1
OVERLAY_TOKENS = frozenset("consent cookie cookies gdpr onetrust cmp".split())
_DIALOG_ROLES = frozenset({"dialog", "alertdialog"})


def attribute_tokens(value: str) -> frozenset[str]:
    """The words of a class or id value, camelCase split and lower-cased, plus the whole value
    squashed ("articleBody" gives article, body and articlebody) and "related" when the squashed
    value starts with it."""
    if "__" in value:
        value = " ".join(_bem_element(word) for word in value.split())
    lower = value.lower()
    # Most class names are already lower-case: the camelCase split is only needed otherwise.
    words = _TOKEN_SPLIT.split(lower if lower == value else _CAMEL.sub(_spaced, value).lower())
    squashed = _TOKEN_SPLIT.sub("", lower)
    # "relatedpoststitle", "relatedarticles": the one furniture word that is often run together.
    if squashed.startswith("related"):
        words.append("related")
    return frozenset([*filter(None, words), squashed])


_BEM_ELEMENT = re.compile(r"[a-z][a-z-]{2,}")


def _bem_element(word: str) -> str:
    """'detail-content__recommend' names a recommend element inside a detail-content block: the
    element says what the node is. CSS-module hashes ('styles_Card__x4Uq2') are not elements."""
    element = word.rsplit("__", 1)[-1].split("--", 1)[0]
    return element if _BEM_ELEMENT.fullmatch(element) else word


def _spaced(match: re.Match[str]) -> str:
    return f"{match[1]} {match[2]}"


def _signal_of(tokens: frozenset[str]) -> int:
    positive = not POSITIVE_TOKENS.isdisjoint(tokens)
    if not OVERLAY_TOKENS.isdisjoint(tokens):
        return WEAK_FURNITURE if positive else OVERLAY
    if not STRONG_NEGATIVE_TOKENS.isdisjoint(tokens):
        # "article-body pagination-fix": the article word wins over the page-region word.
        return WEAK_FURNITURE if positive else STRONG_FURNITURE
    if not WEAK_NEGATIVE_TOKENS.isdisjoint(tokens):
        return 0 if positive else WEAK_FURNITURE
    return 1 if positive else 0


# Class and id values repeat across elements and pages: cache their meaning, bounded.
_attribute_cache: dict[tuple[str | None, str | None], tuple[int, bool]] = {}
_CACHE_LIMIT = 50_000


def class_meaning(classes: str | None, ident: str | None) -> tuple[int, bool]:
    """(furniture signal, is-caption) of a block's class and id attributes."""
    meaning = _attribute_cache.get((classes, ident))
    return _class_meaning(classes, ident) if meaning is None else meaning


def _class_meaning(classes: str | None, ident: str | None) -> tuple[int, bool]:
    """`class_meaning` on a cache miss: work it out and remember it."""
    class_words = attribute_tokens(classes) if classes else frozenset()
    tokens = class_words | attribute_tokens(ident) if ident else class_words
    # Caption from the class only: "caption" in an id names a slot more often than text.
    meaning = (_signal_of(tokens), not CAPTION_TOKENS.isdisjoint(class_words))
    if cacheable(classes, ident):  # bounded in bytes too: values come from arbitrary pages
        if len(_attribute_cache) > _CACHE_LIMIT:
            _attribute_cache.clear()
        _attribute_cache[(classes, ident)] = meaning
    return meaning


@dataclass(slots=True)
class Segment:
    """A run of inline text owned by one block element: one segment's fields together, for code
    that reads a few segments (`PageSegments.segment`). Loops over every segment read the
    page's lists."""

    owner: int
    lines: list[str]
    chars: int
    link_chars: int
    punctuation: int
    dense_chars: int  # CJK/kana/hangul characters, each worth about a word
    tag: str
    #: True when an ancestor block (or the owner) is page furniture.
    in_boilerplate: bool = False

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def link_density(self) -> float:
        return self.link_chars / self.chars if self.chars else 0.0


@dataclass(slots=True)
class PageSegments:
    """The page's blocks and segments.

    Block elements and segments are numbered in document order, and each of their properties
    is a list indexed by id (``block_tags[i]``, ``segment_chars[i]``, ...): an object per block
    and per segment cost more than the rest of their share of the walk.
    """

    block_elements: list[etree._Element] = field(default_factory=list)
    block_tags: list[str] = field(default_factory=list)
    #: Id of the enclosing block, -1 for the root.
    block_parents: list[int] = field(default_factory=list)
    #: OVERLAY/STRONG_FURNITURE/WEAK_FURNITURE by tag or class/id, +1 article-like class/id,
    #: else 0.
    block_signals: list[int] = field(default_factory=list)
    #: Last block id inside each block (inclusive): a subtree is the id range [id, end].
    block_ends: list[int] = field(default_factory=list)
    #: Inside a figure or caption: shown with the article, not part of its running text.
    block_captions: list[bool] = field(default_factory=list)
    #: itemprop="articleBody" and the like: the page says this block is the article.
    declared_bodies: set[int] = field(default_factory=set)
    #: <main> or role="main": the page says its main content is in here.
    main_regions: set[int] = field(default_factory=set)
    #: This block or one of its ancestors is page furniture (set by scoring).
    block_furniture: list[bool] = field(default_factory=list)
    #: Opened by a furniture heading ("You may also like"): furniture even inside the article
    #: (set by scoring).
    labelled_furniture: list[bool] = field(default_factory=list)
    #: Id of the block element that owns each segment.
    segment_owners: list[int] = field(default_factory=list)
    #: Each segment's text, normalised, one string per line (several after <br> or in <pre>).
    segment_lines: list[list[str]] = field(default_factory=list)
    segment_chars: list[int] = field(default_factory=list)
    segment_link_chars: list[int] = field(default_factory=list)
    segment_punctuation: list[int] = field(default_factory=list)
    #: CJK/kana/hangul characters, each worth about a word.
    segment_dense_chars: list[int] = field(default_factory=list)
    #: The owner's tag.
    segment_tags: list[str] = field(default_factory=list)
    #: The owner or an ancestor block is page furniture (set by scoring).
    segment_boilerplate: list[bool] = field(default_factory=list)
    #: Non-link characters in each block's subtree.
    prose: list[int] = field(default_factory=list)
    #: Links inside h2-h4 headings: teaser headlines, the mark of a listing page.
    linked_headings: int = 0

    def segment(self, index: int) -> Segment:
        """One segment's fields as an object."""
        boilerplate = self.segment_boilerplate
        return Segment(
            self.segment_owners[index],
            self.segment_lines[index],
            self.segment_chars[index],
            self.segment_link_chars[index],
            self.segment_punctuation[index],
            self.segment_dense_chars[index],
            self.segment_tags[index],
            boilerplate[index] if boilerplate else False,
        )

    @property
    def segments(self) -> list[Segment]:
        """Every segment as an object (built on each call: tests and one-off reads only)."""
        return [self.segment(index) for index in range(len(self.segment_owners))]

    def is_wrapper(self, block_id: int, around: int) -> bool:
        """Does this block hold so much of `around` that it is a layout wrapper, not furniture?

        ("has-sidebar" on <body>, an off-canvas "menu-wrapper" or a "widget-container" around
        the whole article.) A footer can hold most of a short page's prose, but not most of
        its structure; a call-to-action box listing forty staff names can hold most of a short
        article's structure, but not half its prose. Hence the two measures.
        """
        ends = self.block_ends
        inner = ends[block_id] - block_id + 1
        outer = ends[around] - around + 1
        prose, around_prose = self.prose[block_id], self.prose[around]
        if inner >= WRAPPER_BLOCK_SHARE * outer and prose >= WRAPPER_HALF_PROSE * around_prose:
            return True
        return (
            self.block_signals[block_id] != OVERLAY and prose >= WRAPPER_PROSE_SHARE * around_prose
        )


# Stands for <br> inside collected text; the parser has already removed every control character.
_BREAK = "\x00"
_INLINE, _BLOCK, _LINK, _BREAK_TAG = 0, 1, 2, 3
# The walk's marks for an inline element hidden by its style and for what it contains.
_HIDDEN, _INSIDE_HIDDEN = 4, 5
_tag_kinds: dict[str, int] = dict.fromkeys(BLOCK_TAGS, _BLOCK) | {"a": _LINK, "br": _BREAK_TAG}


def _tag_kind(tag: str) -> int:
    kind = _tag_kinds.get(tag)
    if kind is None:
        # Custom elements (<article-body>, <amp-story>) are containers more often than inline.
        kind = _BLOCK if "-" in tag else _INLINE
        if len(_tag_kinds) < 10_000 and cacheable(tag):
            _tag_kinds[tag] = kind
    return kind


def _hidden_style(style: str) -> bool:
    """An inline style that hides the element from readers."""
    style = style.replace(" ", "").lower()
    return "display:none" in style or "visibility:hidden" in style


_TAG_SIGNAL = dict.fromkeys(_BOILERPLATE_TAGS, STRONG_FURNITURE)
_CLASS_OR_ID = frozenset({"class", "id"})


def _attributed_block(
    page: PageSegments, captioned: list[int], block_id: int, tag: str, items: list[tuple[str, str]]
) -> int:
    """A block's furniture signal from its tag and attributes; its caption, declared-body and
    main-region marks go to `captioned` and the page."""
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
        signal, caption = 0, False
    else:
        # `class_meaning` with its cache lookup inline: most blocks hit the cache.
        meaning = _attribute_cache.get((classes, ident))
        signal, caption = _class_meaning(classes, ident) if meaning is None else meaning
    hidden = tag in _BOILERPLATE_TAGS
    overlay = declared_body = False
    role = None
    # Most blocks carry only a class and/or an id: then none of the rarer attributes is there.
    if attrs is not None and len(attrs) > (classes is not None) + (ident is not None):
        style = attrs.get("style")
        # Hidden blocks are furniture unless they wrap the page's prose: some sites (WeChat)
        # hide the whole article until a script reveals it.
        hidden = hidden or (style is not None and _hidden_style(style)) or "hidden" in attrs
        role = attrs.get("role")
        overlay = attrs.get("aria-modal") == "true" or role in _DIALOG_ROLES
        declared_body = attrs.get("itemprop") == "articleBody"
    if hidden:
        signal = min(signal, STRONG_FURNITURE)
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


def segment_page(root: etree._Element) -> PageSegments:
    """Walk the tree once (iteratively) and cut it into blocks and text segments.

    ``root.iter()`` only reports entering an element: an element is left when a later one is
    not inside it, which a stack of open elements and ``getparent()`` tell. That costs about
    half of ``etree.iterwalk``'s start and end events.
    """
    page = PageSegments()
    elements = page.block_elements
    tags = page.block_tags
    parents = page.block_parents
    signals = page.block_signals
    ends = page.block_ends
    captioned: list[int] = []  # blocks with their own caption mark
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
        segment_owners.append(owner)
        segment_lines.append(lines)
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
                signals.append(_attributed_block(page, captioned, block_id, tag, items))
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
            if style is not None and _hidden_style(style):
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
    last = len(tags) - 1
    for block_id, end in enumerate(ends):
        if end < 0:
            ends[block_id] = last
    _mark_captions(page, captioned)
    return page


#: A furniture-named block is the layout around the article when it holds this share of the
#: blocks and WRAPPER_HALF_PROSE of the prose, or WRAPPER_PROSE_SHARE of the prose alone.
WRAPPER_BLOCK_SHARE = 0.5
WRAPPER_HALF_PROSE = 0.5
WRAPPER_PROSE_SHARE = 0.75
#: A caption is a line or two under a picture. A "caption" or "credit" word on a block with
#: more prose than this names something else ("creditCardProductModule" around a whole story).
CAPTION_MAX_PROSE = 800


def _mark_captions(page: PageSegments, captioned: list[int]) -> None:
    """Per-block prose totals and inherited caption marks (of the blocks in `captioned`);
    furniture flags are decided by scoring once it knows the densest region (a furniture
    class on an ancestor of that region is a layout wrapper)."""
    parents = page.block_parents
    count = len(parents)
    prose = page.prose = [0] * count
    for owner, chars, link_chars in zip(
        page.segment_owners, page.segment_chars, page.segment_link_chars, strict=True
    ):
        prose[owner] += chars - link_chars
    for block_id in range(count - 1, 0, -1):
        parent = parents[block_id]
        if parent >= 0:
            prose[parent] += prose[block_id]
    captions = page.block_captions = [False] * count
    if not captioned:
        return  # most pages: no caption to place or inherit
    for block_id in captioned:
        captions[block_id] = prose[block_id] <= CAPTION_MAX_PROSE
    # Parents come before children: one forward pass settles inheritance.
    for block_id, parent in enumerate(parents):
        if parent >= 0 and captions[parent]:
            captions[block_id] = True
