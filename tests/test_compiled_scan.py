"""The compiled page scan (`_page_scan_c`) finds what its Python reference finds.

Same meta, links, JSON-LD texts and title, and the very same ``<time>`` and ``<h1>`` elements,
on every fixture page and on generated markup that gives each of the scan's rules a way in.
"""

from __future__ import annotations

import os
from pathlib import Path

import lxml.html
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from newsspider.extraction.metadata import page_scan
from newsspider.extraction.metadata.title import element_text

FIXTURES = Path(__file__).parent / "fixtures"

needs_compiled = pytest.mark.skipif(
    not page_scan.COMPILED_SCAN_AVAILABLE and os.environ.get("CI") != "true",
    reason="the compiled page scan is not built here",
)


def test_ci_builds_and_uses_the_compiled_scan() -> None:
    if os.environ.get("CI") != "true":
        pytest.skip("only under CI=true: a machine without a compiler uses the Python scan")
    assert page_scan.COMPILED_SCAN_AVAILABLE
    if os.environ.get("NEWSSPIDER_PURE_PYTHON", "") in ("", "0"):
        assert page_scan.SCAN.active is not None


def _assert_same(root: etree._Element) -> None:
    expected = page_scan.scan_page_python(root)
    compiled = page_scan.SCAN.built
    assert compiled is not None
    meta, links, jsonld, times, h1s, title = compiled(root, element_text)
    assert (meta, links, jsonld, title) == (
        expected.meta,
        expected.links,
        expected.jsonld,
        expected.title,
    )
    assert [id(el) for el in times] == [id(el) for el in expected.times]
    assert [id(el) for el in h1s] == [id(el) for el in expected.h1s]


@needs_compiled
@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.html")), ids=str)
def test_fixture_pages_scan_alike(path: Path) -> None:
    try:
        root = lxml.html.fromstring(path.read_bytes())
    except (etree.ParserError, ValueError):
        pytest.skip("no tree")
    _assert_same(root)


_ELEMENTS = (
    '<meta property="og:title" content=" A headline ">',
    '<meta name="Description Keywords" content="two keys">',
    '<meta itemprop="datePublished" datetime="2020-01-02">',
    '<meta name="x" value="by value">',
    '<meta name="empty" content="  ">',
    '<meta name="a" name="b" content="repeated name">',
    '<meta http-equiv="Content-Language" content="en-GB">',
    '<meta property="og:url" content="https://example.com/?a=1&amp;b=2">',
    '<meta name="entity" content="&eacute;t&eacute; &#x27;">',
    "<meta charset=utf-8>",
    '<link rel="Canonical stylesheet" href="https://example.com/a">',
    '<link rel="canonical" href="">',
    '<link rel="image_src" href="/img.jpg">',
    '<link href="/x.css">',
    '<link rel="IMAGE_SRC icon" href="/i.png">',
    '<link rel="canon&#304;cal" href="/dotted-capital-i">',
    '<link rel="canonical" href="https://example.com/second">',
    '<link rel="prefetch canonicalx" href="/y">',
    '<script type="APPLICATION/LD+JSON\u00a0">{"@type": "WebPage"}</script>',
    '<script type="application/ld+json; charset=utf-8">{}</script>',
    '<script type="text/ld+json">{}</script>',
    '<script type=" Application/LD+JSON ">{"@type": "NewsArticle"}</script>',
    '<script type="application/ld+json"></script>',
    '<script type="application/ld+json"><!-- {"a": 1} --></script>',
    "<script>var x = 1;</script>",
    '<time datetime="2020-01-02">2 January</time>',
    "<h1>Heading <span>kicker</span></h1>",
    "<title>Page title &amp; site</title>",
    "<svg><title>Icon</title></svg>",
    '<x:meta xmlns:x="urn:x" content="ns">',
    "<div>text</div>",
    "<!-- comment -->",
)


@st.composite
def _page(draw: st.DrawFn) -> str:
    parts = ["<html><head>"]
    parts += draw(st.lists(st.sampled_from(_ELEMENTS), max_size=12))
    parts.append("</head><body>")
    for _ in range(draw(st.integers(0, 30))):
        element = draw(st.sampled_from(_ELEMENTS))
        parts.append(f"<div>{element}" if draw(st.booleans()) else element)
    return "".join(parts)


@needs_compiled
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_page())
def test_generated_pages_scan_alike(html: str) -> None:
    _assert_same(lxml.html.fromstring(html))


@needs_compiled
def test_scan_starts_at_the_given_element() -> None:
    root = lxml.html.fromstring(
        "<html><head><title>Outer</title></head><body><div><h1>In</h1>"
        '<meta name="in" content="1"></div><h1>Out</h1></body></html>'
    )
    inner = root.find(".//div")
    assert inner is not None
    _assert_same(inner)
    scan = page_scan.scan_page(inner)
    assert scan.meta == {"in": ["1"]} and len(scan.h1s) == 1 and scan.title == ""


@needs_compiled
def test_namespaced_tags_scan_alike() -> None:
    # lxml's iter("meta") matches no namespace only: <x:meta> and <title> in urn:y are skipped.
    root = etree.fromstring(
        '<html xmlns:x="urn:x"><x:meta name="a" content="1"/><x:h1>No</x:h1>'
        '<meta name="b" x:content="2" content="3"/><h1>Heading</h1>'
        '<y xmlns="urn:y"><h1 xmlns="">Title</h1><title>No</title></y></html>'
    )
    _assert_same(root)
    scan = page_scan.scan_page(root)
    assert scan.meta == {"b": ["3"]} and scan.title == ""
    assert [h1.text for h1 in scan.h1s] == ["Heading", "Title"]


_BYLINE_ELEMENTS = (
    '<span class="byline">By Ann Lee</span>',
    '<a rel="author" href="/ann">Ann Lee</a>',
    '<a rel="Author">Not exact</a>',
    '<div itemprop="author"><span itemprop="name">Ann Lee</span></div>',
    '<div itemprop="creator">Sam Roe</div>',
    '<p class="AUTHOR-name">Sam</p>',
    '<p class="wrİter">dotted capital I</p>',
    '<p class="entity &amp; journalist">x</p>',
    '<p class="">empty</p>',
    '<p id="author">an id is not a class</p>',
    "<p>plain</p>",
    "<!-- comment -->",
)


@st.composite
def _nested_page(draw: st.DrawFn, elements: tuple[str, ...], most: int) -> str:
    """Up to ``most`` of ``elements`` in a row, each left open inside a ``<div>`` or not."""
    parts = ["<html><body><div>"]
    for _ in range(draw(st.integers(0, most))):
        element = draw(st.sampled_from(elements))
        parts.append(f"<div>{element}" if draw(st.booleans()) else element)
    return "".join(parts)


@needs_compiled
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_nested_page(_BYLINE_ELEMENTS, 40), st.integers(1, 60))
def test_byline_candidates_alike(html: str, budget: int) -> None:
    from newsspider.extraction.metadata import authors

    container = lxml.html.fromstring(html).find("body")
    assert container is not None
    compiled = authors.BYLINE_CANDIDATES.built
    assert compiled is not None
    for limit in (authors._BYLINE_BUDGET, budget):
        expected = authors._byline_candidates_python(container, limit)
        found = compiled(container, limit, authors._author_class)
        assert [id(el) for el in found] == [id(el) for el in expected]


_CRUMB_ELEMENTS = (
    '<nav class="Breadcrumbs"><a href="/">Home</a></nav>',
    '<ol aria-label="BREADCRUMB trail"><li>News</li></ol>',
    '<div itemtype="https://schema.org/BreadcrumbList">x</div>',
    '<div itemtype="https://schema.org/breadcrumblist">lower case: not one</div>',
    '<div class="bread crumb">two words</div>',
    '<div class="brEADcrumb&amp;x">an entity in the value</div>',
    '<div class="breadcrumbİ">a non-ASCII letter after it</div>',
    '<div class="breadcrumß">almost</div>',
    '<div id="breadcrumb">an id is not a class</div>',
    '<div class="">empty</div>',
    "<p>plain</p>",
    "<!-- comment -->",
    "<?pi x?>",
)


@needs_compiled
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_nested_page(_CRUMB_ELEMENTS, 30), st.integers(1, 40))
def test_first_breadcrumb_alike(html: str, budget: int) -> None:
    from newsspider.extraction.metadata import record_fields

    body = lxml.html.fromstring(html).find("body")
    assert body is not None
    compiled = record_fields.FIRST_BREADCRUMB.built
    assert compiled is not None
    # From every node of the page (comments and processing instructions included), as the
    # search starts from each earlier sibling of the headline's ancestors.
    for top in body.iter():
        for limit in (budget, 300):
            found, seen = compiled(top, limit)
            expected, expected_seen = record_fields._first_breadcrumb_python(top, limit)
            assert (id(found), seen) == (id(expected), expected_seen)


def test_only_ascii_letters_lower_to_the_letters_of_breadcrumb() -> None:
    # What lets the compiled search skip values without "breadcrumb" in any ASCII case.
    for code in range(0x110000):
        char = chr(code)
        if not char.isascii() and any(c in "breadcum" for c in char.lower()):
            raise AssertionError(hex(code))
