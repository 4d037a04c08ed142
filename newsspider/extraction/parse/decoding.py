"""Bytes to text, the way a careful browser would do it.

Order: byte-order mark; a UTF-16/32 label from the caller when the bytes carry its NULs; valid
UTF-8 (a page that decodes as UTF-8 is UTF-8 whatever its label
says: mislabelled UTF-8 is far more common than text that happens to be valid UTF-8); the
caller's encoding (the HTTP header); the page's own ``<meta charset>``; statistical detection.
A declared encoding is only believed when the bytes agree with it, so a wrong label falls through
to the next source instead of producing mojibake.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from typing import Final

from w3lib.encoding import html_body_declared_encoding, read_bom, resolve_encoding

from newsspider.core_loader import CompiledTwin

# Multi-byte encodings whose decoders reject foreign bytes, so a strict decode is a real test.
_MULTIBYTE: Final = frozenset(
    {"gb18030", "big5hkscs", "big5", "shift_jis", "cp932", "euc_jp", "euc_kr", "cp949"}
)
# Single-byte Latin encodings that decode anything, so they need a plausibility check instead.
_LATIN_SINGLE_BYTE: Final = frozenset({"cp1252", "latin_1", "iso8859_15", "cp1250", "iso8859_2"})
_DETECT_SAMPLE: Final = 256 * 1024
# UTF-16/32 without a BOM: the sample in which the NUL bytes of ASCII markup must show.
_WIDE_SAMPLE: Final = 4096
_WIDE_CODECS: Final = frozenset(
    {"utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"}
)
# Least share of code units with their NULs where ASCII characters put them (markup, spaces,
# digits and punctuation give far more, even in Cyrillic or CJK text); other bytes have none.
_WIDE_MIN_SHARE: Final = 0.05
# "[^<>]", not "[^>]": with "<" * N and no ">" each "<" would scan to the end (quadratic).
_TAGS: Final = re.compile(rb"<[^<>]*>")
_NON_ASCII_LETTER_RUN: Final = re.compile(r"[À-ÿ]{3,}")
_UTF8_SLICE: Final = 256 * 1024
# Python's codecs for its own string literals: they read a page's backslashes as escapes (and
# warn about each one they do not know). No browser knows them; a page or a server naming one
# gets the evidence of its bytes instead.
_SOURCE_LITERAL_CODECS: Final = frozenset({"unicode-escape", "raw-unicode-escape"})


class DecodedPage:
    """A decoded page. When the bytes already were UTF-8 (or ASCII) ``utf8`` holds them and
    `text` is decoded only when asked for: extraction parses the UTF-8 and never needs the whole
    page as a str (up to four bytes per character, the largest copy of a page)."""

    __slots__ = ("_text", "encoding", "source", "utf8")

    def __init__(self, text: str | None, encoding: str, utf8: bytes | None, source: str) -> None:
        if text is None and utf8 is None:
            raise ValueError("a DecodedPage needs its text or its UTF-8 bytes")
        self._text = text
        self.encoding = encoding
        #: The page as UTF-8 bytes when it already was UTF-8 (saves a re-encode before parsing).
        self.utf8 = utf8
        #: Where the encoding came from: "bom", "utf-8", "declared", "meta", "detected",
        #: "fallback".
        self.source = source

    @property
    def text(self) -> str:
        if self._text is None:
            assert self.utf8 is not None
            self._text = self.utf8.decode("utf-8")
        return self._text

    def sample(self, size: int) -> str:
        """The first ``size`` characters and ``size`` from the middle on (what
        `binary.mostly_not_text` reads), without decoding the rest of a UTF-8 page."""
        if self._text is not None or self.utf8 is None:
            text = self.text
            middle = max(size, len(text) // 2)
            return text[:size] + text[middle : middle + size]
        data = self.utf8
        # Characters take one to four bytes: 4 * size bytes hold at least ``size`` of them.
        head = data[: 4 * size].decode("utf-8", "ignore")[:size]
        middle = max(4 * size, len(data) // 2)
        mid = data[middle : middle + 4 * size].decode("utf-8", "ignore")
        return head + mid[1 : size + 1] if mid else head  # [1:]: maybe half a character

    def __repr__(self) -> str:
        return f"DecodedPage(encoding={self.encoding!r}, source={self.source!r})"


def _codec_name(label: str | None) -> str | None:
    """Normalise a label with w3lib's browser-compatible mapping (gb2312→gb18030, …)."""
    if not label:
        return None
    resolved = resolve_encoding(label)
    if resolved is None:
        return None
    try:
        name = codecs.lookup(resolved).name
        # A label (from the page itself) can name a codec that cannot decode a page: bytes-to-
        # bytes codecs (base64, zlib, rot13), "undefined", idna/punycode (no errors="replace").
        b"<p>\xe4\xff</p>".decode(name, errors="replace")
    except (LookupError, UnicodeError):
        return None
    return None if name in _SOURCE_LITERAL_CODECS else name


def _strict_decode(data: bytes, codec: str) -> str | None:
    try:
        return data.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return None


def _utf8_bytes(data: bytes) -> bytes | None:
    """``data`` if it is UTF-8, allowing a last character cut short (a size-capped download or
    a `max_bytes` cut ends mid-character: then ``data`` without it); None if it is not UTF-8.
    Validated without keeping text (a whole page as a str is the largest copy an extraction
    would make): by `_utf8_c` when it is built, else decoded a slice at a time."""
    compiled_length = UTF8_LENGTH.active
    if compiled_length is not None:
        length = compiled_length(data)
        if length < 0:
            return None
        return data if length == len(data) else data[:length]
    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    try:
        for start in range(0, len(data), _UTF8_SLICE):
            decoder.decode(view[start : start + _UTF8_SLICE])
    except UnicodeDecodeError:
        return None
    pending = decoder.getstate()[0]  # the start of a character cut short, held back
    return data[: len(data) - len(pending)] if pending else data


# The compiled validation (`_utf8_c`), built with the compiled walk; off, the decoder above.
try:
    from newsspider.extraction.parse import _utf8_c
except ImportError:  # not built: the pure-Python path
    _utf8_c = None  # type: ignore[assignment]
UTF8_LENGTH: Final[CompiledTwin[Callable[[bytes], int]]] = CompiledTwin(
    _utf8_c.complete_utf8_length if _utf8_c is not None else None
)
#: Whether the compiled validation can run here.
COMPILED_UTF8_AVAILABLE: Final = UTF8_LENGTH.available


def _looks_like_mojibake(text: str) -> bool:
    """Cyrillic or CJK bytes read as Latin-1 give long runs of accented letters."""
    runs = _NON_ASCII_LETTER_RUN.findall(text, 0, 200_000)
    return sum(map(len, runs)) > 200


def _zero_share(units: bytes) -> float:
    return units.count(0) / len(units) if units else 0.0


def _wide_codec(data: bytes, codec: str) -> str | None:
    """The UTF-16/32 codec (with its byte order) that ``data`` really is, or None.

    Almost any even-length bytes decode as UTF-16, so a decode proves nothing: a label is only
    believed when NUL bytes sit where the encoding puts them for ASCII characters (the page's
    markup), and not in the other places (a run of NULs is no evidence)."""
    sample = data[:_WIDE_SAMPLE]
    if codec.startswith("utf-32"):
        sample = sample[: len(sample) - len(sample) % 4]
        # Every code point fits 21 bits: the top byte of each unit is NUL, whatever the text.
        little = not sample[3::4].strip(b"\x00") and _zero_share(sample[2::4]) >= _WIDE_MIN_SHARE
        big = not sample[0::4].strip(b"\x00") and _zero_share(sample[1::4]) >= _WIDE_MIN_SHARE
        orders = {"utf-32-le": little, "utf-32-be": big, "utf-32": little or big}
        if not sample or not orders[codec]:
            return None
        return "utf-32-le" if little and codec != "utf-32-be" else "utf-32-be"
    sample = sample[: len(sample) - len(sample) % 2]
    odd, even = _zero_share(sample[1::2]), _zero_share(sample[0::2])
    little = odd >= _WIDE_MIN_SHARE and even < odd / 4
    big = even >= _WIDE_MIN_SHARE and odd < even / 4
    if codec == "utf-16-le":
        return codec if little else None
    if codec == "utf-16-be":
        return codec if big else None
    return "utf-16-le" if little else "utf-16-be" if big else None


def _believe(data: bytes, codec: str) -> str | None:
    """Decode with a declared codec if the bytes are consistent with it, else None."""
    if codec in ("utf-8", "ascii") or codec in _WIDE_CODECS:
        return None  # already tried before any declaration (`_declared_wide`)
    if codec in _MULTIBYTE:
        strict = _strict_decode(data, codec)
        if strict is not None:
            return strict
        # Real pages often carry a few broken bytes; accept if they are rare.
        lenient = data.decode(codec, errors="replace")
        return lenient if lenient.count("\ufffd") <= max(8, len(lenient) // 2000) else None
    text = data.decode(codec, errors="replace")
    if codec in _LATIN_SINGLE_BYTE and _looks_like_mojibake(text):
        return None
    return text


def _detect(data: bytes) -> str | None:
    from charset_normalizer import from_bytes

    # Markup is ASCII and drowns the signal; the detector only needs the text.
    sample = _TAGS.sub(b" ", data[:_DETECT_SAMPLE])
    best = from_bytes(sample).best()
    return _codec_name(best.encoding) if best is not None else None


def decode_html(data: bytes, encoding: str | None = None) -> DecodedPage:
    """Decode a page's bytes. Never raises; undecodable bytes become U+FFFD."""
    bom_encoding, bom = read_bom(data)
    if bom_encoding and bom:
        bom_codec = _codec_name(bom_encoding) or "utf-8"
        text = data[len(bom) :].decode(bom_codec, errors="replace")
        return DecodedPage(text, bom_codec, None, "bom")

    declared = _codec_name(encoding)
    if declared in _WIDE_CODECS:
        # Before the UTF-8 test: UTF-16 of ASCII text is valid UTF-8 (with NULs).
        wide = _wide_codec(data, declared)
        if wide is not None:
            return DecodedPage(data.decode(wide, errors="replace"), wide, None, "declared")
        declared = None  # a UTF-16/32 label on bytes that are not: no evidence at all
    if data.isascii():
        return DecodedPage(None, declared or "utf-8", data, "utf-8")
    utf8 = _utf8_bytes(data)
    if utf8 is not None:
        return DecodedPage(None, "utf-8", utf8, "utf-8")

    declarations: tuple[tuple[str | None, str], ...] = (
        (declared, "declared"),
        (html_body_declared_encoding(data), "meta"),
    )
    for label, source in declarations:
        codec = _codec_name(label)
        if codec is None:
            continue
        believed = _believe(data, codec)
        if believed is not None:
            return DecodedPage(believed, codec, None, source)

    detected = _detect(data)
    if detected is not None:
        return DecodedPage(data.decode(detected, errors="replace"), detected, None, "detected")
    return DecodedPage(data.decode("utf-8", errors="replace"), "utf-8", None, "fallback")


def usable_encoding(body: bytes, encoding: str | None) -> str | None:
    """`encoding` if `body` decodes with it, else None (let the extractor sniff)."""
    if encoding is None:
        return None
    try:
        body.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None
    return encoding
