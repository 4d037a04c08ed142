"""The markup guard before parsing (`parsing.guard_markup`): one pass that caps attributes per
tag and start tags per byte, reading the markup as libxml2's HTML5 tokenizer does.

Every test runs on both scans: the regular expressions and their compiled loops (`_markup_c`),
which must end every match at the same byte (compared on generated tag soup below)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from newsspider import extract
from newsspider.extraction.parse import parsing
from newsspider.extraction.parse.parsing import _MAX_ATTRIBUTES, guard_markup, parse_html

FIXTURES = Path(__file__).parent / "fixtures"
IN_CI = os.environ.get("CI") == "true"


@pytest.fixture(autouse=True, params=["compiled", "regex"])
def scans(request: pytest.FixtureRequest) -> Iterator[str]:
    compiled = request.param == "compiled"
    if compiled and not parsing.GUARD.available:
        if IN_CI:
            pytest.fail("CI builds the compiled guard")
        pytest.skip("the compiled guard is not built here")
    was = parsing.GUARD.active is not None
    parsing.GUARD.use(compiled)
    yield request.param
    parsing.GUARD.use(was)


_SOUP = st.lists(
    st.sampled_from(
        [b"<", b">", b"/", b"!", b"-", b"?", b'"', b"'", b"=", b" ", b"\n", b"\x0b", b"a", b"p",
         b"S", b"x", b"script", b"STYLE", b"title", b"textarea", b"plaintext", b"iframe",
         b"noembed", b"<!--", b"-->", b"--!>", b"</", b"<p", b"<a href=", b"</script>", b"<<"]
    ),
    max_size=40,
).map(b"".join)  # fmt: skip


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=_SOUP, where=st.integers(min_value=0, max_value=3))
def test_compiled_scans_end_where_the_regular_expressions_end(
    scans: str, data: bytes, where: int
) -> None:
    if scans != "compiled":
        return
    compiled = parsing._compiled_scans
    assert compiled is not None
    position = min(len(data), where * len(data) // 3)
    for name in ("not_start", "start", "unit", "units_then_rest"):
        expected = getattr(parsing._REGEX_SCANS, name)(data, position)
        assert getattr(compiled, name)(data, position) == expected, (name, data, position)


def _many_attributes(count: int, value: str) -> bytes:
    attributes = " ".join(f'a{i}="{value}"' for i in range(count))
    return f"<html><body><div {attributes}>inside</div><p>after</p></body></html>".encode()


@pytest.mark.parametrize("value", ["x>y", "<p>", "a<b>c", "'>'"])
def test_a_tag_with_20000_attributes_is_cut_even_with_angle_brackets_in_values(
    value: str,
) -> None:
    """The previous guard looked for long stretches without "<" or ">": values holding them
    hid the tag, and libxml2's duplicate check took seconds."""
    page = _many_attributes(20_000, value)
    guarded, cut = guard_markup(page)
    assert not cut  # the page is not truncated: the tag loses attributes
    start = time.process_time()
    root = parse_html(guarded)
    elapsed = time.process_time() - start
    assert root is not None
    div = root.find(".//div")
    assert div is not None and len(div.attrib) == _MAX_ATTRIBUTES
    assert div.text == "inside" and root.findtext(".//p") == "after"
    assert elapsed < 0.5  # 2.2 s without the cap


def test_names_holding_a_less_than_sign_and_unquoted_values_are_counted() -> None:
    """libxml2 reads ``x<`` as an attribute name and ``a=b<c`` as a value: no tag boundary."""
    names = " ".join(f"x{i}<" for i in range(5000))
    unquoted = " ".join(f"v{i}=a<b" for i in range(5000))
    for attributes in (names, unquoted):
        page = f"<div {attributes}>text</div><p>after</p>".encode()
        root = parse_html(guard_markup(page)[0])
        assert root is not None
        div = root.find(".//div")
        assert div is not None and len(div.attrib) == _MAX_ATTRIBUTES
        assert root.findtext(".//p") == "after"


def test_a_cut_raw_text_element_keeps_its_content_as_text() -> None:
    attributes = " ".join(f'a{i}=">"' for i in range(1000))
    script = "if (a<b && c) { x = '<div class=\"y\">'; }"
    page = f"<script {attributes}>{script}</script><p>after</p>".encode()
    root = parse_html(guard_markup(page)[0])
    assert root is not None
    assert root.findtext(".//script") == script
    assert root.findtext(".//p") == "after"


ORDINARY = [
    b"<p>plain</p>",
    b'<div class="a b" data-x=\'1 > 0\' title="<b>bold</b>" hidden>x</div>',
    # Tag-like text where libxml2 sees none: raw text, comments, end tags with attributes.
    b"<script>for (i=0;i<n;i++) {" + b" token" * 400 + b"}</script><p>after</p>",
    b"<style>a<b " + b"x " * 400 + b"</style><textarea><c " + b"y " * 400 + b"</textarea>",
    b"<title><t " + b"z " * 400 + b"</title><!-- <a " + b"w " * 400 + b"--><p>x",
    b"</div " + b"q " * 400 + b"><p>x</p><![CDATA[<e " + b"r " * 400 + b"]]>",
    b"<SCRIPT>a<b " + b"s " * 400 + b"</Script ><p>after</p>",
    b"<plaintext><x " + b"u " * 400,
    b"<p>a < b and c<d" + b" e" * 400,  # "<d" is a tag: 400 attributes... see below
]


@pytest.mark.parametrize("page", ORDINARY[:-1])
def test_ordinary_markup_is_untouched_byte_for_byte(page: bytes) -> None:
    assert guard_markup(page) == (page, False)


def test_tag_like_text_is_a_tag_as_libxml2_sees_it() -> None:
    """ "<d e e e ..." in text is a start tag for libxml2 too: it is capped like any other."""
    guarded, _ = guard_markup(ORDINARY[-1])
    assert guarded != ORDINARY[-1]
    assert guarded.count(b" e") == _MAX_ATTRIBUTES


def test_fixture_pages_are_untouched_byte_for_byte() -> None:
    pages = [path.read_bytes() for path in sorted(FIXTURES.rglob("*.html"))]
    assert len(pages) > 20
    for page in pages:
        guarded, cut = guard_markup(page)
        assert guarded is page and not cut


def test_dense_markup_is_cut_to_one_start_tag_per_twelve_bytes() -> None:
    data = b"<p>x" * 300_000
    cut, was_cut = guard_markup(data)
    assert was_cut
    assert cut.count(b"<") == len(data) // 12
    closed = b"<p>x</p>" * 150_000  # end tags are not counted
    assert guard_markup(closed)[0].count(b"<p>") == len(closed) // 12
    # Start tags hidden in quoted values ("<" and ">" inside) count for nothing.
    hidden = b'<p title="<p><p><p><p><p>">x' * 40_000
    assert guard_markup(hidden) == (hidden, False)


def test_real_density_is_not_cut() -> None:
    # One start tag per 18 bytes: the densest of 1 608 real pages.
    data = b'<td class="c">1</td>' * 100_000
    assert guard_markup(data) == (data, False)


@pytest.mark.parametrize(
    "unit",
    [
        b'<a x="<b y="<c z=">',  # quotes that desynchronise a naive reader
        b'a<b c="<d',
        b"<!--<a b c",
        b"<script><a " + b"b " * 300,
        b"<a b=" + b"c " * 300,
        b"</a b='>' <p",
    ],
)
def test_linear_time_on_hostile_repetitions(unit: bytes) -> None:
    small, large = unit * 20_000, unit * 80_000
    times = []
    for page in (small, large):
        start = time.process_time()
        guard_markup(page)
        times.append(time.process_time() - start)
    assert times[1] < 8 * times[0] + 0.05  # four times the input: about four times the time


def test_extract_flags_a_cut_page() -> None:
    article = extract(b"<p>x" * 300_000)
    assert "truncated" in article.warnings


_MARKER_SOUP = st.lists(
    st.sampled_from(
        [b"<", b"n", b"N", b"x", b"\x00", b"<noscript", b"<NOSCRIPT", b"<NoScript", b"noscript",
         b"<noscrip", b"<nav>", b"0123456789abcdef"]
    ),
    max_size=30,
).map(b"".join)  # fmt: skip


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=_MARKER_SOUP)
def test_compiled_noscript_test_matches_the_python_one(scans: str, data: bytes) -> None:
    from newsspider.extraction.page import noscript

    if scans != "compiled" or noscript.NOSCRIPT_MARKER.built is None:
        return
    expected = any(marker.encode() in data for marker in noscript._MARKERS)
    assert noscript.NOSCRIPT_MARKER.built(data) == expected


def test_compiled_noscript_test_finds_a_marker_at_every_offset(scans: str) -> None:
    from newsspider.extraction.page import noscript

    if scans != "compiled" or noscript.NOSCRIPT_MARKER.built is None:
        return
    # Past 256 bytes: every place in and across the vector code's 128-byte steps, and the tail.
    for size in range(9, 300):
        for start in range(size - 8):
            for marker in (b"<noscript", b"<NOSCRIPT", b"<noscripx"):
                for filler in (b"<n", b"x"):
                    data = (filler * size)[:start] + marker
                    data += b"N" * (size - len(data))
                    expected = marker != b"<noscripx"
                    assert noscript.NOSCRIPT_MARKER.built(data) == expected, (size, start)


def test_compiled_control_byte_test_finds_one_at_every_offset(scans: str) -> None:
    if scans != "compiled":
        return
    compiled, python = parsing._scans().has_control_bytes, parsing._REGEX_SCANS.has_control_bytes
    for size in (1, 63, 64, 127, 128, 129, 300):
        clean = (b"<p>\tx\r\n" * size)[:size]
        assert not compiled(clean)
        for offset in range(size):
            for byte in (0, 8, 11, 12, 14, 31):
                data = clean[:offset] + bytes([byte]) + clean[offset + 1 :]
                assert compiled(data) == python(data) is True, (size, offset, byte)
