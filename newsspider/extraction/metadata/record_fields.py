"""Record fields read from what the page says about itself, beside the core ones: tags, the
section, authors' profile pages and the paywall flag.

All from structured data first (Open Graph ``article:*``, JSON-LD ``keywords``,
``articleSection``, ``BreadcrumbList``, ``author.url``, ``isAccessibleForFree``), then from
markup that says what it is (microdata/aria breadcrumbs, ``rel=author`` links). Every reader is
bounded (pages can be hostile) and returns "nothing" rather than raising.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import islice
from typing import Any, Final

from lxml import etree

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.common.urls import join_url, split_url
from newsspider.extraction.metadata.authors import _byline_candidates
from newsspider.extraction.metadata.jsonld import schema_types
from newsspider.extraction.metadata.text import MAX_FIELD_CHARS, field_text, text_pieces

__all__ = [
    "MAX_TAGS",
    "author_profiles",
    "breadcrumb_trail",
    "byline_links",
    "paywalled",
    "read_section",
    "read_tags",
]

#: Tags kept at most, and the longest tag (longer is a sentence, not a tag).
MAX_TAGS: Final = 50
_MAX_TAG_CHARS: Final = 100
_MAX_SECTION_CHARS: Final = 200
_MAX_URL_CHARS: Final = 500
#: Breadcrumb entries read at most; elements searched below a breadcrumb container.
_MAX_CRUMBS: Final = 12
_CRUMB_ELEMENTS: Final = 200
_TAG_SPLIT_RE: Final = re.compile(r"\s*[,;，、；|]\s*")

#: Elements examined around the headline for breadcrumb markup (a whole-tree search cost half a
#: parse: breadcrumbs sit just above the headline, in it or in its ancestors' earlier siblings).
_BREADCRUMB_BUDGET: Final = 300
_BREADCRUMB_LEVELS: Final = 4
_BREADCRUMB_SIBLINGS: Final = 6


def _text(element: Any, limit: int) -> str:
    """About the first ``limit`` characters of the element's text."""
    return "".join(text_pieces(element, limit))[:limit]


def _strings(value: Any, limit: int = MAX_TAGS) -> list[str]:
    """Strings from a JSON-LD value: a string, a list of strings, or objects with a name."""
    values = value if isinstance(value, list) else [value]
    out: list[str] = []
    for item in values[: limit * 2]:
        text = item.get("name") if isinstance(item, dict) else item
        if isinstance(text, str):
            out.append(text)
    return out


def _add_tags(found: list[str], seen: set[str], values: Iterable[str]) -> None:
    for value in values:
        for piece in _TAG_SPLIT_RE.split(value[: 20 * _MAX_TAG_CHARS]):
            tag = field_text(piece, MAX_FIELD_CHARS).strip(" #")
            key = tag.casefold()
            if tag and len(tag) <= _MAX_TAG_CHARS and key not in seen and len(found) < MAX_TAGS:
                seen.add(key)
                found.append(tag)


def read_tags(
    meta: Mapping[str, Sequence[str]], articles: Sequence[Mapping[str, Any]]
) -> tuple[str, ...]:
    """The article's tags: ``article:tag`` and JSON-LD ``keywords``; without them
    ``news_keywords``, then the ``keywords`` meta tag (often a site-wide list)."""
    found: list[str] = []
    seen: set[str] = set()
    _add_tags(found, seen, meta.get("article:tag", ())[: MAX_TAGS * 2])
    for obj in articles[:1]:
        _add_tags(found, seen, _strings(obj.get("keywords")))
    for key in ("news_keywords", "keywords"):
        if not found:
            _add_tags(found, seen, meta.get(key, ())[:2])
    return tuple(found)


def _path(url: str | None) -> str | None:
    parts = split_url(url) if url else None
    return parts.path if parts is not None else None


def _crumbs_from_jsonld(objects: Sequence[Mapping[str, Any]]) -> list[tuple[str, str | None]]:
    for obj in objects:
        if "BreadcrumbList" not in schema_types(obj):
            continue
        elements = obj.get("itemListElement")
        if not isinstance(elements, list):
            continue
        ranked: list[tuple[float, int, str, str | None]] = []
        for i, element in enumerate(elements[:_MAX_CRUMBS]):
            if not isinstance(element, dict):
                continue
            item = element.get("item")
            name = element.get("name")
            url: Any = None
            if isinstance(item, dict):
                name = name or item.get("name")
                url = item.get("@id") or item.get("url")
            elif isinstance(item, str):
                url = item
            position = element.get("position")
            try:
                rank = float(position) if position is not None else float(i)
            except (TypeError, ValueError):
                rank = float(i)
            if isinstance(name, str) and field_text(name, MAX_FIELD_CHARS):
                ranked.append(
                    (
                        rank,
                        i,
                        field_text(name, MAX_FIELD_CHARS),
                        url if isinstance(url, str) else None,
                    )
                )
        if ranked:
            return [(name, url) for _, _, name, url in sorted(ranked)]
    return []


def _is_breadcrumb(el: Any) -> bool:
    cls = el.get("class")
    if cls is not None and "breadcrumb" in cls.lower():
        return True
    label = el.get("aria-label")
    if label is not None and "breadcrumb" in label.lower():
        return True
    kind = el.get("itemtype")
    return kind is not None and kind.endswith("BreadcrumbList")


# The search in C (`_page_scan_c.first_breadcrumb`), built at install time with a compiler: no
# element proxy and three get() calls for each of up to 300 elements, a proxy only for the one
# found (tests/test_compiled_scan.py compares it with `_first_breadcrumb_python`).
try:
    from newsspider.extraction.metadata import _page_scan_c
except ImportError:  # not built: the Python search
    _page_scan_c = None  # type: ignore[assignment]
FIRST_BREADCRUMB: Final[CompiledTwin[Callable[[Any, int], tuple[Any | None, int]]]] = CompiledTwin(
    _page_scan_c.first_breadcrumb if _page_scan_c is not None else None
)


def _first_breadcrumb_python(top: Any, budget: int) -> tuple[Any | None, int]:
    """(the first element among the first `budget` of ``top.iter(etree.Element)`` that
    `_is_breadcrumb` accepts, or None; how many elements were looked at): the reference of the
    compiled search (`_page_scan_c.first_breadcrumb`)."""
    seen = 0
    for el in islice(top.iter(etree.Element), budget):
        seen += 1
        if _is_breadcrumb(el):
            return el, seen
    return None, seen


def _breadcrumb_near(headline: Any) -> Any | None:
    """The breadcrumb element above the headline: in its ancestors' earlier siblings (nearest
    first), at most `_BREADCRUMB_BUDGET` elements examined."""
    first = FIRST_BREADCRUMB.active or _first_breadcrumb_python
    budget = _BREADCRUMB_BUDGET
    node = headline
    for _ in range(_BREADCRUMB_LEVELS):
        sibling = node.getprevious()
        for _ in range(_BREADCRUMB_SIBLINGS):
            if sibling is None or budget <= 0:
                break
            found, seen = first(sibling, budget)
            if found is not None:
                return found
            budget -= seen
            sibling = sibling.getprevious()
        node = node.getparent()
        if node is None or node.tag in ("body", "html") or budget <= 0:
            break
    return None


def breadcrumb_trail(headline: Any, base: str | None) -> list[tuple[str, str | None]]:
    """The breadcrumb links above the headline (microdata ``BreadcrumbList``, an element
    labelled or classed breadcrumb): (text, absolute href or None), in order."""
    container = _breadcrumb_near(headline) if headline is not None else None
    if container is None:
        return []
    crumbs: list[tuple[str, str | None]] = []
    for el in islice(container.iter("a", "span", "li"), _CRUMB_ELEMENTS):
        if el.tag != "a" and (el.get("itemprop") != "name" or el.getparent().tag == "a"):
            continue
        text = field_text(_text(el, _MAX_SECTION_CHARS), MAX_FIELD_CHARS)
        if not text:
            continue
        href = el.get("href") if el.tag == "a" else None
        crumbs.append((text, join_url(base, href) if base and href else href))
        if len(crumbs) >= _MAX_CRUMBS:
            break
    return crumbs if len(crumbs) >= 2 else []  # a trail; one "back to ..." link is not one


def _section_from_crumbs(
    crumbs: Sequence[tuple[str, str | None]], title: str | None, page_urls: Sequence[str | None]
) -> str | None:
    """The last crumb above the page itself: the site's home (a link to ``/``) and the page's own
    entry (its URL or its title; an unlinked last crumb) are not sections."""
    own_paths = {_path(u) for u in page_urls if u}
    title_key = _name_key(title or "")
    kept: list[tuple[str, str | None]] = []
    for name, url in crumbs:
        path = _path(url)
        if path in ("", "/") or (path is not None and path in own_paths):
            continue  # the home page, or the page itself
        if title_key and _name_key(name) == title_key:
            continue
        kept.append((name, url))
    if len(kept) > 1 and kept[-1][1] is None and kept[-1] == crumbs[-1]:
        kept.pop()  # an unlinked last crumb after linked ones: the page (a shortened title)
    return kept[-1][0][:_MAX_SECTION_CHARS] if kept else None


def read_section(
    meta: Mapping[str, Sequence[str]],
    articles: Sequence[Mapping[str, Any]],
    jsonld: Sequence[Mapping[str, Any]],
    headline: Any,
    *,
    title: str | None,
    page_urls: Sequence[str | None],
) -> str | None:
    """The site section the article is filed under: ``article:section``, JSON-LD
    ``articleSection``, else the breadcrumb trail (JSON-LD ``BreadcrumbList``, then markup)."""
    for value in meta.get("article:section", ())[:1]:
        text = field_text(value, MAX_FIELD_CHARS)
        if text:
            return text[:_MAX_SECTION_CHARS]
    for obj in articles[:1]:
        for value in _strings(obj.get("articleSection"), 1):
            text = field_text(_TAG_SPLIT_RE.split(value[:1000])[0], MAX_FIELD_CHARS)
            if text:
                return text[:_MAX_SECTION_CHARS]
    nested = [
        obj["breadcrumb"]
        for obj in jsonld
        if isinstance(obj.get("breadcrumb"), dict) and "@type" in obj["breadcrumb"]
    ]
    crumbs = _crumbs_from_jsonld([*jsonld, *nested])
    if not crumbs:
        base = next((u for u in page_urls if u), None)
        crumbs = breadcrumb_trail(headline, base)
    return _section_from_crumbs(crumbs, title, page_urls) if crumbs else None


# --- authors' profile pages --------------------------------------------------------------------


def _http_url(value: Any, base: str | None, *, page_part: bool = True) -> str | None:
    """An absolute http(s) URL from an absolute or root-relative value (a bare "site.com" is a
    name, not a path); with ``page_part`` False, none with a fragment (a JSON-LD ``@id`` such as
    ``https://site/#/schema/person/1`` names a node, not a page)."""
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str)), None)
    if not isinstance(value, str):
        return None
    value = value.strip()
    if not value.startswith(("http://", "https://", "//", "/")) or len(value) > _MAX_URL_CHARS:
        return None
    url = join_url(base, value) if base else value
    parts = split_url(url) if url else None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    if not page_part and parts.fragment:
        return None
    return url


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _name_key(name: str) -> str:
    return " ".join(name.casefold().split())


def author_profiles(
    authors: Sequence[str],
    articles: Sequence[Mapping[str, Any]],
    meta: Mapping[str, Sequence[str]],
    headline: Any,
    base: str | None,
) -> tuple[dict[str, str], ...]:
    """``{"name", "url"}`` for each of `authors` whose profile page the page gives: JSON-LD
    ``author.url``/``sameAs``/``@id``, a ``rel=author`` or byline link with the name as its text,
    or ``article:author`` when it is a URL and the page has one author. The byline around
    `headline` is searched only where the JSON-LD describes no author."""
    if not authors:
        return ()
    wanted = {_name_key(name): name for name in authors}
    found: dict[str, str] = {}
    for obj in articles[:2]:
        value = obj.get("author") or obj.get("creator")
        for person in (value if isinstance(value, list) else [value])[:10]:
            if not isinstance(person, dict):
                continue
            name = person.get("name")
            key = _name_key(field_text(name, MAX_FIELD_CHARS)) if isinstance(name, str) else ""
            if key in wanted and key not in found:
                url = (
                    _http_url(person.get("url"), base)
                    or _http_url(person.get("sameAs"), base)
                    or _http_url(person.get("@id"), base, page_part=False)
                )
                if url is not None:
                    found[key] = url
    # The byline is searched only where the JSON-LD describes no author: it is a second search
    # of the byline after `authors`' own.
    described = any(
        isinstance(person, dict)
        for obj in articles[:2]
        for person in _as_list(obj.get("author") or obj.get("creator"))[:10]
    )
    search = headline is not None and not described and len(found) < len(wanted)
    links = byline_links(headline) if search else []
    for text, href in links:
        key = _name_key(field_text(text, MAX_FIELD_CHARS))
        if key in wanted and key not in found:
            url = _http_url(href, base)
            if url is not None:
                found[key] = url
    if len(authors) == 1 and not found:
        for value in meta.get("article:author", ())[:1]:
            url = _http_url(value, None)
            if url is not None:
                found[_name_key(authors[0])] = url
    return tuple({"name": name, "url": found[key]} for key, name in wanted.items() if key in found)


def byline_links(headline: Any) -> list[tuple[str, str]]:
    """(text, href) of the links in the byline elements around the headline (`rel=author`,
    ``itemprop=author``, an author class: `authors._byline_candidates`)."""
    container = headline
    for _ in range(3):
        parent = container.getparent()
        if parent is None or parent.tag in ("body", "html"):
            break
        container = parent
    links: list[tuple[str, str]] = []
    for el in _byline_candidates(container)[:10]:
        for a in islice(el.iter("a"), 20):
            href = a.get("href")
            if href:
                links.append((_text(a, _MAX_TAG_CHARS * 2), href))
    return links


# --- paywall ------------------------------------------------------------------------------------

_FALSE: Final = frozenset({"false", "no", "0"})
_TRUE: Final = frozenset({"true", "yes", "1"})


def _flag(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = value.strip().casefold().rsplit("/", 1)[-1]  # "https://schema.org/False"
        if text in _FALSE:
            return False
        if text in _TRUE:
            return True
    return None


def paywalled(
    meta: Mapping[str, Sequence[str]], objects: Sequence[Mapping[str, Any]]
) -> bool | None:
    """True when the page marks (part of) its content as not free: JSON-LD
    ``isAccessibleForFree: false`` on the article or a ``hasPart`` (the paywalled section's
    ``cssSelector``), or ``article:content_tier`` locked/metered; False when it marks it free;
    None when it says nothing."""
    verdict: bool | None = None
    for obj in objects[:10]:
        free = _flag(obj.get("isAccessibleForFree"))
        if free is False:
            return True
        if free is True:
            verdict = False
        parts = obj.get("hasPart")
        for part in (parts if isinstance(parts, list) else [parts])[:10]:
            if isinstance(part, dict) and _flag(part.get("isAccessibleForFree")) is False:
                return True
    for value in meta.get("article:content_tier", ())[:1]:
        tier = value.strip().casefold()
        if tier in ("locked", "metered"):
            return True
        if tier == "free":
            verdict = False
    return verdict
