"""A fast "is this worth extracting?" verdict for one page, from text statistics alone.

The content filter middleware calls this for every judged response on the event-loop thread,
so it must cost a small fraction of a full extraction: no tree is built. One regex pass splits
the markup into blocks (at block-level tags) and measures, per block, the text inside and
outside links. An article shows one long *run* of text blocks not interrupted by link-dominated
blocks (its paragraphs); a listing shows many short runs between headline links; walls, error
pages and stubs show little text at all. Lengths are in Latin-equivalent characters: a CJK
character counts three, roughly the information of an English word's letters.

No Scrapy imports here: this is pure core, usable on WARC records and local files too.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any, Final

__all__ = ["REASONS", "PageVerdict", "Thresholds", "score_page"]

#: Every reason `score_page` can give (a closed set: stats keys are built from it).
REASONS: Final = ("not_html", "empty", "thin", "listing", "soft_404", "login", "consent")

# Only this much of a page is scored: enough for any real article, bounded cost on huge pages.
_MAX_SCORED_BYTES: Final = 2_000_000
_CJK_EXTRA_WEIGHT: Final = 2  # a CJK character counts 1 + 2 = 3

_HTML_TYPES: Final = frozenset({"text/html", "application/xhtml+xml"})
# Types that servers use for anything: decide from the bytes.
_SNIFF_TYPES: Final = frozenset(
    {"", "text/plain", "application/octet-stream", "application/xml", "text/xml"}
)
_BINARY_MAGIC: Final = (b"%PDF", b"\x89PNG", b"GIF8", b"\xff\xd8\xff", b"PK\x03\x04", b"RIFF")
_HTML_START = re.compile(rb"^\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body)", re.I | re.S)
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.I)

_DROP_ELEMENTS = re.compile(
    r"<(script|style|noscript|template|svg|math|title|textarea|select|iframe|object)\b[^>]*>"
    r".*?</\1\s*>",
    re.I | re.S,
)
_COMMENT = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>", re.S)
_TITLE = re.compile(r"<title\b[^>]*>(.*?)</title\s*>", re.I | re.S)
_H1 = re.compile(r"<h1\b[^>]*>(.*?)</h1\s*>", re.I | re.S)
_ANY_TAG = re.compile(r"<[^>]*>")
_PASSWORD_INPUT = re.compile(r"<input\b[^>]*\btype\s*=\s*[\"']?password", re.I)
# A tag (group 1: "/" for a closing tag, group 2: name) or a run of text (group 3).
_TOKEN = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)[^>]*>|([^<]+)|<")
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]")

# Tags that start or end a block of text (inline tags like <a>, <b>, <span> do not).
_BLOCK_TAG_NAMES: Final = (
    "address article aside blockquote body br dd details dialog div dl dt fieldset figcaption "
    "figure footer form h1 h2 h3 h4 h5 h6 header hr html li main nav ol p pre section summary "
    "table tbody td tfoot th thead tr ul"
)
_BLOCK_TAGS: Final = frozenset(_BLOCK_TAG_NAMES.split())

# Phrases are only consulted for pages already judged not worth keeping, to name the reason:
# a common word can mislabel a drop but never cause one.
_ERROR_TITLE = re.compile(
    r"\b404\b|page not found|not be found|could ?n[o']t (?:be )?f(?:ou|i)nd|can(?:no|')t find"
    r"|(?:page|article|story) (?:does not|doesn't|no longer) exist|no longer available"
    r"|页面不存在|页面未找到|找不到|未找到|无法找到|不存在"
    r"|страниц\w* не найден|не найден\w*|не существует|ошибка 404",
    re.I,
)
_CONSENT_WORDS = re.compile(
    r"cookie|consent|gdpr|privacy (?:settings|preferences|choices)|accept all|reject all"
    r"|隐私|同意|согласи|куки|файл\w* cookie",
    re.I,
)
_OG_TYPE_TAG = re.compile(r"<meta\b[^>]*og:type[^>]*>", re.I)
_OG_ARTICLE = re.compile(r"content\s*=\s*[\"']?article\b", re.I)
_JSON_LD_ARTICLE = re.compile(
    r"\"@type\"\s*:\s*\"(?:News|Blog|Scholarly|Tech|Report|Opinion|Analysis)?"
    r"(?:Article|Posting|NewsArticle)\"",
)
_CONSENT_MIN_HITS: Final = 3
_LOGIN_WORDS = re.compile(
    r"sign[ -]?in|log[ -]?in|subscribe to (?:continue|read)|subscribers only|password"
    r"|登录|登入|注册|会员|войти|вход|авториз|пароль|подпиш",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Knobs of `score_page`; lengths in Latin-equivalent characters."""

    #: Least main-run text to keep a page.
    min_text: float = 250
    #: Below this much visible text in all, the page is "empty".
    empty_text: float = 20
    #: At least this many link-dominated blocks ...
    listing_links: int = 10
    #: ... with the main run under this share of all text ...
    listing_share: float = 0.25
    #: ... and less than this many times the second-longest run makes a "listing". An
    #: article's paragraphs stand out from the teasers and comments around them; a listing's
    #: teasers are all alike.
    listing_dominance: float = 2.0
    #: A main run this long is kept however many links surround it.
    strong_text: float = 1000


@dataclass(frozen=True, slots=True)
class PageVerdict:
    """What `score_page` decided, with the statistics it decided on."""

    #: True when the page is worth a full extraction.
    keep: bool
    #: One of `REASONS` when not kept, else None.
    reason: str | None
    #: The longest run of text blocks not broken by link-dominated blocks.
    score: float = 0.0
    #: All visible text outside links.
    text: float = 0.0
    #: All visible text inside links.
    link_text: float = 0.0
    #: Blocks whose text is mostly link text (menus, headline links).
    link_blocks: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_DEFAULT_THRESHOLDS: Final = Thresholds()


def score_page(
    body: bytes,
    content_type: str | None = None,
    encoding: str | None = None,
    thresholds: Thresholds = _DEFAULT_THRESHOLDS,
) -> PageVerdict:
    """Judge whether `body` looks like a page with article text, cheaply. Never raises.

    content_type: the Content-Type header (parameters allowed), or None when unknown.
    encoding: the encoding the caller resolved; otherwise a ``<meta charset>`` or UTF-8.
    """
    if not body.strip():
        return PageVerdict(False, "empty")
    if not _is_html(body, content_type):
        return PageVerdict(False, "not_html")
    text = _decode(body[:_MAX_SCORED_BYTES], encoding)
    return _judge(text, thresholds)


def _is_html(body: bytes, content_type: str | None) -> bool:
    mime = (content_type or "").split(";", 1)[0].strip().lower()
    head = body[:1024]
    if head.startswith(_BINARY_MAGIC):
        return False
    if mime in _HTML_TYPES:
        # A NUL byte means binary unless the page is UTF-16/32 (which starts with a BOM).
        return b"\x00" not in head or head.startswith((b"\xff\xfe", b"\xfe\xff"))
    if mime in _SNIFF_TYPES:
        return _HTML_START.match(head) is not None
    return False


def _decode(body: bytes, encoding: str | None) -> str:
    if encoding is None:
        match = _META_CHARSET.search(body, 0, 4096)
        encoding = match.group(1).decode("ascii") if match else "utf-8"
    try:
        return body.decode(encoding, errors="replace")
    except LookupError:
        return body.decode("utf-8", errors="replace")


def _weight(chunk: str) -> int:
    """Latin-equivalent length of `chunk`: non-space characters, CJK counted three times."""
    size = len("".join(chunk.split()))
    if size and not chunk.isascii():
        size += _CJK_EXTRA_WEIGHT * len(_CJK.findall(chunk))
    return size


def _strip_tags(fragment: str) -> str:
    return " ".join(_ANY_TAG.sub(" ", fragment).split())


def _declares_article(markup: str) -> bool:
    if _JSON_LD_ARTICLE.search(markup):
        return True
    return any(_OG_ARTICLE.search(tag) for tag in _OG_TYPE_TAG.findall(markup, 0, 50_000))


def _judge(markup: str, limits: Thresholds) -> PageVerdict:
    title_match = _TITLE.search(markup)
    h1_match = _H1.search(markup)
    headline = " ".join(_strip_tags(m.group(1)) for m in (title_match, h1_match) if m is not None)
    has_password = _PASSWORD_INPUT.search(markup) is not None
    declared_article = _declares_article(markup)

    markup = _DROP_ELEMENTS.sub(" ", _COMMENT.sub(" ", markup))
    blocks = _Blocks()
    for match in _TOKEN.finditer(markup):
        chunk = match.group(3)
        if chunk is not None:
            blocks.add_text(chunk)
            continue
        name = match.group(2)
        if name is None:  # a stray "<"
            continue
        name = name.lower()
        closing = match.group(1) == "/"
        if name == "a":
            # Links do not nest: an <a> start tag closes any open link (as in an HTML parser),
            # so one unclosed <a> cannot turn the rest of the page into link text.
            blocks.link_depth = 0 if closing else 1
        elif name in _BLOCK_TAGS:
            blocks.flush()
    blocks.flush()
    blocks.end_run()

    total = blocks.text + blocks.link_text
    verdict = _Verdict(blocks)
    if total < limits.empty_text:
        return verdict(False, "empty")
    if blocks.best_run >= limits.strong_text:
        return verdict(True, None)
    many_links = blocks.link_blocks >= limits.listing_links
    # A page that declares itself an article (og:type, JSON-LD) is not called a listing.
    scattered = (
        many_links
        and blocks.best_run < limits.listing_share * total
        and blocks.best_run < limits.listing_dominance * blocks.second_run
        and not declared_article
    )
    if blocks.best_run >= limits.min_text and not scattered:
        return verdict(True, None)
    # Not kept: say why, as precisely as the cheap evidence allows.
    if _ERROR_TITLE.search(headline):
        return verdict(False, "soft_404")
    if scattered:
        return verdict(False, "listing")
    plain = " ".join(blocks.plain_text)
    if has_password:
        return verdict(False, "login")
    # A wall talks about consent again and again; a page merely carrying a cookie banner once.
    if len(_CONSENT_WORDS.findall(plain)) >= _CONSENT_MIN_HITS:
        return verdict(False, "consent")
    if _LOGIN_WORDS.search(plain) or _LOGIN_WORDS.search(headline):
        return verdict(False, "login")
    if many_links and blocks.link_text >= blocks.text and not declared_article:
        return verdict(False, "listing")
    return verdict(False, "thin")


class _Blocks:
    """Accumulates per-block text and link text, and the runs of text blocks."""

    __slots__ = (
        "best_run",
        "block_link",
        "block_text",
        "link_blocks",
        "link_depth",
        "link_text",
        "plain_text",
        "run",
        "second_run",
        "text",
    )

    def __init__(self) -> None:
        self.link_depth = 0
        self.block_text = 0
        self.block_link = 0
        self.text = 0
        self.link_text = 0
        self.link_blocks = 0
        self.run = 0
        self.best_run = 0
        self.second_run = 0
        # Non-link text of short pages, for the wall/consent phrases; bounded by `_PLAIN_CAP`.
        self.plain_text: list[str] = []

    def add_text(self, chunk: str) -> None:
        size = _weight(chunk)
        if not size:
            return
        if self.link_depth:
            self.block_link += size
        else:
            self.block_text += size
            if self.text < _PLAIN_CAP:
                self.plain_text.append(chunk)

    def flush(self) -> None:
        if not (self.block_text or self.block_link):
            return
        self.text += self.block_text
        self.link_text += self.block_link
        if self.block_link > self.block_text:
            self.link_blocks += 1
            self.end_run()
        else:
            self.run += self.block_text
        self.block_text = self.block_link = 0

    def end_run(self) -> None:
        if self.run > self.best_run:
            self.best_run, self.second_run = self.run, self.best_run
        elif self.run > self.second_run:
            self.second_run = self.run
        self.run = 0


_PLAIN_CAP: Final = 5000


class _Verdict:
    """Builds `PageVerdict`s carrying the statistics in `blocks`."""

    __slots__ = ("_blocks",)

    def __init__(self, blocks: _Blocks) -> None:
        self._blocks = blocks

    def __call__(self, keep: bool, reason: str | None) -> PageVerdict:
        b = self._blocks
        return PageVerdict(keep, reason, b.best_run, b.text, b.link_text, b.link_blocks)
