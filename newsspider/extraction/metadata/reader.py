"""Page metadata read from the intact tree: meta tags, JSON-LD, microdata and a few visible cues.

`read_metadata` must run before the body extractor cleans the tree (it needs the JSON-LD
``<script>`` elements). It uses a handful of XPath queries and never raises.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from lxml import etree

from newsspider.extraction.common.urls import join_url, split_url
from newsspider.extraction.metadata.authors import clean_authors, find_authors
from newsspider.extraction.metadata.dates import find_dates
from newsspider.extraction.metadata.jsonld import (
    NOT_ARTICLE_TYPES,
    article_body,
    json_text,
    jsonld_objects,
    schema_types,
)
from newsspider.extraction.metadata.page_scan import scan_page
from newsspider.extraction.metadata.text import MAX_FIELD_CHARS, field_text
from newsspider.extraction.metadata.title import choose_title

logger = logging.getLogger(__name__)


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
    #: Reading failed (a bug, logged with its traceback): every field above is missing, and
    #: the article says so (warning ``metadata-error``).
    failed: bool = False


# --- small field readers ----------------------------------------------------------------------


def _first(meta: Mapping[str, Sequence[str]], *keys: str) -> str | None:
    for key in keys:
        for value in meta.get(key, ()):
            text = field_text(value, MAX_FIELD_CHARS)
            if text:
                return text
    return None


_LANG_RE: Final = re.compile(r"^\s*([a-zA-Z]{2,3})(?:[-_][a-zA-Z0-9]{1,8})*\s*$")
_DMY_LOCALES: Final = frozenset({"gb", "au", "in", "ie", "nz", "za", "sg", "pk", "ng", "ke"})


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
_PLAIN_ABSOLUTE_RE: Final = re.compile(r"https?://[!-.0-~][!-~]*", re.ASCII)
_NOT_PLAIN: Final = frozenset("?#;[]\\")


def _absolute(value: str | None, base: str | None) -> str | None:
    if not value:
        return None
    value = value.strip()
    if _PLAIN_ABSOLUTE_RE.fullmatch(value) and _NOT_PLAIN.isdisjoint(value):
        return value
    full = join_url(base, value) if base else value
    if full is None:
        return None
    parts = split_url(full)
    if parts is None or parts.scheme not in ("http", "https"):
        return None if base else (value if value.startswith("//") else None)
    return full


# --- the entry point --------------------------------------------------------------------------


def _article_hint(
    meta: Mapping[str, Sequence[str]], everything: Sequence[Mapping[str, Any]], has_article: bool
) -> bool | None:
    og_type = (_first(meta, "og:type") or "").lower()
    if has_article or og_type in ("article", "news", "blog", "newsarticle"):
        return True
    types = {t for obj in everything for t in schema_types(obj)}
    if types & NOT_ARTICLE_TYPES or og_type in ("website", "profile", "product"):
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
    """Everything the intact page says about itself. Never raises: a bug is logged and the
    result flagged (`PageMetadata.failed`), so the body is still extracted."""
    try:
        return _read(root, url, reference_time, hints or {}, headline_candidates)
    except Exception:
        logger.exception("newsspider: reading the metadata failed for %s", url)
        return PageMetadata(None, None, None, (), None, None, None, None, None, None, failed=True)


def _read(
    root: Any,
    url: str | None,
    reference_time: datetime | None,
    hints: Mapping[str, Any],
    headline_candidates: Sequence[Any],
) -> PageMetadata:
    scan = scan_page(root)
    meta, links = scan.meta, scan.links
    articles, pages, others = jsonld_objects(scan.jsonld)
    everything = articles + pages + others
    main = articles[0] if articles else {}

    publisher = main.get("publisher") if main else None
    site_name = _first(meta, "og:site_name", "application-name", "al:ios:app_name") or (
        json_text(publisher) if publisher else None
    )
    if site_name is None:
        site = next((o for o in everything if "WebSite" in schema_types(o)), None)
        site_name = json_text(site.get("name")) if site else None

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
    parts = split_url(base) if base else None
    host = (parts.hostname or "") if parts is not None else ""
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

    authors = find_authors(meta, articles, headlines[0] if headlines else None)
    if not authors:
        hinted = hints.get("authors")
        if isinstance(hinted, str):
            hinted = [hinted]
        if isinstance(hinted, Sequence):
            authors = clean_authors([a for a in hinted if isinstance(a, str)])

    description = _first(meta, "description", "og:description", "twitter:description") or (
        json_text(main.get("description")) if main else None
    )
    image_raw = _first(
        meta, "og:image", "og:image:url", "og:image:secure_url", "twitter:image",
        "twitter:image:src", "thumbnail",
    ) or (json_text(main.get("image")) if main else None) or links.get("image_src")  # fmt: skip
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
        article_body=article_body(main) if main else None,
    )
