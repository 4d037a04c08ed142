"""Tell article links from navigation, listing and pagination links, without per-site rules.

Each link gets a score from features that hold across news sites in any language: the shape of
its URL (dates in the path, numeric ids, long dashed slugs, depth), the length of its anchor text
(headlines are long, menu items short; CJK characters count more) and where it sits on the page
(main content vs nav/header/footer; links inside comments are ignored). The weights are
hand-set; `ARTICLE_THRESHOLD` separates the classes on the sample site and on typical layouts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from urllib.parse import urldefrag, urlsplit

from lxml import etree

from newsspider.extraction.common.urls import join_url
from newsspider.spiders._dates import date_in_url
from newsspider.spiders._xml import text_of

ARTICLE_THRESHOLD = 3.0
#: Anchor text at least this heavy (`_text_weight`) reads as a headline.
HEADLINE_WEIGHT = 24


class LinkKind(Enum):
    ARTICLE = "article"
    LISTING = "listing"
    PAGINATION = "pagination"


class Region(Enum):
    CONTENT = "content"
    CHROME = "chrome"  # nav, header, footer, menus, breadcrumbs
    SIDEBAR = "sidebar"  # aside, widgets, "most read", related links
    COMMENTS = "comments"


@dataclass(frozen=True, slots=True)
class Link:
    url: str
    text: str
    region: Region
    kind: LinkKind
    score: float


_CHROME_TAGS = frozenset({"nav", "header", "footer", "menu"})
_CHROME_WORDS = re.compile(
    r"(?:^|[\s_-])(nav|navbar|navigation|menu|header|masthead|footer|breadcrumbs?|topbar|"
    r"site-header|site-footer|toolbar|pager-top)(?:$|[\s_-])",
    re.IGNORECASE,
)
_SIDEBAR_WORDS = re.compile(
    r"(?:^|[\s_-])(sidebar|aside|widget|related|popular|most-read|trending|promo|ad|ads|"
    r"advert|sponsor)(?:$|[\s_-])",
    re.IGNORECASE,
)
_COMMENT_WORDS = re.compile(r"(?:^|[\s_-])(comments?|replies|discussion|disqus)(?:$|[\s_-])", re.I)

# Path segments that name a listing (followed, never judged as articles).
_LISTING_TOKENS = frozenset(
    {
        "tag", "tags", "topic", "topics", "category", "categories", "section", "sections",
        "author", "authors", "archive", "archives", "page", "index", "list", "latest",
        "news", "rubric", "theme",
    }
)  # fmt: skip
# Segments of pages that are neither articles nor listings: never followed.
_JUNK_TOKENS = frozenset(
    {
        "about", "contact", "contacts", "privacy", "terms", "login", "logout", "signin",
        "signup", "register", "subscribe", "account", "search", "cart", "shop", "jobs",
        "careers", "advertise", "feed", "rss", "cdn-cgi", "wp-admin", "wp-login.php",
        "share", "print", "help", "faq", "cookies", "legal",
    }
)  # fmt: skip
_SKIP_EXTENSIONS = frozenset(
    {
        "jpg", "jpeg", "png", "gif", "webp", "svg", "ico", "pdf", "zip", "gz", "mp3", "mp4",
        "avi", "mov", "webm", "css", "js", "json", "xml", "rss", "atom", "txt", "doc",
        "docx", "xls", "xlsx", "ppt", "pptx", "woff", "woff2", "ttf", "exe", "dmg", "apk",
    }
)  # fmt: skip
_PAGE_EXTENSIONS = frozenset({"html", "htm", "shtml", "php", "asp", "aspx", "jsp"})

_NUMERIC_ID = re.compile(r"(?<![0-9])\d{4,}(?![0-9])")
_PAGINATION_URL = re.compile(
    r"(?:/page/\d+/?$|/p/?\d+/?$|[?&](?:page|p|pg|paged|start|offset)=\d+|[_-](?:page|p)?\d{1,3}\.s?html?$)",
    re.IGNORECASE,
)
_PAGINATION_TEXT = re.compile(
    r"^\s*(?:\d{1,4}|next|next page|older|older posts|more|load more|»|›|>|→|>>|"
    r"下一页|下页|后页|更多|下一頁|"
    r"следующая|следующая страница|далее|дальше|ещё|еще|вперёд|вперед)\s*[»›>→]?\s*$",
    re.IGNORECASE,
)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_WORD_SPLIT = re.compile(r"[-_+.]+")


def _region_of(anchor: etree._Element) -> Region:
    region = Region.CONTENT
    for ancestor in anchor.iterancestors():
        tag = ancestor.tag if isinstance(ancestor.tag, str) else ""
        marks = f"{ancestor.get('class', '')} {ancestor.get('id', '')} {ancestor.get('role', '')}"
        if _COMMENT_WORDS.search(marks):
            return Region.COMMENTS  # nothing inside comments is worth following
        if tag in _CHROME_TAGS or _CHROME_WORDS.search(marks) or "navigation" in marks:
            region = Region.CHROME
        elif region is Region.CONTENT and (tag == "aside" or _SIDEBAR_WORDS.search(marks)):
            region = Region.SIDEBAR
    return region


def _text_weight(text: str) -> float:
    """Headline-ness of anchor text: CJK characters carry about three Latin ones."""
    cjk = len(_CJK.findall(text))
    return cjk * 3 + (len(text) - cjk)


def looks_like_headline(link: Link) -> bool:
    """A link in the page's content with a headline's anchor text: whatever its URL says, it
    may well lead to an article (sections are linked from menus, with a word or two)."""
    return link.region is Region.CONTENT and _text_weight(link.text) >= HEADLINE_WEIGHT


def path_segments(url: str) -> list[str]:
    return [segment for segment in urlsplit(url).path.split("/") if segment]


def score_article(url: str, text: str, region: Region) -> float:
    """How much ``url`` looks like an article link; >= `ARTICLE_THRESHOLD` means article."""
    segments = path_segments(url)
    if not segments:
        return -5.0
    lowered = [segment.lower() for segment in segments]
    last = lowered[-1]
    stem, _, extension = last.rpartition(".")
    if not stem or extension not in _PAGE_EXTENSIONS:
        stem = last
    words = [word for word in _WORD_SPLIT.split(stem) if word]
    score = 0.0
    if date_in_url(url) is not None:
        score += 3.0
    if _NUMERIC_ID.search(stem) or (len(lowered) > 1 and _NUMERIC_ID.fullmatch(lowered[-2])):
        score += 2.0
    if len(words) >= 4 and len(stem) >= 20:
        score += 2.0
    elif len(words) >= 3:
        score += 1.0
    if extension in _PAGE_EXTENSIONS:
        score += 0.5
    score += 0.5 if len(segments) >= 2 else -1.0
    # /tag/x/, /author/x/, /news/: listing names, unless the last segment is itself an item.
    if last in _LISTING_TOKENS or (
        len(lowered) > 1 and lowered[-2] in _LISTING_TOKENS and not _NUMERIC_ID.search(stem)
    ):
        score -= 3.0
    weight = _text_weight(text)
    if weight >= HEADLINE_WEIGHT:
        score += 1.5
    elif weight < 10:
        score -= 1.0
    if region is Region.CHROME:
        score -= 1.5  # menus link sections; a dated, slugged URL there is still an article
    elif region is Region.CONTENT:
        score += 0.5
    return score


def is_pagination(url: str, text: str, rel: str) -> bool:
    if "next" in rel.lower().split() or "prev" in rel.lower().split():
        return True
    return bool(_PAGINATION_URL.search(url)) and bool(_PAGINATION_TEXT.match(text) or not text)


def _skippable(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return True
    lowered = [segment.lower() for segment in path_segments(url)]
    if any(segment in _JUNK_TOKENS for segment in lowered):
        return True
    last = lowered[-1] if lowered else ""
    return "." in last and last.rsplit(".", 1)[-1] in _SKIP_EXTENSIONS


def site_host(url: str) -> str:
    """The host a site crawl keeps to: lower case, without ``www.``."""
    return (urlsplit(url).hostname or "").lower().removeprefix("www.")


def same_site(url: str, hosts: Iterable[str]) -> bool:
    """``url`` is on one of ``hosts`` (`site_host` forms) or on a subdomain of one."""
    host = site_host(url)
    return any(host == h or host.endswith("." + h) for h in hosts)


def _outranks(link: Link, other: Link) -> bool:
    """Which occurrence of a URL decides its kind: an anchor with text other than a page
    number beats a pagination guess (an image link to ``story.php?id=9&page=1`` has no text,
    which `is_pagination` reads as a pager); otherwise the higher score does."""
    if (link.kind is LinkKind.PAGINATION) != (other.kind is LinkKind.PAGINATION):
        return other.kind is LinkKind.PAGINATION and bool(link.text)
    return link.score > other.score


def classify_links(root: etree._Element, page_url: str, hosts: Iterable[str]) -> list[Link]:
    """Same-site links of a parsed HTML page, classified; comments and junk pages left out.

    ``hosts``: the site's host names without ``www.``. Each URL appears once, with the
    highest-scoring occurrence (a headline in the content beats the same link in a sidebar).
    """
    host_list = [h.lower().removeprefix("www.") for h in hosts]
    base = page_url
    for node in root.iter("base"):
        if node.get("href"):
            base = join_url(page_url, node.get("href", "")) or page_url
            break
    found: dict[str, Link] = {}
    for anchor in root.iter("a"):
        href = (anchor.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:", "tel:")):
            continue
        if "nofollow" in (anchor.get("rel") or "").lower():
            continue
        joined = join_url(base, href)
        if joined is None:  # not a URL (an unclosed IPv6 host)
            continue
        url = urldefrag(joined)[0]
        if url == page_url or not same_site(url, host_list) or _skippable(url):
            continue
        region = _region_of(anchor)
        if region is Region.COMMENTS:
            continue
        text = " ".join(text_of(anchor).split())
        if not text:
            text = (anchor.get("title") or "").strip()
        if is_pagination(url, text, anchor.get("rel") or ""):
            link = Link(url, text, region, LinkKind.PAGINATION, 0.0)
        else:
            score = score_article(url, text, region)
            kind = LinkKind.ARTICLE if score >= ARTICLE_THRESHOLD else LinkKind.LISTING
            link = Link(url, text, region, kind, score)
        previous = found.get(url)
        if previous is None or _outranks(link, previous):
            found[url] = link
    return list(found.values())


@dataclass(frozen=True, slots=True)
class UrlRules:
    """The user's URL patterns (regular expressions, searched anywhere in the URL) on top of
    the classifier: ``article_allow`` given, only matching links are articles and every match
    is one; ``article_deny`` matches are never articles; ``listing_allow`` given, only matching
    links are followed as listings (pagination included); ``listing_deny`` matches never are."""

    article_allow: re.Pattern[str] | None = None
    article_deny: re.Pattern[str] | None = None
    listing_allow: re.Pattern[str] | None = None
    listing_deny: re.Pattern[str] | None = None

    def may_be_article(self, url: str) -> bool:
        if self.article_deny is not None and self.article_deny.search(url):
            return False
        return self.article_allow is None or bool(self.article_allow.search(url))

    def may_be_listing(self, url: str) -> bool:
        if self.listing_deny is not None and self.listing_deny.search(url):
            return False
        return self.listing_allow is None or bool(self.listing_allow.search(url))

    def kind_of(self, link: Link) -> LinkKind | None:
        """The link's kind under these rules; None: not to be followed at all."""
        if self.article_allow is not None and self.may_be_article(link.url):
            return LinkKind.ARTICLE
        if link.kind is LinkKind.ARTICLE and self.may_be_article(link.url):
            return LinkKind.ARTICLE
        if self.may_be_listing(link.url):
            return LinkKind.PAGINATION if link.kind is LinkKind.PAGINATION else LinkKind.LISTING
        return None
