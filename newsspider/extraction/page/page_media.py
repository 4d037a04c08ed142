"""Links and media the article's HTML keeps: safe absolute URLs, the best image candidate
(lazy-load attributes, ``srcset``), and video embeds read before cleaning strips them.

Every URL written into `Article.body_html` or `Article.images` passes `safe_url`: made absolute
against the page (or its ``<base href>`` when that is http(s)), with the characters browsers
ignore removed first (tab, newline, leading control characters: ``" java\\tscript:"`` is
``javascript:`` to a browser), and only http(s) kept (``mailto:``/``tel:`` for links). What the
browser would run (``javascript:``, ``vbscript:``, ``data:``) never comes out, whatever its case or
entities (the parser has decoded those already).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from lxml import etree

from newsspider.extraction.common.urls import join_url, split_url

#: Schemes an image or embed may use, and those a link may use.
IMAGE_SCHEMES: Final = frozenset({"http", "https"})
LINK_SCHEMES: Final = frozenset({"http", "https", "mailto", "tel"})
#: Longer URLs are not kept (a data URI in disguise, or garbage): bounded output per attribute.
MAX_URL_CHARS: Final = 4096
# Browsers drop ASCII tab and newlines anywhere in a URL and C0 controls and spaces at its ends
# (WHATWG URL parser); the same, so that the scheme read here is the one a browser would read.
_IGNORED_IN_URL: Final = re.compile(r"[\t\n\r]")
_EDGE_CHARS: Final = "".join(map(chr, range(0x21)))
_CONTROL: Final = re.compile(r"[\x00-\x1f\x7f]")
# An absolute http(s) URL that joining and splitting would return unchanged (as in
# `metadata._absolute`): printable ASCII, no query, fragment, parameters or IPv6 host.
# (What ``re.fullmatch(r"https?://[!-.0-~][!-~]*", value, re.ASCII)`` accepts, tested by
# `_plain_absolute` with string methods: a regular expression cost more than the rest.)
_NOT_PLAIN: Final = tuple("?#;[]\\")
# What a fast path must leave to `urllib.parse` (an IPv6 host, a backslash browsers read as a
# slash).
_TRICKY: Final = tuple("[]\\")
#: Resolved URLs a `Resolver` remembers (a page repeats its links and images): bounded memory.
_CACHED_URLS: Final = 2048


def _has_any(value: str, chars: tuple[str, ...]) -> bool:
    """One `in` test (memchr) per character: ``frozenset.isdisjoint(value)`` hashed a
    one-character string per character of the URL."""
    return any(char in value for char in chars)


def _plain(value: str) -> bool:
    """Printable ASCII without spaces, at least one character (``[!-~]+``): `str.isascii` is a
    flag read, `str.isprintable` one pass in C."""
    return bool(value) and value.isascii() and value.isprintable() and " " not in value


def _plain_absolute(value: str) -> bool:
    """An absolute http(s) URL of printable ASCII whose host part does not start with a slash
    (``https?://[!-.0-~][!-~]*``)."""
    if value.startswith("https://"):
        start = 8
    elif value.startswith("http://"):
        start = 7
    else:
        return False
    return len(value) > start and value[start] != "/" and _plain(value)


def safe_url(value: str | None, base: str | None, schemes: frozenset[str]) -> str | None:
    """``value`` as an absolute URL with one of ``schemes``, or None. Without a ``base``, a
    relative URL stays relative (it cannot carry a scheme, so it is as safe)."""
    if not value:
        return None
    if _plain_absolute(value) and not _has_any(value, _NOT_PLAIN):
        return value  # most URLs of a page: nothing to resolve, no scheme to doubt
    value = _IGNORED_IN_URL.sub("", value).strip(_EDGE_CHARS)
    if not value or len(value) > MAX_URL_CHARS:
        return None
    full = join_url(base, value) if base else value
    if full is None:
        return None
    parts = split_url(full)
    if parts is None:
        return None
    if not parts.scheme:
        # Relative and no base to resolve it: kept only when nothing in it reads as a scheme.
        return full if ":" not in full.split("/", 1)[0] else None
    if parts.scheme.lower() not in schemes:
        return None
    if _CONTROL.search(full) is not None:
        return None
    return full


class Resolver:
    """`safe_url` against one base, with the common cases done by string operations: a page's
    images and links are mostly plain absolute, protocol-relative (``//cdn/x.jpg``) or
    root-relative (``/img/x.jpg``) URLs, which joining by `urllib.parse` cost 10 µs each (a
    product page's 500 images: 5 ms). Anything else goes through `safe_url`, once per value
    and set of schemes (a page repeats its links)."""

    def __init__(self, base: str | None) -> None:
        self.base = base
        self.scheme = ""
        self.origin = ""
        parts = split_url(base) if base else None
        if (
            parts is not None
            and parts.scheme in IMAGE_SCHEMES
            and parts.netloc
            and _plain(parts.netloc)
        ):
            self.scheme = parts.scheme
            self.origin = f"{parts.scheme}://{parts.netloc}"
        self.resolved: dict[tuple[str, frozenset[str]], str | None] = {}
        self.pages: dict[frozenset[str], str | None] = {}

    def page_url(self, schemes: frozenset[str]) -> str | None:
        """`safe_url` of "#": the base without its fragment, if its scheme is one of
        ``schemes``."""
        if schemes in self.pages:
            return self.pages[schemes]
        page = safe_url("#", self.base, schemes)
        self.pages[schemes] = page
        return page

    def resolve(self, value: str | None, schemes: frozenset[str]) -> str | None:
        if not value:
            return None
        if self.origin and _plain(value) and not _has_any(value, _TRICKY):
            if value.startswith(("http://", "https://")):
                return value if len(value) <= MAX_URL_CHARS else None
            if value.startswith("//"):
                return f"{self.scheme}:{value}" if len(value) <= MAX_URL_CHARS else None
            if value.startswith("/") and "/." not in value:
                return self.origin + value if len(value) <= MAX_URL_CHARS else None
            if value.startswith("#"):
                # A place in this page (footnotes, tables of contents: a Wikipedia article
                # links hundreds): ``urljoin`` gives the base without its fragment, then this
                # one, so the base is resolved once (`safe_url` of "#") and the fragment added.
                if len(value) > MAX_URL_CHARS:
                    return None
                page = self.page_url(schemes)
                return page + value if page is not None and len(value) > 1 else page
        key = (value, schemes)
        resolved = self.resolved
        if key in resolved:
            return resolved[key]
        url = safe_url(value, self.base, schemes)
        if len(resolved) < _CACHED_URLS and len(value) <= MAX_URL_CHARS:
            resolved[key] = url
        return url


def page_base(root: etree._Element, url: str | None) -> str | None:
    """What the page's relative URLs resolve against: its first ``<base href>`` when that is an
    http(s) URL (resolved against ``url``), else ``url``."""
    return _read_base(root.find("head/base"), url)


def _read_base(base: etree._Element | None, url: str | None) -> str | None:
    if base is None:
        return url
    resolved = safe_url(base.get("href"), url, IMAGE_SCHEMES)
    return resolved if resolved is not None and "://" in resolved else url


# --- images ---------------------------------------------------------------------------------

#: Attributes lazy-loading scripts move ``srcset`` into, best first.
_SRCSET_ATTRIBUTES: Final = ("data-srcset", "data-lazy-srcset", "srcset")
#: ... and ``src``.
_LAZY_SRC_ATTRIBUTES: Final = (
    "data-src",
    "data-lazy-src",
    "data-original",
    "data-lazy",
    "data-url",
    "data-hi-res-src",
)
#: Levels from an ``<img>`` up to its ``<picture>`` (each ``<source>`` before it nests one).
_PICTURE_LEVELS: Final = 4
#: An image this small in both dimensions is a tracking pixel or a spacer.
TINY_IMAGE: Final = 2
_DESCRIPTOR: Final = re.compile(r"(\d+(?:\.\d+)?)([wx])\b")
# One candidate: separators, the URL (to whitespace), the descriptors (to a comma).
_CANDIDATE: Final = re.compile(r"[\s,]*(\S+)([^,]*)")


def srcset_best(srcset: str) -> str | None:
    """The widest candidate of a ``srcset`` (largest ``w``, else largest ``x``, else the
    first). Hand-written after the HTML standard's parsing rules (no maintained Python library
    parses srcset): a URL runs to whitespace and may hold commas (``c_fill,w_300``); a URL
    ending in a comma has no descriptors; descriptors run to the next comma. Linear: each
    match starts where the last ended."""
    best: str | None = None
    best_score = -1.0
    position, length = 0, len(srcset)
    while position < length:
        match = _CANDIDATE.match(srcset, position)
        if match is None:
            break
        url, descriptor = match.group(1), match.group(2)
        if url.endswith(","):
            url, descriptor = url.rstrip(","), ""
            position = match.end(1)
        else:
            position = match.end()
        if not url or url[:5].lower() == "data:":
            continue
        score = 0.0
        found = _DESCRIPTOR.match(descriptor.strip())
        if found is not None:
            value = float(found.group(1))
            # Widths outrank densities: a set mixing both is rare, and a width is a size.
            score = value + 1e9 if found.group(2) == "w" else value
        if score > best_score:
            best, best_score = url, score
    return best


def image_source(image: etree._Element) -> str | None:
    """The URL an ``<img>`` shows once its scripts ran: the best ``srcset`` candidate of the
    lazy-load or plain attributes, the lazy ``src`` copies, then ``src`` (never a ``data:``
    placeholder); inside a ``<picture>``, its ``<source>`` sets when the image has none."""
    for name in _SRCSET_ATTRIBUTES:
        value = image.get(name)
        if value:
            best = srcset_best(value)
            if best is not None:
                return best
    for name in (*_LAZY_SRC_ATTRIBUTES, "src"):
        value = image.get(name)
        if value and not value.lstrip().lower().startswith("data:"):
            return value
    # libxml2 does not know <source> is empty: the <img> after one is parsed inside it.
    picture = image.getparent()
    for _ in range(_PICTURE_LEVELS):
        if picture is None or picture.tag == "picture":
            break
        picture = picture.getparent()
    if picture is not None and picture.tag == "picture":
        for source in picture.iter("source"):
            for name in _SRCSET_ATTRIBUTES:
                value = source.get(name)
                best = srcset_best(value) if value else None
                if best is not None:
                    return best
    return None


def is_tiny(image: etree._Element) -> bool:
    """Declared 2x2 pixels or smaller: a tracking pixel or spacer, not a picture."""
    width, height = image.get("width"), image.get("height")
    if not width or not height:
        return False
    try:
        return float(width) <= TINY_IMAGE and float(height) <= TINY_IMAGE
    except ValueError:
        return False


# --- video embeds ---------------------------------------------------------------------------

#: Hosts whose iframes are video or audio players: such an embed becomes a link to the player
#: (or, for YouTube, Vimeo and Dailymotion, to the video's own page). Matched as host suffixes.
VIDEO_HOSTS: Final = (
    "youtube.com",
    "youtube-nocookie.com",
    "youtu.be",
    "vimeo.com",
    "dailymotion.com",
    "dai.ly",
    "twitch.tv",
    "facebook.com",
    "brightcove.net",
    "wistia.net",
    "wistia.com",
    "jwplayer.com",
    "jwplatform.com",
    "soundcloud.com",
    "spotify.com",
    "tiktok.com",
    "rumble.com",
    "streamable.com",
    "ted.com",
    "bilibili.com",
    "v.qq.com",
    "ok.ru",
    "vk.com",
    "rutube.ru",
    "kaltura.com",
)
_YOUTUBE_EMBED: Final = re.compile(r"/embed/([A-Za-z0-9_-]{6,})")
_VIMEO_VIDEO: Final = re.compile(r"/video/(\d+)")
_DAILYMOTION_VIDEO: Final = re.compile(r"/embed/video/([A-Za-z0-9]+)")
#: Characters of an iframe's ``title`` kept as the link's text.
MAX_EMBED_TITLE: Final = 200


@dataclass(slots=True)
class Embed:
    """A video player the page embedded, as a link."""

    url: str
    title: str | None


@dataclass(slots=True)
class PageMedia:
    """What cleaning strips but the article's HTML keeps: the page's base URL, and each video
    embed placed after the element before it (``after``) or first in its parent (``first``).
    Keyed by element: the tree outlives this record."""

    base: str | None = None
    after: dict[etree._Element, list[Embed]] = field(default_factory=dict)
    first: dict[etree._Element, list[Embed]] = field(default_factory=dict)
    found: int = 0

    def add_iframe(self, frame: etree._Element) -> None:
        """Keep ``frame`` as a link when it is a known video player (at most `MAX_EMBEDS`)."""
        if self.found >= MAX_EMBEDS:
            return
        embed = _video_embed(frame, self.base)
        if embed is None:
            return
        self.found += 1
        previous = frame.getprevious()
        while previous is not None and (
            not isinstance(previous.tag, str) or previous.tag in _STRIPPED
        ):
            previous = previous.getprevious()
        if previous is not None:
            self.after.setdefault(previous, []).append(embed)
        else:
            parent = frame.getparent()
            if parent is not None:
                self.first.setdefault(parent, []).append(embed)


#: Tags that cleaning strips (`cleaning._NEVER_TEXT`'s commonest): never the anchor of an embed.
_STRIPPED: Final = frozenset(
    {"script", "style", "noscript", "template", "iframe", "object", "embed", "link", "meta"}
)
#: Embeds read per page: bounded work and output on hostile pages.
MAX_EMBEDS: Final = 200


def read_page_media(root: etree._Element, url: str | None) -> PageMedia:
    """The page's base URL; its video embeds are added by `PageMedia.add_iframe`, which
    `cleaning.clean_tree` calls for each iframe before stripping them (its walk over the page
    finds them: no second walk)."""
    return PageMedia(base=page_base(root, url))


def _video_embed(frame: etree._Element, base: str | None) -> Embed | None:
    # A URL's host is part of its own text or, when relative, of the base's: an iframe whose
    # neither names a video host (ads, widgets) is not resolved at all.
    base_named = base is not None and _names_video_host(base)
    for name in ("src", "data-src", "data-lazy-src"):  # "about:blank" until a script runs
        value = frame.get(name)
        if not value or not (base_named or _names_video_host(value)):
            continue
        src = safe_url(value, base, IMAGE_SCHEMES)
        parts = split_url(src) if src else None
        if src is None or parts is None:
            continue
        host = (parts.hostname or "").lower()
        if any(host == known or host.endswith("." + known) for known in VIDEO_HOSTS):
            title = " ".join((frame.get("title") or "").split())[:MAX_EMBED_TITLE] or None
            return Embed(_video_page(host, parts.path, src), title)
    return None


def _names_video_host(text: str) -> bool:
    """Could a URL in ``text`` have a `VIDEO_HOSTS` host? (Substring tests in C; tabs and
    newlines are dropped as `safe_url` drops them.)"""
    lowered = text.lower()
    if "\t" in lowered or "\n" in lowered or "\r" in lowered:
        lowered = _IGNORED_IN_URL.sub("", lowered)
    return any(known in lowered for known in VIDEO_HOSTS)


def _video_page(host: str, path: str, src: str) -> str:
    """The video's own page for the players that have one, else the player's URL."""
    if "youtube" in host:
        found = _YOUTUBE_EMBED.search(path)
        if found is not None and found.group(1) != "videoseries":
            return f"https://www.youtube.com/watch?v={found.group(1)}"
    elif host == "player.vimeo.com":
        found = _VIMEO_VIDEO.search(path)
        if found is not None:
            return f"https://vimeo.com/{found.group(1)}"
    elif host.endswith("dailymotion.com"):
        found = _DAILYMOTION_VIDEO.search(path)
        if found is not None:
            return f"https://www.dailymotion.com/video/{found.group(1)}"
    return src
