"""JSON-LD: the page's typed objects (bounded: pages can be hostile) and values read from them."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from newsspider.extraction.metadata.text import MAX_FIELD_CHARS, field_text

__all__ = ["NOT_ARTICLE_TYPES", "article_body", "json_text", "jsonld_objects", "schema_types"]

#: JSON-LD nesting we follow at most (pages can be hostile).
_MAX_JSON_DEPTH: Final = 8
_MAX_JSON_OBJECTS: Final = 200
_MAX_JSONLD_CHARS: Final = 1_000_000

_ARTICLE_TYPE_RE: Final = re.compile(
    r"(Article|BlogPosting|LiveBlogPosting|SocialMediaPosting|Report)$"
)
NOT_ARTICLE_TYPES: Final = frozenset(
    {
        "WebSite", "CollectionPage", "SearchResultsPage", "ProfilePage", "ItemList",
        "ContactPage", "AboutPage", "FAQPage", "Product", "CheckoutPage", "Store",
    }
)  # fmt: skip
_PAGE_TYPE_RE: Final = re.compile(r"(WebPage|Page)$")
# "https://schema.org/NewsArticle", "schema:NewsArticle": the type is the last part.
_TYPE_PREFIX_RE: Final = re.compile(r"[/:#]")
_MAX_ARTICLE_BODY: Final = 100_000


def schema_types(obj: Mapping[str, Any]) -> list[str]:
    raw = obj.get("@type")
    values = raw if isinstance(raw, list) else [raw]
    out = []
    for value in values:
        if isinstance(value, str) and value:
            out.append(_TYPE_PREFIX_RE.split(value)[-1])
    return out


def _load_json(text: str) -> Any:
    text = text.strip()
    if text.startswith("<!--"):
        text = text.removeprefix("<!--").removesuffix("-->")
    text = text.strip().removeprefix("//<![CDATA[").removesuffix("//]]>").strip()
    # A bare CDATA section (XHTML-minded templates) hides the JSON just the same.
    text = text.removeprefix("<![CDATA[").removesuffix("]]>").strip()
    text = text.rstrip(";")
    try:
        return json.loads(text, strict=False)
    except json.JSONDecodeError as exc:
        if exc.msg != "Extra data":
            return None
    except (ValueError, RecursionError):
        return None
    # A stray closing brace or a second object after the first (hand-written templates):
    # the first complete value still holds the page's dates and headline.
    try:
        return json.JSONDecoder(strict=False).raw_decode(text)[0]
    except (ValueError, RecursionError):
        return None


def _iter_jsonld(scripts: Sequence[str]) -> Iterator[dict[str, Any]]:
    """Typed JSON-LD objects at the top level, in ``@graph``, lists and ``mainEntity``.

    Objects nested elsewhere (an ItemList's elements, an article's publisher) are not the
    page's own entities, so they are not yielded.
    """
    count = 0
    for text in scripts:
        if len(text) > _MAX_JSONLD_CHARS:
            continue
        data = _load_json(text)
        stack: list[tuple[Any, int]] = [(data, 0)]
        while stack and count < _MAX_JSON_OBJECTS:
            value, depth = stack.pop()
            if depth > _MAX_JSON_DEPTH:
                continue
            if isinstance(value, list):
                stack.extend((v, depth + 1) for v in reversed(value))
            elif isinstance(value, dict):
                count += 1
                if "@type" in value:
                    yield value
                for key in ("mainEntity", "@graph"):
                    if key in value:
                        stack.append((value[key], depth + 1))


def jsonld_objects(
    scripts: Sequence[str],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The page's typed JSON-LD objects as (articles, web pages, the rest)."""
    articles: list[dict[str, Any]] = []
    pages: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    for obj in _iter_jsonld(scripts):
        types = schema_types(obj)
        if any(_ARTICLE_TYPE_RE.search(t) for t in types):
            articles.append(obj)
        elif any(_PAGE_TYPE_RE.search(t) for t in types):
            pages.append(obj)
        else:
            others.append(obj)
    return articles, pages, others


def json_text(value: Any) -> str | None:
    """A string from a JSON-LD value that may be a string, an object with name/url, or a list."""
    for _ in range(3):
        if isinstance(value, list):
            value = value[0] if value else None
        elif isinstance(value, dict):
            value = value.get("name") or value.get("url") or value.get("@id")
        else:
            break
    return field_text(value, MAX_FIELD_CHARS) if isinstance(value, str) else None


def article_body(main: Mapping[str, Any]) -> str | None:
    value = main.get("articleBody")
    if isinstance(value, list):
        value = " ".join(v for v in value if isinstance(v, str))
    if not isinstance(value, str):
        return None
    # Bounded before splitting: a hostile page may carry megabytes of whitespace.
    text = " ".join(value[: 4 * _MAX_ARTICLE_BODY].split())[:_MAX_ARTICLE_BODY]
    return text or None
