"""Publication and modification dates of a page: where they are found and which one wins.

Candidates come from structured data, meta tags, ``<time>`` and the text around the headline;
parsing the strings themselves is `date_parsing`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from itertools import chain, islice
from typing import Any, Final

from lxml import etree

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.common.caching import MAX_KEY_CHARS
from newsspider.extraction.common.urls import split_url
from newsspider.extraction.metadata.date_parsing import (
    DATEISH_TEXT_RE,
    URL_YMD_LOOSE_RE,
    ParsedDate,
    build_date,
    date_from_url,
    latest_day,
    month_from_url,
    parse_machine_date,
    parse_relative_date,
    parse_text_date,
    with_raw,
)


def _image_date(meta: Mapping[str, Sequence[str]], latest: date) -> ParsedDate | None:
    """The ``/YYYY/MM/DD/`` folder of the page's share image: uploaded with the article.

    Only that folder form: a file name's ``IMG_20190905`` is when the photo was taken."""
    for key in ("og:image", "twitter:image"):
        for value in meta.get(key, ())[:1]:
            parts = split_url(value)
            m = URL_YMD_LOOSE_RE.search(parts.path) if parts is not None else None
            if m:
                found = build_date(int(m["y"]), int(m["m"]), int(m["d"]), None, latest)
                return with_raw(found, m.group())
    return None


# --- finding dates in a page ------------------------------------------------------------------

#: Meta keys (lower-cased name/property/itemprop) for the publication date, best first.
PUBLISHED_META: Final = (
    "article:published_time", "og:published_time", "article:published", "datepublished",
    "og:article:published_time", "published_time", "publication_date", "publish_date",
    "publish-date", "pubdate", "publishdate", "publishdatetime", "pub_date", "pubdatetime",
    "sailthru.date", "parsely-pub-date", "cxenseparse:recs:publishtime", "dc.date.issued",
    "dcterms.issued", "dc.date.created", "dcterms.created", "dc.date", "dcterms.date",
    "citation_publication_date", "citation_date", "article.published", "article_date_original",
    "originalpublicationdate", "creation_date", "created", "datecreated", "date_published",
    "bt:pubdate", "date", "dc.date.published", "og:pubdate", "release_date", "displaydate",
    "weibo:article:create_at", "news_date", "timestamp",
)  # fmt: skip
#: Meta keys for the last modification.
MODIFIED_META: Final = (
    "article:modified_time", "og:updated_time", "article:modified", "datemodified",
    "og:modified_time", "modified_time", "last-modified", "lastmod", "dc.date.modified",
    "dcterms.modified", "article:updated_time", "updated_time", "revised", "dateupdated",
    "weibo:article:update_at",
)  # fmt: skip

logger = logging.getLogger(__name__)

_PUBLISHED_KEYS: Final = ("datePublished", "dateCreated", "uploadDate")
_MODIFIED_KEYS: Final = ("dateModified",)


class _Cue:
    """Words searched for ignoring case, with a plain twin for ASCII text.

    In ASCII text re.IGNORECASE folds only ASCII case and no non-ASCII word can occur, so the
    twin (the ASCII words in lower case, in the same order, no flag) finds the same span in the
    lower-cased text. Ignoring case, the engine tries every word at every character (up to
    90,000 instructions for one class/id context); plain words that each start with a letter
    let it skip to the characters that can start one. tests/test_dates.py compares the two.
    """

    def __init__(self, words: str, ascii_words: str) -> None:
        self.any_text = re.compile(words, re.IGNORECASE)
        self.ascii_text = re.compile(ascii_words)

    def search(self, text: str) -> re.Match[str] | None:
        """The first match (of the lower-cased text when it is ASCII: read only its span)."""
        if text.isascii():
            return self.ascii_text.search(text.lower())
        return self.any_text.search(text)


_GENERIC_PUBLISHED_KEY: Final = _Cue(
    r"publish|created|uploaded|pub_?date|releas", r"publish|created|uploaded|pub_?date|releas"
)

# Words around a date in visible text that say which date it is.
_MODIFIED_CUE: Final = _Cue(
    r"updat|modif|edited|revis|aktualisiert|geändert|stand:|обновл|изменен|更新|修改|"
    r"mis à jour|actualiz|atualiz|aggiorn|zaktualiz|last changed",
    r"updat|modif|edited|revis|aktualisiert|stand:|actualiz|atualiz|aggiorn|zaktualiz|"
    r"last changed",
)
# (In the twins "t(?<![a-z]t)ime" is "(?<![a-z])time" starting with its letter.)
_PUBLISHED_CUE: Final = _Cue(
    r"publi|posted|erschienen|veröffentlicht|опубликов|发布|發布|发表|發表|时间|時間|日期|"
    r"créé|date|datum|дата|пубдата|(?<![a-z])time(?![a-z])|(?:post|entry|article)[-_]?meta|"
    r"byline|dateline",
    r"publi|posted|erschienen|date|datum|t(?<![a-z]t)ime(?![a-z])|"
    r"post[-_]?meta|entry[-_]?meta|article[-_]?meta|byline|dateline",
)
# "comment" only as a word of its own: "ArticleHeaderComment" is an opinion piece's header.
_NOISE_CUE: Final = _Cue(
    r"(?<![a-z])comment|reply|related|footer|copyright|©|sidebar|widget|archiv",
    r"c(?<![a-z]c)omment|reply|related|footer|copyright|sidebar|widget|archiv",
)
# Page regions (class/id of an ancestor) whose dates belong to other pages.
# A token that starts so: "content-sidebar-wrap" and "has-sidebar" wrap the article too.
_FURNITURE: Final = re.compile(r"(?:^|\s)(?:site-|page-)?(?:footer|sidebar)(?![a-z])", re.I)

# Lazy fallbacks (attribute scans cost a noticeable share of the parse; run only when needed).
_ITEMPROP_XPATH: Final = etree.XPath(
    "//@itemprop[.='datePublished' or .='dateCreated' or .='dateModified' or .='uploadDate']/.."
)
_SKIP_TAGS: Final = frozenset(
    {"script", "style", "noscript", "textarea", "option", "select", "svg"}
)
# Every absolute pattern has a four-digit year: a cheap gate before the real patterns.
_HAS_YEAR: Final = re.compile(r"(?:19|20)\d\d")
#: Elements visited around the headline, and text nodes read from the top of the body.
_AFTER_BUDGET: Final = 120
_BEFORE_BUDGET: Final = 30
_BODY_ELEMENT_BUDGET: Final = 1500
#: ... and date-like texts parsed there: each costs up to 60 us, and a 29 kB page of nothing
#: but dated lines (fuzzing) took 2.2 s per MB with the element budget alone. With the year
#: numbers read in the whole text (`_YEAR_HITS_BUDGET`) at most 250 parses, about 30 ms.
_BODY_DATE_READS: Final = 100
#: Date-like texts parsed around <time> elements and the headlines (the three headlines'
#: surroundings overlap: 198 parses on a 19 kB page cost 2.9 s per MB, found by fuzzing).
_MARKUP_DATE_READS: Final = 100
_YEAR_HITS_BUDGET: Final = 150
_TEXT_PIECE: Final = 64 * 1024
# Cue words are searched in at most this much of a class or id value: each date candidate reads
# its ancestors' values, and a page with a 40 kB class value made that 2 s/MB (fuzzing).
_MAX_NAMES: Final = 300
_DATEISH_CLASS: Final = _Cue(
    r"date|time|publi|posted|datum|fecha|data", r"date|time|publi|posted|datum|fecha|data"
)


@dataclass(frozen=True, slots=True)
class PageDates:
    published: str | None
    modified: str | None
    #: The texts they were read from (`ParsedDate.raw`).
    published_raw: str | None = None
    modified_raw: str | None = None


def _context(el: Any, depth: int = 3) -> str:
    """class/id/itemprop of an element and a few ancestors, for cue words."""
    parts: list[str] = []
    node = el
    for _ in range(depth):
        if node is None or not isinstance(node.tag, str):
            break
        for attr in ("class", "id", "itemprop", "property", "name"):
            value = node.get(attr)
            if value:
                parts.append(value[:_MAX_NAMES])
        node = node.getparent()
    return " ".join(parts)


def _names(node: Any) -> str:
    """The id and class of ``node``, each cut to `_MAX_NAMES` characters."""
    return f"{(node.get('id') or '')[:_MAX_NAMES]} {(node.get('class') or '')[:_MAX_NAMES]}"


def _el_text(el: Any, limit: int = 200) -> str:
    parts: list[str] = []
    size = 0
    for text in el.itertext():
        parts.append(text)
        size += len(text)
        if size > limit:
            break
    return " ".join(" ".join(parts).split())[:limit]


def _structured(
    meta: Mapping[str, Sequence[str]],
    jsonld: Sequence[Mapping[str, Any]],
    keys: Sequence[str],
    meta_keys: Sequence[str],
    latest: date,
) -> Iterator[ParsedDate]:
    """Every parseable value of the given JSON-LD keys and meta keys, best source first.

    A generator: usually only the first value is needed.
    """
    for obj in jsonld:
        for key in keys:
            value = obj.get(key)
            if isinstance(value, list) and value:
                value = value[0]
            if isinstance(value, str):
                parsed = parse_machine_date(value, latest=latest)
                if parsed is not None:
                    yield parsed
    for key in meta_keys:
        if key not in meta:  # most of the 41 names: a membership test is cheaper than get()
            continue
        for value in meta[key]:
            parsed = parse_machine_date(value, latest=latest)
            if parsed is not None:
                yield parsed


#: `_generic_published_key`'s answers: meta names repeat from page to page, and every one of a
#: page's is asked (a plain dict: the generic cache wrapper cost more than the lookup; with
#: `short_key_cache`'s bounds, keys up to `MAX_KEY_CHARS` characters, cleared when full).
_PUBLISHED_KEYS_SEEN: Final[dict[str, bool]] = {}
_PUBLISHED_KEYS_MAX: Final = 4096


def _generic_published_key(key: str) -> bool:
    known = _PUBLISHED_KEYS_SEEN.get(key)
    if known is not None:
        return known
    known = bool(_GENERIC_PUBLISHED_KEY.search(key)) and not _MODIFIED_CUE.search(key)
    if len(key) <= MAX_KEY_CHARS:
        if len(_PUBLISHED_KEYS_SEEN) >= _PUBLISHED_KEYS_MAX:
            _PUBLISHED_KEYS_SEEN.clear()
        _PUBLISHED_KEYS_SEEN[key] = known
    return known


def _other_meta(meta: Mapping[str, Sequence[str]], latest: date) -> Iterator[ParsedDate]:
    """Site-specific meta names that still say "published"/"created" (``five_hundred:uploaded``)."""
    for key, values in meta.items():
        if _generic_published_key(key):
            parsed = parse_machine_date(values[0], latest=latest)
            if parsed is not None:
                yield parsed


def _naive(p: ParsedDate) -> datetime | None:
    if p.time is None:
        return None
    return datetime(p.day.year, p.day.month, p.day.day, *p.time)


def _localise(chosen: ParsedDate, others: Iterable[ParsedDate]) -> ParsedDate:
    """Prefer the publisher's local time over UTC for the same instant.

    Many CMSs emit ``article:published_time`` in UTC while another field (sailthru.date,
    ``<time datetime>``, JSON-LD) has the local time; the local calendar day is what readers see.
    """
    base = _naive(chosen)
    if base is None or chosen.offset != "+00:00":
        return chosen
    for other in others:
        local = _naive(other)
        if local is None or other.offset == "+00:00":
            continue
        minutes = round((local - base).total_seconds() / 60)
        if other.offset is not None:
            sign = 1 if other.offset[0] == "+" else -1
            stated = sign * (int(other.offset[1:3]) * 60 + int(other.offset[4:6]))
            if minutes == stated and minutes != 0:
                return other
        elif minutes != 0 and abs(minutes) <= 14 * 60 and minutes % 15 == 0:
            offset = (
                f"{'+' if minutes > 0 else '-'}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
            )
            return ParsedDate(other.day, other.time, offset, other.raw)
    return chosen


def _before_update(
    published: ParsedDate, times: Sequence[Any], latest: date, month_first: bool
) -> ParsedDate:
    """The earlier date of a visible "Dec. 6, 2024 / Updated Dec. 7, 2024" whose update day is
    the structured "published" value: some CMSs overwrite the publication time on each edit."""
    for el in times[:10]:
        text = _el_text(el)
        cue = _MODIFIED_CUE.search(text)
        if cue is None or cue.start() == 0:
            continue
        shown = parse_text_date(text[: cue.start()], latest=latest, month_first=month_first)
        updated = parse_text_date(text[cue.end() :], latest=latest, month_first=month_first)
        if shown and updated and updated.day == published.day and shown.day < published.day:
            return shown
    return published


def _furniture(el: Any) -> bool:
    """Inside an ``<aside>``, a ``<nav>``, the page footer or a sidebar: other pages' dates.

    A ``<footer>`` within an ``<article>`` is the article's own (a byline under the text)."""
    in_footer = False
    for depth, node in enumerate(el.iterancestors()):
        tag = node.tag
        if tag in ("aside", "nav"):
            # Some templates put the byline itself in an <aside class="article-meta">.
            return not _PUBLISHED_CUE.search(_names(node))
        if tag == "article":
            return False
        if tag == "footer" or (depth < 6 and _FURNITURE.search(_names(node))):
            in_footer = True
    return in_footer


def _classify(el: Any, text: str) -> int:
    """+1 published, -1 modified, 0 unknown, -2 noise (comments, footers)."""
    ctx = _context(el)
    around = ctx + " " + text[:60]
    if _MODIFIED_CUE.search(around):
        return -1
    if _NOISE_CUE.search(ctx) or _furniture(el):
        return -2
    if el.get("pubdate") is not None or _PUBLISHED_CUE.search(around):
        return 1
    return 0


#: `_DATEISH_CLASS`'s answer per class value: the values repeat within a page and across pages
#: (short ones only, cleared when full: no page can make it hold much).
_DATEISH_CLASSES: Final[dict[str, bool]] = {}
_DATEISH_CLASSES_MAX: Final = 4096
_DATEISH_CLASS_KEY: Final = 200


def _dateish_class(names: str) -> bool:
    if len(names) > _DATEISH_CLASS_KEY:
        return _DATEISH_CLASS.search(names) is not None
    known = _DATEISH_CLASSES.get(names)
    if known is None:
        if len(_DATEISH_CLASSES) >= _DATEISH_CLASSES_MAX:
            _DATEISH_CLASSES.clear()
        known = _DATEISH_CLASSES[names] = _DATEISH_CLASS.search(names) is not None
    return known


def _attr_date(el: Any, latest: date) -> ParsedDate | None:
    """A machine date in the attributes of a date-ish element (``title="2020-09-20T14:20Z"``)."""
    # Most elements have no class (and "" holds no cue): the search only for the others.
    names = el.get("class") if el is not None else None
    if not names or not _dateish_class(names):
        return None
    for attr in ("datetime", "title", "data-time", "data-date", "data-timestamp", "content"):
        value = el.get(attr)
        if value and _HAS_YEAR.search(value):
            parsed = parse_machine_date(value, latest=latest)
            if parsed is not None:
                return parsed
    return None


def _from_body_text(
    scope: Any, latest: date, month_first: bool, url_month: tuple[int, int] | None = None
) -> ParsedDate | None:
    """The first full date in the page's text (scripts included: some pages print dates
    with JavaScript). The text is read in pieces of `_TEXT_PIECE` characters (the whole text
    at once is a copy of the page, up to four bytes per character: the largest transient of an
    extraction), then regexes only around year numbers.

    With a ``/YYYY/MM/`` URL, the first date of that month wins over earlier ones (menus and
    teasers above the article carry other dates)."""
    best: ParsedDate | None = None
    text = ""
    previous = 0  # where the last year number ended, in ``text``
    scan_from = 0  # where the next search starts, in ``text``
    count = 0
    pieces = _text_pieces(scope)
    final = False
    while not final:
        piece = next(pieces, None)
        final = piece is None
        text += piece or ""
        # A year number is read once its window (40 characters after it) is all there.
        last_start = len(text) if final else len(text) - 44
        position = scan_from
        while True:
            start = _year_at(text, position)
            if start < 0 or start > last_start:
                break
            end = position = start + 4
            if count >= _YEAR_HITS_BUDGET:
                return best
            count += 1
            # From the previous year on at most, so that each window reads its own date.
            window = text[max(previous, start - 40) : end + 40]
            previous = scan_from = end
            parsed = parse_text_date(window, latest=latest, month_first=month_first)
            if parsed is None:
                continue
            if url_month is not None:
                if (parsed.day.year, parsed.day.month) == url_month:
                    return parsed
            elif _PUBLISHED_CUE.search(text[max(0, start - 60) : start]):
                return parsed
            if best is None:
                best = parsed
        # Keep what the next search and its windows and cues can still read: 60 characters
        # before the first place a year number may still start.
        scan_from = max(scan_from, last_start + 1)
        keep = max(0, min(scan_from, previous) - 60)
        text, scan_from, previous = text[keep:], scan_from - keep, max(0, previous - keep)
    return best


def _year_at(text: str, position: int) -> int:
    """Where the next `_HAS_YEAR` match in ``text`` from ``position`` starts, or -1.

    By str.find, which skips to "19" and "20" many times faster than the regex engine tests
    each character of a page's text (tests/test_dates.py compares the two)."""
    at_19 = text.find("19", position)
    at_20 = text.find("20", position)
    while at_19 >= 0 or at_20 >= 0:
        first_19 = at_20 < 0 or 0 <= at_19 < at_20
        start = at_19 if first_19 else at_20
        digits = text[start + 2 : start + 4]
        if len(digits) == 2 and digits.isdecimal():  # isdecimal(): the characters \d matches
            return start
        if first_19:
            at_19 = text.find("19", start + 1)
        else:
            at_20 = text.find("20", start + 1)
    return -1


def _text_pieces(scope: Any) -> Iterator[str]:
    """The text of ``scope`` (what ``tostring(method="text")`` gives), `_TEXT_PIECE`
    characters or a little more at a time."""
    pieces = TEXT_PIECES.active
    if pieces is not None and isinstance(scope.tag, str):
        return pieces(scope, _TEXT_PIECE)
    return _text_pieces_python(scope, _TEXT_PIECE)


def _text_pieces_python(scope: Any, piece: int) -> Iterator[str]:
    """``scope.itertext()`` joined `piece` characters or a little more at a time: the
    reference of the compiled walk (`_page_scan_c.text_pieces`, no proxy per element)."""
    pieces: list[str] = []
    size = 0
    for text in scope.itertext():
        if not isinstance(text, str):  # pragma: no cover - lxml types itertext loosely
            continue
        pieces.append(text)
        size += len(text)
        if size >= piece:
            yield "".join(pieces)
            pieces, size = [], 0
    if pieces:
        yield "".join(pieces)


def _texts_after(headline: Any) -> Iterator[tuple[str, Any]]:
    """(text, owning element) in document order after the headline, within a budget."""
    # Each lxml property read makes a new string: every one is read once (and a blank text
    # tested with isspace(), which makes none).
    budget = _AFTER_BUDGET
    node = headline
    while node is not None and budget > 0 and node.tag not in ("body", "html"):
        tail = node.tail
        if tail and not tail.isspace():
            yield tail, node.getparent()
        for sibling in node.itersiblings():
            for el in sibling.iter():
                budget -= 1
                if budget <= 0:
                    return
                tag = el.tag
                if not isinstance(tag, str) or tag in _SKIP_TAGS:
                    continue
                text = el.text
                if text and not text.isspace():
                    yield text, el
                if el is not sibling:
                    tail = el.tail
                    if tail and not tail.isspace():
                        yield tail, el.getparent()
            tail = sibling.tail
            if tail and not tail.isspace():
                yield tail, sibling.getparent()
        node = node.getparent()


def _texts_before(headline: Any) -> Iterator[tuple[str, Any]]:
    """Texts just above the headline (a dateline over the title), nearest siblings first."""
    budget = _BEFORE_BUDGET
    node = headline
    for _ in range(3):
        if node is None or node.tag in ("body", "html"):
            return
        for sibling in node.itersiblings(preceding=True):
            for el in sibling.iter():
                budget -= 1
                if budget <= 0:
                    return
                tag = el.tag
                if isinstance(tag, str) and tag not in _SKIP_TAGS:
                    text = el.text
                    if text:
                        yield text, el
        node = node.getparent()


class _Candidates:
    """Dates seen in markup with a score; the best wins, earlier ones break ties."""

    def __init__(self, url_month: tuple[int, int] | None = None) -> None:
        self.items: list[tuple[float, int, ParsedDate]] = []
        self.url_month = url_month

    def add(self, parsed: ParsedDate | None, score: float, el: Any = None, text: str = "") -> None:
        """Keep `parsed`; with `el`, the cue words around it move the score (computed lazily)."""
        if parsed is not None:
            if el is not None:
                score += 2.0 * _classify(el, text)
            if self.url_month and (parsed.day.year, parsed.day.month) != self.url_month:
                score -= 6.0
            self.items.append((score, -len(self.items), parsed))

    def best(self, *, confident: bool = True) -> ParsedDate | None:
        """The top candidate; with `confident`, only one without a negative cue."""
        if not self.items:
            return None
        score, _, parsed = max(self.items, key=lambda item: (item[0], item[1]))
        return parsed if score > 0 or not confident else None


def find_dates(
    root: Any,
    url: str | None,
    *,
    meta: Mapping[str, Sequence[str]],
    jsonld: Sequence[Mapping[str, Any]],
    jsonld_other: Sequence[Mapping[str, Any]] = (),
    times: Sequence[Any] = (),
    headlines: Sequence[Any] = (),
    reference_time: datetime | None = None,
    hint: str | None = None,
    month_first: bool = False,
) -> PageDates:
    """The page's publication and modification dates.

    meta: lower-cased meta names/properties to their values, in page order.
    jsonld: the page's own JSON-LD objects (articles, then web pages);
    jsonld_other: the rest (a video's ``uploadDate`` is weaker evidence than the page's meta).
    times: the page's ``<time>`` elements.
    headlines: headline elements, best first; dates right around them are the byline's.
    month_first: read ambiguous ``05/09/2019`` as month-first (US English pages).
    """
    latest = latest_day(reference_time)
    modified = next(_structured(meta, jsonld, _MODIFIED_KEYS, MODIFIED_META, latest), None)
    # Lazily: the rest of the published values only matter for _localise.
    published_iter = chain(
        _structured(meta, jsonld, _PUBLISHED_KEYS, PUBLISHED_META, latest),
        _structured({}, jsonld_other, _PUBLISHED_KEYS, (), latest),
        _other_meta(meta, latest),
    )
    published = next(published_iter, None)
    from_url = date_from_url(url, latest=latest)
    url_month = None if from_url else month_from_url(url)
    if published and url_month and (published.day.year, published.day.month) != url_month:
        published = None  # contradicts /YYYY/MM/ in the URL: look at the markup instead

    if published is None:
        try:
            # With a URL date the markup only refines it, so the costly scans are skipped.
            published = _from_markup(
                root,
                times=times,
                headlines=headlines,
                latest=latest,
                month_first=month_first,
                reference_time=reference_time,
                deep=from_url is None,
                url_month=url_month,
            )
        except (ValueError, TypeError):  # pragma: no cover - lxml on odd trees
            # Not silent: a TypeError here can also be a bug (a compiled module's type check
            # hid one that cost 160 pages their dates).
            logger.warning("newsspider: the date search failed for %s", url, exc_info=True)
            published = None
    else:
        published = _before_update(published, times, latest, month_first)
        if published.offset == "+00:00" and published.time is not None:
            time_values = (el.get("datetime") or "" for el in times[:20])
            parsed_times = (parse_machine_date(v, latest=latest) for v in time_values if v)
            # Lazily: the other values are parsed only until one gives the local time.
            others = chain((published,), published_iter, (p for p in parsed_times if p))
            published = _localise(published, others)
    if from_url is not None and (published is None or published.day != from_url.day):
        # The URL is minted at publication in the publisher's time zone; the page's value
        # is kept only when it falls on the same day (it is more precise then).
        published = from_url
    if published is None and hint:
        published = parse_machine_date(hint, latest=latest)
    if published is None:
        published = _image_date(meta, latest)
    if published is None:
        published = modified
    if published is not None and modified is not None and modified.day < published.day:
        modified = None
    return PageDates(
        published.iso() if published else None,
        modified.iso() if modified else None,
        published.raw if published else None,
        modified.raw if modified else None,
    )


class _TextDates:
    """Dates read from the markup's texts, at most `_MARKUP_DATE_READS` of them (a class: a
    nested function was a closure call for each text)."""

    def __init__(self, latest: date, month_first: bool) -> None:
        self.latest = latest
        self.month_first = month_first
        self.reads = 0

    def read(self, text: str) -> ParsedDate | None:
        # A long text only counts with a dateline at its start ("(18.01.2018) Berlin ...").
        text = text if len(text) <= 160 else text[:40]
        if self.reads >= _MARKUP_DATE_READS or not DATEISH_TEXT_RE.search(text):
            return None
        self.reads += 1
        return parse_text_date(text, latest=self.latest, month_first=self.month_first)


def _from_markup(
    root: Any,
    *,
    times: Sequence[Any],
    headlines: Sequence[Any],
    latest: date,
    month_first: bool,
    reference_time: datetime | None,
    deep: bool,
    url_month: tuple[int, int] | None = None,
) -> ParsedDate | None:
    """Dates in the markup: <time>, the headline's surroundings; with `deep`, a wider scan."""
    found = _Candidates(url_month)
    reader = _TextDates(latest, month_first)
    for el in times[:40]:
        text = _el_text(el)
        value = el.get("datetime") or el.get("content")
        parsed = parse_machine_date(value, latest=latest) if value else None
        shown = reader.read(text)
        if shown is not None and (parsed is None or shown.day != parsed.day):
            # The date the reader sees wins over a (often UTC or re-generated) attribute.
            parsed = shown
        found.add(parsed, 6.0, el, text)
    for rank, headline in enumerate(headlines[:3]):
        for i, (text, el) in enumerate(_texts_after(headline)):
            found.add(reader.read(text) or _attr_date(el, latest), 5.0 - rank - i * 0.05, el, text)
        for i, (text, el) in enumerate(_texts_before(headline)):
            found.add(reader.read(text) or _attr_date(el, latest), 4.0 - rank - i * 0.2, el, text)
    best = found.best()
    if best is not None or not deep:
        return best
    itemprops: list[Any] = list(_ITEMPROP_XPATH(root))  # type: ignore[arg-type]
    for el in itemprops:
        value = el.get("content") or el.get("datetime")
        kind = -1 if el.get("itemprop") == "dateModified" else 1
        # Visible text follows the page's locale, an attribute the machine format.
        parsed = (
            parse_machine_date(value, latest=latest)
            if value
            else parse_text_date(_el_text(el), latest=latest, month_first=month_first)
        )
        found.add(parsed, 10.0 * kind)
    best = found.best()
    if best is not None:
        return best
    # Last resort: the first texts of the body, scored by their element's class/id cues.
    body = root.find("body")
    scope = body if body is not None else root
    reader.reads = 0
    # The texts that may hold a date, found without a proxy per element (`BODY_DATE_RUNS`):
    # each is read and counted twice (`read` counts it too), so the walk stops after the
    # element whose runs make half `_BODY_DATE_READS`, where the reads run out.
    for i, el, run in _body_date_runs(scope, _BODY_ELEMENT_BUDGET, (_BODY_DATE_READS + 1) // 2):
        found.add(reader.read(run), 1.0 - i * 0.0005, el, run)
        reader.reads += 1  # (a second count: `read` counted it too)
    if not found.items:
        # No date in any text: one in the attributes of a date-ish element
        # ("<div class="time-ago" title="2020-09-20T14:20:02Z">2 hours ago</div>").
        for i, el in _classed_elements(scope, _BODY_ELEMENT_BUDGET):
            found.add(_attr_date(el, latest), 1.0 - i * 0.0005, el)
    best = found.best(confident=False)
    if best is None or (url_month and (best.day.year, best.day.month) != url_month):
        # Nothing yet, or only dates the URL's month contradicts: read the whole text.
        in_text = _from_body_text(scope, latest, month_first, url_month)
        if best is None or (in_text and (in_text.day.year, in_text.day.month) == url_month):
            best = in_text
    if best is None and reference_time is not None and headlines:
        for i, (text, _el) in enumerate(_texts_after(headlines[0])):
            if len(text) < 80:
                found.add(parse_relative_date(text, reference_time), 1.0 - i * 0.01)
        best = found.best()
    return best


def _dateish_run(run: str | None) -> bool:
    """Whether a text run may hold a date worth a read: not blank, and a year or a numeric
    date in it (a long run only at its start: "(18.01.2018) Berlin ...")."""
    # Most runs are blank (indentation), which has no digit: isspace() is far cheaper than
    # the search.
    if not run or run.isspace():
        return False
    return DATEISH_TEXT_RE.search(run if len(run) <= 160 else run[:40]) is not None


def _body_date_runs(scope: Any, budget: int, most: int) -> list[tuple[int, Any, str]]:
    runs = BODY_DATE_RUNS.active
    if runs is not None:
        return runs(scope, budget, DATEISH_TEXT_RE.search, most)
    return _body_date_runs_python(scope, budget, most)


def _body_date_runs_python(scope: Any, budget: int, most: int) -> list[tuple[int, Any, str]]:
    """(index, element, run) for the text and tail runs (`_dateish_run`) of the first `budget`
    elements of ``scope.iter(etree.Element)``, by their index there, in document order (an
    element of `_SKIP_TAGS` has none); the walk stops after the element whose runs make
    `most`. The reference of the compiled walk (`_page_scan_c.body_date_runs`)."""
    found: list[tuple[int, Any, str]] = []
    for i, el in enumerate(islice(scope.iter(etree.Element), budget)):
        if el.tag in _SKIP_TAGS:
            continue
        for run in (el.text, el.tail):
            if _dateish_run(run):
                found.append((i, el, run))
        if len(found) >= most:
            break
    return found


def _classed_elements(scope: Any, budget: int) -> list[tuple[int, Any]]:
    classed = CLASSED_ELEMENTS.active
    if classed is not None:
        return classed(scope, budget)
    return _classed_elements_python(scope, budget)


def _classed_elements_python(scope: Any, budget: int) -> list[tuple[int, Any]]:
    """(index, element) for the elements with a class among the first `budget` of
    ``scope.iter(etree.Element)``: the reference of `_page_scan_c.classed_elements`."""
    return [
        (i, el) for i, el in enumerate(islice(scope.iter(etree.Element), budget)) if el.get("class")
    ]


# The body's walks in C (`_page_scan_c`), built at install time with a compiler: libxml2's
# nodes read directly, a proxy made only for the elements kept (tests/test_compiled_scan.py
# compares them with the Python walks above).
try:
    from newsspider.extraction.metadata import _page_scan_c
except ImportError:  # not built: the Python walks
    _page_scan_c = None  # type: ignore[assignment]
BODY_DATE_RUNS: Final[
    CompiledTwin[Callable[[Any, int, Callable[[str], Any], int], list[tuple[int, Any, str]]]]
] = CompiledTwin(_page_scan_c.body_date_runs if _page_scan_c is not None else None)
CLASSED_ELEMENTS: Final[CompiledTwin[Callable[[Any, int], list[tuple[int, Any]]]]] = CompiledTwin(
    _page_scan_c.classed_elements if _page_scan_c is not None else None
)
TEXT_PIECES: Final[CompiledTwin[Callable[[Any, int], Iterator[str]]]] = CompiledTwin(
    _page_scan_c.text_pieces if _page_scan_c is not None else None
)
