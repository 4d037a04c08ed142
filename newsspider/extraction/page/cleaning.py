"""Remove what is never article text before the density pass (all C-level lxml operations)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from lxml import etree

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.page.page_model import BLOCK_TAGS
from newsspider.extraction.page.streaming import place_streamed_parts
from newsspider.extraction.page.visibility import reveal_controlled

# Elements whose content is code, controls or embedded documents, never prose.
_NEVER_TEXT: Final = (
    "script",
    "style",
    "noscript",
    "template",
    "svg",
    # A formula's TeX or other source beside its MathML; the MathML itself is kept (below).
    "annotation",
    "annotation-xml",
    "iframe",
    "object",
    "embed",
    "canvas",
    "select",
    "option",
    "button",
    "textarea",
    "input",
    "link",
    "meta",
    "head",
    "video",
    "audio",
    "map",
)


#: MathML's token elements: each is one symbol, name or number of a formula, written with no
#: space between them. A space after each keeps "x² + bx" from reading as one word "x2+bx".
_MATH_TOKENS: Final = ("mi", "mn", "mo", "ms", "mtext")
#: Custom-element wrappers of a formula read as inline, counted from the <math> up.
_MATH_WRAPPER_LEVELS: Final = 3


#: A button holding one of these is not a control: an unclosed <div> inside it made the parser
#: put the rest of the page in there (browsers close the button at </button>).
_NOT_IN_A_BUTTON: Final = frozenset(
    {"p", "article", "main", "section", "h1", "h2", "h3", "li", "table"}
)


#: Buttons read one by one (their first few descendants, then a scan of the subtree in libxml2);
#: a page with more buttons is read in one pass instead, which nested buttons need: a scan per
#: button would read the inner ones' subtrees again for every button around them.
_BUTTONS_READ_ALONE: Final = 64
#: Descendants of a button read in Python before its subtree is scanned in libxml2.
_BUTTON_FEW_NODES: Final = 16


def _holds_block(button: etree._Element) -> bool:
    """Is one of `_NOT_IN_A_BUTTON` inside the button?"""
    # Most buttons hold two or three elements: reading them costs less than the nine-tag
    # matcher ``iter(*tags)`` builds (about 16,000 instructions). Elements only: a comment's
    # tag is no string.
    for read, node in enumerate(button.iterdescendants(etree.Element)):
        if node.tag in _NOT_IN_A_BUTTON:
            return True
        if read == _BUTTON_FEW_NODES:  # a large one: libxml2 scans it faster
            return next(button.iter(*_NOT_IN_A_BUTTON), None) is not None
    return False


def _buttons_holding_blocks(
    root: etree._Element, buttons: list[etree._Element]
) -> list[etree._Element]:
    """The buttons (with children, in document order) that hold one of `_NOT_IN_A_BUTTON`."""
    if len(buttons) <= _BUTTONS_READ_ALONE:
        return [button for button in buttons if _holds_block(button)]
    # One pass: every ancestor of such an element, each marked once (a walk up stops at the
    # first element already marked), so the work is linear in the page however buttons nest.
    holding: set[etree._Element] = set()
    for block in root.iter(*_NOT_IN_A_BUTTON):
        parent = block.getparent()
        while parent is not None and parent not in holding:
            holding.add(parent)
            parent = parent.getparent()
    return [button for button in buttons if button in holding]


#: The attribute `mark_form_boxes` sets on the box around a form's fields; the segment walk
#: reads it as weak furniture (dropped inside the chosen container).
FORM_BOX_ATTRIBUTE: Final = "data-newsspider-box"
#: A box around a text field holds at most this many characters of its own: a newsletter
#: sign-up ("Join our newsletter" and a line of promise), a comment form with its labels.
FORM_BOX_MAX_CHARS: Final = 400
#: Fields looked at per page, levels climbed per field, nodes read per level: bounded work on
#: hostile pages (100,000 fields, deep empty nesting).
_MAX_FIELDS: Final = 64
_MAX_LEVELS: Final = 6
_MAX_NODES: Final = 400
#: ... and nodes read for all the fields of a page: a fuzzed 20 kB page of 64 fields in deep
#: boxes cost 0.1 s (5 s per MB) when every level re-read its subtree.
_MAX_PAGE_NODES: Final = 4000
# Not "number": a quantity field makes a product card, whose text is the page's content.
_TEXT_FIELD_TYPES: Final = frozenset({"", "text", "email", "search", "tel", "url", "password"})
_NOT_A_BOX: Final = frozenset({"html", "body", "main", "article"})
_FIELD_TAGS: Final = frozenset({"input", "textarea"})


_BoxAround = Callable[
    [etree._Element, int, frozenset[str], frozenset[str], int, int, int],
    tuple[etree._Element | None, int] | None,
]
_compiled_box: _BoxAround | None = None
try:
    from newsspider.extraction.page import _cleaning_c
except ImportError:  # not built (no compiler at install time): the Python walk
    pass
else:
    _compiled_box = _cleaning_c.box_around
#: `_box_around` in C (`_cleaning_c`) when built; `active` when not switched off.
BOX_AROUND: Final[CompiledTwin[_BoxAround]] = CompiledTwin(_compiled_box)


def _is_text_field(field: etree._Element) -> bool:
    return field.tag != "input" or (field.get("type") or "").lower() in _TEXT_FIELD_TYPES


def mark_form_boxes(root: etree._Element) -> None:
    """Mark the box around each text field (an input to type in, a textarea): the largest
    block above it that holds little text of its own. What a sign-up or comment box says
    ("Join our mailing list", "Leave a reply") is about the form, not the article; the fields
    themselves are stripped by `clean_tree`, so this runs first."""
    _mark_boxes(field for field in root.iter("input", "textarea") if _is_text_field(field))


def _mark_boxes(text_fields: Iterable[etree._Element]) -> None:
    """`mark_form_boxes` for the page's text fields in document order (read up to the first
    `_MAX_FIELDS` + 1)."""
    budget = _Budget()
    for fields, field in enumerate(text_fields, 1):
        if fields > _MAX_FIELDS or budget.spent >= _MAX_PAGE_NODES:
            break
        box = _box_around(field, budget)
        if box is not None:
            box.set(FORM_BOX_ATTRIBUTE, "form")


def _box_around(field: etree._Element, budget: _Budget) -> etree._Element | None:
    """The largest block at most `_MAX_LEVELS` above `field` whose subtree holds at most
    `FORM_BOX_MAX_CHARS` characters in at most `_MAX_NODES` nodes. Each level adds only what
    it holds beside the level below, so no node is read twice for one field."""
    compiled = BOX_AROUND.active
    if compiled is not None:
        found = compiled(
            field,
            budget.spent,
            _NOT_A_BOX,
            BLOCK_TAGS,
            _MAX_LEVELS,
            _MAX_NODES,
            FORM_BOX_MAX_CHARS,
        )
        if found is not None:  # else a node kind the C walk does not read: read here
            box, budget.spent = found
            return box
    count = _Count(budget)
    count.subtree(field)
    box = None
    child, element = field, field.getparent()
    for _ in range(_MAX_LEVELS):
        if element is None or element.tag in _NOT_A_BOX or not count.add(element.text):
            break
        for sibling in element:
            if not count.add(sibling.tail) or (sibling is not child and not count.subtree(sibling)):
                return box
        if element.tag in BLOCK_TAGS:
            box = element
        child, element = element, element.getparent()
    return box


class _Budget:
    """Nodes read for all the fields of one page."""

    def __init__(self) -> None:
        self.spent = 0


class _Count:
    """Characters and nodes read for one field, against the box's bounds."""

    def __init__(self, budget: _Budget) -> None:
        self.chars = 0
        self.nodes = 0
        self.budget = budget

    def add(self, text: str | None) -> bool:
        if text:
            self.chars += len(text.strip())
        return self.chars <= FORM_BOX_MAX_CHARS

    def subtree(self, top: etree._Element) -> bool:
        """Read `top`'s subtree (not its tail); False once over a bound."""
        # A leaf (every field, most labels) is read without building an iterator, which
        # costs about 1,800 instructions: ``len`` counts every child ``iter`` would yield.
        nodes: Iterable[etree._Element] = top.iter() if len(top) else (top,)
        for node in nodes:
            self.nodes += 1
            self.budget.spent += 1
            if self.nodes > _MAX_NODES:
                return False
            if not (self.add(node.text) and (node is top or self.add(node.tail))):
                return False
        return True


def _read_formulas(root: etree._Element, formulas: list[etree._Element]) -> None:
    """Keep formulas readable: their tokens spaced, so they stay words, and the custom-element
    wrappers a renderer puts around each (MathJax's <mjx-container>) read as inline, not as
    blocks whose class ("CtxtMenu_Attached_0") might make them furniture. Linear: one pass
    over the page's token elements, and a few levels climbed per formula (nested formulas
    each re-reading their insides cost 0.4 s on a 20 kB fuzzed page)."""
    for token in root.iter(*_MATH_TOKENS):
        token.tail = " " + token.tail if token.tail else " "
    for formula in formulas:
        wrapper = formula.getparent()
        for _ in range(_MATH_WRAPPER_LEVELS):
            if wrapper is None or "-" not in wrapper.tag:
                break
            wrapper.tag = "span"
            wrapper = wrapper.getparent()


def clean_tree(
    root: etree._Element, on_iframe: Callable[[etree._Element], None] | None = None
) -> None:
    """Strip elements that never hold prose, in place, after putting streamed parts in their
    places (`streaming`), marking form boxes and closed dialogs (overlays), making formulas
    readable (`_read_formulas`) and showing what the page's buttons open
    (`visibility.reveal_controlled`). Other hidden elements are skipped by the segment walk,
    which sees every attribute anyway, instead of a costly XPath here (one over every element
    for popovers cost 5% of an extraction). ``on_iframe`` sees each iframe before it goes (the
    article's HTML keeps video embeds as links: `page_media.PageMedia.add_iframe`)."""
    place_streamed_parts(root)  # before the templates marking their places are stripped
    # One walk finds the form fields and the elements read below (a walk over a page's
    # elements costs about as much as the fields' boxes): the boxes are marked first, before
    # buttons turn into blocks, and the rest is read in document order as before.
    text_fields: list[etree._Element] = []
    others: list[etree._Element] = []
    for element in root.iter("input", "textarea", "button", "dialog", "math", "iframe"):
        if element.tag in _FIELD_TAGS:
            # `_mark_boxes` reads at most `_MAX_FIELDS` + 1 of them.
            if len(text_fields) <= _MAX_FIELDS and _is_text_field(element):
                text_fields.append(element)
        else:
            others.append(element)
    _mark_boxes(text_fields)
    controlled: set[str] = set()  # ids the page's buttons open (`aria-controls`)
    formulas: list[etree._Element] = []
    buttons: list[etree._Element] = []  # with children
    for element in others:
        if element.tag == "iframe":
            if on_iframe is not None:
                on_iframe(element)
            continue
        if element.tag == "math":
            formulas.append(element)
            continue
        if element.tag == "dialog":
            # Hidden until a script opens it, then laid over the page: an overlay (the walk
            # reads aria-modal as one, and `popover` elements likewise).
            if element.get("open") is None:
                element.set("aria-modal", "true")
            continue
        if (opens := element.get("aria-controls")) is not None:
            controlled.update(opens.split())
        if len(element):
            buttons.append(element)
    for button in _buttons_holding_blocks(root, buttons):
        button.tag = "div"  # kept as a plain block: stripping it would take the page with it
    if formulas:
        _read_formulas(root, formulas)
    if controlled:  # before the buttons go: what they open is content, collapsed
        reveal_controlled(root, controlled)
    etree.strip_elements(root, *_NEVER_TEXT, with_tail=False)
