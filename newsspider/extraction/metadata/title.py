"""The headline: weigh ``<h1>``, structured titles and ``<title>``, and strip the site name."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from lxml import etree

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.common.caching import MAX_KEY_CHARS, short_key_cache
from newsspider.extraction.common.urls import split_url
from newsspider.extraction.metadata.text import MAX_FIELD_CHARS, field_text

#: Meta keys (lower-cased) that carry the headline, best first.
TITLE_META: Final = (
    "og:title", "twitter:title", "title", "headline", "dc.title", "dc:title", "dcterms.title",
    "dcterms:title", "parsely-title", "sailthru.title", "weibo:article:title",
)  # fmt: skip

_CJK_RE: Final = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
# Separators between a headline and a site/section name. "_" only in CJK titles (below).
# "»" only between spaces: unspaced it is the closing guillemet of a Russian or French quote.
# "Post @ Blog" and a trailing "Headline [Site]" are site suffixes too.
# (The lookahead, what every branch starts with, spares the three branches at the other
# characters: splitting a title costs half as much.)
_SEP_RE: Final = re.compile(
    r"(?=[\s|:｜])(?:\s+(?:[|\-–—»·•/~@]|::)\s+|\s*(?:\||::|｜)\s*|\s+(?=\[[^\[\]]{1,60}\]$))"
)
# CJK titles also join "标题_频道_网站" with unspaced "_" or "-"; tried only when the
# separators above find nothing, so a "_" inside "标题_副题 @ 博客" stays.
_SEP_CJK_RE: Final = re.compile(
    r"\s*_\s*|(?<=[\u3000-\u9fff\uff00-\uffef])-+|-+(?=[\u3000-\u9fff\uff00-\uffef])"
)
_PUNCT_EDGES: Final = "\"'“”‘’«»„‚「」『』《》()[]{}<>.,;:!?¡¿-–—|·•*#~_¶ "
#: Generic second-level labels ("co" in bbc.co.uk): never a site's own name.
_GENERIC_LABELS: Final = frozenset(
    {"com", "co", "org", "net", "gov", "edu", "ac", "ne", "or", "go"}
)


# Letters and digits only: two titles with one skeleton differ only in quotes, dashes, spacing.
_SKELETON_RE: Final = re.compile(r"[\W_]+")


@short_key_cache(512)
def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(text.split()).strip(_PUNCT_EDGES)


def _squash(text: str) -> str:
    """`text` without spaces, dots and hyphens: they do not count when a title part is
    compared with a site name."""
    # str.split() drops what the regex "[\s.\-]" matched as "\s" (str.isspace()): three times
    # faster than that regex's sub().
    return "".join(text.split()).replace(".", "").replace("-", "")


@short_key_cache(512)
def _skeleton(text: str) -> str:
    return _SKELETON_RE.sub("", unicodedata.normalize("NFKC", text).casefold())


def element_text(el: Any) -> str:
    """An element's whitespace-collapsed text (bounded)."""
    parts: list[str] = []
    size = 0
    for text in el.itertext():
        parts.append(text)
        size += len(text)
        if size > 2 * MAX_FIELD_CHARS:
            break
    return field_text("".join(parts), MAX_FIELD_CHARS)


@short_key_cache(1024)
def _bigrams(text: str) -> frozenset[str]:
    return frozenset({text[i : i + 2] for i in range(len(text) - 1)} or {text})


#: `_similar`'s answers for pairs of texts up to `MAX_KEY_CHARS` long (a plain dict, cleared
#: when full: the generic cache wrapper cost more than the lookup for its ~15 calls a page).
_SIMILAR: Final[dict[tuple[str, str], float]] = {}
_SIMILAR_MAX: Final = 1024


def _similar(a: str, b: str) -> float:
    """Dice similarity of character bigrams: cheap, script-neutral, order-tolerant."""
    if len(a) > MAX_KEY_CHARS or len(b) > MAX_KEY_CHARS:
        return _dice(a, b)
    key = (a, b)
    known = _SIMILAR.get(key)
    if known is None:
        if len(_SIMILAR) >= _SIMILAR_MAX:
            _SIMILAR.clear()
        known = _SIMILAR[key] = _dice(a, b)
    return known


def _dice(a: str, b: str) -> float:
    na, nb = _norm(a), _norm(b)
    if not na or not nb:
        return 0.0
    if na == nb:
        return 1.0
    dice = BIGRAM_DICE.active
    if dice is not None:
        return dice(na, nb)
    return _bigram_dice_python(na, nb)


def _bigram_dice_python(a: str, b: str) -> float:
    """The Dice similarity of the texts' sets of character bigrams (a text shorter than two
    characters is its own one member): the reference of `_page_scan_c.bigram_dice`, which
    counts them in sorted arrays of numbers instead of building two sets of strings."""
    ba, bb = _bigrams(a), _bigrams(b)
    return 2 * len(ba & bb) / (len(ba) + len(bb))


@short_key_cache(256)
def _site_tokens(site_name: str | None, url: str | None) -> tuple[str, ...]:
    """Normalised names a site goes by: og:site_name and the registrable part of the host."""
    tokens: list[str] = []
    if site_name:
        tokens.append(_norm(site_name))
    if url:
        parts = split_url(url)
        host = ((parts.hostname or "") if parts is not None else "").removeprefix("www.")
        labels = [p for p in host.split(".") if p]
        if labels:
            tokens.append(host)
            # The label before the public suffix: "cnn" in edition.cnn.com, "bbc" in bbc.co.uk,
            # "pixnet" in someone.pixnet.net.
            core = labels[:-1]
            while len(core) > 1 and core[-1] in _GENERIC_LABELS:
                core.pop()
            if core:
                tokens.append(core[-1])
    return tuple(t for t in tokens if t)


def _is_site_part(part: str, sites: Sequence[str]) -> bool:
    p = _norm(part)
    if not p:
        return True
    squashed = _squash(p)
    for site in sites:
        s = _squash(site)
        if not s:
            continue
        if squashed == s or (len(s) >= 3 and squashed in s):
            return True
        # "CNN Politics" is the site; "The GNU General Public License" only mentions it.
        mentioned = len(s) >= 3 and s in squashed
        if mentioned and (len(s) >= 0.25 * len(squashed) or len(p.split()) <= 3):
            return True
    return False


def _is_site_name(text: str, sites: Sequence[str]) -> bool:
    """Whether a whole heading or title is just the site's name ("Site", "Logo SITE", "site.com").

    Stricter than `_is_site_part`: the name must make up most of the text, so a headline that
    merely mentions the site ("CNN reports ...") is not one.
    """
    squashed = _squash(_norm(text))
    if not squashed:
        return True
    for site in sites:
        s = _squash(site)
        if len(s) >= 3 and s in squashed and len(s) >= 0.5 * len(squashed):
            return True
    return False


# The characters a match of each separator pattern holds (every branch needs one): a title
# with none of them is one piece, found without the regex, which tries its look-ahead at every
# character (most headings and og:titles have no separator).
_SEP_CHARS: Final = frozenset("|-–—»·•/~@:｜[")
_SEP_CJK_CHARS: Final = frozenset("_-")


def _pieces(pattern: re.Pattern[str], title: str) -> tuple[str, ...]:
    chars = _SEP_CHARS if pattern is _SEP_RE else _SEP_CJK_CHARS if pattern is _SEP_CJK_RE else None
    if chars is not None and chars.isdisjoint(title):
        whole = title.strip()
        return (whole,) if whole else ()
    return tuple(p for p in (s.strip() for s in pattern.split(title)) if p)


@short_key_cache(512)
def _split(title: str) -> tuple[str, ...]:
    """The title's pieces at its outermost separators (CJK "_" only when there are none)."""
    parts = _pieces(_SEP_RE, title)
    if len(parts) <= 1 and _CJK_RE.search(title):
        parts = _pieces(_SEP_CJK_RE, title)
    return parts


@short_key_cache(512)
def _split_all(title: str) -> tuple[str, ...]:
    """The title's pieces at every separator, for matching a heading against one of them."""
    parts = _pieces(_SEP_RE, title)
    if _CJK_RE.search(title):
        parts = tuple(q for p in parts for q in _pieces(_SEP_CJK_RE, p))
    return parts


def strip_site_name(
    title: str, *, site_name: str | None = None, url: str | None = None, anchor: str = ""
) -> str:
    """Remove " | Site Name" (or "Site — ", "_频道_网站") around a headline.

    anchor: a text known to be the headline (an h1); the part most like it wins outright.
    """
    return _strip_site_name(title, site_name, url, anchor)


@short_key_cache(512)
def _strip_site_name(title: str, site_name: str | None, url: str | None, anchor: str) -> str:
    # Cached: choose_title asks the same question once per heading and reference.
    if anchor and len(_split_all(title)) > 1:
        best = max((*_split(title), *_split_all(title)), key=lambda p: _similar(p, anchor))
        if _similar(best, anchor) >= 0.8:
            return best
    stripped = _strip_once(title, site_name, url)
    # "标题_频道_网站 - SITE.COM": the CJK piece left may carry its own channel names.
    if (
        stripped != title
        and _CJK_RE.search(stripped)
        and len(_pieces(_SEP_RE, stripped)) == 1
        and len(_split(stripped)) >= 3
    ):
        return _strip_once(stripped, site_name, url)
    return stripped


def _strip_once(title: str, site_name: str | None, url: str | None) -> str:
    parts = _split(title)
    if len(parts) <= 1:
        return title
    sites = _site_tokens(site_name, url)
    kept = list(parts)
    # Drop site-name parts from either end; a trailing "[...]" is a site label by convention.
    while len(kept) > 1 and (_is_bracketed(kept[-1]) or _is_site_part(kept[-1], sites)):
        kept.pop()
    while len(kept) > 1 and _is_site_part(kept[0], sites):
        kept.pop(0)
    if len(kept) < len(parts):
        if len(kept) == 1:
            return kept[0]
        # What remains may still be "Headline - Section": keep the longest piece if it dominates.
        longest = max(kept, key=len)
        if len(longest) >= 0.6 * sum(len(k) for k in kept):
            return longest
        return _rejoin(title, kept)
    # No known site name: the headline is the dominant piece; short trailing pieces are brands.
    longest = max(parts, key=len)
    rest = sum(len(p) for p in parts) - len(longest)
    if len(longest) >= 2 * rest or (len(_norm(longest).split()) >= 4 and len(longest) > rest):
        return longest
    # CJK titles put the headline first and channel/site names after ("标题_频道_网站").
    if _CJK_RE.search(title) and longest is parts[0] and len(longest) >= 4:
        return longest
    return title


def _is_bracketed(part: str) -> bool:
    return part.startswith("[") and part.endswith("]")


def _rejoin(title: str, kept: Sequence[str]) -> str:
    """The original span from the first to the last kept part (separators intact)."""
    start = title.find(kept[0])
    end = title.rfind(kept[-1])
    if start < 0 or end < 0 or end < start:
        return " ".join(kept)
    return title[start : end + len(kept[-1])].strip()


def choose_title(
    *,
    meta: Mapping[str, Sequence[str]],
    jsonld: Sequence[Mapping[str, Any]],
    title_tag: str,
    headings: Sequence[Any],
    site_name: str | None,
    url: str | None,
    hint: str | None = None,
    trusted_headings: int = 0,
) -> tuple[str | None, Any | None]:
    """The headline and, when it came from one, the heading element it was read from.

    jsonld: the page's article objects; headings: candidate ``<h1>``-like elements, best first;
    the first `trusted_headings` of them were found next to the main content.
    """
    site = _norm(site_name or "")
    sites = _site_tokens(site_name, url)
    structured: list[str] = []
    for obj in jsonld[:3]:
        value = obj.get("headline") or obj.get("name")
        if isinstance(value, str) and field_text(value, MAX_FIELD_CHARS):
            structured.append(field_text(value, MAX_FIELD_CHARS))
            break
    for key in TITLE_META:
        for value in meta.get(key, ())[:1]:
            text = field_text(value, MAX_FIELD_CHARS)
            # A "title" that is only the site's name says nothing about this page.
            if text and _norm(text) != site and not _is_site_name(text, sites):
                structured.append(text)
    title_tag = field_text(title_tag, MAX_FIELD_CHARS)

    references = [t for t in (*structured[:2], title_tag) if t]
    if hint:
        references.append(field_text(hint, MAX_FIELD_CHARS))

    # A visible heading that agrees with the page's own titles is the headline.
    best_heading: tuple[tuple[float, int, int], str, Any] | None = None
    seen: set[int] = set()
    for el in headings:
        if id(el) in seen:
            continue
        seen.add(id(el))
        text = _heading_text(el)
        if not (2 <= len(text) <= MAX_FIELD_CHARS) or _norm(text) == site:
            continue
        if _is_site_name(text, sites):
            continue  # the logo
        scores = [_agreement(text, ref, site_name, url) for ref in references]
        score = max(scores, default=0.0)
        # Ties go to the heading more sources agree with ("Question?" over a tag "Backup" that
        # leads the <title>), then, for two headings each matching a piece of "Headline —
        # Project", to the earlier piece (site names trail far more often than they lead).
        rank = (score, sum(s >= 0.8 for s in scores), -_piece_index(text, title_tag))
        if score >= 0.8 and (best_heading is None or rank > best_heading[0]):
            best_heading = (rank, text, el)
    agreed = _agreed_title(structured, site_name, url)
    if best_heading is not None:
        text, el = best_heading[1], best_heading[2]
        spelled = _same_words(text, structured, agreed, site_name, url)
        if spelled:
            return spelled, el
        if any(_norm(ref) == _norm(text) for ref in references):
            return text, el  # a structured title says exactly this: nothing to trim
        # A heading that also holds a logo or kicker ("<span>Kicker</span>Headline"): the
        # page's own title, when the heading holds it as a separate piece, is the headline.
        for ref in references:
            cleaned = strip_site_name(ref, site_name=site_name, url=url)
            n_ref, n_text = _norm(cleaned), _norm(text)
            if ref.endswith(("...", "…")) or len(n_ref) < 0.6 * len(n_text):
                continue  # truncated, or only a fragment of the heading
            if len(n_ref) >= 10 and n_ref in n_text and len(n_text) > 1.15 * len(n_ref):
                rest = n_text.replace(n_ref, " ", 1).strip(_PUNCT_EDGES)
                # Only when the heading marks the two apart (the title or the rest in its own
                # element) or the rest is the site's name: "Headline to Prevent Issues" is a
                # longer headline, not a headline with a kicker.
                if _holds_piece(el, n_ref) or _holds_piece(el, rest) or _is_site_name(rest, sites):
                    return cleaned, el
        return text, el

    if not structured and trusted_headings:
        # Only a <title> to go on (often just the site's name): the heading over the content
        # is better evidence when it reads like a headline.
        text = _heading_text(headings[0])
        if len(text) >= 15 and _norm(text) != site:
            return text, headings[0]
    for candidate in (*structured, title_tag):
        if candidate:
            return strip_site_name(candidate, site_name=site_name, url=url), None
    for el in headings:
        text = _heading_text(el)
        if text:
            return text, el
    return (field_text(hint, MAX_FIELD_CHARS) or None), None


#: Elements that start a new line inside a heading (a kicker above the headline).
_BREAK_TAGS: Final = frozenset({"br", "div", "p", "small", "sup", "sub", "li", "time"})


def _needs_space(left: str, right: str, block: bool, piece: int) -> bool:
    """Whether two text pieces of a heading that touch at an element edge need a space.

    At a block edge always; at an inline edge ("<span>Kicker</span>Headline") only when a
    word ends and a capitalised one starts, and the left piece is more than a drop cap.
    """
    if left[-1:].isspace() or right[:1].isspace() or not left or not right:
        return False
    if block:
        return True
    return piece >= 2 and right[0].isupper() and (left[-1].isalnum() or left[-1] in ".!?:;,)")


def heading_text(el: Any) -> str:
    """A heading's visible text with a space where its spans meet unspaced ("KickerHeadline").

    Bounded like `element_text`; a documentation permalink mark ("Title¶") is dropped.
    """
    parts: list[str] = []
    size = 0
    edge: bool | None = None  # an element edge since the last text: True for a block edge
    run = 0  # characters since the last edge
    left_run = 0  # characters in the run before that edge
    for event, node in etree.iterwalk(el, events=("start", "end")):
        if node is not el:
            block = isinstance(node.tag, str) and node.tag.lower() in _BREAK_TAGS
            edge = block or bool(edge)
            if run:
                left_run, run = run, 0
        text = node.text if event == "start" else (node.tail if node is not el else None)
        if not text:
            continue
        if edge is not None and parts and _needs_space(parts[-1], text, edge, left_run):
            parts.append(" ")
        edge = None
        parts.append(text)
        run += len(text)
        size += len(text)
        if size > 2 * MAX_FIELD_CHARS:
            break
    return field_text("".join(parts), MAX_FIELD_CHARS).rstrip("¶ ")


def _holds_piece(el: Any, n_piece: str) -> bool:
    """Whether one element inside heading `el` holds exactly `n_piece` (normalised)."""
    for count, child in enumerate(el.iter()):
        if count > 30:
            break
        if child is not el and _norm(heading_text(child)) == n_piece:
            return True
    return False


_SEPARATOR_CHARS: Final = frozenset(":;,.|/·•-–—")
_QUOTES: Final = str.maketrans("‘’‚‛“”„‟′″", "''''\"\"\"\"'\"")


def _same_words(
    heading: str,
    structured: Sequence[str],
    agreed: str,
    site_name: str | None,
    url: str | None,
) -> str:
    """A structured title with the heading's words but other separators, or "".

    A heading whose spans lost their separator ("Kicker Headline" for "Kicker: Headline")
    or that uses other dashes reads better as the publisher wrote it; two sources that agree
    come first. A difference in quote style alone keeps the heading: that is how the page
    shows it.
    """
    core = heading.strip(_PUNCT_EDGES)
    key = _SKELETON_RE.sub("", core)
    for text in (agreed, *structured[:3]):
        if not text:
            continue
        cleaned = strip_site_name(text, site_name=site_name, url=url)
        inner = cleaned.strip(_PUNCT_EDGES)
        if inner == core or _SKELETON_RE.sub("", inner) != key:
            continue
        if inner.translate(_QUOTES) == core.translate(_QUOTES):
            return ""
        if _separators(inner) > _separators(core):
            return cleaned
    return ""


def _separators(text: str) -> int:
    """Characters in `text` that separate a kicker, a headline and a subtitle."""
    return sum(1 for ch in text if ch in _SEPARATOR_CHARS)


def _agreed_title(structured: Sequence[str], site_name: str | None, url: str | None) -> str:
    """The title two structured sources give alike (site name stripped), or ""."""
    seen: dict[str, str] = {}
    for text in structured[:4]:
        cleaned = strip_site_name(text, site_name=site_name, url=url)
        key = _norm(cleaned)
        if key in seen:
            return seen[key]
        seen[key] = cleaned
    return ""


def _heading_text(el: Any) -> str:
    return heading_text(el)


def _piece_index(text: str, title: str) -> int:
    """Which separator-delimited piece of `title` `text` is most like (0 when title is whole)."""
    parts = _split_all(title) if title else ()
    if len(parts) <= 1:
        return 0
    return max(range(len(parts)), key=lambda i: _similar(parts[i], text))


@short_key_cache(256)
def _agreement(heading: str, ref: str, site_name: str | None, url: str | None) -> float:
    """How well a heading matches a title, ignoring the site name the title may carry."""
    h = _norm(heading)
    if not h:
        return 0.0
    best = _similar(heading, ref)
    parts = _split_all(ref)
    if len(parts) > 1:
        longest = max(len(p) for p in parts)
        # The first most similar part, as max() gives it (a loop: a lambda key was a closure
        # call per part).
        match, most = parts[0], _similar(parts[0], heading)
        for part in parts[1:]:
            similarity = _similar(part, heading)
            if similarity > most:
                match, most = part, similarity
        leading = match is parts[0] and _norm(match) == h
        if (len(match) < 0.5 * longest and not leading) or (
            match is parts[-1] and _is_bracketed(match)
        ):
            # The heading matches a minor piece of the title: the site's logo, not the headline.
            # Unless it is the leading piece word for word ("Quickstart — Flask Documentation"):
            # site names trail, and a logo that leads is caught as the site's name.
            return best
    cleaned = strip_site_name(ref, site_name=site_name, url=url, anchor=heading)
    best = max(best, _similar(heading, cleaned))
    r = _norm(ref)
    # The heading is a whole piece of the title ("Headline | Site" contains "Headline").
    if h in r and len(h) >= 0.5 * len(_norm(cleaned)) and len(h) >= 8:
        best = max(best, 0.9)
    return best


# The bigram similarity in C (`_page_scan_c.bigram_dice`), built at install time with a
# compiler (tests/test_compiled_meta_walks.py compares it with `_bigram_dice_python`).
try:
    from newsspider.extraction.metadata import _page_scan_c
except ImportError:  # not built: the Python sets
    _page_scan_c = None  # type: ignore[assignment]
BIGRAM_DICE: Final[CompiledTwin[Callable[[str, str], float]]] = CompiledTwin(
    _page_scan_c.bigram_dice if _page_scan_c is not None else None
)
