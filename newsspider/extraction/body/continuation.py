"""Multi-page articles: the link to the next page of the article itself.

A story split over pages links its next page in one of three ways: ``rel="next"`` (a
``<link>`` in the head or an ``<a>`` in or after the article), numbered page links inside or
right after the article's container ("1 2 3"), or a next-page link worded in the page's language
("Next page", "Seite 2", "下一页"). Lists of teasers paginate the same ways, and blogs link the
next *story* with ``rel="next"`` too, so a link is taken only when its URL is the same page's
with a page number one higher (or a page number added): the path and query with their numbers
and page words left out are the page's own, and exactly one small number differs. Next-story
links carry another slug or another (large) id; whether the page is an article at all is for
the caller (`api`), which reports the URL only on article pages.

The same links read backwards say that a page *is* a later page of a story (`story_links`): a
``rel="first"``/``rel="prev"`` link, the pager's "1" or a previous-page word, or the canonical
URL pointing at an earlier page of the same story (the same URL tests, reversed). A crawl that
reaches page 2 directly (from a sitemap or a feed) then asks for the first page instead.

Hand-written: no maintained library detects article pagination (the peers do not follow it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import islice
from typing import Any, Final
from urllib.parse import urljoin, urlsplit

from lxml import etree

from newsspider.core_loader import CompiledTwin

#: A page number is small: article ids and dates differ by one too, but are large.
MAX_PAGE_NUMBER: Final = 100
#: Links looked at in and after the container, at most (a page-controlled count).
MAX_LINKS: Final = 300
#: Elements after the container (its following siblings, then its parent's) that may hold the
#: page links: the pager sits right after the article, not at the foot of the page.
MAX_FOLLOWING: Final = 4
#: Longer link texts are no page links (checked before the text is normalised).
MAX_LINK_TEXT: Final = 60
#: Children at each end of the container whose links are looked at.
EDGE_CHILDREN: Final = 3
#: Link texts that name the next page, by language (whole text, casefolded, arrows stripped).
NEXT_WORDS: Final = frozenset(
    """next|next page|continue|continued|continue reading on next page|nächste seite|nächste|weiter|
    page suivante|suivante|suivant|página siguiente|siguiente|pagina successiva|successiva|
    avanti|próxima página|próxima|seguinte|volgende pagina|volgende|następna strona|następna|
    dalej|следующая страница|следующая|далее|下一页|下页|下一頁|次のページ|次へ|다음 페이지|다음|
    nästa sida|nästa|næste side|neste side|seuraava sivu|seuraava|sonraki sayfa|sonraki""".replace(
        "\n", ""
    )
    .replace("    ", "")
    .split("|")
)
#: Link texts that name the previous page (the same languages; "back" alone is too common).
PREVIOUS_WORDS: Final = frozenset(
    """previous|previous page|prev|vorherige seite|vorherige|page précédente|précédente|
    précédent|página anterior|anterior|pagina precedente|precedente|vorige pagina|vorige|
    poprzednia strona|poprzednia|предыдущая страница|предыдущая|上一页|上页|上一頁|前のページ|
    前へ|이전 페이지|이전|föregående sida|föregående|forrige side|edellinen sivu|edellinen|
    önceki sayfa|önceki""".replace("\n", "")
    .replace("    ", "")
    .split("|")
)
#: Why a page was taken for a later page of a story (`story_links`): a bounded set, best first.
EARLIER_SIGNALS: Final = ("rel_first", "page_one_link", "rel_prev", "previous_link", "canonical")
#: "Seite 2", "Page 2", "第2页": a worded link to a numbered page.
_WORDED_NUMBER: Final = re.compile(
    r"^(?:page|seite|pagina|página|strona|страница|side|sivu|sayfa|pagina)\s*(\d{1,3})$|^第\s*(\d{1,3})\s*[页頁]$"
)
#: Path and query words that mark a page number ("/page/2", "?seite=2", "-p2").
_PAGE_WORDS: Final = frozenset(
    "page pages p pg paged seite pagina página strona side sivu sayfa pag part teil".split()
)
#: A story URL's slug has at least this many words (tuned on the development corpora's pages
#: reporting a next page: listings classified as articles have one to four).
MIN_SLUG_WORDS: Final = 5
_FILE_SUFFIXES: Final = (".html", ".htm", ".shtml", ".php", ".asp", ".aspx", ".jsp")
_LONG_NUMBER: Final = re.compile(r"\d{4}")
_SLUG_SPLIT: Final = re.compile(r"[-_.+]+")
_TOKEN: Final = re.compile(r"[^\W_]+")
_NUMBER: Final = re.compile(r"\d+")
_STRIP: Final = " \t\r\n»›>→…·|-–—:()[]«‹<←"


def _family(url: str) -> tuple[str, tuple[str, ...]] | None:
    """The URL less its page markers: host and its path and query words without numbers or
    page words. None for a URL that is not http(s)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    words = []
    for token in _TOKEN.findall(f"{parts.path.lower()} {parts.query.lower()}"):
        word = _NUMBER.sub("", token)
        if word and word not in _PAGE_WORDS and word not in ("index", "html", "htm", "php"):
            words.append(word)
    return parts.netloc.lower(), tuple(words)


def _numbers(url: str) -> list[int]:
    parts = urlsplit(url)
    return [int(n) for n in _NUMBER.findall(f"{parts.path} {parts.query}")[:20] if len(n) < 10]


def _next_page_step(here: int, there: int) -> bool:
    return there == here + 1


def _first_page_step(here: int, there: int) -> bool:
    return here == 1 and there >= 2


def page_number(url: str, next_url: str) -> int | None:
    """The page number `next_url` names when it is `url`'s next page (one number one higher,
    or a page number added to a first page's URL); else None."""
    return _numbered_page(url, next_url, (_next_page_step,))


def later_page(first: str, url: str) -> int | None:
    """The page number of `url` when it is a later page (2 to `MAX_PAGE_NUMBER`) of the story
    whose first page is `first`: `first` with a page number added, or with its page number 1
    raised (``?page=1`` -> ``?page=3``). None otherwise (another story, the same page)."""
    return _numbered_page(first, url, (_first_page_step,))


def _numbered_page(
    url: str, other: str, steps: tuple[Callable[[int, int], bool], ...]
) -> int | None:
    """The page number `other` names when it is `url` with a page number added (2 to
    `MAX_PAGE_NUMBER`), or with exactly one number changed as one of `steps(here, there)`
    allows (at most `MAX_PAGE_NUMBER`); else None. The one URL test behind `page_number`,
    `later_page` and `_earlier`."""
    family = _family(url)
    if family is None or family != _family(other):
        return None
    here, there = _numbers(url), _numbers(other)
    if len(there) == len(here) + 1:
        # A page number added: the first page's own numbers kept, one more somewhere.
        for index, number in enumerate(there):
            if there[:index] + there[index + 1 :] == here:
                return number if 2 <= number <= MAX_PAGE_NUMBER else None
        return None
    if len(there) != len(here):
        return None
    differ = [(a, b) for a, b in zip(here, there, strict=True) if a != b]
    if len(differ) == 1 and differ[0][1] <= MAX_PAGE_NUMBER:
        before, after = differ[0]
        for step in steps:
            if step(before, after):
                return after
    return None


def _earlier(url: str, target: str) -> bool:
    """Is `target` an earlier page of `url`'s story: its previous page or its first? (Both
    tests on one reading of the two URLs.)"""
    return _numbered_page(target, url, (_next_page_step, _first_page_step)) is not None


def _edge_children(parent: Any) -> list[Any]:
    """The first and last `EDGE_CHILDREN` element children of `parent` (all of them when it
    has at most twice as many), in order: a proxy only for those (a container's paragraphs
    can number hundreds)."""
    first = list(islice(parent.iterchildren(etree.Element), 2 * EDGE_CHILDREN + 1))
    if len(first) <= 2 * EDGE_CHILDREN:
        return first
    last = list(islice(parent.iterchildren(etree.Element, reversed=True), EDGE_CHILDREN))
    return first[:EDGE_CHILDREN] + last[::-1]


def _links_around(container: Any) -> list[Any]:
    """`<a>` elements at the container's edges, then in the few elements right after it (its
    following siblings, then its parent's): bounded, in document order."""
    # Inside: the container's first and last few children (a pager sits at the top or the
    # foot of the text, not between its paragraphs), through single-child wrappers.
    inner = container
    children = _edge_children(inner)
    while len(children) == 1:
        inner = children[0]
        children = _edge_children(inner)
    links: list[Any] = [] if inner.tag != "a" else [inner]
    for child in children:
        links.extend(islice(child.iter("a"), MAX_LINKS))
    node = container
    for _ in range(2):
        sibling = node.getnext()
        taken = 0
        while sibling is not None and taken < MAX_FOLLOWING and len(links) < 2 * MAX_LINKS:
            if isinstance(sibling.tag, str):
                taken += 1
                links.extend(islice(sibling.iter("a"), MAX_LINKS))
            sibling = sibling.getnext()
        parent = node.getparent()
        if parent is None:
            break
        node = parent
    return links


def _link_facts(links: list[Any]) -> list[tuple[str | None, str]]:
    facts = LINK_FACTS.active
    if facts is not None:
        return facts(links)
    return _link_facts_python(links)


def _link_facts_python(links: list[Any]) -> list[tuple[str | None, str]]:
    """(rel, whole text) of each link: the reference of `_page_scan_c.link_facts`. The whole
    text is its text nodes joined in C, as itertext() gives them (the same strings on every
    link of the development pages, at a fifth of the cost)."""
    return [
        (
            link.get("rel"),
            link.text or ""
            if len(link) == 0
            else etree.tostring(link, method="text", encoding="unicode", with_tail=False),
        )
        for link in links
    ]


def head_next_link(root: Any) -> str | None:
    """The href of a ``<link rel="next">`` in the head (read before cleaning drops it)."""
    return head_page_links(root)[0]


def head_page_links(root: Any) -> tuple[str | None, str | None, str | None]:
    """The hrefs of the head's ``<link rel="next">``, ``rel="prev"`` and ``rel="first"`` (the
    first of each), read before cleaning drops them."""
    head = root.find("head")
    if head is None:
        return None, None, None
    links = HEAD_LINKS.active
    if links is not None:
        return links(head)
    return _head_page_links_python(head)


def _head_page_links_python(head: Any) -> tuple[str | None, str | None, str | None]:
    """`head_page_links` below the ``<head>`` by lxml's iterator: the reference of the compiled
    reading (`_page_scan_c.head_links`; a head holds dozens of stylesheet and preload links,
    and each attribute read through a proxy costs about 1,500 instructions)."""
    found: dict[str, str] = {}
    for link in head.iter("link"):
        href = link.get("href")
        if not href:
            continue
        for word in (link.get("rel") or "").lower().split():
            rel = "prev" if word == "previous" else word
            if rel in ("next", "prev", "first"):
                found.setdefault(rel, str(href))
    return found.get("next"), found.get("prev"), found.get("first")


# The head's links read in C, built at install time with a compiler (tests/test_compiled_scan.py
# compares it with `_head_page_links_python`).
try:
    from newsspider.extraction.metadata import _page_scan_c
except ImportError:  # not built: the Python reading
    _page_scan_c = None  # type: ignore[assignment]
HEAD_LINKS: Final[CompiledTwin[Callable[[Any], tuple[str | None, str | None, str | None]]]] = (
    CompiledTwin(_page_scan_c.head_links if _page_scan_c is not None else None)
)
LINK_FACTS: Final[CompiledTwin[Callable[[list[Any]], list[tuple[str | None, str]]]]] = CompiledTwin(
    _page_scan_c.link_facts if _page_scan_c is not None else None
)


def story_url(url: str) -> bool:
    """Does the URL have a story's shape? Its last path segment is a file (``.html``), holds an
    id or a date (four digits or more) or is a slug of five words or more. Section, category
    and home URLs (``/electronics/``, ``/cat/sofas-fu003/``, ``/``) are not: the classifier
    takes some of those listings for articles, and their pagination is no continuation."""
    try:
        path = urlsplit(url).path
    except ValueError:  # an unclosed IPv6 host: urllib refuses it
        return False
    segments = [segment for segment in path.split("/") if segment]
    # A later page's own number ("/slug/2/", "/slug/page/2/") is not the story's segment.
    while segments and (
        (segments[-1].isdigit() and len(segments[-1]) < 4) or segments[-1].lower() in _PAGE_WORDS
    ):
        segments.pop()
    if not segments:
        return False
    last = segments[-1].lower()
    if last.endswith(_FILE_SUFFIXES) or _LONG_NUMBER.search(last) is not None:
        return True
    return len([word for word in _SLUG_SPLIT.split(last) if word]) >= MIN_SLUG_WORDS


def next_page_url(container: Any, url: str | None, head_next: str | None = None) -> str | None:
    """The URL of the article's next page: rel="next", the numbered link one above this page's
    number, or a next-page word, in or right after `container` (an lxml element); the head's
    rel="next" when none of those is there. None when there is none, no URL to resolve, or the
    URL has no story's shape (`story_url`)."""
    return story_links(container, url, (head_next, None, None))[0]


def story_links(
    container: Any,
    url: str | None,
    head: tuple[str | None, str | None, str | None] = (None, None, None),
    canonical: str | None = None,
) -> tuple[str | None, tuple[str, str] | None]:
    """The article's next page (as `next_page_url`) and, when the page is a later page of a
    story, the earliest page of it that the page links, with the signal that said so (one of
    `EARLIER_SIGNALS`): a ``rel="first"`` link, the pager's "1", a ``rel="prev"`` link, a
    previous-page word (in or right after `container`), then the head's ``<link>``s (`head`:
    the hrefs of rel next, prev and first, `head_page_links`), or the `canonical` URL. An
    earlier page passes the same URL tests as a next page, reversed (`page_number`,
    `later_page`). One pass over the same links."""
    if not url or not story_url(url):
        return None, None
    head_next, head_prev, head_first = head
    candidates: list[tuple[int, int, str]] = []  # rank (rel=next, numbered, worded), number
    earlier: list[tuple[int, str]] = []  # rank (an index of EARLIER_SIGNALS), target
    links = _links_around(container)
    for link, (rel, whole_text) in zip(links, _link_facts(links), strict=True):
        # What the link says first (its rel, its text), its href only for the few links that
        # name a page: most links around an article are neither, and each attribute read
        # through a proxy costs about 1,500 instructions (`LINK_FACTS` reads rel and text
        # without one).
        rank = 3
        text = ""
        back = -1
        rels = rel.lower().split() if rel else ()
        if "next" in rels:
            rank = 0
        elif "first" in rels:
            back = 0
        elif "prev" in rels or "previous" in rels:
            back = 2
        else:
            # Cheap tests first: page links are short, and most links are long or headlines.
            text = whole_text
            if len(text) > MAX_LINK_TEXT:
                continue
            text = " ".join(text.split()).strip(_STRIP).casefold()
            if text.isdigit() and len(text) < 4:
                rank = 1
            elif text in NEXT_WORDS:
                rank = 2
            elif text in PREVIOUS_WORDS:
                back = 3
            else:
                worded = _WORDED_NUMBER.match(text)
                if worded is not None:
                    rank = 1
                    text = worded.group(1) or worded.group(2)
            if rank == 1 and text == "1":
                back, rank = 1, 3
        if back < 0 and rank == 3:
            continue
        href = link.get("href")
        if not href or href.startswith(("#", "javascript:", "mailto:")):
            continue
        if back >= 0:
            target = _absolute(url, href)
            if target and _earlier(url, target):
                earlier.append((back, target))
            continue
        target, number = _resolved(url, href)
        if number is None:
            continue
        if rank == 1 and int(text) != number:
            continue  # "3" linking to page 2 of something else
        candidates.append((rank, number, target))
    next_url = min(candidates)[2] if candidates else None
    if next_url is None and head_next:
        target, number = _resolved(url, head_next)
        if number is not None and target != url:
            next_url = target
    if not earlier:
        for back, href in ((0, head_first), (2, head_prev), (4, canonical)):
            target = _absolute(url, href) if href else ""
            if target and target != url and _earlier(url, target):
                earlier.append((back, target))
                break
    if not earlier:
        return next_url, None
    back, target = min(earlier)
    return next_url, (target, EARLIER_SIGNALS[back])


def _absolute(url: str, href: str) -> str:
    """The link made absolute; "" for an href urllib refuses."""
    try:
        return urljoin(url, href.strip())
    except ValueError:
        return ""


def _resolved(url: str, href: str) -> tuple[str, int | None]:
    """The link's absolute URL and the page number it names (`page_number`); no number for an
    href urllib refuses (an unclosed IPv6 host, found by the fuzzer's pages)."""
    try:
        target = urljoin(url, href.strip())
        return target, page_number(url, target)
    except ValueError:
        return "", None
