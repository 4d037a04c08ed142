"""The crawler rendering of a script-shell page: the content some sites put in ``<noscript>``.

Cleaning drops ``<noscript>`` (on most pages it holds a tracking pixel or "enable JavaScript").
Some forum and community software (Discourse and the like) ships a page whose visible part is an
empty script shell and renders the whole thread inside ``<noscript>`` for crawlers and readers
without scripts. When the visible page has almost no prose and the page carries ``<noscript>``,
the page is parsed again with ``<noscript>`` unwrapped, and used when that adds many times the
visible prose. Only near-empty pages pay for the second parse.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from lxml import etree

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.page.cleaning import clean_tree
from newsspider.extraction.page.page_model import PageSegments
from newsspider.extraction.page.segments import segment_page
from newsspider.extraction.parse.parsing import parse_html

#: A visible page with at least this much prose (non-link characters) is not a script shell.
SHELL_MAX_PROSE: Final = 1000
#: The unwrapped page replaces the visible one when it holds this many times its prose ...
SHELL_FACTOR: Final = 10
#: ... and at least this much: a rendering of content, not the "You need to enable JavaScript
#: to run this app" notice (46 and 114 characters on the development pages; the shortest real
#: rendering there, a forum thread, holds 1,805).
SHELL_MIN_PROSE: Final = 250
_MARKERS: Final = ("<noscript", "<NOSCRIPT")
#: The page's bytes are kept for a second parse only up to this size: extraction otherwise
#: releases them before it starts (memory per MB of input), and script shells are small.
KEEP_SOURCE_MAX: Final = 2 * 1024 * 1024


def source_for_rendering(data: bytes) -> bytes | None:
    """``data`` when a later `crawler_rendering` could use it (it has ``<noscript>`` and is
    small enough to keep alive), else None."""
    return data if len(data) <= KEEP_SOURCE_MAX and _has_noscript(data) else None


def _has_noscript(source: str | bytes) -> bool:
    if isinstance(source, bytes):
        compiled = NOSCRIPT_MARKER.active
        if compiled is not None:
            return compiled(source)
        return any(marker.encode() in source for marker in _MARKERS)
    return any(marker in source for marker in _MARKERS)


# The bytes test in C (`_markup_c.has_noscript_marker`, built at install time): one vector pass
# where the `in` tests search the page once per marker (6 M a 30-page run, every page pays).
try:
    from newsspider.extraction.parse import _markup_c
except ImportError:  # not built: the `in` tests
    _markup_c = None  # type: ignore[assignment]
NOSCRIPT_MARKER: Final[CompiledTwin[Callable[[bytes], bool]]] = CompiledTwin(
    _markup_c.has_noscript_marker if _markup_c is not None else None
)


def crawler_rendering(
    source: str | bytes, visible: PageSegments, url: str | None = None
) -> PageSegments | None:
    """The page with its ``<noscript>`` content, when the visible page is a script shell
    around it; else None (keep the visible page)."""
    visible_prose = visible.prose[0] if visible.prose else 0
    if visible_prose >= SHELL_MAX_PROSE or not _has_noscript(source):
        return None
    root = parse_html(source)
    if root is None:
        return None
    etree.strip_tags(root, "noscript")  # keep the content, drop the wrapper
    clean_tree(root)
    revealed = segment_page(root, url)
    revealed_prose = revealed.prose[0] if revealed.prose else 0
    if revealed_prose >= max(SHELL_MIN_PROSE, SHELL_FACTOR * visible_prose):
        return revealed
    return None
