"""The compiled segment walk (`_segments_c`) and class meaning (`_class_words_c`) give exactly
what the pure-Python ones give.

Both walks run on the same tree: every list of `PageSegments` (block elements are the same
proxies) and, through `extract`, every field of the `Article`, on every fixture page, every
page of the demo site and generated tag soup. Without a C compiler at install time the
compiled walk is absent and these tests skip, except under ``CI=true``, where it must be built.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from newsspider import core_loader
from newsspider.extraction import api
from newsspider.extraction.classify import confidence
from newsspider.extraction.classify.pagetype import read_form_signals
from newsspider.extraction.common import gil, textstats
from newsspider.extraction.metadata.reader import read_metadata
from newsspider.extraction.page import class_words, segments
from newsspider.extraction.page.cleaning import clean_tree
from newsspider.extraction.parse import decoding, parsing

FIXTURES = Path(__file__).parent / "fixtures"
IN_CI = os.environ.get("CI") == "true"

needs_compiled = pytest.mark.skipif(
    not segments.WALK.available and not IN_CI,
    reason=f"the compiled walk is not built here: {segments.COMPILED_ERROR}",
)


def test_ci_builds_and_uses_the_compiled_walk() -> None:
    if not IN_CI:
        pytest.skip("only under CI=true: a machine without a compiler uses the pure walk")
    assert segments.WALK.available, segments.COMPILED_ERROR
    assert parsing.GUARD.available
    assert class_words.COMPILED_MEANING_AVAILABLE
    assert decoding.COMPILED_UTF8_AVAILABLE
    assert confidence.COMPILED_GRAMS_AVAILABLE
    if os.environ.get("NEWSSPIDER_PURE_PYTHON", "") in ("", "0"):
        assert segments.WALK.active is not None
        assert parsing.GUARD.active is not None
        assert class_words.WORK_OUT.active is not None
        assert decoding.UTF8_LENGTH.active is not None
        assert confidence.GRAM_SHARE.active is not None


def _prepared_tree(html: bytes, url: str | None) -> object:
    """The tree as `extract` hands it to the walk: parsed, metadata read, cleaned."""
    root, _, _, _ = api._parse(html, None, api.DEFAULT_MAX_BYTES, [])
    if root is None:
        return None
    read_metadata(root, url, reference_time=None, hints=None)
    read_form_signals(root)
    clean_tree(root)
    return root


def _assert_same(html: bytes, url: str | None = "https://example.com/a/page") -> None:
    root = _prepared_tree(html, url)
    if root is not None:
        python_page = segments.segment_page_python(root)  # type: ignore[arg-type]
        compiled_page = segments.segment_page_compiled(root)  # type: ignore[arg-type]
        assert compiled_page == python_page
    active = segments.WALK.active is not None
    try:
        # Cached class meanings would hide the path that worked them out: none are kept.
        core_loader.use_compiled(False)
        class_words.clear_cache()
        python_article = api.extract(html, url=url)
        core_loader.use_compiled(True)
        class_words.clear_cache()
        compiled_article = api.extract(html, url=url)
    finally:
        core_loader.use_compiled(active)
    assert compiled_article == python_article


def _fixture_pages() -> Iterator[tuple[str, bytes]]:
    for path in sorted(FIXTURES.rglob("*.html")):
        yield str(path.relative_to(FIXTURES)), path.read_bytes()


def _demo_pages() -> Iterator[tuple[str, bytes]]:
    from newsspider.demo.site import build_site

    site = build_site("http://127.0.0.1:8000")
    for path, page in sorted(site.pages.items()):
        if page.content_type.startswith("text/html"):
            yield path, page.body


@needs_compiled
@pytest.mark.parametrize(("name", "html"), list(_fixture_pages()))
def test_fixture_pages_are_identical(name: str, html: bytes) -> None:
    _assert_same(html)


@needs_compiled
def test_demo_site_pages_are_identical() -> None:
    pages = list(_demo_pages())
    assert len(pages) > 20
    for _, html in pages:
        _assert_same(html)


# Tag soup: the walk's every rule has a way in (blocks and inline tags, links in headings,
# <br> and <pre>, hidden styles, classes and attributes, captions, custom elements, comments,
# entities, whitespace of every kind, CJK and punctuation), nested and left unclosed at random.
_TAGS = (
    "div p span a b em br pre li ul h2 h3 h1 td tr table figure figcaption section article "
    "nav aside footer main header blockquote code my-widget amp-story font"
).split()
_ATTRIBUTES = (
    "",
    ' class="comment"',
    ' class="hidden"',
    ' class="sr-only hidden md:block"',
    ' class="article-body"',
    ' class="related-posts"',
    ' class="wp-caption"',
    ' class="widget"',
    ' class="has-sidebar content"',
    ' id="main-story"',
    ' id="h-how-to-share-your-garden-photos"',
    ' class="cookie" id="x"',
    ' style="display: none"',
    ' style="color:red"',
    " hidden",
    ' role="main"',
    ' role="dialog" aria-modal="true"',
    ' itemprop="articleBody"',
    ' data-x="1" class="text"',
    ' class="a" class="b"',
    ' title="a &amp; b" class="x&amp;y"',
    " popover",
    ' class="hub__recommend--wide menlo-hub-item__content" id="relatedPostsTitle"',
    ' class="articleBody ShareBar"',
    ' class="no-sidebar post"',
    ' class="Kelvin-K İstanbul"',
)
_TEXTS = (
    "The council met on Tuesday.",
    "  ",
    "\n\t",
    "\xa0",
    "\u3000",
    "中文的句子。",
    "한국어 문장입니다",
    "カタカナ",
    "Lists:",
    "¿Qué? ¡Sí!",
    "a…b «c» „d“",
    "&nbsp;&amp;&lt;",
    "word",
    "x" * 40,
    "<!-- a comment -->",
    "line\nbreak",
    "\u2003em\u2009space",
    "١٢٣؟،",
)


@st.composite
def _soup(draw: st.DrawFn) -> str:
    parts: list[str] = ["<html><body>"]
    open_tags: list[str] = []
    for _ in range(draw(st.integers(1, 60))):
        action = draw(st.integers(0, 3))
        if action == 0 and len(open_tags) < 12:
            tag = draw(st.sampled_from(_TAGS))
            parts.append(f"<{tag}{draw(st.sampled_from(_ATTRIBUTES))}>")
            if tag != "br":
                open_tags.append(tag)
        elif action == 1 and open_tags:
            parts.append(f"</{open_tags.pop()}>")
        else:
            parts.append(draw(st.sampled_from(_TEXTS)))
    if draw(st.booleans()):
        parts.extend(f"</{tag}>" for tag in reversed(open_tags))
    return "".join(parts)


@needs_compiled
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_soup())
def test_tag_soup_is_identical(html: str) -> None:
    _assert_same(html.encode())


@needs_compiled
def test_text_measures_match_textstats_on_every_code_point() -> None:
    from newsspider.extraction.page import _segments_c

    everything = "".join(chr(code) for code in range(0x110000) if not 0xD800 <= code < 0xE000)
    for start in range(0, len(everything), 4096):
        chunk = everything[start : start + 4096]
        assert _segments_c.count_punctuation(chunk) == textstats.count_punctuation(chunk)
        assert _segments_c.count_dense_script(chunk) == textstats.count_dense_script(chunk)


@needs_compiled
def test_compiled_walk_offers_the_gil_on_large_pages() -> None:
    # A crawl's event loop shares the GIL with extraction threads: the compiled loop calls a
    # Python function every 1024 elements, where the interpreter can hand the GIL over.
    from lxml import html as lxml_html

    calls = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        code = getattr(frame, "f_code", None)
        if event == "call" and code is gil.yield_point.__code__:
            calls += 1

    root = lxml_html.fromstring("<html><body>" + "<p>x</p>" * 5000 + "</body></html>")
    sys.setprofile(profile)
    try:
        segments.segment_page_compiled(root)
    finally:
        sys.setprofile(None)
    assert calls >= 4


# Class and id values: every rule of `class_words.attribute_tokens` has a way in (BEM elements
# and modifiers, camelCase, squashed words, "related..." run together, layout modifiers,
# hiding and caption names in any case and cut short, separators of every kind, non-ASCII
# letters whose lower case is ASCII, the empty value).
_CLASS_PARTS = (
    "a b c x Z Q 0 1 _ - __ -- . : / \t has- no_ with- without_ related Related comment "
    "articleBody nav cookie caption wp-caption sr-only hidden md:block visually-hidden "
    "SR-Only HIDE d-None screen-reader-text Invisible invisibl hid "
    "recommend share widget post content İ K é  "
).split(" ")


@needs_compiled
@settings(max_examples=3000, deadline=None)
@given(
    st.one_of(st.none(), st.lists(st.sampled_from(_CLASS_PARTS), max_size=12).map("".join)),
    st.one_of(st.none(), st.lists(st.sampled_from(_CLASS_PARTS), max_size=6).map("".join)),
)
def test_class_meaning_is_identical(classes: str | None, ident: str | None) -> None:
    from newsspider.extraction.page import _class_words_c

    compiled = _class_words_c.work_out(classes, ident)
    if compiled is not None:  # None: the Python version works it out
        assert compiled == class_words.work_out(classes, ident)


@needs_compiled
def test_remembered_meaning_fills_the_one_cache_within_its_bounds() -> None:
    from newsspider.extraction.common.caching import MAX_KEY_CHARS
    from newsspider.extraction.page import _class_words_c

    class_words.clear_cache()
    try:
        for key in [("comments-area", None), (None, "main"), ("x" * MAX_KEY_CHARS, "nav")]:
            meaning = _class_words_c.remembered(key)
            assert meaning == class_words.work_out(*key)
            assert class_words._attribute_cache[key] is meaning
        long_key = ("related " * MAX_KEY_CHARS, None)  # too long to keep
        assert _class_words_c.remembered(long_key) == class_words.work_out(*long_key)
        assert long_key not in class_words._attribute_cache
        # What the compiled version leaves to Python is neither worked out nor kept.
        assert _class_words_c.remembered(("İtem", None)) is None
        assert ("İtem", None) not in class_words._attribute_cache
    finally:
        class_words.clear_cache()


@needs_compiled
@pytest.mark.parametrize(
    "classes",
    [
        "entry-content has-sidebar",  # the modifier's furniture word means nothing
        "no-js with_ads article-body",
        "Without-Comments caption",  # upper case; the caption word still counts
        "has-sidebar",  # modifiers only
        "casino-x related",  # "no-" inside a word is no modifier
    ],
)
def test_layout_modifiers_are_worked_out_compiled(classes: str) -> None:
    from newsspider.extraction.page import _class_words_c

    compiled = _class_words_c.work_out(classes, "main")
    assert compiled is not None
    assert compiled == class_words.work_out(classes, "main")


@needs_compiled
def test_class_meaning_of_every_fixture_value_is_identical() -> None:
    import lxml.html

    from newsspider.extraction.page import _class_words_c

    compared = 0
    for _, html in _fixture_pages():
        if not html.strip():
            continue  # an empty fixture page
        for element in lxml.html.document_fromstring(html).iter():
            if not isinstance(element.tag, str):
                continue
            classes, ident = element.get("class"), element.get("id")
            compiled = _class_words_c.work_out(classes, ident)
            if compiled is not None:
                compared += 1
                assert compiled == class_words.work_out(classes, ident), (classes, ident)
    assert compared > 1000


# Text for the gram counts: Latin with accents and a character whose case folding grows, CJK,
# hangul, a character outside the BMP, repeats (so grams recur) and lengths around the gram sizes.
_GRAM_TEXT = st.text(alphabet="abcab é中文字한국ßİ\U0001f600", max_size=400)


@needs_compiled
@settings(max_examples=1500, deadline=None)
@given(_GRAM_TEXT, _GRAM_TEXT, _GRAM_TEXT)
def test_agreement_measures_are_identical(body: str, title: str, declared: str) -> None:
    declared = (declared * 3)[:3500]  # past the 200 characters an articleBody needs, at times

    def measures() -> tuple[float | None, ...]:
        return (
            confidence.structured_agreement(body, declared),
            confidence.text_agreement(body, title, 8),
            confidence.text_agreement(body, declared, 30),
        )

    compiled = measures()
    was_compiled = confidence.GRAM_SHARE.active is not None
    confidence.GRAM_SHARE.use(False)
    try:
        assert measures() == compiled
    finally:
        confidence.GRAM_SHARE.use(was_compiled)


@needs_compiled
@settings(max_examples=1500, deadline=None)
@given(_GRAM_TEXT, _GRAM_TEXT, st.integers(1, 4))
def test_gram_counts_are_the_python_sets(reference: str, text: str, size: int) -> None:
    from newsspider.extraction.classify._grams_c import gram_share

    wanted = {reference[i : i + size] for i in range(len(reference) - size + 1)}
    assert gram_share(reference, text, size) == (len(wanted), sum(g in text for g in wanted))


def _python_utf8(data: bytes) -> bytes | None:
    from newsspider.extraction.parse import decoding

    # The switch answers whether it is on after the call: remember the state before it.
    was_compiled = decoding.UTF8_LENGTH.active is not None
    decoding.UTF8_LENGTH.use(False)
    try:
        return decoding._utf8_bytes(data)
    finally:
        decoding.UTF8_LENGTH.use(was_compiled)


# Bytes where UTF-8's rules turn: ASCII, continuation ranges, every lead byte that limits its
# second byte (overlong forms, surrogates, past U+10FFFF), and bytes that never appear.
_UTF8_EDGES = bytes.fromhex(
    "00 41 7f 80 8f 90 9f a0 bf c0 c1 c2 df e0 e1 ec ed ee ef f0 f1 f3 f4 f5 ff"
)


@needs_compiled
def test_utf8_validation_matches_the_decoder_on_every_short_sequence() -> None:
    # Every one- and two-byte sequence, every three- and four-byte one of the edge bytes, at
    # the end of the data (a last character cut short is held back, as the decoder does) and
    # after eight ASCII bytes (the compiled loop's fast path).
    from itertools import product

    from newsspider.extraction.parse import _utf8_c, decoding

    sequences = [bytes([a]) for a in range(256)]
    sequences += [bytes(pair) for pair in product(range(256), repeat=2)]
    sequences += [bytes(edge) for edge in product(_UTF8_EDGES, repeat=3)]
    assert (
        decoding.UTF8_LENGTH.active is _utf8_c.complete_utf8_length or segments.WALK.active is None
    )
    for sequence in sequences:
        for data in (sequence, b"abcdefgh" + sequence, sequence + b"abcdefghij"):
            assert decoding._utf8_bytes(data) == _python_utf8(data), data


@needs_compiled
@settings(max_examples=3000, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(list(_UTF8_EDGES)), st.integers(0, 255)), max_size=40))
def test_utf8_validation_matches_the_decoder_on_random_bytes(values: list[int]) -> None:
    from newsspider.extraction.parse import decoding

    data = bytes(values)
    assert decoding._utf8_bytes(data) == _python_utf8(data)
