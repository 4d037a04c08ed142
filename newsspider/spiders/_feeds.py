"""RSS 2.0 / RSS 1.0 / Atom entries: the article link plus what the feed says about it.

Parsed with lxml after a repair pass, not with feedparser. feedparser handles more broken
feeds, but measured on the same 100-entry RSS it costs ~25x the CPU of this module
(`python -m bench.feeds`), and the feed spider parses on the event-loop thread; what it does
beyond this module (sanitising entry HTML, dozens of rare date formats, podcast metadata) the
spider does not need, since articles are fetched and extracted from their own pages. What real
feeds do that plain XML parsing gets wrong is handled here: bare ``&`` in URLs and text, HTML
entity names (``&nbsp;``) that XML does not define, escaped markup in titles, ``xml:base`` at
any level, relative links, localised dates (`newsspider.spiders._dates`), and FeedBurner's
``feedburner:origLink`` (the article's own URL where ``<link>`` points to a redirector).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.entities import name2codepoint
from typing import Any, Final
from urllib.parse import urljoin

from lxml import etree
from w3lib.html import remove_tags

from newsspider.spiders._dates import normalize_date
from newsspider.spiders._xml import XmlSteps, child_text, children, local_name, text_of, xml_base
from newsspider.spiders._xml import xml_bytes as _xml_bytes

FEED_ROOTS: Final = ("rss", "feed", "rdf")
_XML_ENTITIES: Final = frozenset({b"amp", b"lt", b"gt", b"quot", b"apos"})
# An ampersand and what may follow it. Bounded repetitions, no nesting: linear time.
_AMPERSAND: Final = re.compile(
    rb"&(#[0-9]{1,8};|#[xX][0-9a-fA-F]{1,8};|[A-Za-z][A-Za-z0-9]{0,31};)?"
)
_CDATA_OPEN: Final = b"<![CDATA["
_CDATA_CLOSE: Final = b"]]>"
_SPACES: Final = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class FeedEntry:
    url: str
    title: str | None = None
    #: ISO 8601, normalised from pubDate / published / updated / dc:date.
    date: str | None = None
    authors: tuple[str, ...] = ()

    def hints(self) -> dict[str, Any]:
        """Keyword hints for ``PageItem.from_response``; only what the feed actually stated."""
        hints: dict[str, Any] = {}
        if self.title:
            hints["title"] = self.title
        if self.date:
            hints["date"] = self.date
        if self.authors:
            hints["authors"] = list(self.authors)
        return hints


def repair_feed(data: bytes) -> bytes:
    """Feed bytes with what breaks XML parsing made well-formed, outside CDATA sections: a bare
    ``&`` becomes ``&amp;`` (``?a=1&b=2``, "Tom & Jerry"), an HTML entity name becomes a
    character reference (``&nbsp;`` -> ``&#160;``), an unknown one literal text. Linear time.

    Only for ASCII-compatible encodings; UTF-16/32 documents (a BOM, or NULs among the first
    bytes) are returned as they are.
    """
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in data[:64]:
        return data
    if b"&" not in data:
        return data
    out: list[bytes] = []
    position = 0
    while position < len(data):
        start = data.find(_CDATA_OPEN, position)
        if start < 0:
            out.append(_AMPERSAND.sub(_fix_ampersand, data[position:]))
            break
        out.append(_AMPERSAND.sub(_fix_ampersand, data[position:start]))
        end = data.find(_CDATA_CLOSE, start)
        end = len(data) if end < 0 else end + len(_CDATA_CLOSE)
        out.append(data[start:end])
        position = end
    return b"".join(out)


def _fix_ampersand(match: re.Match[bytes]) -> bytes:
    reference = match.group(1)
    if reference is None:
        return b"&amp;"
    if reference.startswith(b"#"):
        return match.group(0)
    name = reference[:-1]
    if name in _XML_ENTITIES:
        return match.group(0)
    codepoint = name2codepoint.get(name.decode("ascii"))
    if codepoint is not None:
        return b"&#%d;" % codepoint
    return b"&amp;" + reference


def clean_text(text: str | None) -> str | None:
    """A feed title or name as plain text: entities left escaped once more decoded (``&amp;nbsp;``
    is common), markup that was escaped into it removed, whitespace collapsed."""
    if not text:
        return None
    if "&" in text:
        text = html.unescape(text)
    if "<" in text:
        text = remove_tags(text)
        if "&" in text:
            text = html.unescape(text)
    text = _SPACES.sub(" ", text.replace("\xa0", " ")).strip()
    return text or None


class FeedReader:
    """Entries of an RSS or Atom document (gzip or plain), read in bounded steps.

    `kind` is "rss", "feed" (Atom), "rdf" (RSS 1.0), or "" for anything else.
    """

    def __init__(self, data: bytes, base_url: str) -> None:
        self.base_url = base_url
        self._xml = XmlSteps(repair_feed(_xml_bytes(data)), ("item", "entry"))
        kind = self._xml.root_name
        self.kind = kind if kind in FEED_ROOTS else ""

    def batches(self) -> Iterator[list[FeedEntry]]:
        """The entries in feed order, one list per parsing step."""
        if not self.kind:
            return
        wanted = "entry" if self.kind == "feed" else "item"
        read_entry = _atom_entry if self.kind == "feed" else _rss_item
        for closed in self._xml.steps():
            batch: list[FeedEntry] = []
            for element in closed:
                entry = None
                if local_name(element) == wanted:
                    entry = read_entry(element, self.base_url)
                self._xml.release(element)
                if entry is not None:
                    batch.append(entry)
            if batch:
                yield batch

    def __iter__(self) -> Iterator[FeedEntry]:
        for batch in self.batches():
            yield from batch


def parse_feed(data: bytes, base_url: str) -> list[FeedEntry]:
    """Entries of an RSS or Atom document, in feed order; [] for anything else."""
    return list(FeedReader(data, base_url))


def _authors(nodes: list[etree._Element]) -> tuple[str, ...]:
    return tuple(name for node in nodes if (name := clean_text(text_of(node))))


def _first_date(node: etree._Element, names: tuple[str, ...]) -> str | None:
    for name in names:
        date = normalize_date(child_text(node, name))
        if date:
            return date
    return None


def _rss_item(item: etree._Element, document_url: str) -> FeedEntry | None:
    # FeedBurner rewrites <link> to its redirector and keeps the article's URL here.
    link_node = next(iter(children(item, "origlink")), None)
    if link_node is None:
        link_node = next((n for n in children(item, "link") if (n.text or "").strip()), None)
    link = link_node.text.strip() if link_node is not None and link_node.text else None
    if not link:
        # A permalink guid is the article URL when <link> is missing.
        for guid in children(item, "guid"):
            if guid.get("isPermaLink", "true").strip().lower() == "true" and guid.text:
                link, link_node = guid.text.strip(), guid
    if not link or link_node is None:
        return None
    authors = _authors([n for n in item if local_name(n) in ("author", "creator")])
    return FeedEntry(
        url=urljoin(xml_base(link_node, document_url), link),
        title=clean_text(child_text(item, "title")),
        date=_first_date(item, ("pubdate", "date", "published", "updated")),
        authors=authors,
    )


def _atom_entry(entry: etree._Element, document_url: str) -> FeedEntry | None:
    link = None
    base = document_url
    for node in children(entry, "origlink"):
        if node.text and node.text.strip():
            link, base = node.text.strip(), xml_base(node, document_url)
            break
    if link is None:
        for node in children(entry, "link"):
            rel = (node.get("rel") or "alternate").strip()
            kind = node.get("type") or "text/html"
            href = (node.get("href") or "").strip()
            if rel == "alternate" and "html" in kind and href:
                link, base = href, xml_base(node, document_url)
                break
    if not link:
        return None
    names = [name for author in children(entry, "author") for name in children(author, "name")]
    authors = _authors(names)
    return FeedEntry(
        url=urljoin(base, link),
        title=clean_text(child_text(entry, "title")),
        date=_first_date(entry, ("published", "updated", "issued", "modified")),
        authors=authors,
    )
