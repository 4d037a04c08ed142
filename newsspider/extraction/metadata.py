"""Page metadata read from the intact tree: meta tags, JSON-LD, microdata and a few visible cues.

`read_metadata` must run before the body extractor cleans the tree (it needs the JSON-LD
``<script>`` elements). It uses a handful of XPath queries and never raises.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import islice
from typing import Any
from urllib.parse import urljoin, urlsplit

from lxml import etree

from newsspider.extraction.caching import short_key_cache
from newsspider.extraction.dates import find_dates
from newsspider.extraction.title import choose_title, clean_text, element_text


@dataclass(frozen=True, slots=True)
class PageMetadata:
    """What the page says about itself; every field may be missing."""

    title: str | None
    date: str | None
    date_modified: str | None
    authors: tuple[str, ...]
    language: str | None
    description: str | None
    site_name: str | None
    canonical_url: str | None
    image: str | None
    #: True: structured data calls the page an article; False: a site/list/profile page;
    #: None: it does not say.
    is_article_hint: bool | None
    #: The main JSON-LD article's ``articleBody`` (whitespace-collapsed, bounded): what the
    #: publisher says the body text is.
    article_body: str | None = None


# --- collecting the raw signals ---------------------------------------------------------------

_SCAN_TAGS = ("meta", "link", "script", "time", "h1", "title")
_META_KEY_ATTRS = ("property", "name", "itemprop", "http-equiv")
#: The only ``<link rel>`` values read.
_LINK_RELS = frozenset({"canonical", "image_src"})
#: Elements examined around the headline for a byline.
_BYLINE_BUDGET = 200
_AUTHOR_CLASS_RE = re.compile(r"byline|author|writer|reporter|journalist|autor|作者|記者", re.I)
_MAX_ARTICLE_BODY = 100_000

#: JSON-LD nesting we follow at most (pages can be hostile).
_MAX_JSON_DEPTH = 8
_MAX_JSON_OBJECTS = 200
_MAX_JSONLD_CHARS = 1_000_000

_ARTICLE_TYPE_RE = re.compile(r"(Article|BlogPosting|LiveBlogPosting|SocialMediaPosting|Report)$")
_NOT_ARTICLE_TYPES = frozenset(
    {
        "WebSite", "CollectionPage", "SearchResultsPage", "ProfilePage", "ItemList",
        "ContactPage", "AboutPage", "FAQPage", "Product", "CheckoutPage", "Store",
    }
)  # fmt: skip
_PAGE_TYPE_RE = re.compile(r"(WebPage|Page)$")
# "https://schema.org/NewsArticle", "schema:NewsArticle": the type is the last part.
_TYPE_PREFIX_RE = re.compile(r"[/:#]")


@dataclass(slots=True)
class _Scan:
    """What one pass over the interesting tags found."""

    meta: dict[str, list[str]] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)
    jsonld: list[str] = field(default_factory=list)
    times: list[Any] = field(default_factory=list)
    h1s: list[Any] = field(default_factory=list)
    title: str = ""


def _scan(root: Any) -> _Scan:
    """meta (lower-cased name/property/itemprop/http-equiv to values), links, JSON-LD texts,
    ``<time>``, ``<h1>`` and ``<title>``, in one C-level walk of the tree."""
    found = _Scan()
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


def _types(obj: Mapping[str, Any]) -> list[str]:
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


def _jsonld_objects(
    scripts: Sequence[str],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The page's typed JSON-LD objects as (articles, web pages, the rest)."""
    articles: list[dict[str, Any]] = []
    pages: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    for obj in _iter_jsonld(scripts):
        types = _types(obj)
        if any(_ARTICLE_TYPE_RE.search(t) for t in types):
            articles.append(obj)
        elif any(_PAGE_TYPE_RE.search(t) for t in types):
            pages.append(obj)
        else:
            others.append(obj)
    return articles, pages, others


# --- small field readers ----------------------------------------------------------------------


def _first(meta: Mapping[str, Sequence[str]], *keys: str) -> str | None:
    for key in keys:
        for value in meta.get(key, ()):
            text = clean_text(value)
            if text:
                return text
    return None


def _json_text(value: Any) -> str | None:
    """A string from a JSON-LD value that may be a string, an object with name/url, or a list."""
    for _ in range(3):
        if isinstance(value, list):
            value = value[0] if value else None
        elif isinstance(value, dict):
            value = value.get("name") or value.get("url") or value.get("@id")
        else:
            break
    return clean_text(value) if isinstance(value, str) else None


_LANG_RE = re.compile(r"^\s*([a-zA-Z]{2,3})(?:[-_][a-zA-Z0-9]{1,8})*\s*$")
_DMY_LOCALES = frozenset({"gb", "au", "in", "ie", "nz", "za", "sg", "pk", "ng", "ke"})


def _language(root: Any, meta: Mapping[str, Sequence[str]]) -> tuple[str | None, str]:
    """(primary language subtag, the raw tag) from markup."""
    candidates: list[str] = []
    if root.tag == "html":
        lang = root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang")
        if lang:
            candidates.append(lang)
    for key in ("content-language", "og:locale", "dc.language", "language", "inlanguage"):
        candidates.extend(meta.get(key, ())[:1])
    for candidate in candidates:
        raw = candidate.split(",")[0]
        m = _LANG_RE.match(raw)
        if m and m.group(1).lower() not in {"und", "mul", "xx"}:
            return m.group(1).lower(), raw.strip().lower().replace("_", "-")
    return None, ""


# An absolute http(s) URL that urljoin/urlsplit would return unchanged (no query, fragment,
# params, IPv6 host, non-ASCII or control characters): skips two costly urllib calls.
_PLAIN_ABSOLUTE_RE = re.compile(r"https?://[!-.0-~][!-~]*", re.ASCII)
_NOT_PLAIN = frozenset("?#;[]\\")


def _absolute(value: str | None, base: str | None) -> str | None:
    if not value:
        return None
    value = value.strip()
    if _PLAIN_ABSOLUTE_RE.fullmatch(value) and _NOT_PLAIN.isdisjoint(value):
        return value
    try:
        full = urljoin(base, value) if base else value
    except ValueError:
        return None
    if urlsplit(full).scheme not in ("http", "https"):
        return None if base else (value if value.startswith("//") else None)
    return full


# --- authors ----------------------------------------------------------------------------------

_BY_PREFIX_RE = re.compile(
    r"^\s*(?:by|from|von|par|por|di|door|av|автор[ы]?|текст|作者|文|记者|記者|编辑|責任編輯|"
    r"posted by|written by|words by|story by|reported by)\s*[:：|/]?\s*",
    re.IGNORECASE,
)
_AUTHOR_SPLIT_RE = re.compile(r"\s*(?:,|;|&|\band\b|\bund\b|\bet\b|\by\b|\be\b|\bи\b|、|/)\s*")
_NOT_NAME_RE = re.compile(r"https?:|www\.|@|\d|\.com\b|\.html", re.IGNORECASE)


def _clean_authors(raw: Sequence[str]) -> tuple[str, ...]:
    names: list[str] = []
    seen: set[str] = set()
    for value in raw:
        text = clean_text(value)
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


def _authors(
    meta: Mapping[str, Sequence[str]],
    articles: Sequence[Mapping[str, Any]],
    headline: Any | None,
) -> tuple[str, ...]:
    for obj in articles[:2]:
        value = obj.get("author") or obj.get("creator")
        people = value if isinstance(value, list) else [value]
        found = _clean_authors([t for t in (_json_text(v) for v in people[:10]) if t])
        if found:
            return found
    for key in (
        "author", "article:author", "dc.creator", "dcterms.creator", "parsely-author",
        "sailthru.author", "byl", "citation_author", "twitter:creator",
    ):  # fmt: skip
        values: Sequence[str] = meta.get(key, ())
        if key == "twitter:creator":
            values = [v for v in values if not v.startswith("@")]
        found = _clean_authors(values)
        if found:
            return found
    return _byline_authors(headline) if headline is not None else ()


@short_key_cache(2048)
def _author_class(value: str) -> bool:
    return _AUTHOR_CLASS_RE.search(value) is not None


def _byline_candidates(container: Any) -> list[Any]:
    """Elements among the first `_BYLINE_BUDGET` that carry rel/itemprop author or an author
    class. One ``items()`` call per element is cheaper than three ``get()`` calls."""
    found: list[Any] = []
    for el in islice(container.iter(etree.Element), _BYLINE_BUDGET):
        for key, value in el.items():
            if (
                (key == "class" and _author_class(value))
                or (key == "rel" and value == "author")
                or (key == "itemprop" and value in ("author", "creator"))
            ):
                found.append(el)
                break
    return found


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
            names = el.xpath(".//*[@itemprop='name']")
            source = names[0] if names else el
            marked.append(el.get("content") or " ".join(source.itertext()))
        elif _AUTHOR_CLASS_RE.search(el.get("class") or ""):
            text = clean_text(" ".join(el.itertext()))
            # A byline block may also hold the date; keep only explicit "By ..." texts.
            if len(text) < 120 and _BY_PREFIX_RE.match(text):
                bylines.append(text)
    return _clean_authors(marked) or _clean_authors(bylines)


# --- the entry point --------------------------------------------------------------------------


def _article_body(main: Mapping[str, Any]) -> str | None:
    value = main.get("articleBody")
    if isinstance(value, list):
        value = " ".join(v for v in value if isinstance(v, str))
    if not isinstance(value, str):
        return None
    # Bounded before splitting: a hostile page may carry megabytes of whitespace.
    text = " ".join(value[: 4 * _MAX_ARTICLE_BODY].split())[:_MAX_ARTICLE_BODY]
    return text or None


def _article_hint(
    meta: Mapping[str, Sequence[str]], everything: Sequence[Mapping[str, Any]], has_article: bool
) -> bool | None:
    og_type = (_first(meta, "og:type") or "").lower()
    if has_article or og_type in ("article", "news", "blog", "newsarticle"):
        return True
    types = {t for obj in everything for t in _types(obj)}
    if types & _NOT_ARTICLE_TYPES or og_type in ("website", "profile", "product"):
        return False
    return None


def read_metadata(
    root: etree._Element,
    url: str | None,
    *,
    reference_time: datetime | None = None,
    hints: Mapping[str, Any] | None = None,
    headline_candidates: Sequence[etree._Element] = (),
) -> PageMetadata:
    """Everything the intact page says about itself. Never raises."""
    try:
        return _read(root, url, reference_time, hints or {}, headline_candidates)
    except Exception:
        return PageMetadata(None, None, None, (), None, None, None, None, None, None)


def _read(
    root: Any,
    url: str | None,
    reference_time: datetime | None,
    hints: Mapping[str, Any],
    headline_candidates: Sequence[Any],
) -> PageMetadata:
    scan = _scan(root)
    meta, links = scan.meta, scan.links
    articles, pages, others = _jsonld_objects(scan.jsonld)
    everything = articles + pages + others
    main = articles[0] if articles else {}

    publisher = main.get("publisher") if main else None
    site_name = _first(meta, "og:site_name", "application-name", "al:ios:app_name") or (
        _json_text(publisher) if publisher else None
    )
    if site_name is None:
        site = next((o for o in everything if "WebSite" in _types(o)), None)
        site_name = _json_text(site.get("name")) if site else None

    canonical = _absolute(links.get("canonical") or _first(meta, "og:url"), url)
    base = canonical or url

    hint_title = hints.get("title") if isinstance(hints.get("title"), str) else None
    title, heading = choose_title(
        meta=meta,
        jsonld=articles,
        title_tag=scan.title,
        headings=[*headline_candidates, *scan.h1s],
        site_name=site_name,
        url=base,
        hint=hint_title,
        trusted_headings=len(headline_candidates),
    )
    headlines = [heading] if heading is not None else []
    headlines += [h for h in scan.h1s if h is not heading]

    language, raw_lang = _language(root, meta)
    region = raw_lang.split("-")[1] if "-" in raw_lang else ""
    host = (urlsplit(base).hostname or "") if base else ""
    month_first = (
        language == "en"
        and region not in _DMY_LOCALES
        and not host.endswith((".uk", ".au", ".in", ".ie", ".nz", ".za"))
    )
    hint_date = hints.get("date")
    if isinstance(hint_date, datetime):
        hint_date = hint_date.isoformat()
    dates = find_dates(
        root,
        url or canonical,
        meta=meta,
        jsonld=articles + pages,
        jsonld_other=others,
        times=scan.times,
        headlines=headlines,
        reference_time=reference_time,
        hint=hint_date if isinstance(hint_date, str) else None,
        month_first=month_first,
    )

    authors = _authors(meta, articles, headlines[0] if headlines else None)
    if not authors:
        hinted = hints.get("authors")
        if isinstance(hinted, str):
            hinted = [hinted]
        if isinstance(hinted, Sequence):
            authors = _clean_authors([a for a in hinted if isinstance(a, str)])

    description = _first(meta, "description", "og:description", "twitter:description") or (
        _json_text(main.get("description")) if main else None
    )
    image_raw = _first(
        meta, "og:image", "og:image:url", "og:image:secure_url", "twitter:image",
        "twitter:image:src", "thumbnail",
    ) or (_json_text(main.get("image")) if main else None) or links.get("image_src")  # fmt: skip
    return PageMetadata(
        title=title,
        date=dates.published,
        date_modified=dates.modified,
        authors=authors,
        language=language,
        description=description,
        site_name=site_name,
        canonical_url=canonical,
        image=_absolute(image_raw, base),
        is_article_hint=_article_hint(meta, everything, bool(articles)),
        article_body=_article_body(main) if main else None,
    )
