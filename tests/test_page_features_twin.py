"""The page classifier's compiled reads of the tree (`_page_features_c`: a block's first link,
the container's counts) against the Python code they twin (`page_features._first_href_python`,
`_container_counts_python`): every element of generated pages, of the fixture pages and of
trees with comments, processing instructions and namespaced elements."""

from __future__ import annotations

import os
from pathlib import Path

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from newsspider.extraction.classify import page_features
from newsspider.extraction.classify.page_features import (
    _SENTENCE_ENDS,
    CONTAINER_COUNTS,
    FIRST_HREF,
    _container_counts_python,
    _ends_sentence,
    _first_href_python,
)

FIXTURES = Path(__file__).parent / "fixtures"
IN_CI = os.environ.get("CI") == "true"

needs_twin = pytest.mark.skipif(
    not (FIRST_HREF.available and CONTAINER_COUNTS.available) and not IN_CI,
    reason="the compiled reads of the tree are not built",
)


def _assert_same_everywhere(root: etree._Element) -> int:
    first, counts = FIRST_HREF.built, CONTAINER_COUNTS.built
    assert first is not None and counts is not None
    checked = 0
    for element in root.iter():
        assert first(element) == _first_href_python(element)
        assert counts(element) == _container_counts_python(element)
        checked += 1
    return checked


_HREF = st.one_of(
    st.none(),
    st.sampled_from(["", "/a", "https://site.example/b#c", "&amp;x", "&unknown;y", "a&#38;b"]),
    st.text(max_size=12),
)


@st.composite
def _markup(draw: st.DrawFn, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 4 if depth < 3 else 0))):
        tag = draw(
            st.sampled_from(["div", "li", "a", "span", "p", "A", "h2", "img", "code", "kbd", "dt"])
        )
        href = draw(_HREF)
        attribute = "" if href is None else f' href="{href}"'
        inner = draw(_markup(depth + 1)) if depth < 3 else ""
        text = draw(st.sampled_from(["", "text", "<!-- c -->", "<?pi x?>"]))
        parts.append(f"<{tag}{attribute}>{text}{inner}</{tag}>")
    return "".join(parts)


@needs_twin
@settings(max_examples=300, deadline=None)
@given(_markup())
def test_the_first_link_is_the_iterators_on_generated_pages(markup: str) -> None:
    root = lxml.html.fromstring(f"<html><body><div>{markup}</div></body></html>")
    assert _assert_same_everywhere(root) > 0


@needs_twin
def test_the_first_link_is_the_iterators_on_every_fixture_page() -> None:
    pages = sorted(FIXTURES.rglob("*.html"))
    checked = 0
    for page in pages:
        try:
            root = lxml.html.fromstring(page.read_bytes())
        except etree.ParserError:  # an empty page among the fixtures
            continue
        checked += _assert_same_everywhere(root)
    assert checked > 1000


@needs_twin
def test_namespaced_links_comments_and_instructions_are_read_as_lxml_reads_them() -> None:
    root = etree.Element("div")
    etree.SubElement(root, "{http://other.example/}a", href="/namespaced")
    root.append(etree.Comment("a"))
    root.append(etree.ProcessingInstruction("a", "href='/pi'"))
    inner = etree.SubElement(root, "span")
    etree.SubElement(inner, "a", {"{http://www.w3.org/1999/xlink}href": "/xlink"})
    etree.SubElement(root, "a", href="/plain")
    etree.SubElement(root, "{http://other.example/}img")
    etree.SubElement(root, "code")
    assert _assert_same_everywhere(root) == 9
    assert CONTAINER_COUNTS.built is not None
    assert CONTAINER_COUNTS.built(root) == (2, 0, 1, 0)
    assert FIRST_HREF.built is not None
    assert FIRST_HREF.built(root) is None  # the first a in no namespace has no plain href
    assert FIRST_HREF.built(root[4]) == "/plain"
    assert FIRST_HREF.built(root[1]) is None  # a comment: nothing below it


def test_the_python_read_is_used_with_the_twin_off() -> None:
    root = lxml.html.fromstring('<div><p>x</p><a href="/one">1</a><a href="/two">2</a></div>')
    was = FIRST_HREF.active is not None
    FIRST_HREF.use(False)
    try:
        assert page_features._first_href(root) == "/one"
        assert page_features._first_href(root[0]) is None
    finally:
        FIRST_HREF.use(was)


@given(st.text(alphabet=st.sampled_from('ab .!?。！？\u201d\u2019"'), max_size=6))
def test_a_sentence_end_is_read_as_endswith_reads_it(line: str) -> None:
    assert _ends_sentence(line) == line.endswith(_SENTENCE_ENDS)
