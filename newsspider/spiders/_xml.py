"""Safe parsing of feeds and sitemaps: no entity expansion, no network, gzip-aware."""

from __future__ import annotations

import gzip
import zlib

from lxml import etree

#: Decompressed sitemaps above this are refused (the protocol caps them at 50 MB).
MAX_XML_BYTES = 50 * 1024 * 1024


def _parser() -> etree.XMLParser:
    # A fresh parser per call: lxml parsers must not be shared across threads.
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        recover=True,
        remove_comments=True,
        remove_pis=True,
    )


def maybe_gunzip(data: bytes, limit: int = MAX_XML_BYTES) -> bytes:
    """Decompress gzip data (``sitemap.xml.gz`` served without Content-Encoding), else pass through.

    Returns b"" for broken or oversized gzip data rather than raising.
    """
    if data[:2] != b"\x1f\x8b":
        return data
    decompressor = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    try:
        out = decompressor.decompress(data, limit + 1)
    except (zlib.error, gzip.BadGzipFile):
        return b""
    return b"" if len(out) > limit else out


def parse_xml(data: bytes) -> etree._Element | None:
    """The root element of an XML document, or None when there is nothing parseable."""
    data = maybe_gunzip(data)
    if not data.strip():
        return None
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError:
        return None
    return root


def local_name(element: etree._Element) -> str:
    """The tag without its namespace, lower-cased; "" for non-element nodes."""
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].lower()


def child_text(element: etree._Element, name: str) -> str | None:
    """Stripped text of the first child with local name ``name`` (any namespace)."""
    for child in element:
        if local_name(child) == name:
            text = text_of(child).strip()
            return text or None
    return None


def text_of(element: etree._Element) -> str:
    """All text inside ``element`` (lxml types itertext loosely: keep the str pieces)."""
    return "".join(t for t in element.itertext() if isinstance(t, str))


def children(element: etree._Element, name: str) -> list[etree._Element]:
    return [child for child in element if local_name(child) == name]
