"""Is this input a page at all? Known binary signatures, control-character noise, and text
formats that are data, not a page (JSON, feeds, sitemaps).

A crawl receives images, archives, compressed bodies a server forgot to label and truncated
downloads; parsed as HTML they become a "body" of noise. This module is the one place that
knows what binary looks like: the extractor's gate (`newsspider.extraction.api`) and the
content filter (`content_score`) both ask it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from newsspider.core_loader import CompiledTwin

#: Leading bytes of formats that are never a web page, with the name used in warning tokens.
#: Only signatures of four bytes or more, or ones whose bytes cannot start a text page (a C0
#: control or a byte invalid at the start of UTF-8), so a page beginning with "BM" or "MZ" in
#: its text is not mistaken for a bitmap or an executable.
SIGNATURES: Final[tuple[tuple[bytes, str], ...]] = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bz2"),  # and a block size digit and the block magic: checked below
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"7z\xbc\xaf\x27\x1c", "7z"),
    (b"Rar!\x1a\x07", "rar"),
    (b"PK\x03\x04", "zip"),
    (b"PK\x05\x06", "zip"),
    (b"PK\x07\x08", "zip"),
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
    (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"),
    (b"\x00\x00\x01\x00", "ico"),
    (b"%PDF-", "pdf"),
    (b"\x7fELF", "elf"),
    (b"\xca\xfe\xba\xbe", "mach-o"),
    (b"\xcf\xfa\xed\xfe", "mach-o"),
    (b"\x00asm", "wasm"),
    (b"wOFF", "woff"),
    (b"wOF2", "woff2"),
    (b"OggS", "ogg"),
    (b"fLaC", "flac"),
    (b"ID3\x02", "mp3"),
    (b"ID3\x03", "mp3"),
    (b"ID3\x04", "mp3"),
    (b"SQLite format 3\x00", "sqlite"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "ole"),  # old Office documents
)
_BZ2_BLOCK: Final = re.compile(rb"BZh[1-9]1AY&SY", re.DOTALL)
#: zlib streams (deflate with a header) start with 0x78 and a check byte; 0x78 then a byte that
#: cannot follow "x" in UTF-8 text.
_ZLIB_STARTS: Final = (b"x\x01", b"x\x5e", b"x\x9c", b"x\xda")
#: Characters no text page contains in bulk: C0 controls other than whitespace (ESC stays: it
#: switches the ISO-2022 Japanese encodings), DEL, C1 controls and the replacement character.
_NOT_TEXT_RUN: Final = re.compile("[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f-\x9f\ufffd]+")
# Its complement from the start: one match runs through a clean sample in a tight loop, where
# a search for the runs pays per position (a tenth of the cost on a page's 4 kB sample).
_TEXT_PREFIX: Final = re.compile("[^\x00-\x08\x0e-\x1a\x1c-\x1f\x7f-\x9f\ufffd]*")


def _noise_runs(text: str) -> tuple[int, int]:
    """(runs of `_NOT_TEXT_RUN`'s characters in ``text``, those characters)."""
    clean = _TEXT_PREFIX.match(text)
    if clean is not None and clean.end() == len(text):
        return 0, 0  # no run at all
    runs = _NOT_TEXT_RUN.findall(text)
    return len(runs), sum(map(len, runs))


# The same counts in C (`_utf8_c.noise_runs`, built at install time): a table lookup a
# character where the regular expressions spend about sixty instructions (5 M a 30-page run).
try:
    from newsspider.extraction.parse import _utf8_c
except ImportError:  # not built: the regular expressions
    _utf8_c = None  # type: ignore[assignment]
NOISE_RUNS: Final[CompiledTwin[Callable[[str], tuple[int, int]]]] = CompiledTwin(
    _utf8_c.noise_runs if _utf8_c is not None else None
)
#: How much of the decoded text is looked at: this many characters at the start (where a
#: server's mistake shows) and as many from the middle (a text head before binary). Noise is
#: uniform, so a few kilobytes tell; more would cost a regex scan of the whole page.
TEXT_SAMPLE: Final = 2048
#: Noise is spread out, damage to a text page comes in clumps (a run of NUL bytes, a broken
#: multi-byte character): the input is not text when runs of such characters start at more than
#: this share of the sample's positions. Random bytes give 10% decoded in a single-byte
#: encoding, 26% as UTF-8; text pages next to none.
NOT_TEXT_RUNS: Final = 0.04
#: ... or when such characters are most of the sample (a file of NUL bytes is one long run).
NOT_TEXT_CHARS: Final = 0.5


def binary_signature(data: bytes) -> str | None:
    """The name of the binary format `data` starts with, or None."""
    head = data[:16]
    for signature, name in SIGNATURES:
        if head.startswith(signature):
            if name == "bz2" and _BZ2_BLOCK.match(head) is None:
                continue
            return name
    # Containers whose format name sits after a size field: RIFF (WebP, WAV, AVI) and ISO base
    # media (MP4, MOV, HEIC, AVIF: "ftyp" at byte 4).
    if head.startswith(b"RIFF") and head[8:12] in (b"WEBP", b"WAVE", b"AVI "):
        return head[8:12].decode("ascii").strip().lower()
    if head[4:8] == b"ftyp":
        return "mp4"
    if head.startswith(_ZLIB_STARTS):
        return "zlib"
    return None


def mostly_not_text(text: str) -> bool:
    """Whether the decoded text (its start and middle) is noise: control or replacement characters
    spread through it (random bytes, compressed data without a known signature), or most of it."""
    middle = max(TEXT_SAMPLE, len(text) // 2)
    sample = text[:TEXT_SAMPLE] + "\n" + text[middle : middle + TEXT_SAMPLE]
    if len(sample) == 1:
        return False
    runs, chars = (NOISE_RUNS.active or _noise_runs)(sample)
    return runs > NOT_TEXT_RUNS * len(sample) or chars > NOT_TEXT_CHARS * len(sample)


# A JSON document: an object with a key (or empty), or an array of values. HTML never starts
# with a brace or a bracket; a text that does and goes on like JSON is data.
_JSON_START: Final = re.compile(r'[\ufeff\s]*(?:\{\s*["}]|\[\s*[\[{"\]\d\-tfn])')
#: Root elements (local names, lower-cased) of the XML data formats that are not pages; the
#: feed and sitemap readers (`newsspider.spiders`) accept the same ones.
FEED_ROOTS: Final = ("rss", "feed", "rdf")
SITEMAP_ROOTS: Final = ("urlset", "sitemapindex")
# A feed or a sitemap: the document element, after an XML declaration, processing
# instructions (a feed's stylesheet), comments and a doctype (RSS 0.91's).
_XML_DATA_START: Final = re.compile(
    r"[\ufeff\s]*(?:<\?xml[^>]{0,500}>\s*)?"
    r"(?:(?:<\?[^>]{0,500}>|<!--.{0,2000}?-->|<!DOCTYPE[^>]{0,500}>)\s*){0,10}"
    r"<(?:[A-Za-z]+:)?((?i:" + "|".join((*FEED_ROOTS, *SITEMAP_ROOTS)) + r"))\b",
    re.DOTALL,
)


def data_format(text: str) -> str | None:
    """ "json", "feed" or "sitemap" when the text (its start is enough) is one of those data
    formats rather than a page, else None. The feed and sitemap parsers read those; as a page
    an RSS feed came out as an "article" at confidence 0.8."""
    if _JSON_START.match(text, 0, 64):
        return "json"
    found = _XML_DATA_START.match(text, 0, 4096)
    if found is None:
        return None
    return "feed" if found.group(1).lower() in FEED_ROOTS else "sitemap"
