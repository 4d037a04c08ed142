"""Authors: from JSON-LD, from meta tags, else from a byline marked up near the headline."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from itertools import islice
from typing import Any, Final

from lxml import etree

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.common.caching import MAX_KEY_CHARS
from newsspider.extraction.metadata.jsonld import json_text
from newsspider.extraction.metadata.text import MAX_FIELD_CHARS, field_text, text_pieces

__all__ = ["clean_authors", "find_authors"]

#: Elements examined around the headline for a byline.
_BYLINE_BUDGET: Final = 200
#: Text read from one byline candidate (a byline is kept under 120 characters), and elements
#: searched below a marked author for its itemprop=name.
_MAX_BYLINE_TEXT: Final = 240
_NAME_SEARCH: Final = 50
_AUTHOR_CLASS_RE: Final = re.compile(
    r"byline|author|writer|reporter|journalist|autor|作者|記者", re.I
)
# Its ASCII words for lower-cased ASCII values: there re.IGNORECASE folds only ASCII case and
# the CJK words cannot occur. Ignoring case, the engine tries every word at every character
# (20,000 instructions for a long Tailwind class value); plain words that start with a letter
# let it skip to the characters that can start one.
_AUTHOR_CLASS_ASCII_RE: Final = re.compile(r"byline|author|writer|reporter|journalist|autor")

_BY_PREFIX_RE: Final = re.compile(
    r"^\s*(?:by|from|von|par|por|di|door|av|автор[ы]?|текст|作者|文|记者|記者|编辑|責任編輯|"
    r"posted by|written by|words by|story by|reported by)\s*[:：|/]?\s*",
    re.IGNORECASE,
)
_AUTHOR_SPLIT_RE: Final = re.compile(
    r"\s*(?:,|;|&|\band\b|\bund\b|\bet\b|\by\b|\be\b|\bи\b|、|/)\s*"
)
_NOT_NAME_RE: Final = re.compile(r"https?:|www\.|@|\d|\.com\b|\.html", re.IGNORECASE)


def clean_authors(raw: Sequence[str]) -> tuple[str, ...]:
    names: list[str] = []
    seen: set[str] = set()
    for value in raw:
        text = field_text(value, MAX_FIELD_CHARS)
        if not text or (_NOT_NAME_RE.search(text) and text.startswith(("http", "www", "/"))):
            continue
        text = _BY_PREFIX_RE.sub("", text)
        for piece in _AUTHOR_SPLIT_RE.split(text):
            part = _BY_PREFIX_RE.sub("", piece).strip(" .:|-–—·•()[]")
            if not part or len(part) > 60 or _NOT_NAME_RE.search(part):
                continue
            if len(part.split()) > 5:
                continue
            key = part.casefold()
            if key not in seen:
                seen.add(key)
                names.append(part)
    return tuple(names[:10])


def find_authors(
    meta: Mapping[str, Sequence[str]],
    articles: Sequence[Mapping[str, Any]],
    headline: Any | None,
) -> tuple[str, ...]:
    for obj in articles[:2]:
        value = obj.get("author") or obj.get("creator")
        people = value if isinstance(value, list) else [value]
        found = clean_authors([t for t in (json_text(v) for v in people[:10]) if t])
        if found:
            return found
    for key in (
        "author", "article:author", "dc.creator", "dcterms.creator", "parsely-author",
        "sailthru.author", "byl", "citation_author", "twitter:creator",
    ):  # fmt: skip
        values: Sequence[str] = meta.get(key, ())
        if key == "twitter:creator":
            values = [v for v in values if not v.startswith("@")]
        found = clean_authors(values)
        if found:
            return found
    return _byline_authors(headline) if headline is not None else ()


#: `_author_class`'s answers: class values repeat within a page and from page to page. A plain
#: dict (the compiled byline search calls it for every element with a class: the generic cache
#: wrapper cost more than the lookup), with `short_key_cache`'s bounds: keys up to
#: `MAX_KEY_CHARS` characters, cleared when full.
_AUTHOR_CLASSES: Final[dict[str, bool]] = {}
_AUTHOR_CLASSES_MAX: Final = 2048


def _author_class(value: str) -> bool:
    known = _AUTHOR_CLASSES.get(value)
    if known is not None:
        return known
    if value.isascii():
        known = _AUTHOR_CLASS_ASCII_RE.search(value.lower()) is not None
    else:
        known = _AUTHOR_CLASS_RE.search(value) is not None
    if len(value) <= MAX_KEY_CHARS:
        if len(_AUTHOR_CLASSES) >= _AUTHOR_CLASSES_MAX:
            _AUTHOR_CLASSES.clear()
        _AUTHOR_CLASSES[value] = known
    return known


def _byline_candidates(container: Any) -> list[Any]:
    """Elements among the first `_BYLINE_BUDGET` that carry rel/itemprop author or an author
    class."""
    find = BYLINE_CANDIDATES.active
    if find is not None:
        return find(container, _BYLINE_BUDGET, _author_class)
    return _byline_candidates_python(container)


def _byline_candidates_python(container: Any, budget: int = _BYLINE_BUDGET) -> list[Any]:
    """`_byline_candidates` by lxml's iterator, the reference of the compiled search. One
    ``items()`` call per element is cheaper than three ``get()`` calls."""
    found: list[Any] = []
    for el in islice(container.iter(etree.Element), budget):
        for key, value in el.items():
            if (
                (key == "class" and _author_class(value))
                or (key == "rel" and value == "author")
                or (key == "itemprop" and value in ("author", "creator"))
            ):
                found.append(el)
                break
    return found


def _text_start(element: Any) -> str:
    """The first `_MAX_BYLINE_TEXT` characters or so of ``element``'s text."""
    return " ".join(text_pieces(element, _MAX_BYLINE_TEXT))


def _byline_authors(headline: Any) -> tuple[str, ...]:
    """Authors marked up near the headline: rel=author, itemprop=author, a byline class.

    Looking only around the headline keeps this cheap and away from comment authors.
    """
    container = headline
    for _ in range(3):
        parent = container.getparent()
        if parent is None or parent.tag in ("body", "html"):
            break
        container = parent
    marked: list[str] = []
    bylines: list[str] = []
    for el in _byline_candidates(container):
        if el.get("rel") == "author" or el.get("itemprop") in ("author", "creator"):
            name = next(
                (
                    node
                    for node in islice(el.iter(etree.Element), _NAME_SEARCH)
                    if node.get("itemprop") == "name"
                ),
                None,
            )
            source = name if name is not None else el
            marked.append(el.get("content") or _text_start(source))
        elif _AUTHOR_CLASS_RE.search(el.get("class") or ""):
            text = field_text(_text_start(el), MAX_FIELD_CHARS)
            # A byline block may also hold the date; keep only explicit "By ..." texts.
            if len(text) < 120 and _BY_PREFIX_RE.match(text):
                bylines.append(text)
    return clean_authors(marked) or clean_authors(bylines)


# The search in C (`_page_scan_c.byline_candidates`), built at install time with a compiler:
# the same elements without a proxy and an items() list per element visited.
try:
    from newsspider.extraction.metadata import _page_scan_c
except ImportError:  # not built: the Python search
    _page_scan_c = None  # type: ignore[assignment]
BYLINE_CANDIDATES: Final[CompiledTwin[Callable[[Any, int, Callable[[str], bool]], list[Any]]]] = (
    CompiledTwin(_page_scan_c.byline_candidates if _page_scan_c is not None else None)
)
