"""Metadata values as plain text: the one cleaner every metadata reader uses."""

from __future__ import annotations

import html
import re
from typing import Any, Final

#: Every metadata value is cut to this many characters: titles, names and descriptions alike
#: (`field_text`).
MAX_FIELD_CHARS: Final = 400

# Invisible characters that only break comparisons: zero-width space, word joiner, BOM, soft
# hyphen, direction marks. ZWJ/ZWNJ stay: they shape Persian, Indic scripts and emoji.
_INVISIBLE_RE: Final = re.compile("[\u200b\u2060\ufeff\u00ad\u200e\u200f]")
# An entity left escaped once too often by a template ("SF&#x27;s", "&amp;"): real titles do
# not spell entities, so decoding them is safe. A semicolon is required ("AT&T" stays).
_ENTITY_RE: Final = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});")


def field_text(text: str | None, max_chars: int) -> str:
    """A metadata value (a title, a name, a description, a JSON-LD string) as plain text:
    entities left escaped once too often decoded, invisible characters removed, whitespace
    collapsed, cut to ``max_chars`` characters (the readers pass `MAX_FIELD_CHARS`); "" for
    None."""
    if not text:
        return ""
    if "&" in text:
        text = _ENTITY_RE.sub(_unescape, text)
    if not text.isascii():  # the invisible characters are not ASCII: most texts skip the search
        text = _INVISIBLE_RE.sub("", text)
    return " ".join(text.split())[:max_chars]


def _unescape(match: re.Match[str]) -> str:
    return html.unescape(match.group())


def text_pieces(element: Any, limit: int) -> list[str]:
    """``element``'s text pieces in order until they pass ``limit`` characters: a byline or a
    breadcrumb is short, and candidates can nest, each holding the rest of the page (found by
    fuzzing: 200 nested author classes read a 200 kB page 200 times)."""
    pieces: list[str] = []
    total = 0
    for piece in element.itertext():
        if isinstance(piece, str):
            pieces.append(piece)
            total += len(piece)
            if total > limit:
                break
    return pieces
