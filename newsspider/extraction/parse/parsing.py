"""Text to an lxml tree: one parse per page, shared by every later stage.

The tree is a plain ``lxml.etree`` tree (cheaper than ``lxml.html`` elements) without comments
or processing instructions. libxml2's HTML parser never resolves external entities or touches the
network, and its own depth limit keeps absurdly nested pages bounded.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Final, NamedTuple

from lxml import etree

from newsspider.core_loader import CompiledTwin

# Control bytes XML forbids; lxml refuses them, real pages contain them anyway. bytes.translate
# deletes them at memory speed, where a regular expression over a large page costs a millisecond.
_CONTROL_BYTES: Final = bytes(range(0x20)).translate(None, b"\t\n\r")
# They are rare, and one memchr-speed `in` test per byte costs half a translate of the page.
_CONTROL_CHARS: Final = tuple(bytes([byte]) for byte in _CONTROL_BYTES)
_thread_state = threading.local()

# --- the markup guard ---------------------------------------------------------------------------
# Two kinds of markup make libxml2 super-linear or huge, and one pass over the page (a regular
# expression that reads the markup as libxml2's HTML5 tokenizer does) finds both:
# - attributes: libxml2 checks each attribute of an element against all earlier ones (a linear
#   scan): one element with 20 000 distinct attributes costs seconds, 200 000 minutes. No real
#   element has more than a few dozen, so an element with more than `_MAX_ATTRIBUTES` loses the
#   rest, up to the end of its tag. Quoted values are read as libxml2 reads them, so "<" and ">"
#   inside them neither end the tag nor hide it.
# - elements: memory and time follow elements, not bytes ("<p>x" repeated makes a block per four
#   bytes: about 220 MB and 2.6 s per MB), where real pages have one start tag per 18 bytes at the
#   densest (1 608 corpus pages: 1.5 times below the budget) and a median of one per 90. A page
#   with more than one start tag per `_BYTES_PER_ELEMENT` bytes is parsed up to that many start
#   tags (and flagged "truncated").
# Comments, end tags, doctypes and the content of script, style, textarea, title (and the other
# raw-text elements) are skipped as libxml2 skips them: a "<p" inside a script is no start tag.
# Every repetition is possessive, so no byte is read twice (linear time); the regular expression
# consumes `_UNITS` start tags per call, so Python runs once per `_UNITS` tags.
_MAX_ATTRIBUTES: Final = 256
_BYTES_PER_ELEMENT: Final = 12
_ELEMENT_FLOOR: Final = 4096
_UNITS: Final = 1024
_RAW_TEXT: Final = rb"script|style|xmp|iframe|noembed|noframes|textarea|title"
_ATTRIBUTE: Final = (
    rb"""[\s/]*+[^\s/>][^\s/>=]*+(?:\s*+=\s*+(?:"[^"]*+"?+|'[^']*+'?+|[^\s>]*+))?+"""
)
# Everything up to the next start tag: text, comments, end tags (their attributes read like a
# start tag's), doctypes, processing instructions, a "<" that starts nothing.
_NOT_START: Final = (
    rb"(?:[^<]++"
    rb"|</[A-Za-z][^\s/>]*+(?:%s)*+[\s/]*+>?+"
    rb"|<!--(?:>|->|(?:[^-]++|-(?!-!?>))*+(?:--!?>)?+)"
    rb"|<[!?][^>]*+>?+"
    rb"|</[^>]*+>?+"
    rb"|<+(?=<)"  # a run of "<" at once, but its last (per "<" the loop costs 100 ns)
    rb"|<(?![A-Za-z!?/]))*+" % _ATTRIBUTE
)
_ATTRIBUTES_THEN_END: Final = rb"(?:%s){0,%d}+[\s/]*+(?:>|\Z)" % (_ATTRIBUTE, _MAX_ATTRIBUTES)
# A start tag with at most `_MAX_ATTRIBUTES` attributes (and a raw-text element's content, up to
# its end tag). No capturing groups: CPython 3.11 mishandles them inside possessive repeats.
_RAW_ELEMENTS: Final = b"".join(
    rb"|(?i:%s)(?![^\s/>])%s(?:[^<]++|<(?!/(?i:%s)(?![^\s/>])))*+"
    % (name, _ATTRIBUTES_THEN_END, name)
    for name in _RAW_TEXT.split(b"|")
)
_ANY_START: Final = rb"[A-Za-z][^\s/>]*+" + _ATTRIBUTES_THEN_END
# Only a tag whose first letter may start a raw-text name tries those names (they cost a third
# of the pass when every tag tries them).
_START: Final = rb"<(?:(?=[sStTxXiInNpP])(?:(?i:plaintext)(?![^\s/>])%s(?s:.*+)%s|%s)|%s)" % (
    _ATTRIBUTES_THEN_END,
    _RAW_ELEMENTS,
    _ANY_START,
    _ANY_START,
)
_UNIT: Final = re.compile(_NOT_START + _START)
_UNITS_THEN_REST: Final = re.compile(
    rb"(?:%s%s){0,%d}+%s" % (_NOT_START, _START, _UNITS, _NOT_START)
)
_NOT_START_ONLY: Final = re.compile(_NOT_START)
_START_ONLY: Final = re.compile(_START)
# A start tag with too many attributes: what is kept, then what is dropped (to the tag's end).
_KEPT_HEAD: Final = re.compile(rb"<([A-Za-z][^\s/>]*+)(?:%s){%d}+" % (_ATTRIBUTE, _MAX_ATTRIBUTES))
_DROPPED_TAIL: Final = re.compile(rb"(?:%s)*+[\s/]*+>?+" % _ATTRIBUTE)
_RAW_NAMES: Final = frozenset(_RAW_TEXT.split(b"|"))


def _end_of_not_start(data: bytes, position: int) -> int:
    return _NOT_START_ONLY.match(data, position).end()  # type: ignore[union-attr]


def _end_of_start(data: bytes, position: int) -> int:
    match = _START_ONLY.match(data, position)
    return -1 if match is None else match.end()


def _end_of_unit(data: bytes, position: int) -> int:
    match = _UNIT.match(data, position)
    return -1 if match is None else match.end()


def _end_of_units(data: bytes, position: int) -> int:
    return _UNITS_THEN_REST.match(data, position).end()  # type: ignore[union-attr]


def _any_control_byte(data: bytes) -> bool:
    # One memchr-speed `in` test per byte value: they are rare, so a page pays all 29 passes.
    return any(char in data for char in _CONTROL_CHARS)


class _Scans(NamedTuple):
    """The guard's four scans and the control-byte test: its regular expressions and `in`
    tests, or `_markup_c`'s loops (same answers)."""

    not_start: Callable[[bytes, int], int]
    start: Callable[[bytes, int], int]
    unit: Callable[[bytes, int], int]
    units_then_rest: Callable[[bytes, int], int]
    has_control_bytes: Callable[[bytes], bool]


_REGEX_SCANS: Final = _Scans(
    _end_of_not_start, _end_of_start, _end_of_unit, _end_of_units, _any_control_byte
)
_compiled_scans: _Scans | None = None
try:
    from newsspider.extraction.parse import _markup_c
except ImportError:  # not built (no compiler at install time): the regular expressions
    pass
else:
    if _markup_c.limits() == (_MAX_ATTRIBUTES, _UNITS):
        _compiled_scans = _Scans(
            _markup_c.not_start_end,
            _markup_c.start_end,
            _markup_c.unit_end,
            _markup_c.units_then_rest_end,
            _markup_c.has_control_bytes,
        )
#: The compiled scans when built (and built for these limits); `active` when not switched off
#: (`core_loader.use_compiled`, NEWSSPIDER_PURE_PYTHON=1).
GUARD: Final[CompiledTwin[_Scans]] = CompiledTwin(_compiled_scans)


def _scans() -> _Scans:
    scans = GUARD.active
    return _REGEX_SCANS if scans is None else scans


def guard_markup(data: bytes) -> tuple[bytes, bool]:
    """(``data`` with every start tag cut after `_MAX_ATTRIBUTES` attributes and the page cut
    before start tag number ``max(_ELEMENT_FLOOR, len(data) // _BYTES_PER_ELEMENT) + 1``,
    whether the page was cut). ``data`` itself when nothing changes."""
    budget = max(_ELEMENT_FLOOR, len(data) // _BYTES_PER_ELEMENT)
    scans = _scans()
    pieces: list[bytes] = []
    done = position = tags = 0
    while position < len(data):
        if tags + _UNITS <= budget:
            end = scans.units_then_rest(data, position)
            if end == len(data):
                break
            if scans.start(data, end) >= 0:  # stopped after `_UNITS` start tags
                tags += _UNITS
                position = end
                continue
            # Stopped before a start tag with too many attributes: an upper bound of the start
            # tags read (this is rare: hostile pages only).
            tags += data.count(b"<", position, end) - data.count(b"</", position, end)
            position = end
        else:  # near the budget: one start tag at a time
            unit = scans.unit(data, position)
            if unit >= 0:
                tags += 1
                position = unit
                if tags < budget or position == len(data):
                    continue
            position = scans.not_start(data, position)
            if position == len(data):
                break
            if tags >= budget:  # another start tag follows: the page ends here
                pieces.append(data[done:position])
                return b"".join(pieces), True
        # A start tag with more than `_MAX_ATTRIBUTES` attributes at ``position``.
        head = _KEPT_HEAD.match(data, position)
        assert head is not None  # it has more than that many
        pieces += (data[done : head.end()], b">")
        done = position = _DROPPED_TAIL.match(data, head.end()).end()  # type: ignore[union-attr]
        tags += 1
        name = head.group(1).lower()
        if name == b"plaintext":
            break
        if name in _RAW_NAMES:  # its content is text up to its end tag
            content = rb"(?:[^<]++|<(?!/(?i:%s)(?![^\s/>])))*+" % name
            position = re.compile(content).match(data, position).end()  # type: ignore[union-attr]
    if not pieces:
        return data, False
    pieces.append(data[done:])
    return b"".join(pieces), False


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


def prepare_markup(data: bytes) -> tuple[bytes, bool]:
    """(UTF-8 ``data`` as the parser gets it: without XML's forbidden control bytes and through
    `guard_markup`, whether it was cut)."""
    if _scans().has_control_bytes(data):
        data = data.translate(None, _CONTROL_BYTES)
    return guard_markup(data)


def parse_prepared(data: bytes) -> etree._Element | None:
    """The root of `prepare_markup`'s output, or None for no document."""
    # Not `strip()`, which copies the whole page when it ends in a newline.
    if not data or data.isspace():
        return None
    try:
        root = etree.fromstring(data, _parser())
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return None
    if root is None or not isinstance(root.tag, str):
        return None
    return root


def parse_html(text: str | bytes) -> etree._Element | None:
    """Parse HTML given as text or as UTF-8 bytes. Returns the root, or None for no document."""
    # UTF-8 bytes parse faster than str and sidestep lxml's refusal of str input that carries
    # an XML declaration; lone surrogates (possible in str) become U+FFFD.
    data = text if isinstance(text, bytes) else text.encode("utf-8", errors="replace")
    return parse_prepared(prepare_markup(data)[0])
