"""Safe, bounded reading of feeds and sitemaps: no entity expansion, no network, gzip-aware,
and parsed a slice at a time so that a big document never holds the event loop for long."""

from __future__ import annotations

import contextlib
import re
import struct
import zlib
from collections.abc import Callable, Iterator
from typing import Any, Final

from lxml import etree
from scrapy.utils.gz import gunzip

from newsspider.extraction.common.urls import join_url

#: Decompressed sitemaps and feeds above this are refused (the sitemap protocol caps them at
#: 50 MB).
MAX_XML_BYTES: Final = 50 * 1024 * 1024
#: Bytes handed to the parser per step: 30 to 120 sitemap URLs, a few milliseconds of work
#: with their requests; the spiders let the event loop run between steps.
STEP_BYTES: Final = 8 * 1024

_PARSER_OPTIONS: Final[dict[str, Any]] = {
    "resolve_entities": False,
    "no_network": True,
    "load_dtd": False,
    "huge_tree": False,  # keeps libxml2's limits on depth and text node size
    "recover": True,
    "remove_comments": True,
    "remove_pis": True,
}
_XML_NS: Final = "{http://www.w3.org/XML/1998/namespace}"
_ROOT_LOOKAHEAD: Final = 64 * 1024
#: Ancestors read for ``xml:base``. A real feed's link sits 3 or 4 levels down; broken feeds
#: nest items inside items, and reading every level for every item made them quadratic
#: (bench.robustness.fuzz seed 10: 104 nested items with a base each, 2.5 s per MB).
MAX_BASE_DEPTH: Final = 8


def xml_bytes(data: bytes, limit: int = MAX_XML_BYTES) -> bytes:
    """``data`` gunzipped when it is gzip (``sitemap.xml.gz`` served without Content-Encoding),
    else as it is; b"" for broken gzip or output above ``limit``. Scrapy's `gunzip` keeps what a
    truncated stream holds, as browsers do."""
    if data[:2] == b"\x1f\x8b":
        try:
            data = gunzip(data, max_size=limit)
        except (OSError, EOFError, ValueError, struct.error, zlib.error):
            # ValueError: Scrapy's _DecompressionMaxSizeExceeded (no public name for it).
            return b""
    return _utf8_if_wide(data)


# UTF-16/32 by byte order mark, then by where the NULs of "<" sit (XML's own detection).
_WIDE_ENCODINGS: Final = (
    (b"\xff\xfe\x00\x00", "utf-32-le", 4), (b"\x00\x00\xfe\xff", "utf-32-be", 4),
    (b"\xff\xfe", "utf-16-le", 2), (b"\xfe\xff", "utf-16-be", 2),
    (b"<\x00\x00\x00", "utf-32-le", 0), (b"\x00\x00\x00<", "utf-32-be", 0),
    (b"<\x00", "utf-16-le", 0), (b"\x00<", "utf-16-be", 0),
)  # fmt: skip
_DECLARED_ENCODING: Final = re.compile(r"""^(\s*<\?xml[^>]*?encoding\s*=\s*)(["'])[^"'>]*\2""")


def _utf8_if_wide(data: bytes) -> bytes:
    """A UTF-16/32 document as UTF-8 (its declaration saying so), others unchanged.

    The repair of feeds and sitemaps (`newsspider.spiders._feeds.FeedRepair`) works on
    ASCII-compatible bytes; without it libxml2 stores a reference such as ``&#xD800;`` as the
    bytes of a surrogate, on which lxml raises UnicodeDecodeError (found by fuzzing)."""
    for mark, encoding, skip in _WIDE_ENCODINGS:
        if data.startswith(mark):
            text = data[skip:].decode(encoding, "replace")
            return _DECLARED_ENCODING.sub(r'\1"UTF-8"', text, count=1).encode()
    return data


class XmlSteps:
    """An XML document parsed `STEP_BYTES` at a time with lxml's pull parser.

    `root_name` (the root's local name, lower-cased; "" when there is no element) is known
    from the first step. `steps` yields, once per slice of input, the (maybe no) elements named in
    ``tags`` (local names, any namespace) that closed in that slice; a caller done with an
    element calls `release`, so that the tree never holds more than a step's worth of them.
    """

    def __init__(
        self,
        data: bytes,
        tags: tuple[str, ...],
        step: int = STEP_BYTES,
        repair: Callable[[], Callable[[bytes, bool], bytes]] | None = None,
    ) -> None:
        self._data = data
        self._step = step
        #: Applied to each slice before the parser sees it (slice, is it the last one).
        self._transform = repair() if repair is not None else None
        self._offset = 0
        # The root may follow a long prolog (comments, a DOCTYPE): look a little further.
        # Repaired like the rest: an unrepaired head can hold what lxml cannot read back.
        head = data[: max(step, _ROOT_LOOKAHEAD)]
        self.root_name = _root_name(repair()(head, True) if repair is not None else head)
        # Only the named elements make events: an event per element costs more than the parse.
        self._parser = etree.XMLPullParser(
            events=("end",), tag=[f"{{*}}{name}" for name in tags], **_PARSER_OPTIONS
        )
        self._done = False

    def steps(self) -> Iterator[list[etree._Element]]:
        while not self._done:
            if self._offset >= len(self._data):
                self._done = True
                with contextlib.suppress(etree.XMLSyntaxError):  # nothing parseable at all
                    if self._transform is not None:
                        self._parser.feed(self._transform(b"", True))
                    self._parser.close()
            else:
                chunk = self._data[self._offset : self._offset + self._step]
                self._offset += self._step
                if self._transform is not None:
                    chunk = self._transform(chunk, False)
                try:
                    self._parser.feed(chunk)
                except etree.XMLSyntaxError:
                    self._done = True  # recover mode gave up: keep what was read
            closed = [
                element
                for _, element in self._parser.read_events()
                if isinstance(element, etree._Element)
            ]
            yield closed  # even when empty: the caller's chance to hand the loop back

    @staticmethod
    def release(element: etree._Element) -> None:
        """Drop ``element`` and its earlier siblings from the tree."""
        element.clear()
        parent = element.getparent()
        if parent is not None:
            while element.getprevious() is not None:
                del parent[0]


def _root_name(head: bytes) -> str:
    """The local name of the first element that starts in ``head``; "" if none does."""
    parser = etree.XMLPullParser(events=("start",), **_PARSER_OPTIONS)
    try:
        parser.feed(head)
    except etree.XMLSyntaxError:
        return ""
    for _, element in parser.read_events():
        if isinstance(element, etree._Element):
            return local_name(element)
    return ""


def local_name(element: etree._Element) -> str:
    """The tag without its namespace, lower-cased; "" for non-element nodes."""
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].lower()


def xml_base(element: etree._Element, document_url: str) -> str:
    """The base URL in effect at ``element``: the document's URL, then every ``xml:base`` on
    the way down from the root, each resolved against the one above it. Only the nearest
    `MAX_BASE_DEPTH` levels are read."""
    bases: list[str] = []
    node: etree._Element | None = element
    for _ in range(MAX_BASE_DEPTH):
        if node is None:
            break
        base = node.get(_XML_NS + "base")
        if base:
            bases.append(base.strip())
        node = node.getparent()
    url = document_url
    for base in reversed(bases):
        url = join_url(url, base) or url  # a base that is no URL is ignored
    return url


def child_texts(element: etree._Element) -> dict[str, str]:
    """Stripped text of each leaf child by local name (the first of a name wins; empty ones
    and children with elements inside are left out). One pass over the children: sitemaps have
    tens of thousands of entries."""
    texts: dict[str, str] = {}
    for child in element:
        tag = child.tag
        if not isinstance(tag, str) or len(child):
            continue
        name = tag[tag.rfind("}") + 1 :].lower()
        if name not in texts and (text := (child.text or "").strip()):
            texts[name] = text
    return texts


def text_of(element: etree._Element) -> str:
    """All text inside ``element`` (lxml types itertext loosely: keep the str pieces)."""
    return "".join(t for t in element.itertext() if isinstance(t, str))


def children(element: etree._Element, name: str) -> list[etree._Element]:
    return [child for child in element if local_name(child) == name]
