"""Where each metadata field came from: the chosen title, date, authors and language matched
against what a second parse of the page offers (the metadata code itself is untouched)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from newsspider.extraction.article import Article
from newsspider.extraction.explain.model import Candidate, FieldSource
from newsspider.extraction.metadata.jsonld import jsonld_objects
from newsspider.extraction.metadata.page_scan import scan_page
from newsspider.extraction.metadata.reader import PageMetadata
from newsspider.extraction.parse.parsing import parse_html

_DATE_KEYS = ("datePublished", "dateCreated", "uploadDate", "dateModified")
_META_TITLE = (
    "og:title",
    "twitter:title",
    "headline",
    "dc.title",
    "sailthru.title",
    "parsely-title",
)
_META_AUTHOR = (
    "author",
    "article:author",
    "dc.creator",
    "parsely-author",
    "byl",
    "twitter:creator",
)
_META_LANGUAGE = ("content-language", "og:locale", "dc.language", "language", "inlanguage")
_URL_DATE = re.compile(r"/((?:19|20)\d\d)[/-]?(\d\d)[/-]?(\d\d)?(?:/|-|$)")


def metadata_sources(
    source: str | bytes, article: Article, metadata: PageMetadata
) -> tuple[FieldSource, ...]:
    """Where the title, date, authors and language came from, by matching the chosen values
    against what a second parse of the page offers (the metadata code itself is untouched)."""
    root = parse_html(source)
    if root is None:
        return ()
    scan = scan_page(root)
    articles, pages, others = jsonld_objects(scan.jsonld)
    titles = _meta_candidates(scan.meta, _META_TITLE, per_key=2)
    titles += [("JSON-LD headline", str(o["headline"])) for o in articles if o.get("headline")]
    if scan.title:
        titles.append(("<title>", scan.title))
    titles += [("<h1>", " ".join(" ".join(h.itertext()).split())) for h in scan.h1s]

    dates: list[tuple[str, str]] = []
    for key, values in scan.meta.items():
        if ("date" in key or "time" in key or "published" in key) and "modified" not in key:
            dates += [(f"meta {key}", v) for v in values[:2]]
    for obj in articles + pages + others:
        dates += [(f"JSON-LD {k}", str(obj[k])) for k in _DATE_KEYS if isinstance(obj.get(k), str)]
    dates += [("<time>", t.get("datetime") or " ".join(t.itertext()).strip()) for t in scan.times]
    if article.url and (m := _URL_DATE.search(article.url)):
        dates.append(("the URL", "-".join(g for g in m.groups() if g)))

    authors: list[tuple[str, str]] = []
    for obj in articles[:2]:
        value = obj.get("author") or obj.get("creator")
        for person in value if isinstance(value, list) else [value]:
            name = person.get("name") if isinstance(person, dict) else person
            if isinstance(name, str):
                authors.append(("JSON-LD author", name))
    authors += _meta_candidates(scan.meta, _META_AUTHOR, per_key=3)

    languages: list[tuple[str, str]] = []
    if root.get("lang"):
        languages.append(("<html lang>", root.get("lang") or ""))
    languages += _meta_candidates(scan.meta, _META_LANGUAGE, per_key=1)

    return (
        _field("title", article.title, titles, _same_text, "visible text or a hint"),
        _field("date", article.date, dates, _same_day, "visible text near the headline or a hint"),
        _field(
            "authors",
            ", ".join(article.authors) or None,
            authors,
            _names_match,
            "a byline near the headline or a hint",
        ),
        _field(
            "language",
            article.language,
            languages,
            _same_language,
            "a guess from the script of the text",
        ),
    )


def _meta_candidates(
    meta: Mapping[str, Sequence[str]], keys: Sequence[str], *, per_key: int
) -> list[tuple[str, str]]:
    """``("meta KEY", value)`` rows for the first ``per_key`` values of each ``<meta>`` key."""
    return [(f"meta {key}", value) for key in keys for value in meta.get(key, ())[:per_key]]


def _field(
    name: str,
    value: str | None,
    offered: Sequence[tuple[str, str]],
    matches: Any,
    fallback: str,
) -> FieldSource:
    candidates = []
    source = None
    seen = set()
    for where, raw in offered[:20]:
        text = " ".join(raw.split())[:300]
        if (where, text) in seen or not text:
            continue
        seen.add((where, text))
        chosen = value is not None and source is None and bool(matches(text, value))
        if chosen:
            source = where
        candidates.append(Candidate(where, text, chosen))
    if value is not None and source is None:
        source = fallback
    return FieldSource(name, value, source, tuple(candidates))


def _squash(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _same_text(raw: str, value: str) -> bool:
    chosen, offered = _squash(value), _squash(raw)
    return bool(chosen) and (chosen == offered or (len(chosen) > 8 and chosen in offered))


def _same_day(raw: str, value: str) -> bool:
    day = value[:10]
    return any(form in raw for form in (day, day.replace("-", "/"), day.replace("-", "")))


def _names_match(raw: str, value: str) -> bool:
    first = _squash(value.split(",", maxsplit=1)[0])
    return bool(first) and first in _squash(raw)


def _same_language(raw: str, value: str) -> bool:
    return raw.strip().lower().replace("_", "-").split("-")[0] == value
