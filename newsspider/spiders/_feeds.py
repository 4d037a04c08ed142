"""RSS 2.0 / RSS 1.0 / Atom entries: the article link plus what the feed says about it.

Parsed with lxml after a repair pass, not with feedparser. feedparser handles more broken feeds,
but measured on the same 100-entry RSS it costs 8 to 9 times the CPU of this module (`python -m
bench.robustness.feeds`), and the feed spider parses on the event-loop thread; what it does
beyond this module (sanitising entry HTML, dozens of rare date formats, podcast metadata) the
spider does not need, since articles are fetched and extracted from their own pages. What real
feeds do that plain XML parsing gets wrong is handled here: bare ``&`` in URLs and text, HTML
entity names (``&nbsp;``) that XML does not define, escaped markup in titles, ``xml:base`` at
any level, relative links, localised dates (`newsspider.spiders._dates`), and FeedBurner's
``feedburner:origLink`` (the article's own URL where ``<link>`` points to a redirector)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.entities import name2codepoint
from typing import Any, Final

from lxml import etree
from w3lib.html import remove_tags

from newsspider.extraction.common.urls import join_url
from newsspider.extraction.parse.binary import FEED_ROOTS
from newsspider.spiders._dates import normalize_date
from newsspider.spiders._xml import XmlSteps, children, local_name, text_of, xml_base
from newsspider.spiders._xml import xml_bytes as _xml_bytes

_XML_ENTITIES: Final = frozenset({b"amp", b"lt", b"gt", b"quot", b"apos"})
# An ampersand and what may follow it. Bounded repetitions, no nesting: linear time.
_AMPERSAND: Final = re.compile(
    rb"&(#[0-9]{1,8};|#[xX][0-9a-fA-F]{1,8};|[A-Za-z][A-Za-z0-9]{0,31};)?"
)
_NUMERIC_REFERENCE: Final = re.compile(rb"&(#[0-9]{1,8};|#[xX][0-9a-fA-F]{1,8};)")
# UTF-16/32 (a BOM, or the NUL of "<"): the repair passes such documents through unchanged.
_WIDE_STARTS: Final = (b"\xff\xfe", b"\xfe\xff", b"<\x00", b"\x00<", b"\x00\x00")
# A "<" starting a tag that another "<" follows before any ">": libxml2's XML recovery costs
# quadratic time on such tags repeated ("<p" or '<p a="' 32 000 times: 1 s per 64 kB, found by
# fuzzing), so it becomes text. Not "<!" or "<?": a DOCTYPE's internal subset holds "<!".
_UNCLOSED_TAG: Final = re.compile(rb"<(?![!?])(?=[^<>]*+<)")
#: A piece's last "<" without its ">" waits for the next piece, but not beyond this many bytes.
_MAX_HELD_TAG: Final = 64 * 1024
# Characters XML 1.0 forbids anywhere (C0 controls but tab, line feed and carriage return; the
# non-characters U+FFFE and U+FFFF). libxml2 ends a CDATA section at one and reads the rest as
# markup, where unclosed tags cost it quadratic time (64 kB: 0.4 s, 256 kB: 6.8 s; found by
# fuzzing): controls are deleted, the non-characters become U+FFFD, as a decoder would.
_FORBIDDEN_CONTROLS: Final = bytes(range(0x20)).translate(None, b"\t\n\r")
_NON_CHARACTERS: Final = (b"\xef\xbf\xbe", b"\xef\xbf\xbf")
_REPLACEMENT_CHARACTER: Final = b"\xef\xbf\xbd"
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
    """Feed bytes with what breaks XML parsing made well-formed (see `FeedRepair`), at once."""
    return FeedRepair()(data, final=True)


class FeedRepair:
    """Makes feed bytes well-formed where real feeds are not, outside CDATA sections: a bare
    ``&`` becomes ``&amp;`` (``?a=1&b=2``, "Tom & Jerry"), an HTML entity name becomes a
    character reference (``&nbsp;`` -> ``&#160;``), an unknown one literal text.

    Called on consecutive pieces of a document (a parsing step each): it keeps the state
    (inside a CDATA section or not) and holds back a piece's last bytes when they may be the
    start of a reference or of a CDATA marker, so no piece costs more than linear time in its
    own size. Only for ASCII-compatible encodings: UTF-16/32 documents (a BOM, or NULs among
    the first bytes) pass unchanged.
    """

    def __init__(self) -> None:
        self._in_cdata = False
        self._held = b""
        self._passthrough: bool | None = None

    def __call__(self, piece: bytes, final: bool = False) -> bytes:
        data = self._held + piece if self._held else piece
        self._held = b""
        if self._passthrough is None:
            # Not "any NUL near the start": a stray NUL in an ASCII feed must not switch the
            # repair off (found by bench.robustness.fuzz).
            self._passthrough = data[:2] in _WIDE_STARTS
        if self._passthrough:
            return data
        cut = len(data) if final else _safe_cut(data)
        data, self._held = _allowed_characters(data[:cut]), data[cut:]
        out: list[bytes] = []
        position = 0
        while position < len(data):
            if self._in_cdata:
                end = data.find(_CDATA_CLOSE, position)
                if end < 0:
                    # libxml2 reads a CDATA section that is never closed as markup: its
                    # references still need fixing (found by bench.robustness.fuzz).
                    out.append(_forbidden_references(data[position:]))
                    break
                end += len(_CDATA_CLOSE)
                out.append(_forbidden_references(data[position:end]))
                self._in_cdata = False
                position = end
                continue
            start = data.find(_CDATA_OPEN, position)
            text = data[position:] if start < 0 else data[position:start]
            if b"&" in text:
                text = _AMPERSAND.sub(_fix_ampersand, text)
            out.append(_UNCLOSED_TAG.sub(b"&lt;", text) if b"<" in text else text)
            if start < 0:
                break
            self._in_cdata = True
            out.append(_CDATA_OPEN)
            position = start + len(_CDATA_OPEN)
        return b"".join(out)


def _allowed_characters(data: bytes) -> bytes:
    """``data`` without the characters XML forbids (see `_FORBIDDEN_CONTROLS`)."""
    data = data.translate(None, _FORBIDDEN_CONTROLS)
    if b"\xef\xbf" in data:
        for non_character in _NON_CHARACTERS:
            data = data.replace(non_character, _REPLACEMENT_CHARACTER)
    return data


def _safe_cut(data: bytes) -> int:
    """Where to end a piece so that no reference (at most 34 bytes), tag, ``<![CDATA[`` or
    ``]]>`` is split: before a trailing ``&`` without its ``;``, a trailing ``<`` without its
    ``>`` (within `_MAX_HELD_TAG` bytes), or a trailing part of a marker."""
    cut = len(data)
    lt = data.rfind(b"<", max(0, cut - _MAX_HELD_TAG))
    if lt >= 0 and b">" not in data[lt:]:
        cut = lt  # whether another "<" comes before its ">" is in the next piece
    amp = data.rfind(b"&", max(0, cut - 40))
    if amp >= 0 and b";" not in data[amp:]:
        cut = amp
    for size in range(len(_CDATA_OPEN) - 1, 0, -1):
        if data.endswith(_CDATA_OPEN[:size], 0, cut):
            cut -= size
            break
    while cut and data[cut - 1 : cut] == b"]" and len(data) - cut < 2:
        cut -= 1
    # Nor a non-character's first bytes (`_allowed_characters` sees it whole).
    if data.endswith(b"\xef", 0, cut):
        cut -= 1
    elif data.endswith(b"\xef\xbf", 0, cut):
        cut -= 2
    return cut


def _forbidden_references(data: bytes) -> bytes:
    """``data`` with numeric references to characters XML forbids made U+FFFD references."""
    return _NUMERIC_REFERENCE.sub(_fix_numeric, data) if b"&#" in data else data


def _fix_numeric(match: re.Match[bytes]) -> bytes:
    return _fix_ampersand(match) if match.group(1) is not None else match.group(0)


def _fix_ampersand(match: re.Match[bytes]) -> bytes:
    reference = match.group(1)
    if reference is None:
        return b"&amp;"
    if reference.startswith(b"#"):
        # A reference to what XML forbids (a surrogate, NUL, past U+10FFFF): libxml2's recover
        # mode stores a surrogate's bytes as they are and lxml then raises UnicodeDecodeError
        # reading the text (found by bench.robustness.fuzz), so it becomes U+FFFD here.
        hexadecimal = reference[1:2] in (b"x", b"X")
        number = int(reference[2:-1], 16) if hexadecimal else int(reference[1:-1])
        return match.group(0) if _xml_char(number) else b"&#65533;"
    name = reference[:-1]
    if name in _XML_ENTITIES:
        return match.group(0)
    codepoint = name2codepoint.get(name.decode("ascii"))
    if codepoint is not None:
        return b"&#%d;" % codepoint
    return b"&amp;" + reference


def _xml_char(codepoint: int) -> bool:
    """Whether XML 1.0 allows the character (its ``Char`` production)."""
    if codepoint < 0x20:
        return codepoint in (0x9, 0xA, 0xD)
    return codepoint <= 0xD7FF or 0xE000 <= codepoint <= 0xFFFD or 0x10000 <= codepoint <= 0x10FFFF


def feed_text(text: str | None) -> str | None:
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
        self._xml = XmlSteps(_xml_bytes(data), ("item", "entry"), repair=FeedRepair)
        kind = self._xml.root_name
        self.kind = kind if kind in FEED_ROOTS else ""

    def batches(self) -> Iterator[list[FeedEntry]]:
        """The entries in feed order, one list (maybe empty) per parsing step."""
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
            yield batch  # even when empty: one per step, so the caller can pause between steps

    def __iter__(self) -> Iterator[FeedEntry]:
        for batch in self.batches():
            yield from batch


def parse_feed(data: bytes, base_url: str) -> list[FeedEntry]:
    """Entries of an RSS or Atom document, in feed order; [] for anything else."""
    return list(FeedReader(data, base_url))


def _by_name(element: etree._Element) -> dict[str, list[etree._Element]]:
    """The children of ``element`` by local name (one pass: an item has a dozen children)."""
    named: dict[str, list[etree._Element]] = {}
    for child in element:
        name = local_name(child)
        if name:
            named.setdefault(name, []).append(child)
    return named


def _text(nodes: list[etree._Element] | None) -> str | None:
    """Stripped text of the first node, or None."""
    if not nodes:
        return None
    return text_of(nodes[0]).strip() or None


def _authors(nodes: list[etree._Element]) -> tuple[str, ...]:
    return tuple(name for node in nodes if (name := feed_text(text_of(node))))


def _first_date(named: dict[str, list[etree._Element]], names: tuple[str, ...]) -> str | None:
    for name in names:
        date = normalize_date(_text(named.get(name)))
        if date:
            return date
    return None


def _rss_item(item: etree._Element, document_url: str) -> FeedEntry | None:
    named = _by_name(item)
    # FeedBurner rewrites <link> to its redirector and keeps the article's URL here.
    candidates = named.get("origlink", []) + named.get("link", [])
    link_node = next((node for node in candidates if (node.text or "").strip()), None)
    link = link_node.text.strip() if link_node is not None and link_node.text else None
    if not link:
        # A permalink guid is the article URL when <link> is missing.
        for guid in named.get("guid", []):
            if guid.get("isPermaLink", "true").strip().lower() == "true" and guid.text:
                link, link_node = guid.text.strip(), guid
    if not link or link_node is None:
        return None
    url = join_url(xml_base(link_node, document_url), link)
    if url is None:
        return None
    return FeedEntry(
        url=url,
        title=feed_text(_text(named.get("title"))),
        date=_first_date(named, ("pubdate", "date", "published", "updated")),
        authors=_authors(named.get("author", []) + named.get("creator", [])),
    )


def _atom_entry(entry: etree._Element, document_url: str) -> FeedEntry | None:
    named = _by_name(entry)
    link = None
    base = document_url
    for node in named.get("origlink", []):
        if node.text and node.text.strip():
            link, base = node.text.strip(), xml_base(node, document_url)
            break
    if link is None:
        for node in named.get("link", []):
            rel = (node.get("rel") or "alternate").strip()
            kind = node.get("type") or "text/html"
            href = (node.get("href") or "").strip()
            if rel == "alternate" and "html" in kind and href:
                link, base = href, xml_base(node, document_url)
                break
    url = join_url(base, link) if link else None
    if url is None:
        return None
    names = [name for author in named.get("author", []) for name in children(author, "name")]
    return FeedEntry(
        url=url,
        title=feed_text(_text(named.get("title"))),
        date=_first_date(named, ("published", "updated", "issued", "modified")),
        authors=_authors(names),
    )
