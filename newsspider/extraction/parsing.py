"""Text to an lxml tree: one parse per page, shared by every later stage.

The tree is a plain ``lxml.etree`` tree (cheaper than ``lxml.html`` elements) without comments
or processing instructions. libxml2's HTML parser never resolves external entities or touches the
network, and its own depth limit keeps absurdly nested pages bounded.
"""

from __future__ import annotations

import re
import threading

from lxml import etree

from newsspider.extraction.budgets import cut_to_budget

# Control bytes XML forbids; lxml refuses them, real pages contain them anyway. bytes.translate
# deletes them at memory speed, where a regular expression over a large page costs a millisecond.
_CONTROL_BYTES = bytes(range(0x20)).translate(None, b"\t\n\r")
# They are rare, and one memchr-speed `in` test per byte costs half a translate of the page.
_CONTROL_CHARS = tuple(bytes([byte]) for byte in _CONTROL_BYTES)
_thread_state = threading.local()

# --- the attribute guard ------------------------------------------------------------------------
# libxml2 checks each attribute of an element against all earlier ones (a linear scan): one
# element with 20 000 distinct attributes costs seconds, 200 000 minutes. No real element has
# more than a few dozen, so elements with more than `_MAX_ATTRIBUTES` lose the rest. Such an
# element needs over `_LONG_TAG` bytes between "<" and the next "<" or ">" (distinct names take
# about three bytes each), so only tags that long are looked at: they are found by C-level
# passes (a translate and a find), which cost a few per cent of the parse.
_MAX_ATTRIBUTES = 256
_LONG_TAG = 1024
_OUTLINE = bytes(b if b in b"<>" else ord("x") for b in range(256))
_LONG_TAG_OUTLINE = b"<" + b"x" * _LONG_TAG
_TAG_NAME = re.compile(rb"[A-Za-z][^\s/>]*")
# Up to `_MAX_ATTRIBUTES` attributes, then whether one more follows. Possessive throughout: a
# failed attempt never backtracks into an earlier attribute.
_ATTRIBUTE = rb"""[\s/]*+[^\s"'<>/=][^\s"'<>/=]*+(?:\s*+=\s*+(?:"[^"]*+"|'[^']*+'|[^\s>]*+))?+"""
_ATTRIBUTES = re.compile(rb"(?:%s){0,%d}+" % (_ATTRIBUTE, _MAX_ATTRIBUTES))
_ONE_MORE = re.compile(_ATTRIBUTE)


def _parser() -> etree.HTMLParser:
    # One parser per thread: lxml parsers must never be shared across threads.
    parser: etree.HTMLParser | None = getattr(_thread_state, "parser", None)
    if parser is None:
        parser = etree.HTMLParser(
            encoding="utf-8",
            remove_comments=True,
            remove_pis=True,
            no_network=True,
            # Without it libxml2 drops everything below depth 256, and sloppy pages (a <div>
            # never closed per paragraph) reach that. Size stays bounded by `max_bytes`.
            huge_tree=True,
            # Nothing looks elements up by ID: building libxml2's ID table is wasted work.
            collect_ids=False,
        )
        _thread_state.parser = parser
    return parser


# --- the element budget -------------------------------------------------------------------------
# Memory and time grow with the number of elements, not bytes: "<p>x" repeated makes a block per
# four bytes and costs about 220 MB and 2.6 s per MB, where real pages have one start tag per 18
# bytes at the densest (1 608 corpus pages: 1.5 times below the budget) and a median of one per
# 90. A page with more than one start tag per `_BYTES_PER_ELEMENT` bytes of input is parsed up
# to that many start tags (and flagged "truncated").
_BYTES_PER_ELEMENT = 12
_ELEMENT_FLOOR = 4096


def _start_tags(data: bytes, start: int, end: int) -> int:
    """The "<" in ``data[start:end]`` that do not open an end tag (comments and stray "<" count
    too: an upper bound). A "</" across ``end`` is an end tag."""
    return data.count(b"<", start, end) - data.count(b"</", start, end + 1)


def limit_elements(data: bytes) -> tuple[bytes, bool]:
    """(``data`` cut before its start tag number ``len(data) // _BYTES_PER_ELEMENT``, whether it
    was cut)."""
    budget = max(_ELEMENT_FLOOR, len(data) // _BYTES_PER_ELEMENT)
    keep = cut_to_budget(data, budget, _start_tags)
    return (data, False) if keep == len(data) else (data[:keep], True)


def limit_attributes(data: bytes) -> bytes:
    """``data`` with every start tag cut after `_MAX_ATTRIBUTES` attributes (the rest of the tag,
    up to its ">", is dropped). Quoted values are read only up to the tag's first ">"."""
    outline = data.translate(_OUTLINE)
    start = outline.find(_LONG_TAG_OUTLINE)
    if start < 0:
        return data
    pieces: list[bytes] = []
    done = 0
    while start >= 0:
        # The tag's outline: up to the next "<" or ">" (both absent for `_LONG_TAG` bytes).
        close = outline.find(b">", start + _LONG_TAG)
        reopen = outline.find(b"<", start + _LONG_TAG)
        ends = [end for end in (close, reopen) if end >= 0]
        end = min(ends) if ends else len(data)
        name = _TAG_NAME.match(data, start + 1, end)
        if name is not None:
            kept = _ATTRIBUTES.match(data, name.end(), end)
            assert kept is not None  # zero repetitions always match
            if _ONE_MORE.match(data, kept.end(), end):
                pieces += (data[done : kept.end()], b">")
                done = end + 1 if end == close else end
        start = outline.find(_LONG_TAG_OUTLINE, end)
    pieces.append(data[done:])
    return b"".join(pieces)


def parse_html(text: str | bytes) -> etree._Element | None:
    """Parse HTML given as text or as UTF-8 bytes. Returns the root, or None for no document."""
    # UTF-8 bytes parse faster than str and sidestep lxml's refusal of str input that carries
    # an XML declaration; lone surrogates (possible in str) become U+FFFD.
    data = text if isinstance(text, bytes) else text.encode("utf-8", errors="replace")
    if any(char in data for char in _CONTROL_CHARS):
        data = data.translate(None, _CONTROL_BYTES)
    # Not `strip()`, which copies the whole page when it ends in a newline.
    if not data or data.isspace():
        return None
    data = limit_attributes(data)
    try:
        root = etree.fromstring(data, _parser())
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return None
    if root is None or not isinstance(root.tag, str):
        return None
    return root
