"""The compiled walks of the date search and the head's page links find what their Python
references find.

`_page_scan_c.body_date_runs` and `classed_elements` (the deep date search's walks over the
body, `dates`) and `head_links` (`continuation.head_page_links`) read libxml2's nodes directly;
each must give the same values and the very same elements as the lxml loop it replaces, on
generated markup that gives each rule a way in and from every node a search may start at.
"""

from __future__ import annotations

import os

import lxml.html
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from newsspider.extraction.body import continuation
from newsspider.extraction.metadata import dates
from newsspider.extraction.metadata.date_parsing import DATEISH_TEXT_RE

needs_compiled = pytest.mark.skipif(
    dates.BODY_DATE_RUNS.built is None and os.environ.get("CI") != "true",
    reason="the compiled metadata scans are not built here",
)

_TEXT_ELEMENTS = (
    "<p>Posted 12 March 2021</p>",
    "<span>2021</span> tail 1999 here",
    "<p>   \n\t  </p>",
    "<p>no digits at all</p>",
    "<p>05/09/19 numeric</p>",
    "<p>05.09.19</p>",
    "<p>\u0661\u0669\u0669\u0669 Arabic-Indic 1\u0669\u0669\u0669</p>",
    f"<p>{'x' * 50} 2020 beyond the first forty characters {'y' * 120}</p>",
    f"<p>(18.01.2018) dateline {'z' * 200}</p>",
    "<script>var d = '2020-01-02';</script>after the script 2020",
    "<style>.a{}</style>2019 after style",
    "<noscript>2018 inside</noscript>",
    "<textarea>2017</textarea>",
    "<select><option>2016</option></select>",
    "<svg><text>2015</text></svg>",
    '<div class="date">12 May 2020</div>',
    '<div class="">2014 empty class</div>',
    '<div class="x &amp; y">2013 entity class</div>',
    "<!-- 2012 a comment --> 2011 after a comment",
    "<?pi 2010?>",
    "<br>2009 after a break",
    "<b>1</b>9<i>99</i>",
)


@st.composite
def _body(draw: st.DrawFn) -> str:
    """Up to 40 of the elements above in a row, each left open inside a ``<div>`` or not."""
    parts = ["<html><body><div>"]
    for _ in range(draw(st.integers(0, 40))):
        element = draw(st.sampled_from(_TEXT_ELEMENTS))
        parts.append(f"<div>{element}" if draw(st.booleans()) else element)
    return "".join(parts)


def _tops(html: str) -> list[etree._Element]:
    root = lxml.html.fromstring(html)
    # From the root and every node below it (comments and processing instructions included).
    return [root, *root.iter()]


@needs_compiled
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_body(), st.integers(1, 60), st.integers(1, 8))
def test_body_date_runs_alike(html: str, budget: int, most: int) -> None:
    compiled = dates.BODY_DATE_RUNS.built
    assert compiled is not None
    for top in _tops(html):
        for limit, bound in ((budget, most), (dates._BODY_ELEMENT_BUDGET, 50)):
            expected = dates._body_date_runs_python(top, limit, bound)
            found = compiled(top, limit, DATEISH_TEXT_RE.search, bound)
            assert [(i, id(el), run) for i, el, run in found] == [
                (i, id(el), run) for i, el, run in expected
            ]


@needs_compiled
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_body(), st.integers(1, 60))
def test_classed_elements_alike(html: str, budget: int) -> None:
    compiled = dates.CLASSED_ELEMENTS.built
    assert compiled is not None
    for top in _tops(html):
        for limit in (budget, dates._BODY_ELEMENT_BUDGET):
            expected = dates._classed_elements_python(top, limit)
            found = compiled(top, limit)
            assert [(i, id(el)) for i, el in found] == [(i, id(el)) for i, el in expected]


def test_body_date_runs_skip_blank_and_hidden_texts() -> None:
    body = lxml.html.fromstring(
        "<html><body><p>  </p><script>2020-01-01</script>x<p>On 3 May 2021</p>"
        "<i>no year</i> then 1999</body></html>"
    ).find("body")
    assert body is not None
    runs = dates._body_date_runs_python(body, 100, 10)
    assert [(el.tag, run) for _, el, run in runs] == [("p", "On 3 May 2021"), ("i", " then 1999")]
    # The walk stops after the element whose runs make `most`.
    assert len(dates._body_date_runs_python(body, 100, 1)) == 1


_LINK_ELEMENTS = (
    '<link rel="next" href="/story?page=2">',
    '<link rel="Prev" href="/story?page=1">',
    '<link rel="previous" href="/p0">',
    '<link rel="first alternate" href="/first">',
    '<link rel="FIRST" href="">',
    '<link rel="next">',
    '<link href="/no-rel">',
    '<link rel="stylesheet" href="/a.css">',
    '<link rel="preload next" href="/both">',
    '<link rel="nex&#116;" href="/entity">',
    '<link rel="next" href="/a&amp;b">',
    '<link rel="nextİ" href="/dotted">',
    "<meta name=x content=y>",
    "<!-- <link rel=next href=/comment> -->",
)


@st.composite
def _head(draw: st.DrawFn) -> str:
    parts = ["<html><head>"]
    parts += draw(st.lists(st.sampled_from(_LINK_ELEMENTS), max_size=14))
    parts.append('</head><body><link rel="next" href="/in-body"></body></html>')
    return "".join(parts)


@needs_compiled
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_head())
def test_head_links_alike(html: str) -> None:
    compiled = continuation.HEAD_LINKS.built
    assert compiled is not None
    head = lxml.html.fromstring(html).find("head")
    assert head is not None
    assert compiled(head) == continuation._head_page_links_python(head)


@needs_compiled
def test_head_links_namespaced_alike() -> None:
    # lxml's iter("link") matches no namespace only: <x:link> is skipped.
    head = etree.fromstring(
        '<head xmlns:x="urn:x"><x:link rel="next" href="/ns"/><link rel="prev" href="/p"/>'
        '<y xmlns="urn:y"><link rel="first" href="/y"/><link xmlns="" rel="next" href="/n"/></y>'
        "</head>"
    )
    compiled = continuation.HEAD_LINKS.built
    assert compiled is not None
    assert compiled(head) == continuation._head_page_links_python(head) == ("/n", "/p", None)


_ANCHORS = (
    '<a href="?page=2">2</a>',
    '<a rel="next" href="/n">Next <span>page</span></a>',
    '<a rel="">empty rel</a>',
    "<a>  spaced \n text  </a>",
    "<a></a>",
    "<a><!-- only a comment --></a>",
    "<a>before<!-- c -->after</a>",
    "<a><?pi x?>pi</a>",
    "<a><b>bold</b> tail <i>it<u>nested</u></i> end</a>",
    "<a><img src=x></a>",
    "<a>caf&eacute; &amp; more</a>",
    "<a>\u4e0b\u4e00\u9875</a>",
    "<p>not a link <a>inner</a> after</p>",
)


@needs_compiled
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_ANCHORS), max_size=20))
def test_link_facts_alike(anchors: list[str]) -> None:
    compiled = continuation.LINK_FACTS.built
    assert compiled is not None
    root = lxml.html.fromstring(f"<html><body><div>{''.join(anchors)}</div></body></html>")
    links = list(root.iter("a"))
    assert compiled(links) == continuation._link_facts_python(links)


def test_edge_children_are_the_first_and_last_elements() -> None:
    parent = lxml.html.fromstring(
        "<div>" + "".join(f"<p>{i}</p><!-- c{i} -->" for i in range(10)) + "</div>"
    )
    texts = [child.text for child in continuation._edge_children(parent)]
    assert texts == ["0", "1", "2", "7", "8", "9"]
    for count in range(8):
        few = lxml.html.fromstring("<div>x" + "<p>p</p><!-- c -->" * count + "</div>")
        elements = [child for child in few if isinstance(child.tag, str)]
        expected = elements if count <= 6 else elements[:3] + elements[-3:]
        assert continuation._edge_children(few) == expected


_CLASSES = (
    "byline",
    "post-AUTHOR",
    "WriterBox",
    "reporter",
    "Journalist",
    "autor-name",
    "auth or",
    "by-line",
    "wrİter",
    "journaliſt",
    "entry &amp; author",
    "",
    "plain",
    "x" * 40 + "author",
)


@needs_compiled
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_CLASSES), max_size=25), st.integers(1, 40))
def test_byline_candidates_alike_on_author_words(classes: list[str], budget: int) -> None:
    # The compiled search asks `_author_class` only about values that may hold a word: an
    # ASCII value without one is answered in C.
    from newsspider.extraction.metadata import authors

    html = "".join(f'<div><p class="{name}">x</p>' for name in classes)
    container = lxml.html.fromstring(f"<html><body><div>{html}</div></body></html>").find("body")
    assert container is not None
    compiled = authors.BYLINE_CANDIDATES.built
    assert compiled is not None
    for limit in (budget, authors._BYLINE_BUDGET):
        expected = authors._byline_candidates_python(container, limit)
        found = compiled(container, limit, authors._author_class)
        assert [id(el) for el in found] == [id(el) for el in expected]


@needs_compiled
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_body(), st.integers(1, 80))
def test_text_pieces_alike(html: str, piece: int) -> None:
    compiled = dates.TEXT_PIECES.built
    assert compiled is not None
    root = lxml.html.fromstring(html)
    for top in root.iter(etree.Element):
        for size in (piece, dates._TEXT_PIECE):
            assert list(compiled(top, size)) == list(dates._text_pieces_python(top, size))


@needs_compiled
@pytest.mark.parametrize("piece", [1, 2, 3, 5, 1000])
def test_text_pieces_alike_with_entity_references(piece: int) -> None:
    # An XML tree may keep entity references: itertext() gives "&name;" for each.
    parser = etree.XMLParser(resolve_entities=False)
    root = etree.fromstring(
        '<!DOCTYPE a [<!ENTITY e "EEE">]><a>x<b>y&e;z</b>t&e;u<!--c-->w<?p q?>v<![CDATA[d]]></a>',
        parser,
    )
    compiled = dates.TEXT_PIECES.built
    assert compiled is not None
    for top in root.iter(etree.Element):
        assert list(compiled(top, piece)) == list(dates._text_pieces_python(top, piece))
    assert "".join(compiled(root, piece)) == "xy&e;zt&e;uwvd"


def test_text_pieces_are_the_text_in_bounded_pieces() -> None:
    root = lxml.html.fromstring("<div>ab<p>cd<!-- x -->ef</p>gh<script>ij</script>kl</div>")
    pieces = list(dates._text_pieces_python(root, 3))
    assert "".join(pieces) == "abcdefghijkl"
    assert all(len(p) >= 3 for p in pieces[:-1])


_TITLE_CHARS = st.sampled_from("aabbcc AB-|.é\u4e0b\u4e00\U0001f600\x00")


@needs_compiled
@settings(max_examples=500, deadline=None)
@given(st.text(_TITLE_CHARS, max_size=30), st.text(_TITLE_CHARS, max_size=30))
def test_bigram_dice_alike(a: str, b: str) -> None:
    from newsspider.extraction.metadata import title

    compiled = title.BIGRAM_DICE.built
    assert compiled is not None
    assert compiled(a, b) == title._bigram_dice_python(a, b)
    assert compiled(b, a) == title._bigram_dice_python(b, a)


def test_bigram_dice_counts_distinct_bigrams() -> None:
    from newsspider.extraction.metadata import title

    # "aaa" has one distinct bigram ("aa"), "aab" two: they share one.
    assert title._bigram_dice_python("aaa", "aab") == 2 * 1 / (1 + 2)
    # A one-character text is its own member: it shares nothing with a bigram.
    assert title._bigram_dice_python("a", "ab") == 0.0
    assert title._bigram_dice_python("a", "a") == 1.0


def test_only_ascii_letters_lower_to_the_page_rel_words() -> None:
    # What lets the compiled head reading skip a rel without "next", "prev" or "first" in any
    # ASCII case: no other character lowers to ASCII letters alone (U+0130 lowers to "i" and a
    # combining dot, which no rel word holds; the Kelvin sign's "k" is in none of them).
    letters = set("nextprevfirstious")
    for code in range(0x80, 0x110000):
        lowered = chr(code).lower()
        assert not (lowered.isascii() and set(lowered) & letters), hex(code)
