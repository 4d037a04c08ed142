"""One pass over the tags that carry page metadata: ``<meta>``, ``<link>``, JSON-LD scripts,
``<time>``, ``<h1>`` and ``<title>``.

Kept apart from what the values mean (`metadata`, `jsonld`, `authors`): the scan is the only part
that walks the tree, so it is the part to keep cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.metadata.title import element_text

__all__ = ["COMPILED_SCAN_AVAILABLE", "SCAN", "PageScan", "scan_page", "scan_page_python"]

_SCAN_TAGS: Final = ("meta", "link", "script", "time", "h1", "title")
_META_KEY_ATTRS: Final = ("property", "name", "itemprop", "http-equiv")
#: The only ``<link rel>`` values read.
_LINK_RELS: Final = frozenset({"canonical", "image_src"})


@dataclass(slots=True)
class PageScan:
    """What one pass over the interesting tags found."""

    meta: dict[str, list[str]] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)
    jsonld: list[str] = field(default_factory=list)
    times: list[Any] = field(default_factory=list)
    h1s: list[Any] = field(default_factory=list)
    title: str = ""


def scan_page(root: Any) -> PageScan:
    """meta (lower-cased name/property/itemprop/http-equiv to values), links, JSON-LD texts,
    ``<time>``, ``<h1>`` and ``<title>``, in one walk of the tree."""
    scan = SCAN.active
    if scan is not None:
        meta, links, jsonld, times, h1s, title = scan(root, element_text)
        return PageScan(meta, links, jsonld, times, h1s, title)
    return scan_page_python(root)


def scan_page_python(root: Any) -> PageScan:
    """`scan_page` by lxml's iterator: the reference the compiled scan (`_page_scan_c`) mirrors."""
    found = PageScan()
    for el in root.iter(*_SCAN_TAGS):
        tag = el.tag
        if tag == "meta":
            # One items() call instead of up to seven get() calls, each a C-level attribute search.
            get = dict(el.items()).get
            content = get("content") or get("value") or get("datetime")
            if not content:
                continue
            content = content.strip()
            if not content:
                continue
            for attr in _META_KEY_ATTRS:
                key = get(attr)
                if key:
                    # One element may carry several space-separated properties.
                    for k in key.lower().split():
                        meta_values = found.meta.get(k)
                        if meta_values is None:
                            found.meta[k] = [content]
                        else:
                            meta_values.append(content)
        elif tag == "script":
            kind = el.get("type")
            if kind and kind.strip().lower() == "application/ld+json":
                text = el.text
                if text:
                    found.jsonld.append(text)
        elif tag == "link":
            href = el.get("href")
            if href:
                for rel in (el.get("rel") or "").lower().split():
                    if rel in _LINK_RELS and rel not in found.links:
                        found.links[rel] = href
        elif tag == "time":
            if len(found.times) < 40:
                found.times.append(el)
        elif tag == "h1":
            if len(found.h1s) < 5:
                found.h1s.append(el)
        elif not found.title:
            found.title = element_text(el)
    return found


# The scan in C (`_page_scan_c.scan`), built at install time with a compiler: the same PageScan
# without an lxml proxy and attribute calls per <meta>, <link> and <script> (a fifth the cost).
try:
    from newsspider.extraction.metadata import _page_scan_c
except ImportError:  # not built: the Python scan
    _page_scan_c = None  # type: ignore[assignment]
_Scan = Callable[
    [Any, Callable[[Any], str]],
    tuple[dict[str, list[str]], dict[str, str], list[str], list[Any], list[Any], str],
]
SCAN: Final[CompiledTwin[_Scan]] = CompiledTwin(
    _page_scan_c.scan if _page_scan_c is not None else None
)
#: Whether the compiled scan can run here.
COMPILED_SCAN_AVAILABLE: Final = SCAN.available
