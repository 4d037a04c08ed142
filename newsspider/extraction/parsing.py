"""Text to an lxml tree: one parse per page, shared by every later stage.

The tree is a plain ``lxml.etree`` tree (cheaper than ``lxml.html`` elements) without comments
or processing instructions. libxml2's HTML parser never resolves external entities or touches the
network, and its own depth limit keeps absurdly nested pages bounded.
"""

from __future__ import annotations

import threading

from lxml import etree

# Control bytes XML forbids; lxml refuses them, real pages contain them anyway. bytes.translate
# deletes them at memory speed, where a regular expression over a large page costs a millisecond.
_CONTROL_BYTES = bytes(range(0x20)).translate(None, b"\t\n\r")
# They are rare, and one memchr-speed `in` test per byte costs half a translate of the page.
_CONTROL_CHARS = tuple(bytes([byte]) for byte in _CONTROL_BYTES)
_thread_state = threading.local()


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
    try:
        root = etree.fromstring(data, _parser())
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return None
    if root is None or not isinstance(root.tag, str):
        return None
    return root
