"""The compiled cleaning walks (`_cleaning_c`) give exactly what the Python code gives.

The form-box walk (`box_around`) finds the box `cleaning._box_around` finds and counts the same
nodes against the page's budget: on every fixture page and on generated forms (text around and
inside the boxes with ASCII, Unicode and no-break spaces, nested blocks, many fields, deep
nesting; a comment on the way hands the field back to Python). The id walk (`ids_named`) names
the elements `visibility.reveal_controlled`'s XPath names. Without a C compiler at install time
the twin is absent and these tests skip, except under ``CI=true``, where it must be built.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from newsspider.extraction.body import threads
from newsspider.extraction.page import cleaning, visibility
from newsspider.extraction.page.page_model import BLOCK_TAGS
from newsspider.extraction.parse.parsing import parse_html

FIXTURES = Path(__file__).parent / "fixtures"
IN_CI = os.environ.get("CI") == "true"

needs_twin = pytest.mark.skipif(
    not cleaning.BOX_AROUND.available and not IN_CI,
    reason="the compiled form-box walk is not built here",
)


def test_ci_builds_the_compiled_cleaning_walks() -> None:
    if not IN_CI:
        pytest.skip("only under CI=true: a machine without a compiler uses the Python walk")
    assert cleaning.BOX_AROUND.available
    assert visibility.IDS_NAMED.available
    assert threads.TEMPLATE_WORD.available


def _boxes(root: etree._Element) -> list[tuple[int, int, int]]:
    """(field, box or -1, the page's nodes read after it) per text field, as `mark_form_boxes`
    reads them (elements numbered in document order)."""
    number = {element: index for index, element in enumerate(root.iter())}
    found: list[tuple[int, int, int]] = []
    budget = cleaning._Budget()
    for field in root.iter("input", "textarea"):
        if not cleaning._is_text_field(field):
            continue
        box = cleaning._box_around(field, budget)
        found.append((number[field], -1 if box is None else number[box], budget.spent))
    return found


def _same_both_ways(html: str | bytes) -> int:
    """Both walks agree on every field of the page; how many fields it has."""
    root = parse_html(html)
    if root is None:
        return 0
    active = cleaning.BOX_AROUND.active is not None
    try:
        cleaning.BOX_AROUND.use(True)
        compiled = _boxes(root)
        cleaning.BOX_AROUND.use(False)
        python = _boxes(root)
    finally:
        cleaning.BOX_AROUND.use(active)
    assert compiled == python
    return len(python)


def _fixture_pages() -> Iterator[tuple[str, bytes]]:
    for path in sorted(FIXTURES.rglob("*.html")):
        yield str(path.relative_to(FIXTURES)), path.read_bytes()


@needs_twin
def test_fixture_pages_find_the_same_boxes() -> None:
    fields = sum(_same_both_ways(html) for _, html in _fixture_pages())
    assert fields > 0


@needs_twin
def test_a_newsletter_box_is_found_both_ways() -> None:
    html = (
        "<html><body><article><p>" + "Story text. " * 60 + "</p></article>"
        "<div class='signup'><h3>Join our newsletter</h3><p>Weekly,\u00a0no spam.</p>"
        "<form><input type='email'><button>Go</button></form></div></body></html>"
    )
    root = parse_html(html)
    assert root is not None
    assert _same_both_ways(html) == 1
    cleaning.mark_form_boxes(root)
    marked = [element.get("class") for element in root.iter() if element.get("data-newsspider-box")]
    assert marked == ["signup"]


@needs_twin
def test_a_comment_on_the_way_is_read_by_python() -> None:
    root = parse_html("<div><form><p>Reply</p><input></form><p>more</p></div>")
    assert root is not None
    form = next(root.iter("form"))
    form.insert(1, etree.Comment("a comment the parser would have dropped"))
    field = next(root.iter("input"))
    from newsspider.extraction.page import _cleaning_c

    assert _cleaning_c.box_around(field, 0, cleaning._NOT_A_BOX, BLOCK_TAGS, 6, 400, 400) is None
    active = cleaning.BOX_AROUND.active is not None
    try:
        cleaning.BOX_AROUND.use(True)
        compiled = cleaning._box_around(field, cleaning._Budget())
        cleaning.BOX_AROUND.use(False)
        python = cleaning._box_around(field, cleaning._Budget())
    finally:
        cleaning.BOX_AROUND.use(active)
    assert compiled is python


_WORDS = st.sampled_from(
    [
        "",
        " ",
        "\n  ",
        "\u00a0",
        "\u3000",
        "Join",
        "our newsletter",
        "Leave a reply",
        "é",
        "x" * 90,
        "Story text. " * 12,
        "\u2003word\u2003",
        "\x1f",
        "名前",
        "&amp;",
    ]
)
_BLOCKS = st.sampled_from(["div", "p", "section", "form", "li", "span", "b", "label", "td", "main"])
_FIELDS = st.sampled_from(
    [
        "<input>",
        "<input type=email>",
        "<input type=number>",
        "<textarea>Hi</textarea>",
        "<input type=SEARCH>",
        "<input type=checkbox>",
    ]
)


@st.composite
def _markup(draw: st.DrawFn, depth: int = 0) -> str:
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.integers(0, 3))
        if kind == 0:
            parts.append(draw(_WORDS))
        elif kind == 1:
            parts.append(draw(_FIELDS))
        elif depth < 7:
            tag = draw(_BLOCKS)
            parts.append(f"<{tag}>{draw(_markup(depth + 1))}</{tag}>{draw(_WORDS)}")
    return "".join(parts)


@needs_twin
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_markup(), min_size=1, max_size=6))
def test_generated_forms_find_the_same_boxes(sections: list[str]) -> None:
    _same_both_ways("<html><body>" + "".join(sections) + "</body></html>")


@needs_twin
def test_the_page_budget_is_spent_alike() -> None:
    # Many fields in large boxes: the page's node budget runs out on both walks at one field.
    box = "<div>" + "<span>a</span>" * 300 + "<input></div>"
    assert _same_both_ways("<html><body>" + box * 20 + "</body></html>") == 20


_IDS = st.sampled_from(["panel", "a", "b", "faq-1", "名", "", "x y"])


@st.composite
def _id_markup(draw: st.DrawFn, depth: int = 0) -> str:
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 4))):
        tag = draw(_BLOCKS)
        name = draw(_IDS)
        inner = draw(_id_markup(depth + 1)) if depth < 5 else ""
        parts.append(f"<{tag} id='{name}' class='hidden'>{inner}</{tag}>text")
    return "".join(parts)


@needs_twin
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_id_markup(), st.sets(_IDS, max_size=3))
def test_generated_pages_name_the_same_elements(markup: str, controlled: set[str]) -> None:
    root = parse_html("<html><body>" + markup + "</body></html>")
    assert root is not None
    active = visibility.IDS_NAMED.active is not None
    try:
        visibility.IDS_NAMED.use(True)
        compiled = visibility._elements_named(root, controlled)
        visibility.IDS_NAMED.use(False)
        python = visibility._elements_named(root, controlled)
    finally:
        visibility.IDS_NAMED.use(active)
    assert compiled == python
    assert all(element.get("id") in controlled for element in python)


_CLASSES = st.sampled_from(
    [
        None,
        "",
        " ",
        "post",
        " post-body  bg1 ",
        "\u00a0x",
        "\u3000 名前",
        "a\tb",
        "post_12",
        "42",
        "x\u0663",
        "bg1 x",
    ]
)


@needs_twin
@settings(max_examples=200, deadline=None)
@given(_CLASSES, _CLASSES)
def test_template_words_are_read_alike(classes: str | None, identifier: str | None) -> None:
    # `threads._signature`'s word: the compiled read and lxml's, on one element.
    element = etree.Element("div")
    if classes is not None:
        element.set("class", classes)
    if identifier is not None:
        element.set("id", identifier)
    active = threads.TEMPLATE_WORD.active is not None
    try:
        threads.TEMPLATE_WORD.use(True)
        compiled = threads._template_word(element)
        threads.TEMPLATE_WORD.use(False)
        python = threads._template_word(element)
    finally:
        threads.TEMPLATE_WORD.use(active)
    assert compiled == python
    from newsspider.extraction.body import _threads_c

    assert _threads_c.template_word(element) == python
